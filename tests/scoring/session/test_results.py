"""``session --results``: the EMA's results file, and what a federation would refuse (issue 36 item 3)."""

from __future__ import annotations

import contextlib
import csv
import io
from pathlib import Path

from mahjong_camera_scorer.scoring import cli

SEATS = "ESWN"


def write(
    path: Path, session: str, table: str, players: list[tuple[str, str]], rows: str = "[]", head: str = ""
) -> Path:
    listed = "".join(
        f"  - {{name: {name}, seat: {seat}, number: '{number}'}}\n"
        for (name, number), seat in zip(players, SEATS, strict=True)
    )
    path.write_text(
        f"{head}tournament: T\nsession: {session}\ntable: {table}\nplayers:\n{listed}hands: {rows}\n"
    )
    return path


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    parser, _ = cli.build_parser()
    with contextlib.redirect_stderr(err):
        code = cli.run(parser, argv, out)
    return code, out.getvalue(), err.getvalue()


TABLE_1 = [("Anna", "101"), ("Bruno", "102"), ("Maria Grazia Rossi", "103"), ("Dario", "104")]
TABLE_2 = [("Anna", "999"), ("Elio", "105"), ("Fede", "106"), ("Gino", "107")]


def results(tmp_path: Path, files: list[Path], rules: str = "mcr") -> tuple[int, str, str]:
    out = tmp_path / "results.csv"
    code, _, err = run(["session", *map(str, files), "--rules", rules, "--results", str(out), "--force"])
    return code, (out.read_bytes().decode("utf-8") if out.exists() else ""), err


def test_the_ema_layout_quoted_with_a_byte_order_mark(tmp_path: Path) -> None:
    one = write(tmp_path / "t1.yaml", "1", "1", TABLE_1, "[{penalty: referee, player: Dario, points: 1}]")
    two = write(tmp_path / "t2.yaml", "1", "2", TABLE_2)
    code, text, err = results(tmp_path, [one, two])
    assert code == 0, err
    assert text.startswith("\ufeff") and text.endswith("\r\n")
    lines = text[1:].split("\r\n")
    assert (
        lines[0]
        == '"Place","First name","Last name","EMA number","Table points","Score","EMA member","Country"'
    )
    rows = list(csv.reader(io.StringIO(text[1:])))[1:]
    assert all(line.startswith('"') and line.count('"') == 16 for line in lines[1:] if line)
    by_number = {r[3]: r for r in rows}
    # table 1: Anna, Bruno and Maria Grazia Rossi share 4+2+1 (7/3 each), Dario 0 with Mini Punti -1
    assert by_number["103"][1:3] == ["Maria Grazia", "Rossi"] and by_number["103"][4:6] == ["2.33", "0"]
    assert by_number["104"][4:6] == ["0", "-1"]
    # two players named Anna, 101 and 999, are two rows: #999 is there with her own results
    assert by_number["101"][1:6] == ["Anna", "", "101", "2.33", "0"]
    assert by_number["999"][1:6] == ["Anna", "", "999", "1.75", "0"] and len(rows) == 8


def test_the_same_file_given_twice_is_refused(tmp_path: Path) -> None:
    one = write(tmp_path / "t1.yaml", "1", "1", TABLE_1)
    code, text, err = results(tmp_path, [one, one])
    assert code == 2 and "t1.yaml is given twice" in err and text == ""
    copy = write(tmp_path / "copy.yaml", "1", "1", TABLE_1)
    code, _, err = results(tmp_path, [one, copy])
    assert code == 2 and "copy.yaml and " in err and "t1.yaml are both session 1, table 1" in err


def test_a_table_that_is_not_four_distinct_players_is_refused(tmp_path: Path) -> None:
    same_number = [*TABLE_1[:3], ("Dario", "101")]
    code, _, err = results(tmp_path, [write(tmp_path / "t1.yaml", "1", "1", same_number)])
    assert code == 2 and "session 1, table 1 (" in err and "four distinct players once each" in err
    # one player at two tables of one session
    elsewhere = [TABLE_1[1], *TABLE_2[1:]]
    files = [write(tmp_path / "a.yaml", "1", "1", TABLE_1), write(tmp_path / "b.yaml", "1", "2", elsewhere)]
    code, _, err = results(tmp_path, files)
    assert code == 2 and "Bruno also plays at session 1, table 1" in err


def test_table_points_that_do_not_sum_to_seven_are_refused(tmp_path: Path) -> None:
    # seed 000 E 2.3: more than 15 minutes late, "non riceverà punti tavolo": 4+2+1 = 7 is not reached
    late = "[{penalty: late, player: Dario, minutes: 20}]"
    code, text, err = results(tmp_path, [write(tmp_path / "t1.yaml", "1", "1", TABLE_1, late)])
    assert code == 2 and text == ""
    assert "session 1, table 1 (Anna #101, Bruno #102, Maria Grazia Rossi #103, Dario #104)" in err
    assert "the table points sum to 5.25, not 7 (4-2-1-0, tied players sharing" in err
    higher = write(tmp_path / "t2.yaml", "1", "2", TABLE_2, "[]", "settings: {ties: higher}\n")
    code, _, err = results(tmp_path, [higher])
    assert code == 2 and "the table points sum to 16, not 7" in err


def test_scores_that_do_not_sum_to_zero_are_refused(tmp_path: Path) -> None:
    # riichi: a stick left on the table with a tie for first stays unassigned (seed 001 fn 14)
    stick = "[{draw: exhaustive, riichi: [Anna, Bruno], tenpai: [Anna, Bruno]}]"
    tied = write(tmp_path / "t1.yaml", "1", "1", TABLE_1, stick)
    code, _, err = results(tmp_path, [tied], "riichi")
    assert code == 2 and "the scores sum to -2000, not zero (2 riichi stick(s) left unassigned" in err
    # with a first placed, the stick is his and the riichi row reads: final (with uma), then points
    clear = "[{draw: exhaustive, riichi: [Anna], tenpai: [Anna]}]"
    code, text, err = results(tmp_path, [write(tmp_path / "t1.yaml", "1", "1", TABLE_1, clear)], "riichi")
    assert code == 0, err
    first = next(csv.reader(io.StringIO(text[1:].split("\r\n")[1])))
    assert first[:6] == ["1", "Anna", "", "101", str(3000 - 1000 + 1000 + 30000), "3000"]


OBSTRUCTION = "[{penalty: obstruction, player: Bruno}]"


def test_a_carried_count_written_as_the_readme_advises_is_counted_once(tmp_path: Path) -> None:
    # seed 000 E 3.6: obstruction counts carry to the next session; the README: "Scoring one session at
    # a time, write the counts from earlier sessions in the file: carry: {Anna: {obstruction: 1 …}}"
    first = write(tmp_path / "s1.yaml", "1", "1", TABLE_1, OBSTRUCTION)
    second = write(tmp_path / "s2.yaml", "2", "1", TABLE_1, OBSTRUCTION, "carry: {Bruno: {obstruction: 1}}\n")
    alone = run(["session", str(second), "--rules", "mcr", "--json"])[1]
    both = run(["session", str(first), str(second), "--rules", "mcr", "--json"])[1]
    for out in (alone, both):  # infraction no. 2: 5 points (App. D (1)), not no. 3 and 10 points
        assert "repeated infraction no. 2: 5 points" in out and "no. 3" not in out
    fewer = write(tmp_path / "s3.yaml", "3", "1", TABLE_1, "[]", "carry: {Bruno: {obstruction: 1}}\n")
    code, _, err = run(["session", str(first), str(second), str(fewer), "--rules", "mcr"])
    assert code == 2 and "carry: Bruno obstruction 1, but the sessions given before this one count 2" in err
