"""The ordinary EMA yaku as a table (seed §4.2.1–4.2.4, riichi.md §3.1–3.4).

Each row is a :class:`Pattern`: key, closed fan, open fan (None = closed only, §3.7.1), predicate,
seed section. The exclusive pairs of §3.7.3 are written into the predicates themselves (Chanta
needs an honour, Junchan none; Honitsu needs honours, Chinitsu none; Iipeikou yields to
Ryanpeikou), so every row that fires is added: "Tutti gli yaku sono cumulabili" (§4.2).
The always-added companions of §3.7.4 (Shousangen + Yakuhai dragon, Honroutou + Toitoi or
Chiitoitsu, double wind = seat + prevalent) follow from the rows being independent.
"""

from __future__ import annotations

from collections.abc import Sequence

from mahjong_camera_scorer.scoring.riichi.context import RiichiContext
from mahjong_camera_scorer.scoring.riichi.patterns import (
    DRAGON_KINDS,
    TERMINAL_OR_HONOUR,
    TERMINALS,
    Pattern,
    Shape,
    cut,
    flag,
    honour_set_of_a_kind,
    no_four_five_six,
    one_suit_at_most,
    terminals_and_honours_only,
    three_sets_of_a_kind,
)


def _haitei(s: Shape, c: RiichiContext) -> bool:
    # A11: on the replacement tile that became the last playable tile, both count by default
    if "kong_replacement" in c.flags and c.options["haitei_rinshan"] == "rinshan_only":
        return False
    return "last_tile" in c.flags


def value_pair(s: Shape, c: RiichiContext) -> bool:
    """A pair of dragons, of the seat wind or of the prevalent wind (§4.2.1 Pinfu)."""
    return s.pair is not None and (s.pair in DRAGON_KINDS or s.pair == c.seat or s.pair == c.round)


def _pinfu(s: Shape, c: RiichiContext) -> bool:
    """Four chows, a valueless pair, and the winning tile completes a two-sided chow (§4.2.1)."""
    return len(s.chows) == 4 and s.wait == "two_sided" and not value_pair(s, c)


def _identical_chow_pairs(s: Shape) -> int:
    """How many pairs of identical chows (fn 20: four identical chows are two pairs)."""
    if len(s.chows) < 2:
        return 0
    chows = sorted(s.chows)
    pairs = i = 0
    while i < len(chows) - 1:
        if chows[i] == chows[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs


def _same_in_three_suits(firsts: Sequence[int], last: int) -> bool:
    """Some set of the characters (first tile up to ``last``) recurs in circles and bamboos."""
    if len(firsts) < 3:
        return False
    return any(n <= last and n + 9 in firsts and n + 18 in firsts for n in firsts)


def _sanshoku_doujun(s: Shape, c: RiichiContext) -> bool:
    return len(s.chows) >= 3 and _same_in_three_suits(s.chows, 6)


def _itsu(s: Shape, c: RiichiContext) -> bool:
    firsts = s.chows
    if len(firsts) < 3:
        return False
    return any(b % 9 == 0 and b + 3 in firsts and b + 6 in firsts for b in firsts)


def _yakuhai_dragon(s: Shape, c: RiichiContext) -> int:
    n = 0
    for f in s.pungs:
        if f in DRAGON_KINDS:
            n += 1
    return n


def _sanshoku_doukou(s: Shape, c: RiichiContext) -> bool:
    return _same_in_three_suits(s.pungs, 8)


def _honroutou(s: Shape, c: RiichiContext) -> bool:
    return c.kinds <= TERMINAL_OR_HONOUR and c.has_honours and bool(c.kinds & TERMINALS)


def _shousangen(s: Shape, c: RiichiContext) -> bool:
    return s.pair in DRAGON_KINDS and _yakuhai_dragon(s, c) == 2


YAKU: tuple[Pattern, ...] = (
    # 4.2.1 one fan
    Pattern("Riichi", 1, None, flag("riichi"), "4.2.1 Riichi; 3.3.12", per_hand=True),
    Pattern("Ippatsu", 1, None, flag("ippatsu"), "4.2.1 Riichi (IPPATSU)", per_hand=True),
    Pattern("Daburu riichi", 1, None, flag("double_riichi"), "4.2.1 Riichi (DABURU RIICHI)", per_hand=True),
    Pattern("Menzen tsumo", 1, None, lambda s, c: c.self_drawn, "4.2.1 Tutto pescato", per_hand=True),
    Pattern(
        "Tanyao",
        1,
        None,
        lambda s, c: c.kinds.isdisjoint(TERMINAL_OR_HONOUR),
        "4.2.1 Senza teste; Introduzione point 1 (closed only)",
        per_hand=True,
    ),
    Pattern("Pinfu", 1, None, _pinfu, "4.2.1 Pinfu"),
    Pattern(
        "Iipeikou",
        1,
        None,
        lambda s, c: len(s.chows) >= 2 and _identical_chow_pairs(s) == 1,
        "4.2.1 Due scale uguali di colore; 4.2.3 (not with Ryanpeikou)",
    ),
    Pattern("Sanshoku doujun", 2, 1, _sanshoku_doujun, "4.2.1 Tre scale uguali nei tre semi"),
    Pattern("Itsu", 2, 1, _itsu, "4.2.1 Serpente di colore"),
    Pattern(
        "Yakuhai dragon",
        1,
        1,
        _yakuhai_dragon,
        "4.2.1 Tris di drago (1 per dragon set)",
        screen=honour_set_of_a_kind,
    ),
    Pattern(
        "Yakuhai seat wind",
        1,
        1,
        lambda s, c: c.seat in s.pungs,
        "4.2.1 Tris del proprio vento",
        screen=honour_set_of_a_kind,
    ),
    Pattern(
        "Yakuhai round wind",
        1,
        1,
        lambda s, c: c.round in s.pungs,
        "4.2.1 Tris del vento di giro",
        screen=honour_set_of_a_kind,
    ),
    Pattern(
        "Chanta",
        2,
        1,
        lambda s, c: s.outside and bool(s.chows) and c.has_honours,
        "4.2.1 Teste ovunque",
        screen=no_four_five_six,
    ),
    Pattern("Rinshan kaihou", 1, 1, flag("kong_replacement"), "4.2.1 Rimpiazzo del poker", per_hand=True),
    Pattern("Chankan", 1, 1, flag("robbing_kong"), "4.2.1 Pezzo rubato", per_hand=True),
    Pattern("Haitei", 1, 1, _haitei, "4.2.1 Ultima pedina", per_hand=True),
    Pattern("Houtei", 1, 1, flag("last_discard"), "4.2.1 Ultimo scarto", per_hand=True),
    # 4.2.2 two fan
    Pattern("Chiitoitsu", 2, None, lambda s, c: s.form == "seven_pairs", "4.2.2 Tutte coppie"),
    Pattern("Sanshoku doukou", 2, 2, _sanshoku_doukou, "4.2.2 Tre tris uguali", screen=three_sets_of_a_kind),
    Pattern(
        "San ankou",
        2,
        2,
        lambda s, c: s.concealed_pungs >= 3,
        "4.2.2 Tre tris/poker coperti",
        screen=three_sets_of_a_kind,
    ),
    Pattern("San kantsu", 2, 2, lambda s, c: s.kongs == 3, "4.2.2 Tre poker", screen=three_sets_of_a_kind),
    Pattern("Toitoi", 2, 2, lambda s, c: len(s.pungs) == 4, "4.2.2 Tutti tris", screen=three_sets_of_a_kind),
    Pattern(
        "Honitsu",
        3,
        2,
        lambda s, c: len(c.suits) == 1 and c.has_honours,
        "4.2.2 Mano pura",
        per_hand=True,
        screen=one_suit_at_most,
    ),
    Pattern("Shousangen", 2, 2, _shousangen, "4.2.2 Piccolo raduno dei dragoni", screen=honour_set_of_a_kind),
    Pattern(
        "Honroutou", 2, 2, _honroutou, "4.2.2 Tutte teste", per_hand=True, screen=terminals_and_honours_only
    ),
    Pattern(
        "Junchan",
        3,
        2,
        lambda s, c: s.outside and bool(s.chows) and not c.has_honours,
        "4.2.2 Estremi ovunque",
        screen=no_four_five_six,
    ),
    # 4.2.3 three fan
    Pattern(
        "Ryanpeikou",
        3,
        None,
        lambda s, c: len(s.chows) == 4 and _identical_chow_pairs(s) == 2,
        "4.2.3 Doppie scale uguali di colore, fn 20",
    ),
    # 4.2.4 five fan (Nagashi mangan is not a winning hand: scoring.riichi.scorer handles the claim)
    Pattern(
        "Chinitsu",
        6,
        5,
        lambda s, c: len(c.suits) == 1 and not c.has_honours,
        "4.2.4 Mano purissima",
        per_hand=True,
        screen=one_suit_at_most,
    ),
)


#: the table cut for a concealed (True) and an open (False) hand
YAKU_TABLE = cut(YAKU)
