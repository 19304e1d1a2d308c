"""Random MCR winning hands of every form, and their translation for PyMahjongGB.

Used by the differential test (``test_mcr_differential.py``) and by ``scripts/bench_scoring.py``.
Hands are legal as tiles go (at most four of a kind, melds and flags consistent with the way the
hand was won) but not necessarily worth 8 points: the minimum is one of the things compared.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.hand import Hand, Meld
from mahjong_camera_scorer.scoring.mcr.forms import KNITTED_FAMILIES
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, Tile

WINDS = "ESWN"
HONOURS = tuple(range(FIRST_HONOUR, N_KINDS))
TERMINALS_AND_HONOURS = (0, 8, 9, 17, 18, 26, *HONOURS)


class _Pool:
    """Tile counts of the hand being built; refuses a fifth copy."""

    def __init__(self) -> None:
        self.counts = [0] * N_KINDS

    def take(self, kinds: list[int]) -> bool:
        need: dict[int, int] = {}
        for k in kinds:
            need[k] = need.get(k, 0) + 1
        if any(self.counts[k] + n > 4 for k, n in need.items()):
            return False
        for k, n in need.items():
            self.counts[k] += n
        return True


def _kinds_for(style: str, suit: int) -> list[int]:
    if style == "flush":
        return list(range(suit * 9, suit * 9 + 9))
    if style == "half":
        return [*range(suit * 9, suit * 9 + 9), *HONOURS]
    if style == "outside":
        return list(TERMINALS_AND_HONOURS)
    if style == "simples":
        return [k for k in range(FIRST_HONOUR) if k % 9 not in (0, 8)]
    return list(range(N_KINDS))


def _random_set(rng: random.Random, kinds: list[int], pung_bias: float) -> tuple[str, int]:
    k = rng.choice(kinds)
    if k < FIRST_HONOUR and rng.random() > pung_bias:
        base = k - k % 9
        return "chow", min(max(k - rng.randint(0, 2), base), base + 6)
    return "pung", k


def _standard(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    style = rng.choice(("any", "any", "flush", "half", "outside", "simples"))
    suit = rng.randrange(3)
    kinds = _kinds_for(style, suit)
    pung_bias = rng.choice((0.1, 0.4, 0.8))
    pool = _Pool()
    concealed: list[int] = []
    melds: list[Meld] = []
    meld_rate = rng.choice((0.0, 0.0, 0.3, 0.6, 1.0))
    for _ in range(4):
        for _try in range(30):
            kind, first = _random_set(rng, kinds, pung_bias)
            tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
            kong = kind == "pung" and rng.random() < 0.15
            if kong:
                tiles.append(first)
            if pool.take(tiles):
                break
        else:
            return None
        if kong:
            melds.append(Meld("kong", tuple(Tile(k) for k in tiles), open=rng.random() < 0.5))
        elif rng.random() < meld_rate:
            melds.append(Meld(kind, tuple(Tile(k) for k in tiles), open=True))
        else:
            concealed.extend(tiles)
    for _try in range(30):
        k = rng.choice(kinds)
        if pool.take([k, k]):
            concealed.extend([k, k])
            return concealed, melds
    return None


def _seven_pairs(rng: random.Random) -> list[int]:
    suit = rng.randrange(3)
    if rng.random() < 0.2:  # seven shifted pairs
        start = suit * 9 + rng.randint(0, 2)
        return [k for k in range(start, start + 7) for _ in range(2)]
    kinds = _kinds_for(rng.choice(("any", "flush", "half", "outside")), suit)
    out: list[int] = []
    counts = [0] * N_KINDS
    while len(out) < 14:
        k = rng.choice(kinds)
        if counts[k] <= 2 and (counts[k] == 0 or rng.random() < 0.3):
            counts[k] += 2
            out.extend([k, k])
    return out


def _thirteen_orphans(rng: random.Random) -> list[int]:
    return [*TERMINALS_AND_HONOURS, rng.choice(TERMINALS_AND_HONOURS)]


def _knitted_straight(rng: random.Random) -> tuple[list[int], list[Meld]] | None:
    family = rng.choice(KNITTED_FAMILIES)
    pool = _Pool()
    pool.take(list(family))
    kind, first = _random_set(rng, list(range(N_KINDS)), 0.5)
    tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * 3
    pair = rng.randrange(N_KINDS)
    if not pool.take(tiles) or not pool.take([pair, pair]):
        return None
    if rng.random() < 0.3:
        return [*family, pair, pair], [Meld(kind, tuple(Tile(k) for k in tiles), open=True)]
    return [*family, *tiles, pair, pair], []


def _honours_knitted(rng: random.Random) -> list[int]:
    n_honours = rng.choice((5, 6, 7))
    family = rng.choice(KNITTED_FAMILIES)
    return sorted(rng.sample(HONOURS, n_honours) + rng.sample(family, 14 - n_honours))


def _nine_gates(rng: random.Random) -> list[int]:
    base = rng.randrange(3) * 9
    return [base, base, *range(base, base + 9), base + 8, base + 8, base + rng.randrange(9)]


FORMS: dict[str, Callable[[random.Random], Any]] = {
    "standard": _standard,
    "seven_pairs": _seven_pairs,
    "thirteen_orphans": _thirteen_orphans,
    "knitted_straight": _knitted_straight,
    "honours_knitted": _honours_knitted,
    "nine_gates": _nine_gates,
}
#: How often each form is drawn: standard hands are most of real play, but every form is covered.
WEIGHTS = {
    "standard": 10,
    "seven_pairs": 2,
    "thirteen_orphans": 1,
    "knitted_straight": 2,
    "honours_knitted": 1,
    "nine_gates": 1,
}


def _finish(rng: random.Random, concealed: list[int], melds: list[Meld]) -> Hand:
    win = rng.choice(concealed)
    self_drawn = rng.random() < 0.4
    total = sum(1 for k in concealed if k == win) + sum(1 for m in melds for t in m.tiles if t.index == win)
    flags: set[str] = set()
    roll = rng.random()
    if roll < 0.06:
        flags.add("last_tile" if self_drawn else "last_discard")
    elif roll < 0.10 and self_drawn and any(m.kind == "kong" for m in melds):
        flags.add("kong_replacement")
    elif roll < 0.13 and not self_drawn and total == 1:
        flags.add("robbing_kong")
    elif roll < 0.2 and sum(1 for k in concealed if k == win) == 1:
        flags.add("last_of_kind")
    n_bonus = rng.choice((0, 0, 0, 1, 2))
    return Hand(
        concealed=tuple(Tile(k) for k in concealed),
        melds=tuple(melds),
        bonus_tiles=tuple(Tile(34 + i) for i in rng.sample(range(8), n_bonus)),
        context=HandContext(
            winning_tile=Tile(win),
            win_by="self_draw" if self_drawn else "discard",
            seat_wind=rng.choice(WINDS),
            round_wind=rng.choice(WINDS),
            flags=frozenset(flags),
        ),
    )


def generate_labelled(n: int, seed: int = 0) -> list[tuple[str, Hand]]:
    """``n`` random winning hands with the form each was drawn as (deterministic for a seed)."""
    rng = random.Random(seed)
    names = list(WEIGHTS)
    weights = [WEIGHTS[k] for k in names]
    out: list[tuple[str, Hand]] = []
    while len(out) < n:
        form = rng.choices(names, weights)[0]
        made = FORMS[form](rng)
        if made is None:
            continue
        concealed, melds = made if isinstance(made, tuple) else (made, [])
        out.append((form, _finish(rng, concealed, melds)))
    return out


def generate_hands(n: int, seed: int = 0) -> list[Hand]:
    """``n`` random winning hands, every form represented (deterministic for a seed)."""
    return [hand for _, hand in generate_labelled(n, seed)]


# -- PyMahjongGB ------------------------------------------------------------------------------------
def gb_code(kind: int) -> str:
    """PyMahjongGB's tile code: W characters, B circles, T bamboo, F winds, J1 Red J2 Green J3 White."""
    if kind < FIRST_HONOUR:
        return "WBT"[kind // 9] + str(kind % 9 + 1)
    if kind < FIRST_HONOUR + 4:
        return f"F{kind - FIRST_HONOUR + 1}"
    return {31: "J3", 32: "J2", 33: "J1"}[kind]


def gb_arguments(hand: Hand) -> tuple:
    """The positional arguments of ``MahjongGB.MahjongFanCalculator`` for a hand."""
    packs = []
    for m in hand.melds:
        if m.kind == "chow":
            packs.append(("CHI", gb_code(m.first + 1), 1))
        elif m.kind == "pung":
            packs.append(("PENG", gb_code(m.first), 1))
        else:
            packs.append(("GANG", gb_code(m.first), 1 if m.open else 0))
    win = hand.context.winning_tile.index
    standing = [t.index for t in hand.concealed]
    standing.remove(win)
    in_open = sum(1 for m in hand.melds if m.open for t in m.tiles if t.index == win)
    return (
        tuple(packs),
        tuple(gb_code(k) for k in standing),
        gb_code(win),
        len(hand.bonus_tiles),
        hand.context.self_drawn,
        bool(hand.context.flags & {"last_of_kind", "robbing_kong"}) or in_open == 3,
        bool(hand.context.flags & {"kong_replacement", "robbing_kong"}),
        bool(hand.context.flags & {"last_tile", "last_discard"}),
        WINDS.index(hand.context.seat_wind),
        WINDS.index(hand.context.round_wind),
    )
