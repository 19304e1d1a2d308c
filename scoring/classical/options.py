"""The house choices and the seed's gaps, each a named option with the spec's default (§2, §5).

The seed (Seipalle club, Florence, "Come si gioca a mah jong, seconda parte") leaves these points
open; ``../shared/rules/classical.md`` §5 lists them as D-1 … D-24 and picks a default for each.
Gaps with no variant in the spec (D-3 names, D-4, D-9, D-13, D-15, D-16, D-19, D-21, D-22, D-24)
have no option: the scorer follows the spec's single resolution.
"""

from __future__ import annotations

from collections.abc import Mapping

from mahjong_camera_scorer.scoring.options import Option, option_table

NAME = "classical"
YES_NO = ("no", "yes")

OPTIONS: dict[str, Option] = option_table(
    [
        Option(
            "limit",
            "1000",
            None,
            "§2.7 'di solito è fissato in 1000 punti (2000 per Est ...)': the cap on every player's hand "
            "score, applied before East's doubling (D-9); 'none' = no limit",
            words=("none",),
        ),
        Option(
            "min_doubles_to_win",
            "0",
            None,
            "§2.6 'È piuttosto comune giocare con un minimo di tre raddoppi': the house minimum of "
            "doubles to go out (0 = off; commonly 3)",
        ),
        Option(
            "min_doubles_count",
            "all",
            ("all", "fundamental"),
            "D-12: which doubles count toward the minimum: all (fundamental + closing) or fundamental only",
        ),
        Option(
            "riichi_required",
            "no",
            YES_NO,
            "§2.8 variant 'richi obbligatorio': a player must have declared riichi to go out",
        ),
        Option(
            "riichi_concealed_only",
            "no",
            YES_NO,
            "D-20: whether riichi needs a hand without exposed sets (the seed does not require it)",
        ),
        Option(
            "double_wind_pair",
            "2",
            ("2", "4"),
            "D-1: points for a pair of the wind that is both seat and round wind ('e/o': 2; variant 4)",
        ),
        Option(
            "own_bonus_double",
            "each",
            ("each", "both"),
            "D-2: own flower and own season give one double each, or one double only for holding both",
        ),
        Option(
            "loser_pairs",
            "all",
            ("all", "one", "none"),
            "D-5: which valuable pairs (dragons, seat or round wind) in a loser's hand score 2",
        ),
        Option(
            "seven_pairs_pair_points",
            "yes",
            YES_NO,
            "D-6: whether the valuable pairs of a seven-pairs hand score B10–B13 (no: the 20 only)",
        ),
        Option(
            "all_terminals_extra_double",
            "yes",
            YES_NO,
            "D-7: seed 004 says the hand 'porta un raddoppio' and 'vale almeno altri quattro "
            "raddoppi' (1 + 4 = 5; the tables give 4): yes follows the seed; no is the spec's "
            "table count",
        ),
        Option(
            "bonus_tiles_as_honours",
            "no",
            YES_NO,
            "D-14: whether flowers/seasons count as honour tiles for Pure, Purest and No terminals",
        ),
        Option(
            "concealed_kong_counts_as_concealed_pung",
            "no",
            YES_NO,
            "D-23: whether a concealed kong counts for Tre tris coperti / Quarto tris coperto",
        ),
        Option(
            "within_15_strict",
            "no",
            YES_NO,
            "D-11: with 'discards_played' given, a winning discard must be at most the 14th (yes) "
            "instead of the 15th (no)",
        ),
        Option(
            "seed_limit_hands",
            "flag",
            ("flag", "limit"),
            "D-17: the two grandi giochi the seed names (seven pairs of terminals/honours, purest seven "
            "pairs) without a value: flag them and score with doubles, or score them at the limit",
        ),
        Option(
            "round_scores_first",
            "no",
            YES_NO,
            "D-8: round each payment after East's doubling (no) or round each score first (yes)",
        ),
        Option(
            "non_winners_settle",
            "yes",
            YES_NO,
            "D-10: with several winners, whether the non-winners still settle their differences",
        ),
        Option(
            "no_winner_settlement",
            "none",
            ("none", "differences"),
            "D-18: a hand with no winner: no payments, or every player settles score differences",
        ),
    ]
)


def limit_of(opts: Mapping[str, str]) -> int | None:
    """The hand limit in points, or None for 'limit none'."""
    value = opts["limit"]
    return None if value == "none" else int(value)
