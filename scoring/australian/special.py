"""The 39 special hands of the seed (L124-322) as one table a referee can check line by line.

Columns, as in the spec's §3.6: the seed's number and name; the pattern (:mod:`.patterns`); which
sets may have been claimed before the win ("last only": none; "none": none, and the winning tile
self-drawn too); the winner's value (a named value of §2.7, "all chips", or a number of doubles);
the fishing value under the old rules (doubles on the hand points, whose zero "vale un bonus di 10
punti", L316) and under the new rules (a fraction of the limit: 400/200/500 of 1,000, L87-89; None
where the hand is valued in doubles and keeps the old calculation). A hand whose value depends on
how its sets were made has one row per variant (Windy Ones, Red Lantern, Dragonfly, Jade, Ruby).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from mahjong_camera_scorer.scoring.australian import patterns as pt
from mahjong_camera_scorer.scoring.australian.context import ALL_CHIPS, AustralianContext
from mahjong_camera_scorer.scoring.australian.parts import CHOW, PUNG
from mahjong_camera_scorer.scoring.australian.shape import Grouping, Shape

ANY = frozenset({PUNG, CHOW})
PUNGS = frozenset({PUNG})
LAST_ONLY: frozenset[str] = frozenset()

FOUR, TWO, FIVE = Fraction(2, 5), Fraction(1, 5), Fraction(1, 2)  # 400, 200, 500 of a 1,000 limit


def _always(grouping: Grouping, ctx: AustralianContext) -> bool:
    return True


def pungs_concealed(grouping: Grouping, ctx: AustralianContext) -> bool:
    """'se i tris/poker sono coperti' (L274, L295, L305): no pung exposed, including one completed
    by the winning discard (§3.6 note)."""
    return not any(p.is_set and p.exposed for p in grouping)


def some_pung_exposed(grouping: Grouping, ctx: AustralianContext) -> bool:
    return not pungs_concealed(grouping, ctx)


def hitler_pung(grouping: Grouping, ctx: AustralianContext) -> bool:
    """A-24: the winning discard may complete the concealed dragon pung (switch)."""
    return ctx.on("hitler_pung_may_be_completed_by_discard") or pungs_concealed(grouping, ctx)


@dataclass(frozen=True)
class SpecialHand:
    number: int
    name: str
    seed: str
    pattern: pt.Pattern
    winner: str | int
    fishing_old: int | str | None
    fishing_new: Fraction | None
    may_declare: frozenset[str] = ANY
    self_drawn_only: bool = False
    ten: str | None = None
    condition: Callable[[Grouping, AustralianContext], bool] = _always
    legal_ordinary: bool = False
    fishing_name: str = ""
    fishing_label: str = ""
    goulash_chows: int = 0
    judged_on_all_tiles: bool = False
    fishing_pungs_at_exposed_value: bool = False

    @property
    def doubles_valued(self) -> bool:
        return isinstance(self.winner, int)

    @property
    def fished_as(self) -> str:
        return self.fishing_name or self.name

    @property
    def label(self) -> str:
        return f"Fishing: {self.fishing_label or self.fished_as}"

    def claims_ok(self, shape: Shape, ctx: AustralianContext, self_drawn: bool) -> bool:
        if self.self_drawn_only and (not self_drawn or "robbing_kong" in ctx.flags):
            return False
        allowed = self.may_declare_for(ctx)
        return all(m.kind in allowed or (m.kind == "kong" and PUNG in allowed) for m in shape.melds)

    def may_declare_for(self, ctx: AustralianContext) -> frozenset[str]:
        """A-19: Gates of Heaven, Run Pung and Pair and Windy Chows may be required concealed."""
        if self.judged_on_all_tiles and ctx.on("gates_and_runs_require_concealed"):
            return LAST_ONLY
        return self.may_declare


R = pt.reading
H = SpecialHand
SPECIAL_HANDS: tuple[SpecialHand, ...] = (
    H(1, "Pure Hand", "L127", R(pt.pure_hand), 3, 3, None, legal_ordinary=True),
    H(2, "All Kongs", "L132", R(pt.all_kongs), "limit", 3, FOUR, legal_ordinary=True),
    H(
        3,
        "Buried Treasure",
        "L137, [2] L318-319",
        R(pt.buried_treasure),
        3,
        3,
        None,
        may_declare=LAST_ONLY,
        self_drawn_only=True,
    ),
    H(
        4,
        "Mixed Concealed Pungs",
        "L141, [3] L320",
        R(pt.mixed_concealed_pungs),
        "limit",
        3,
        FOUR,
        may_declare=LAST_ONLY,
        self_drawn_only=True,
        fishing_pungs_at_exposed_value=True,
    ),
    H(5, "All Honours", "L146, [1] L315", R(pt.all_honours), 3, 3, None),
    H(6, "Wriggling Snake", "L151", pt.wriggling_snake, "limit", 3, FOUR, LAST_ONLY, ten="printed"),
    H(7, "Knitting", "L156", pt.knitting, "half limit", 2, TWO, LAST_ONLY, ten="printed"),
    H(8, "Triple Knitting", "L161", pt.triple_knitting, "half limit", 2, TWO, LAST_ONLY, ten="printed"),
    H(9, "All Pairs", "L166", pt.pairs_pattern(pt.all_pairs), "half limit", 2, TWO, LAST_ONLY, ten="printed"),
    H(
        10,
        "Heavenly Twins",
        "L171, [1] L317",
        pt.pairs_pattern(pt.heavenly_twins),
        "limit",
        3,
        FOUR,
        LAST_ONLY,
        ten="printed",
    ),
    H(
        11,
        "All Pair Honours",
        "L176",
        pt.pairs_pattern(pt.all_pair_honours),
        "limit",
        3,
        FOUR,
        LAST_ONLY,
        ten="printed",
    ),
    H(
        12,
        "Thirteen Unique Wonders",
        "L181",
        pt.thirteen_unique_wonders,
        "double limit",
        3,
        FIVE,
        LAST_ONLY,
        ten="printed",
    ),
    H(13, "Imperial Jade", "L186, [4] L321", R(pt.imperial_jade), "double limit", 3, FIVE, goulash_chows=1),
    H(
        13,
        "Imperial Jade (seven pairs)",
        "L187-188",
        pt.pairs_pattern(pt.jade_pairs),
        "limit",
        3,
        FOUR,
        LAST_ONLY,
        ten="printed",
        fishing_label="Imperial Jade (pairs)",
    ),
    H(14, "Royal Ruby", "L191", R(pt.royal_ruby), "double limit", 3, FIVE),
    H(
        14,
        "Royal Ruby (seven pairs)",
        "L192-193",
        pt.pairs_pattern(pt.ruby_pairs),
        "limit",
        3,
        FIVE,
        LAST_ONLY,
        fishing_label="Royal Ruby",
    ),
    H(15, "Windy Dragons", "L196", pt.windy_dragons, "limit", 3, FOUR, PUNGS),
    H(16, "Gates of Heaven", "L201", pt.gates_of_heaven, "limit", 3, FOUR, ANY, judged_on_all_tiles=True),
    H(
        17,
        "Run, Pung and Pair",
        "L206",
        pt.run_pung_and_pair,
        "limit",
        3,
        FOUR,
        ANY,
        ten="if_zero",
        judged_on_all_tiles=True,
    ),
    H(18, "Heads and Tails", "L211", R(pt.heads_and_tails), "limit", 3, FOUR),
    H(19, "All Winds and Dragons", "L216", R(pt.winds_and_dragons), "limit", 3, FOUR),
    H(
        20,
        "Three Great Scholars",
        "L221-223",
        R(pt.three_great_scholars),
        "limit",
        "limit",
        Fraction(1),
        legal_ordinary=True,
    ),
    H(
        21,
        "Four Blessings Hovering over the Door",
        "L226-228",
        R(pt.four_blessings),
        "limit",
        "limit",
        Fraction(1),
        legal_ordinary=True,
    ),
    H(26, "Ruby Jade", "L243", R(pt.ruby_jade), "limit", 3, FOUR),
    H(27, "Gertie's Garter", "L248", pt.gertie_s_garter, "limit", 3, FOUR, LAST_ONLY, ten="printed"),
    H(28, "Greta's Garden", "L253", pt.greta_s_garden, "limit", 3, FOUR, LAST_ONLY),
    H(
        29,
        "Windy Chows",
        "L258",
        pt.windy_chows,
        "half limit",
        2,
        TWO,
        frozenset({CHOW}),
        ten="printed",
        judged_on_all_tiles=True,
    ),
    H(
        30,
        "Hitler's Mistake",
        "L263",
        pt.hitler_s_mistake,
        "limit",
        3,
        FOUR,
        LAST_ONLY,
        condition=hitler_pung,
    ),
    H(
        31,
        "Sparrows' Sanctuary",
        "L268",
        pt.pairs_pattern(pt.sparrows_sanctuary, quads=True),
        "limit",
        3,
        FOUR,
        LAST_ONLY,
        ten="printed",
    ),
    H(32, "Windy Ones", "L273", pt.windy_terminals(1), "limit", 3, FOUR, PUNGS, condition=pungs_concealed),
    H(
        32,
        "Windy Ones (exposed pung)",
        "L274",
        pt.windy_terminals(1),
        "half limit",
        3,
        FOUR,
        PUNGS,
        condition=some_pung_exposed,
        fishing_name="Windy Ones",
    ),
    H(33, "Windy Nines", "L278", pt.windy_terminals(9), "limit", 3, FOUR, PUNGS, condition=pungs_concealed),
    H(
        33,
        "Windy Nines (exposed pung)",
        "L280",
        pt.windy_terminals(9),
        "half limit",
        3,
        FOUR,
        PUNGS,
        condition=some_pung_exposed,
        fishing_name="Windy Nines",
    ),
    H(34, "Lily of the Valley", "L284", R(pt.lily_of_the_valley), "double limit", 3, FIVE),
    H(35, "Red Lily", "L289", R(pt.red_lily), "double limit", 3, FIVE),
    H(36, "Red Lantern", "L294", pt.red_lantern, "double limit", 3, FIVE, PUNGS, condition=pungs_concealed),
    H(
        36,
        "Red Lantern (exposed pung)",
        "L295",
        pt.red_lantern,
        "limit",
        3,
        FIVE,
        PUNGS,
        condition=some_pung_exposed,
        fishing_name="Red Lantern",
    ),
    H(37, "Chinese Odds", "L299", R(pt.chinese_odds), "limit", 3, FOUR),
    H(38, "Dragonfly", "L304", pt.dragonfly, "limit", 3, FOUR, PUNGS, condition=pungs_concealed),
    H(
        38,
        "Dragonfly (exposed pung)",
        "L305",
        pt.dragonfly,
        "half limit",
        3,
        FOUR,
        PUNGS,
        condition=some_pung_exposed,
        fishing_name="Dragonfly",
    ),
    H(39, "Heavenly Paradise", "L309, [5] L322", R(pt.heavenly_paradise), ALL_CHIPS, "limit", Fraction(1)),
)


@dataclass(frozen=True)
class SituationalHand:
    """A hand defined by how it was won, on 'any hand' (A-15: a legal winning hand)."""

    number: int
    name: str
    seed: str
    winner: str
    when: Callable[[AustralianContext, int], bool]


def _heavens_grace(ctx: AustralianContext, win: int) -> bool:
    return ctx.seat == 27 and "heavenly" in ctx.flags


def _earths_grace(ctx: AustralianContext, win: int) -> bool:
    return ctx.seat != 27 and "earthly" in ctx.flags and not ctx.self_drawn


def _plum_blossom(ctx: AustralianContext, win: int) -> bool:
    """L32: 'il 5 di Cerchi è detto fiore di Pruno'; drawn as the loose tile (L237)."""
    return win == 13 and ctx.self_drawn and bool({"kong_replacement", "bonus_replacement"} & ctx.flags)


def _moon(ctx: AustralianContext, win: int) -> bool:
    """L32: 'l'1 di Cerchi è detto la luna'; drawn as the last tile of the wall (L240)."""
    return win == 9 and ctx.self_drawn and "last_tile" in ctx.flags


SITUATIONAL_HANDS: tuple[SituationalHand, ...] = (
    SituationalHand(22, "Heaven's Grace", "L231", "double limit", _heavens_grace),
    SituationalHand(23, "Earth's Grace", "L234", "limit", _earths_grace),
    SituationalHand(24, "Gathering the Plum Blossom from the Roof", "L237", "limit", _plum_blossom),
    SituationalHand(25, "Catching the Moon from the Bottom of the Sea", "L240", "limit", _moon),
)
