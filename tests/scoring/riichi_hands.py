"""Seeded random EMA riichi winning hands, and their translation for PyPI ``mahjong``.

Used by the differential test (tests/scoring/test_riichi_differential.py) and the benchmark
(scripts/bench_scoring.py). Hands are physically possible in an EMA set (four copies per kind, one
red five per suit, a kong of fives holds the red one) and cover closed and open hands, every wait,
open/added and concealed kongs, seven pairs, thirteen orphans, flush/outside/honour-heavy shapes,
dora and kan dora, ura dora, red fives, riichi/ippatsu/double riichi, the last-tile, kong and
first-turn flags, counters and riichi sticks, dealer and non-dealer, ron and tsumo.
"""

from __future__ import annotations

import random
from typing import Any

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.hand import Hand, Meld
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, TERMINALS_AND_HONOURS, Tile

FIVES = (4, 13, 22)
WINDS = "ESWN"

# tile-kind pools that steer the generator towards the yaku that need them
_SUITED = [k for k in range(FIRST_HONOUR)]
_STYLES: dict[str, float] = {
    "any": 0.40,
    "simples": 0.14,
    "half_flush": 0.14,
    "flush": 0.07,
    "outside": 0.08,
    "honours": 0.07,
    "terminals": 0.03,
    "green": 0.02,
    "one_suit_chows": 0.05,
}


def _pool(style: str, rng: random.Random) -> tuple[list[int], list[int]]:
    """(kinds allowed for pungs and the pair, first kinds allowed for chows)."""
    suit = rng.randrange(3) * 9
    honours = list(range(FIRST_HONOUR, N_KINDS))
    if style == "simples":
        kinds = [k for k in _SUITED if k % 9 not in (0, 8)]
        return kinds, [k for k in _SUITED if 1 <= k % 9 <= 5]
    if style in ("half_flush", "flush", "one_suit_chows"):
        kinds = list(range(suit, suit + 9)) + (honours if style == "half_flush" else [])
        return kinds, list(range(suit, suit + 7))
    if style == "outside":
        return list(TERMINALS_AND_HONOURS), [k for k in _SUITED if k % 9 in (0, 6)]
    if style == "honours":
        return honours + rng.sample(_SUITED, 6), rng.sample([k for k in _SUITED if k % 9 <= 6], 3)
    if style == "terminals":
        return list(TERMINALS_AND_HONOURS), []
    if style == "green":
        return [19, 20, 21, 23, 25, 32], [19]
    return list(range(N_KINDS)), [k for k in _SUITED if k % 9 <= 6]


def _take(left: list[int], kinds: list[int]) -> bool:
    if any(left[k] <= 0 for k in kinds) or any(kinds.count(k) > left[k] for k in set(kinds)):
        return False
    for k in kinds:
        left[k] -= 1
    return True


def _standard_groups(rng: random.Random, style: str) -> list[tuple[str, int]] | None:
    kinds, chow_firsts = _pool(style, rng)
    left = [4] * N_KINDS
    pair = rng.choice(kinds)
    if not _take(left, [pair, pair]):
        return None
    groups: list[tuple[str, int]] = [("pair", pair)]
    chow_share = 0.9 if style == "one_suit_chows" else 0.55
    for _ in range(4):
        for _attempt in range(20):
            if chow_firsts and rng.random() < chow_share:
                f = rng.choice(chow_firsts)
                if _take(left, [f, f + 1, f + 2]):
                    groups.append(("chow", f))
                    break
            else:
                k = rng.choice(kinds)
                if _take(left, [k] * 3):
                    groups.append(("pung", k))
                    break
        else:
            return None
    return groups


def _red_fives(tiles: list[list[int]], rng: random.Random) -> set[tuple[int, int]]:
    """Which (group, position) holds each suit's red five: a kong of fives always holds it."""
    out: set[tuple[int, int]] = set()
    for five in FIVES:
        places = [(gi, pi) for gi, g in enumerate(tiles) for pi, k in enumerate(g) if k == five]
        if places and (len(places) == 4 or rng.random() < 0.45):
            out.add(rng.choice(places))
    return out


def random_hand(rng: random.Random) -> Hand:
    """One random winning hand (it may still lack a yaku: that is part of what is tested)."""
    while True:
        hand = _attempt(rng)
        if hand is not None:
            return hand


def _attempt(rng: random.Random) -> Hand | None:
    roll = rng.random()
    melds_spec: list[tuple[str, int, bool]] = []  # (kind, first, open)
    if roll < 0.08:
        form = "seven_pairs"
        kinds, _ = _pool(rng.choices(list(_STYLES), list(_STYLES.values()))[0], rng)
        if len(set(kinds)) < 7:
            return None
        concealed_groups = [("pair", k) for k in rng.sample(sorted(set(kinds)), 7)]
    elif roll < 0.095:
        form = "thirteen_orphans"
        concealed_groups = [("single", k) for k in TERMINALS_AND_HONOURS]
        concealed_groups.append(("single", rng.choice(TERMINALS_AND_HONOURS)))
    else:
        form = "standard"
        groups = _standard_groups(rng, rng.choices(list(_STYLES), list(_STYLES.values()))[0])
        if groups is None:
            return None
        n_declared = rng.choices([0, 1, 2, 3, 4], [0.45, 0.25, 0.15, 0.1, 0.05])[0]
        sets = groups[1:]
        rng.shuffle(sets)
        concealed_groups = [groups[0]]
        used = {k: 0 for k in range(N_KINDS)}
        for kind, first in groups:
            for k in _kinds_of(kind, first):
                used[k] += 1
        for i, (kind, first) in enumerate(sets):
            declared = i < n_declared
            can_kong = kind == "pung" and used[first] == 3
            if declared:
                if can_kong and rng.random() < 0.3:
                    used[first] += 1
                    melds_spec.append(("kong", first, rng.random() < 0.7))
                else:
                    melds_spec.append((kind, first, True))
            elif can_kong and rng.random() < 0.12:
                used[first] += 1
                melds_spec.append(("kong", first, False))
            else:
                concealed_groups.append((kind, first))
    return _finish(rng, form, concealed_groups, melds_spec)


def _kinds_of(kind: str, first: int) -> list[int]:
    if kind == "chow":
        return [first, first + 1, first + 2]
    return [first] * {"pung": 3, "kong": 4, "pair": 2, "single": 1}[kind]


def _finish(
    rng: random.Random,
    form: str,
    concealed_groups: list[tuple[str, int]],
    melds_spec: list[tuple[str, int, bool]],
) -> Hand | None:
    meld_kinds = [_kinds_of(kind, first) for kind, first, _ in melds_spec]
    concealed_kinds = [k for kind, first in concealed_groups for k in _kinds_of(kind, first)]
    layout = [*meld_kinds, concealed_kinds]
    reds = _red_fives(layout, rng)

    def tiles_of(gi: int) -> list[Tile]:
        return [Tile(k, (gi, pi) in reds) for pi, k in enumerate(layout[gi])]

    melds = tuple(Meld(kind, tuple(tiles_of(i)), is_open) for i, (kind, _, is_open) in enumerate(melds_spec))
    concealed = tiles_of(len(layout) - 1)
    winning = rng.choice(concealed)
    closed = all(not m.open for m in melds)
    self_drawn = rng.random() < 0.45
    kongs = sum(m.kind == "kong" for m in melds)
    flags = _flags(rng, closed, self_drawn, kongs, winning, concealed, melds)
    seat = rng.choice(WINDS)
    round_wind = rng.choice("EESSW")
    n_ind = 1 + kongs
    hand_kinds = [t.index for t in concealed] + [t.index for m in melds for t in m.tiles]

    def indicator() -> Tile:
        if rng.random() < 0.35:  # aim at the hand: indicator = kind just before a held kind
            k = rng.choice(hand_kinds)
            return Tile(k - 1) if k % 9 and k < FIRST_HONOUR else Tile(rng.randrange(N_KINDS))
        return Tile(rng.randrange(N_KINDS))

    dora = tuple(indicator() for _ in range(n_ind))
    ura = tuple(indicator() for _ in range(n_ind)) if "riichi" in flags else ()
    honba = rng.choices([0, 1, 2, 3, 5, 6], [0.5, 0.2, 0.1, 0.08, 0.07, 0.05])[0]
    return Hand(
        concealed=tuple(concealed),
        melds=melds,
        context=HandContext(
            winning_tile=winning,
            win_by="self_draw" if self_drawn else "discard",
            seat_wind=seat,
            round_wind=round_wind,
            flags=frozenset(flags),
            dora_indicators=dora,
            ura_dora_indicators=ura,
            honba=honba,
            riichi_sticks=rng.choice([0, 0, 0, 1, 2]),
        ),
    )


def _flags(
    rng: random.Random,
    closed: bool,
    self_drawn: bool,
    kongs: int,
    winning: Tile,
    concealed: list[Tile],
    melds: tuple[Meld, ...],
) -> set[str]:
    flags: set[str] = set()
    if closed and rng.random() < 0.45:
        flags.add("riichi")
        if rng.random() < 0.1:
            flags.add("double_riichi")
        if rng.random() < 0.2:
            flags.add("ippatsu")
    if self_drawn:
        if kongs and rng.random() < 0.3 and "ippatsu" not in flags:
            flags.add("kong_replacement")
        elif rng.random() < 0.05:
            flags.add("last_tile")
    else:
        held = sum(t.index == winning.index for t in concealed) + sum(
            t.index == winning.index for m in melds for t in m.tiles
        )
        if held == 1 and rng.random() < 0.06:
            flags.add("robbing_kong")
        elif rng.random() < 0.05:
            flags.add("last_discard")
    if closed and not melds and not flags and rng.random() < 0.02:
        flags.add("first_turn")  # resolved by the seat below
    return flags


def generate(n: int, seed: int = 2012) -> list[Hand]:
    """``n`` random winning hands, the same for the same seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hand = random_hand(rng)
        if "first_turn" in hand.context.flags:
            ctx = hand.context
            name = ("heavenly" if ctx.is_dealer else "earthly") if ctx.self_drawn else "human"
            if name == "human" and hand.context.is_dealer:
                hand = hand.with_context(seat_wind="S")
            hand = hand.with_context(flags=(hand.context.flags - {"first_turn"}) | {name})
        out.append(hand)
    return out


# ------------------------------------------------------------------------------------------------
# PyPI mahjong (the peer implementation)
# ------------------------------------------------------------------------------------------------
def _ids(tiles: list[Tile], next_id: dict[int, int]) -> list[int]:
    """136-format ids: a red five is copy 0 of its kind (mahjong's FIVE_RED_*), plain tiles the rest."""
    out = []
    for t in tiles:
        if t.red:
            out.append(4 * t.index)
        else:
            start = 1 if t.index in FIVES else 0
            n = next_id.get(t.index, start)
            next_id[t.index] = n + 1
            out.append(4 * t.index + n)
    return out


def peer_rules() -> Any:
    """mahjong's OptionalRules set as close to EMA 2012 as it goes (see the differential test)."""
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    return OptionalRules(
        has_open_tanyao=False,
        has_aka_dora=True,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        kiriage=False,
        fu_for_open_pinfu=True,
        fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=True,
        has_daichisei=False,
    )


def peer_args(hand: Hand, rules: Any) -> dict[str, Any]:
    """Keyword arguments for ``HandCalculator.estimate_hand_value``."""
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld as PeerMeld

    next_id: dict[int, int] = {}
    melds = []
    tiles: list[int] = []
    for m in hand.melds:
        ids = _ids(list(m.tiles), next_id)
        kind = {"chow": PeerMeld.CHI, "pung": PeerMeld.PON, "kong": PeerMeld.KAN}[m.kind]
        melds.append(PeerMeld(meld_type=kind, tiles=ids, opened=m.open))
        tiles.extend(ids)
    concealed = _ids(list(hand.concealed), next_id)
    tiles.extend(concealed)
    win = next(i for i, t in zip(concealed, hand.concealed, strict=True) if t == hand.context.winning_tile)
    f = hand.context.flags
    config = HandConfig(
        is_tsumo=hand.context.self_drawn,
        is_riichi="riichi" in f and "double_riichi" not in f,
        is_daburu_riichi="double_riichi" in f,
        is_ippatsu="ippatsu" in f,
        is_rinshan="kong_replacement" in f,
        is_chankan="robbing_kong" in f,
        is_haitei="last_tile" in f,
        is_houtei="last_discard" in f,
        is_tenhou="heavenly" in f,
        is_chiihou="earthly" in f,
        is_renhou="human" in f,
        player_wind=FIRST_HONOUR + WINDS.index(hand.context.seat_wind),
        round_wind=FIRST_HONOUR + WINDS.index(hand.context.round_wind),
        tsumi_number=hand.context.honba,
        kyoutaku_number=hand.context.riichi_sticks,
        options=rules,
    )
    ind = [4 * t.index + 3 for t in hand.context.dora_indicators]
    ura = [4 * t.index + 3 for t in hand.context.ura_dora_indicators]
    return {
        "tiles": tiles,
        "win_tile": win,
        "melds": melds,
        "dora_indicators": ind,
        "ura_dora_indicators": ura,
        "config": config,
    }


def peer_points(response: Any, hand: Hand) -> dict[str, int] | None:
    """mahjong's cost in the vectors' ``points`` shape (counters included), None on an error."""
    if response.error:
        return None
    c = response.cost
    if not hand.context.self_drawn:
        return {"ron": c["main"] + c["main_bonus"]}
    if hand.context.is_dealer:
        return {"tsumo_others_pay": c["main"] + c["main_bonus"]}
    return {
        "tsumo_dealer_pays": c["main"] + c["main_bonus"],
        "tsumo_others_pay": c["additional"] + c["additional_bonus"],
    }
