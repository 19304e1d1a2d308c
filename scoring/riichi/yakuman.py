"""The EMA yakuman table (seed §4.2.5; the lost page rebuilt in riichi.md §3.5 from the glossary).

Yakuman are not cumulative (§4.2: "Gli yakuman non sono invece cumulabili"): a hand with any of
them pays one yakuman, and only Big four winds pays two (Introduzione, 2012 revision: double
yakuman "del tutto aboliti ad eccezione di quello per le Grandi benedizioni della casa"). When a
yakuman applies, ordinary yaku, dora and fu are ignored (Esempio 4).
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.riichi.context import RiichiContext
from mahjong_camera_scorer.scoring.riichi.patterns import (
    DRAGON_KINDS,
    TERMINALS,
    WIND_KINDS,
    Pattern,
    Shape,
    cut,
    flag,
    one_suit_at_most,
    terminals_and_honours_only,
    three_sets_of_a_kind,
)
from mahjong_camera_scorer.scoring.tiles import GREEN

YAKUMAN_FAN = 13
#: 2, 3, 4, 6, 8 of bamboo and the Green dragon
GREEN_KINDS = frozenset({19, 20, 21, 23, 25, GREEN})
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _chuuren(s: Shape, c: RiichiContext) -> bool:
    """fn 21: only the final shape matters: 1112345678999 of one suit plus any tile of it."""
    if len(c.suits) != 1 or c.has_honours:
        return False
    base = 9 * next(iter(c.suits))
    return all(c.counts[base + i] >= need for i, need in enumerate(NINE_GATES))


def _winds(s: Shape) -> int:
    n = 0
    for f in s.pungs:
        if f in WIND_KINDS:
            n += 1
    return n


def _shou_suushii(s: Shape, c: RiichiContext) -> bool:
    return s.pair in WIND_KINDS and _winds(s) == 3


def _tsuu_iisou(s: Shape, c: RiichiContext) -> bool:
    if s.form == "seven_pairs" and c.options["all_honours_seven_pairs"] == "no":
        return False
    return not c.suits


def _ryuu_iisou(s: Shape, c: RiichiContext) -> bool:
    if c.options["all_green_dragon"] == "required" and GREEN not in c.kinds:
        return False
    return c.kinds <= GREEN_KINDS


YAKUMAN: tuple[Pattern, ...] = (
    Pattern(
        "Kokushi musou",
        13,
        None,
        lambda s, c: s.form == "thirteen_orphans",
        "4.2.5 Tredici lanterne",
        screen=terminals_and_honours_only,
    ),
    Pattern(
        "Chuuren pooto",
        13,
        None,
        _chuuren,
        "4.2.5 Casa piena di nove pezzi, fn 21",
        per_hand=True,
        screen=one_suit_at_most,
    ),
    Pattern("Tenho", 13, None, flag("heavenly"), "4.2.5 Benedizione del cielo", per_hand=True),
    Pattern("Chiho", 13, None, flag("earthly"), "4.2.5 Benedizione della terra", per_hand=True),
    Pattern("Renho", 13, None, flag("human"), "4.2.5 Benedizione dell'uomo; glossary RENHO", per_hand=True),
    # a pung completed by a discard is open (Esempio 5); a pair-wait ron keeps all four concealed
    Pattern(
        "Suu ankou",
        13,
        None,
        lambda s, c: s.concealed_pungs == 4,
        "glossary SUU ANKOU; Esempi 4-5",
        screen=three_sets_of_a_kind,
    ),
    Pattern(
        "Dai sangen",
        13,
        13,
        lambda s, c: DRAGON_KINDS.issubset(s.pungs),
        "glossary DAI SANGEN; 3.3.6",
        screen=three_sets_of_a_kind,
    ),
    Pattern("Shou suushii", 13, 13, _shou_suushii, "glossary SHOU SUUSHII", screen=three_sets_of_a_kind),
    Pattern(
        "Dai suushii",
        26,
        26,
        lambda s, c: _winds(s) == 4,
        "glossary DAI SUUSHII; Introduzione (the only double yakuman)",
        screen=three_sets_of_a_kind,
    ),
    Pattern("Tsuu iisou", 13, 13, _tsuu_iisou, "glossary TSUU IISOU", screen=terminals_and_honours_only),
    Pattern(
        "Chinroutou",
        13,
        13,
        lambda s, c: c.kinds <= TERMINALS,
        "glossary CHINROUTO",
        per_hand=True,
        screen=terminals_and_honours_only,
    ),
    Pattern("Ryuu iisou", 13, 13, _ryuu_iisou, "glossary RYUU IISOU", per_hand=True, screen=one_suit_at_most),
    Pattern(
        "Suu kantsu",
        13,
        13,
        lambda s, c: s.kongs == 4,
        "glossary SUU KAN TSU; 3.3.9",
        screen=three_sets_of_a_kind,
    ),
)


#: the table cut for a concealed (True) and an open (False) hand
YAKUMAN_TABLE = cut(YAKUMAN)


def yakuman_multiple(elements: dict[str, int], double: bool = True) -> int:
    """How many yakuman the hand pays: they are not cumulative, only Dai suushii is double
    (``double`` False: option double_yakuman=none pays it single too)."""
    if not elements:
        return 0
    return max(elements.values()) // YAKUMAN_FAN if double else 1
