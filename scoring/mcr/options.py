"""MCR options: the seed's internal contradictions (spec §7, entries marked ⚙), defaults first.

Each default is the spec's documented choice; the alternative is the other reading of the seed.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.options import Option, option_table

YES_NO = ("yes", "no")

OPTIONS = option_table(
    [
        Option(
            "all_terminals_double_pung",
            "yes",
            YES_NO,
            "A7: All Terminals (69) with Double Pung (20). Element text: 'Può combinare con Due Tris "
            "Uguali (20)' (yes); Appendix A lists it as included (no).",
        ),
        Option(
            "all_green_half_flush",
            "no",
            YES_NO,
            "A8: All Green (77) with Half Flush (29). Appendix A: included, not added (no); the seed's "
            "Example 1 'si combina con ... Mano Pura (29)' (yes).",
        ),
        Option(
            "four_kongs_all_pungs",
            "no",
            YES_NO,
            "A12: All Pungs (28) with Four Kongs (79). Implied by four kongs, not added (no); the "
            "seed's list for 79 omits it (yes adds it).",
        ),
        Option(
            "four_kongs_melded_hand",
            "yes",
            YES_NO,
            "A12: four melded kongs won on a discard completing the pair also score Melded Hand (32).",
        ),
        Option(
            "wait_drops_fully_held",
            "yes",
            YES_NO,
            "A16: a kind whose four copies the player holds is not part of the wait (yes), or still "
            "counts when deciding whether the wait is unique (no).",
        ),
        Option(
            "knitted_straight_waits",
            "mapped",
            ("mapped", "none"),
            "A17: Appendix A says Edge and Closed Wait 'valgono anche nel serpente legato'. mapped: the "
            "middle knitted tile is Closed Wait, 7 after 1-4 or 3 before 6-9 is Edge Wait; none: no "
            "wait element for a knitted tile.",
        ),
        Option(
            "nine_gates_extras",
            "all",
            ("all", "pure_straight"),
            "A18: with Nine Gates (78) add every element of the decomposition not excluded (all), or "
            "only Pure Straight, the one the seed names (pure_straight); win conditions always count.",
        ),
        Option(
            "winning_tile_shown",
            "yes",
            YES_NO,
            "§3.9 (18), MERS 1.9: a winning tile mixed into the hand before it was shown (no) loses "
            "Edge, Closed and Single Wait, Last Tile and Nine Gates.",
        ),
    ]
)
