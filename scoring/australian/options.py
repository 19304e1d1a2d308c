"""Every ambiguity of the Australian spec (§5, A-01 … A-35) as a named option with its default.

The seed (``003_…txt``) describes only how the Australian game differs from the site's classic
European rules, and its pictures are lost; where neither the seed nor the classic rules settle a
point the spec proposes a resolution "that should be a configuration switch". Each switch is here,
under the spec's own name where it gives one.
"""

from __future__ import annotations

from collections.abc import Mapping

from mahjong_camera_scorer.scoring.options import Option, option_table, resolve

TF = ("true", "false")

OPTIONS: dict[str, Option] = option_table(
    [
        Option(
            "limit",
            "1000",
            None,
            "L81: 'Il limite di punti è fissato (salvo diverso accordo dei giocatori) a 1.000 punti'. "
            "Half limit, double limit and the new-rules fishing values scale with it (A-29).",
        ),
        Option(
            "fishing_rules",
            "new",
            ("old", "new"),
            "L87-90: old rules (points + doubles) or new simplified rules (flat 400/200/500) for a "
            "player fishing for a special hand; 'the players must agree before the game' (§3.7).",
        ),
        Option(
            "bouquet_includes_own_double",
            "true",
            TF,
            "A-04: the 3 doubles of a bouquet include the own flower/season double of that set "
            "(footnote [2] of L117 is missing from the seed); false gives 3 + 1.",
        ),
        Option(
            "one_suit_double_requires_honour",
            "true",
            TF,
            "A-03: 'tutti pezzi di uno stesso seme più Onori' needs at least one honour; with false a "
            "one-suit hand without honours also gets it (and the Pure Hand replaces it).",
        ),
        Option(
            "clean_call_double_on_special_hands",
            "false",
            TF,
            "A-02: the clean-call double (D7) goes to ordinary hands only (L317 scores a fishing "
            "Heavenly Twins at 3 doubles + own season only).",
        ),
        Option(
            "fishing_ten_rule",
            "replace_zero",
            ("replace_zero", "add_where_printed"),
            "A-07: L316 'il punteggio di mano = 0 vale un bonus di 10 punti': 10 replaces zero hand "
            "points, or 10 is added wherever the seed prints '10 punti più'.",
        ),
        Option(
            "fishing_flat_paid_by",
            "losers_difference",
            ("losers_difference", "all_others_flat"),
            "A-08: a new-rules fishing value (400/200/500) is the player's score, settled by "
            "differences among the losers; or a flat sum every other player pays.",
        ),
        Option(
            "double_wind_pair_points",
            "4",
            ("4", "2"),
            "A-09: a pair of the wind that is both seat and round wind scores 2 + 2.",
        ),
        Option(
            "only_tile_counts_dead_waits",
            "false",
            TF,
            "A-10: with false, a kind whose four copies the player holds is not an alternative wait "
            "for 'chiudere con l'unico pezzo possibile'.",
        ),
        Option(
            "loser_pairs",
            "all",
            ("all", "one"),
            "A-11: a fishing player or loser scores every scoring pair, or only the best one.",
        ),
        Option(
            "all_pungs_for_non_winners",
            "shape",
            ("shape", "never"),
            "A-12: 'tutti tris' for a non-winner: no chow and 4 pungs + a single or 3 pungs + 2 pairs.",
        ),
        Option(
            "own_bonus_doubles",
            "per_tile",
            ("per_tile", "once"),
            "A-13: 'Stagione o Fiore del giocatore': one double per own bonus tile, or one in all.",
        ),
        Option(
            "all_pair_honours_allow_mixed_terminals",
            "true",
            TF,
            "A-05: All Pair Honours may hold terminals of several suits.",
        ),
        Option(
            "rounding_half",
            "up",
            ("up", "down", "even"),
            "A-06: L326 rounds to the nearest 100 (240→200, 260→300); exact halves are not covered.",
        ),
        Option(
            "round_stage",
            "score",
            ("score", "payment"),
            "A-06: round each player's score before the payments, or round each payment.",
        ),
        Option(
            "grace_hands_require_legal_shape",
            "true",
            TF,
            "A-15: Heaven's/Earth's Grace, Plum Blossom and Moon ('mano qualsiasi') must be legal "
            "winning hands; with false any complete shape will do.",
        ),
        Option(
            "goulash_stake",
            "100",
            None,
            "A-16 / L64: each player's stake in the Goulash pot ('100 punti oppure 200 punti'), used "
            "when the table data does not give goulash_stake_each.",
        ),
        Option(
            "goulash_pot",
            "in_addition",
            ("in_addition", "instead"),
            "A-16 / §2.8: the Goulash pot goes to the winner in addition to the normal settlement (the seed "
            "does not say otherwise), or instead of it.",
        ),
        Option(
            "false_mahjong_east_double",
            "true",
            TF,
            "A-30 / L330: the false mah jong penalty (half the limit to each opponent) is doubled for "
            "East as every payment involving East (seed 003: 'Est riceve e paga sempre il doppio'); "
            "false is the spec's A-30 reading (not doubled).",
        ),
        Option(
            "goulash_dead_pot",
            "return",
            ("return", "carry"),
            "A-16: a Goulash that also ends dead returns the stakes, or carries the pot on.",
        ),
        Option(
            "goulash_concealed_exception",
            "buried_treasure",
            ("buried_treasure", "concealed_one_chow"),
            "A-17: the Goulash 'mano interamente nascosta' that may hold chows: the Buried Treasure "
            "family (no exposed set, self-drawn), or any hand with no exposed set and one chow.",
        ),
        Option(
            "jokers_keep_colour",
            "true",
            TF,
            "A-18: a Goulash joker (2 of bamboo) counts as the tile it represents everywhere, so it "
            "does not spoil one-suit or colour hands; with false it counts as a bamboo there.",
        ),
        Option(
            "gates_and_runs_require_concealed",
            "false",
            TF,
            "A-19: Gates of Heaven, Run Pung and Pair and Windy Chows are judged on all tiles; with "
            "true no set of theirs may be exposed.",
        ),
        Option(
            "distinct_pairs_required",
            "false",
            TF,
            "A-20: four identical tiles may be two pairs (and numbers may repeat) in the pair hands.",
        ),
        Option("ruby_requires_red_dragon", "true", TF, "A-21: Royal Ruby needs at least one Red Dragon."),
        Option(
            "jade_requires_green_dragon",
            "true",
            TF,
            "L321 [4]: since the late 1950s Imperial Jade must include a Green Dragon (old rules: no).",
        ),
        Option(
            "red_lily_composition",
            "white_and_red",
            ("white_and_red", "red_only"),
            "A-23: Red Lily keeps the White Dragon pung and replaces Green by Red, or holds Red "
            "Dragons only with three red-bamboo pungs.",
        ),
        Option(
            "hitler_pung_may_be_completed_by_discard",
            "true",
            TF,
            "A-24: the winning discard may complete the concealed dragon pung of Hitler's Mistake.",
        ),
        Option(
            "all_pungs_double_on_special_hands",
            "true",
            TF,
            "A-28: 'tutti tris' is a regular double and is added on top of a special hand's doubles.",
        ),
        Option(
            "stack_special_doubles",
            "true",
            TF,
            "A-34: two doubles-valued special hands at once (Pure Hand + Buried Treasure) add up.",
        ),
    ]
)


def resolved(options: Mapping[str, str] | None) -> dict[str, str]:
    """Defaults overridden by ``options`` (validated; raises HandError for a bad name or value)."""
    return resolve(OPTIONS, options or {})
