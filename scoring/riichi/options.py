"""The EMA riichi options: every ambiguity of riichi.md §8 that changes a hand's score.

Each default is the resolution the spec documents; the other values are the readings it rejects,
so a club that plays them can still be scored. Ambiguities about the game rather than the hand
(uma ties, furiten timing, dealer rotation, A9–A10, A14, A22–A28) are outside a hand scorer.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.options import Option, option_table

OPTIONS = option_table(
    [
        Option(
            "red_fives",
            "1",
            ("1", "0"),
            "Red fives in the set per suit. §1.5: EMA uses exactly one per suit (+1 fan each); "
            "0 scores a set without red fives, where a red five is a plain five.",
        ),
        Option(
            "double_wind_pair_fu",
            "4",
            ("4", "2"),
            "A3: fu for a pair that is both seat and prevalent wind. The seed lists the two +2 items "
            "separately, so they add up to 4 (default); 2 counts the pair once.",
        ),
        Option(
            "red_five_dora",
            "both",
            ("both", "red_only"),
            "A4: a red five that is also a dora counts +1 as red five and +1 per indicator (both), "
            "or only as a red five (red_only).",
        ),
        Option(
            "counted_yakuman",
            "yes",
            ("yes", "no"),
            "A5: 13 or more fan (dora included) score one yakuman (seed limit row 'Yakuman 13+'); "
            "'no' caps them at sanbaiman.",
        ),
        Option(
            "double_yakuman",
            "dai_suushii",
            ("dai_suushii", "none"),
            "A6: Big four winds is the only double yakuman (2012 revision); 'none' pays it single.",
        ),
        Option(
            "haitei_rinshan",
            "both",
            ("both", "rinshan_only"),
            "A11: a win on the replacement tile that became the last playable tile scores Rinshan "
            "kaihou and Haitei (both) or only Rinshan kaihou.",
        ),
        Option(
            "chankan_ippatsu",
            "yes",
            ("yes", "no"),
            "A12: robbing an added kong does not end an opponent's ippatsu, so Chankan and Ippatsu "
            "combine (yes); 'no' makes that combination an error.",
        ),
        Option(
            "five_counters",
            "2_fan",
            ("2_fan", "off"),
            "§3.4.11 / A13: with 5 or more counters on the table a win needs 2 fan from yaku "
            "(dora never count); 'off' drops the EMA rule.",
        ),
        Option(
            "all_green_dragon",
            "optional",
            ("optional", "required"),
            "A19: whether Ryuu iisou needs the Green dragon (text lost; optional is standard).",
        ),
        Option(
            "all_honours_seven_pairs",
            "yes",
            ("yes", "no"),
            "A20: seven different honour pairs are Tsuu iisou (yes) or only Chiitoitsu (no).",
        ),
        Option(
            "nagashi_counters",
            "draw",
            ("draw", "win"),
            "A8, a session's counters after a nagashi mangan: the hand went 'a monte per esaurimento', "
            "after which seed 001 §3.4.2 says 'viene messo un gettone', and counters go only when a "
            "player other than East 'ha chiuso la mano' (§3.4.10): a counter is added (draw); 'win' "
            "is the spec's reading (East's claim adds one, another player's clears them).",
        ),
    ]
)
