"""Zung Jung's named options: each ambiguity of the spec (§5.3, §6) with the spec's default.

The seed (``002_…txt``, Italian v3.3 with the optional category 11) settles most points; the
options below cover what it leaves open or explicitly leaves to the players. Points that are only
translation slips with a single sensible reading (A2–A4, A17, A18) or that change no total
(A10, A11, A19, A22) have no option.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.options import Option, option_table

NAME = "zung-jung"

OPTIONS: dict[str, Option] = option_table(
    [
        Option(
            "flowers",
            "yes",
            ("yes", "no"),
            "Category 11 is optional ('prevista solo nel gioco familiare o amicale'): 'no' plays the "
            "136-tile official game and rejects bonus tiles.",
        ),
        Option(
            "bonus_values",
            "full",
            ("full", "half"),
            "Seed §11 note: players may agree to halve every category-11 value (1/2 per tile, 5 for "
            "Four Flowers/Seasons). Nothing else changes.",
        ),
        Option(
            "bonus_points",
            "pattern",
            ("pattern", "extra"),
            "A16 [DEFAULT 'pattern']: category-11 points are patterns (the seed lists them in 'Elenco "
            "delle combinazioni'), so they count toward the compound limit, add nothing under a listed "
            "limit, and a hand with only bonus points is not a chicken hand. 'extra' adds them after "
            "the limit and on top of the chicken hand's 1 point.",
        ),
        Option(
            "four_flowers_and_seasons",
            "both",
            ("both", "one"),
            "A16 [DEFAULT 'both']: with all eight bonus tiles, 11.2.1 and 11.2.2 both count (the seed "
            "gives 11.2.2 no up-arrow). 'one' applies the one-per-series rule to series 11.2 (10).",
        ),
        Option(
            "discard_pung_assignment",
            "free",
            ("free", "pung_first"),
            "A7 [ZJ Freedom of Count, default 'free']: on a discard win the winner chooses which "
            "concealed group the discard completes, and only that pung becomes exposed. 'pung_first' "
            "always gives the discard to a pung of that tile when the arrangement has one.",
        ),
        Option(
            "nine_gates",
            "wait",
            ("wait", "tiles"),
            "A8 [default 'wait']: 2.2 needs the 13 tiles before the win to be exactly 1112345678999 of "
            "one suit ('essere a punto su nove tessere'). 'tiles' accepts any concealed 14 tiles "
            "holding 1112345678999 plus one tile of the same suit.",
        ),
        Option(
            "robbing_kong_win",
            "discard",
            ("discard", "self_draw"),
            "A1 [default 'discard']: 'RUBARE UN KONG E' CONSIDERATO UNA VINCITA SU SCARTO' (the kong "
            "declarer is the discarder). 'self_draw' follows the contrary sentence in the seed's 9.3 "
            "text ('è considerato una vincita pescata'): everyone pays the hand value.",
        ),
        Option(
            "immunity_before_first_discard",
            "hand_start",
            ("hand_start", "discarder"),
            "A6 [DEFAULT 'hand_start']: when the winner has not discarded yet, the same-round immunity "
            "window starts at the start of the hand. 'discarder' applies no immunity then: the actual "
            "discarder is responsible.",
        ),
    ]
)
