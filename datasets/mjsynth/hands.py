"""Legal complete winning hands: the ground truth each synthetic photo shows.

A small standalone generator (the scoring package is separate and not imported): four sets and a pair,
sometimes seven pairs, rarely thirteen orphans; at most four copies of a kind and at most one red five per
suit. The structured form matches the rule specs (``hand`` mpsz string of the concealed part including the
winning tile, ``melds``, ``winning_tile``, ``win_by``, winds, ``bonus_tiles``).

The classes are ``SynthHand`` and ``SynthMeld``, not ``Hand``/``Meld``: ``scoring.hand`` owns those names
(one meaning per name), and these are only the generator's ground truth, never scored here.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

KINDS: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)
)
TERMINALS_HONOURS: tuple[str, ...] = ("1m", "9m", "1p", "9p", "1s", "9s", *(f"{n}z" for n in range(1, 8)))
#: The winds 1z-4z as letters, in play order: seat and round winds in the manifests, western corner indices.
WIND_LETTERS = ("E", "S", "W", "N")


def kind_of(code: str) -> str:
    """The tile kind of a code: a red five ``0m`` is the kind ``5m``."""
    return "5" + code[1] if code[0] == "0" else code


def sort_key(code: str) -> tuple[int, float]:
    k = kind_of(code)
    return ("mpsz".index(k[1]), int(k[0]) + (0.5 if code[0] == "0" else 0))


def to_mpsz(codes: list[str]) -> str:
    """``["1m","2m","0p","5p"]`` -> ``"12m05p"`` (red five written 0, sorted within each suit)."""
    out = []
    for suit in "mpsz":
        nums = [c[0] for c in sorted((c for c in codes if c[1] == suit), key=sort_key)]
        if nums:
            out.append("".join(nums) + suit)
    return "".join(out)


class MeldRecord(TypedDict):
    """A declared set as the manifests write it (:meth:`SynthMeld.to_json`)."""

    type: str  # chow | pung | kong
    tiles: str  # mpsz
    open: bool


class HandRecord(TypedDict):
    """A hand as the manifests write it (:meth:`SynthHand.to_json`; the rule specs' fields)."""

    hand: str  # mpsz: the concealed part, the winning tile included
    melds: list[MeldRecord]
    winning_tile: str
    win_by: str
    seat_wind: str
    round_wind: str
    bonus_tiles: list[str]
    shape: str
    seat: NotRequired[int]  # the hand's seat at a table (a scene's manifest)


@dataclass
class SynthMeld:
    type: str  # chow | pung | kong
    tiles: list[str]  # codes in display order
    open: bool
    #: index in ``tiles`` of the tile claimed from another player (shown sideways); None for concealed
    claimed: int | None = None

    def to_json(self) -> MeldRecord:
        return {"type": self.type, "tiles": to_mpsz(self.tiles), "open": self.open}


@dataclass
class SynthHand:
    """A complete winning hand. ``concealed`` includes the winning tile (its index is ``winning_index``)."""

    concealed: list[str]
    melds: list[SynthMeld]
    winning_tile: str
    win_by: str  # self_draw | discard
    seat_wind: str
    round_wind: str
    bonus_tiles: list[str] = field(default_factory=list)
    shape: str = "standard"  # standard | seven_pairs | thirteen_orphans

    def all_tiles(self) -> list[str]:
        return self.concealed + [t for m in self.melds for t in m.tiles] + self.bonus_tiles

    def to_json(self) -> HandRecord:
        return {
            "hand": to_mpsz(self.concealed),
            "melds": [m.to_json() for m in self.melds],
            "winning_tile": self.winning_tile,
            "win_by": self.win_by,
            "seat_wind": self.seat_wind,
            "round_wind": self.round_wind,
            "bonus_tiles": list(self.bonus_tiles),
            "shape": self.shape,
        }


class TilePool:
    """Copies left of each kind (4 each) across the whole table, and whether a red five was used per suit."""

    def __init__(self) -> None:
        self.left = Counter({k: 4 for k in KINDS})
        self.red_used = {"m": False, "p": False, "s": False}

    def can(self, kinds: list[str]) -> bool:
        need = Counter(kinds)
        return all(self.left[k] >= n for k, n in need.items())

    def take(self, kinds: list[str]) -> None:
        for k in kinds:
            self.left[k] -= 1
            assert self.left[k] >= 0


#: Of the sets drawn, how many are chows (up to this share) and pungs (up to this one); the rest kongs.
CHOW_UPTO, PUNG_UPTO = 0.55, 0.93


def _random_set(
    rng: random.Random, pool: TilePool, allow_kong: bool, p_kong: float | None = None
) -> tuple[str, list[str]] | None:
    """One set from the pool: a chow, a pung or a kong (``p_kong`` of them when given, else 7 %)."""
    pung_upto = PUNG_UPTO if p_kong is None else 1.0 - p_kong
    chow_upto = CHOW_UPTO if p_kong is None else CHOW_UPTO * pung_upto / PUNG_UPTO
    for _ in range(30):
        r = rng.random()
        if r < chow_upto:
            suit = rng.choice("mps")
            n = rng.randint(1, 7)
            kinds = [f"{n + i}{suit}" for i in range(3)]
            typ = "chow"
        elif r < pung_upto or not allow_kong:
            k = rng.choice(KINDS)
            kinds, typ = [k] * 3, "pung"
        else:
            k = rng.choice(KINDS)
            kinds, typ = [k] * 4, "kong"
        if pool.can(kinds):
            pool.take(kinds)
            return typ, kinds
    return None


def _redden(rng: random.Random, pool: TilePool, tiles: list[str], p_red: float) -> list[str]:
    """Turn at most one five per suit into a red five (each with probability ``p_red``)."""
    out = list(tiles)
    for i, t in enumerate(out):
        if t[0] == "5" and t[1] in "mps" and not pool.red_used[t[1]] and rng.random() < p_red:
            out[i] = "0" + t[1]
            pool.red_used[t[1]] = True
    return out


def random_hand(
    rng: random.Random,
    pool: TilePool | None = None,
    p_seven_pairs: float = 0.08,
    p_orphans: float = 0.015,
    p_red: float = 0.35,
    p_bonus: float = 0.3,
    max_melds: int = 4,
    seat_wind: str | None = None,
    round_wind: str | None = None,
    require: str | None = None,
    p_kong: float | None = None,
    meld_counts: tuple[int, ...] | None = None,
) -> SynthHand:
    """Draw one complete winning hand; ``pool`` is shared between the hands of one table.

    ``require`` (a kind, e.g. ``"5z"``) redraws until the hand holds that kind, when the pool allows
    (a scene that must show white dragons; after 60 draws any legal hand is taken). ``p_kong`` is
    the share of sets drawn as kongs (every kong is declared: open, or concealed with two backs),
    ``meld_counts`` the numbers of declared sets to choose from (default mostly none); both default
    to the draws every dataset so far was made with."""
    pool = pool or TilePool()
    for attempt in range(200):
        snapshot = (pool.left.copy(), dict(pool.red_used))
        hand = _try_hand(rng, pool, p_seven_pairs, p_orphans, p_red, max_melds, p_kong, meld_counts)
        if hand is not None and (
            require is None or attempt >= 60 or require in {kind_of(t) for t in hand.all_tiles()}
        ):
            break
        pool.left, pool.red_used = snapshot
    else:  # pragma: no cover - the pool would have to be nearly empty
        raise RuntimeError("could not draw a legal hand from the remaining tiles")
    hand.seat_wind = seat_wind or rng.choice(WIND_LETTERS)
    hand.round_wind = round_wind or rng.choice(WIND_LETTERS[:2] if rng.random() < 0.8 else WIND_LETTERS)
    if rng.random() < p_bonus:
        hand.bonus_tiles = sorted(rng.sample([f"{n}f" for n in range(1, 9)], rng.choice([1, 1, 1, 2, 2, 3])))
    return hand


def _try_hand(
    rng: random.Random,
    pool: TilePool,
    p_seven_pairs: float,
    p_orphans: float,
    p_red: float,
    max_melds: int,
    p_kong: float | None = None,
    meld_counts: tuple[int, ...] | None = None,
) -> SynthHand | None:
    r = rng.random()
    win_by = "self_draw" if rng.random() < 0.4 else "discard"
    if r < p_orphans:
        extra = rng.choice(TERMINALS_HONOURS)
        kinds = [*TERMINALS_HONOURS, extra]
        if not pool.can(kinds):
            return None
        pool.take(kinds)
        tiles = sorted(kinds, key=sort_key)
        win = rng.choice(tiles)
        return SynthHand(tiles, [], win, win_by, "E", "E", shape="thirteen_orphans")
    if r < p_orphans + p_seven_pairs:
        kinds = rng.sample(KINDS, 7)
        pairs = [k for k in kinds for _ in range(2)]
        if not pool.can(pairs):
            return None
        pool.take(pairs)
        tiles = sorted(_redden(rng, pool, pairs, p_red), key=sort_key)
        win = rng.choice(tiles)
        return SynthHand(tiles, [], win, win_by, "E", "E", shape="seven_pairs")
    # four sets and a pair
    n_melds = min(max_melds, rng.choice(meld_counts or (0, 0, 0, 1, 1, 2, 2, 3, 4)))
    concealed: list[str] = []
    melds: list[SynthMeld] = []
    for i in range(4):
        got = _random_set(rng, pool, allow_kong=True, p_kong=p_kong)
        if got is None:
            return None
        typ, kinds = got
        kinds = _redden(rng, pool, kinds, p_red)
        if i < n_melds or typ == "kong":
            is_open = not (typ == "kong" and rng.random() < 0.35)
            claimed = None
            if is_open:
                claimed = rng.randrange(len(kinds)) if typ != "chow" else rng.randrange(3)
            melds.append(SynthMeld(typ, kinds, is_open, claimed))
        else:
            concealed += kinds
    pair = rng.choice(KINDS)
    if not pool.can([pair, pair]):
        return None
    pool.take([pair, pair])
    concealed += _redden(rng, pool, [pair, pair], p_red)
    concealed.sort(key=sort_key)
    win = rng.choice(concealed)
    if all(not m.open for m in melds) is False and win_by == "self_draw" and rng.random() < 0.5:
        win_by = "discard"
    return SynthHand(concealed, melds, win, win_by, "E", "E")


def new_pool() -> TilePool:
    return TilePool()


def validate(hand: SynthHand) -> list[str]:
    """Problems with a hand (empty when legal): tile counts, red fives, and the winning shape."""
    errs = []
    tiles = hand.concealed + [t for m in hand.melds for t in m.tiles]
    kinds = Counter(kind_of(t) for t in tiles)
    if any(n > 4 for n in kinds.values()):
        errs.append("more than 4 copies of a kind")
    reds = Counter(t[1] for t in tiles if t[0] == "0")
    if any(n > 1 for n in reds.values()):
        errs.append("more than one red five in a suit")
    if hand.winning_tile not in hand.concealed:
        errs.append("winning tile not in the concealed part")
    n_kongs = sum(m.type == "kong" for m in hand.melds)
    if len(tiles) != 14 + n_kongs:
        errs.append(f"{len(tiles)} tiles with {n_kongs} kongs")
    if hand.shape == "standard" and not _is_sets_and_pair(Counter(kind_of(t) for t in hand.concealed)):
        errs.append("concealed part is not sets + pair")
    for m in hand.melds:
        ks = sorted((kind_of(t) for t in m.tiles), key=sort_key)
        if m.type == "chow":
            ok = ks[0][1] in "mps" and [int(k[0]) for k in ks] == list(
                range(int(ks[0][0]), int(ks[0][0]) + 3)
            )
            ok = ok and len({k[1] for k in ks}) == 1
        else:
            ok = len(set(ks)) == 1 and len(ks) == (3 if m.type == "pung" else 4)
        if not ok:
            errs.append(f"bad meld {m.type} {m.tiles}")
    for b in hand.bonus_tiles:
        if b[1] != "f":
            errs.append(f"bad bonus tile {b}")
    return errs


def _is_sets_and_pair(c: Counter[str]) -> bool:
    for k in list(c):
        if c[k] >= 2:
            c2 = c.copy()
            c2[k] -= 2
            if _is_sets(c2):
                return True
    return False


def _is_sets(c: Counter[str]) -> bool:
    c = +c
    if not c:
        return True
    k = min(c, key=sort_key)
    if c[k] >= 3:
        c2 = c.copy()
        c2[k] -= 3
        if _is_sets(c2):
            return True
    if k[1] in "mps" and int(k[0]) <= 7:
        a, b = f"{int(k[0]) + 1}{k[1]}", f"{int(k[0]) + 2}{k[1]}"
        if c[a] and c[b]:
            c2 = c.copy()
            for x in (k, a, b):
                c2[x] -= 1
            if _is_sets(c2):
                return True
    return False
