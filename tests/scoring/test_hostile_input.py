"""Issue 37 items 5 and 6 on the scoring side: ``hands`` refuses a huge line before holding it, a
hand's tile counts get their own message (not "say which tile completed the hand"), a session
row's photo that is a FIFO, a device or a folder is named as what it is, and an argument holding
escape codes is shown escaped."""

from __future__ import annotations

import io
import os
import tracemalloc
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring import cli
from mahjong_camera_scorer.scoring.cli.hand import MAX_LINE, bounded_lines
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.rules import score_or_invalid
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.scoring.tile_counts import count_problem

HAND = b'{"hand": "234m55p12345678s9s", "winning_tile": "9s", "win_by": "self_draw", "seat_wind": "S"}\n'


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    parser, _ = cli.build_parser()
    code = cli.run(parser, argv, out)
    return code, out.getvalue(), capsys.readouterr().err


def test_hands_refuses_a_huge_line_without_holding_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1 GB line took 3.1 GB before it was refused; here a 16 MB one must stay far below its
    size in memory, and the lines around it are scored in order."""
    path = tmp_path / "hands.jsonl"
    with path.open("wb") as f:
        f.write(HAND)
        for _ in range(16):
            f.write(b"x" * (1 << 20))
        f.write(b"\n" + HAND)
    tracemalloc.start()
    try:
        code, out, err = run(["hands", str(path), "--rules", "riichi"], capsys)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    lines = out.splitlines()
    assert code == 0 and len(lines) == 3 and err == ""
    assert '"valid": true' in lines[0] and '"valid": true' in lines[2]
    assert f"longer than {MAX_LINE >> 10} KB" in lines[1]
    assert peak < 4 << 20, f"peak {peak >> 20} MB for a 16 MB line"


def test_bounded_lines_reads_text_and_bytes_alike() -> None:
    text = io.StringIO("a\n" + "y" * 50 + "\nb")
    assert list(bounded_lines(text, 10)) == ["a\n", None, "b"]
    data = io.BytesIO(b"z" * 25 + b"\nc\n")
    assert list(bounded_lines(data, 10)) == [None, b"c\n"]


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("123m456p789s12z", "11 concealed tiles with 0 declared sets: a hand has 13 before its winning tile"),
        ("123m456p789s1z", "10 concealed tiles"),
        ("55555m123p456s78s", "5 copies of 5m: a set has only 4"),
        ("123m456p789s112233z", "15 concealed tiles"),
    ],
)
@pytest.mark.parametrize("rules", ["mcr", "riichi", "zung-jung", "australian", "classical"])
def test_tile_counts_get_their_own_message(hand: str, words: str, rules: str) -> None:
    score = score_or_invalid(parse_hand(hand), rules)
    assert not score.valid and words in (score.error or ""), score.error
    assert "say which tile" not in (score.error or "")


def test_count_problem_counts_declared_sets_and_the_winning_tile() -> None:
    kong = {"type": "kong", "tiles": "1111z", "open": True}
    assert count_problem(hand_from_dict({"hand": "123m456p789s2z", "melds": [kong]})) is None  # waiting
    short = count_problem(hand_from_dict({"hand": "123m456p789s2z", "melds": [kong], "winning_tile": "2z"}))
    assert short == "10 concealed tiles with 1 declared set: a won hand has 11, the winning tile among them"
    won = hand_from_dict({"hand": "123m456p789s22z", "melds": [kong], "winning_tile": "2z"})
    assert count_problem(won) is None
    assert count_problem(parse_hand("123m456p789s1122z")) is None  # 13: a wait, the rules say on what


def test_a_session_photo_that_is_no_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(tmp_path / "fifo.jpg")
    (tmp_path / "folder.jpg").mkdir()
    rows = "".join(
        f"  - {{photo: {name}, winner: Anna, discarder: Bruno}}\n"
        for name in ("fifo.jpg", "folder.jpg", "/dev/null")
    )
    path = tmp_path / "s.yaml"
    path.write_text("players: {Anna: E, Bruno: S, Carla: W, Dario: N}\nhands:\n" + rows)
    code, out, _ = run(["session", str(path), "--rules", "mcr"], capsys)
    assert code == 1  # rows for the referee, the rest of the sheet made
    for words in (
        "fifo.jpg is a FIFO (named pipe), not a photo",
        "folder.jpg is a folder",
        "/dev/null is a character device",
    ):
        assert words in out, out
    assert "no such photo" not in out


def test_an_argument_holding_escape_codes_is_shown_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        run(["hand", "1m", "--rules", "mcr", "\x1b[2J\x1b]0;owned\x07"], capsys)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and "\x1b" not in err and "\\x1b[2J" in err
