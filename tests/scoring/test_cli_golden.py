"""What ``hand`` and ``table`` print, text and ``--json``, pinned byte for byte in English.

Written by the code before the typed hand's candidates and score lines moved to their renderers
(:mod:`scoring.render`), so a line that changes without meaning to fails here: a win per rule
system with its notes (fu, limits, payments, arrangement), a hand with no winning tile set apart
(the candidates), hands that are not wins, and both example tables.

``GOLDEN_UPDATE=1 pytest tests/scoring/test_cli_golden.py`` rewrites the file after a change that
is meant (review the diff).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from mahjong_camera_scorer.scoring import cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden") / "cli.txt"

HANDS = [
    ("mcr", "123m456p789s5556z ron 6z seat=S discarder=E"),
    ("mcr", "12345678m999p55s tsumo 9m"),
    ("mcr", "11m123456789p55z"),
    ("mcr", "123m456p789s1234z ron 5z"),
    ("riichi", "678m99p12345678s ron 9s seat=S riichi dora=1z discarder=E"),
    ("riichi", "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m"),
    ("riichi", "19m19p19s1234567z ron 1z"),
    ("riichi", "345m55888p444s 1111p"),
    ("riichi", "345m55888p444s (1111p) win=self_draw seat=W"),
    ("riichi", "111m999p111s1115z ron 5z seat=W discarder=N"),
    ("zung-jung", "123m456p789s5556z ron 6z discarder=S"),
    ("zung-jung", "111m222p333s444z5z tsumo 5z"),
    ("zung-jung", "11223344556677m"),
    ("australian", "111z999m468p9s"),
    ("australian", "22277799p66z [444p] ron 9p"),
    ("australian", "11m123456789p55z ron 5z"),
    ("australian", "111222333444m5z tsumo 5z seat=S"),
    ("classical", "123m456p789s5556z tsumo 6z seat=E"),
    ("classical", "19m19p19s1234567z ron 1z"),
    ("classical", "111m999p111s1115z ron 5z seat=W"),
]
TABLES = [("australian", "examples/table-australian.yaml"), ("classical", "examples/table-classical.yaml")]


def _run(argv: list[str]) -> str:
    out = io.StringIO()
    parser, _ = cli.build_parser()
    code = cli.run(parser, argv, out)
    return f"$ {' '.join(argv)}\n[exit {code}]\n{out.getvalue()}"


def transcript() -> str:
    parts = []
    for rules, hand in HANDS:
        parts += [_run(["hand", hand, "--rules", rules]), _run(["hand", hand, "--rules", rules, "--json"])]
    for rules, path in TABLES:
        parts += [_run(["table", str(ROOT / path), "--rules", rules]).replace(str(ROOT), "ROOT")]
        parts += [_run(["table", str(ROOT / path), "--rules", rules, "--json"]).replace(str(ROOT), "ROOT")]
    return "\n".join(parts)


def test_the_commands_print_what_they_printed() -> None:
    got = transcript()
    if os.environ.get("GOLDEN_UPDATE"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(got, encoding="utf-8")
    assert got == GOLDEN.read_text(encoding="utf-8")


def test_the_transcript_covers_what_it_pins() -> None:
    """The check itself: the hands give candidates, notes of each kind and refusals."""
    got = transcript()
    for words in (
        "Winning tile: none set apart",
        "Fu: ",
        "Limit: ",
        "Settlement: ",
        "Arrangement: ",
        "Not a valid win: ",
        '"candidates": [',
        "[exit 1]",
        "Payments",
    ):
        assert words in got, words
