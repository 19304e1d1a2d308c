"""Issue 37, sessions: the one number parser (NaN and its spellings, other scripts' digits, ``1_000``,
5,001 digits, an unbounded oka), the grouping of sessions by a key that cannot be NaN, the CSV's
row limit, and the one name cleaner (look-alike players are one player; escape codes never reach
the terminal). Each hostile file is built here and must give exit 2 with one line, in bounded time."""

from __future__ import annotations

import io
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring import cli
from mahjong_camera_scorer.scoring.clean_text import for_terminal, same_name
from mahjong_camera_scorer.scoring.session.load import MAX_ROWS, load_session, parse_csv, session_from_dict
from mahjong_camera_scorer.scoring.session.model import SessionError
from mahjong_camera_scorer.scoring.session.numbers import session_key, whole_number

PLAYERS = "players: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"
ONE_DRAW = "hands:\n  - {draw: exhaustive}\n"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    parser, _ = cli.build_parser()
    code = cli.run(parser, argv, out)
    return code, out.getvalue(), capsys.readouterr().err


def _one_error_line(err: str) -> None:
    assert err.count("\n") == 1 and err.startswith("mahjong-score: error: "), err
    assert "Traceback" not in err and "\x1b" not in err


# ------------------------------------------------------------------------------------------------
# item 1: a session that never ends
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("spelling", ["nan", "NaN", ".nan", "-nan", "+inf", ".inf", "Infinity"])
def test_a_session_numbered_nan_is_refused_at_once(
    spelling: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [tmp_path / f"t{table}.yaml" for table in (1, 2)]  # two tables of the session
    for table, path in enumerate(paths, 1):
        path.write_text(f"session: {spelling}\ntable: {table}\n{PLAYERS}{ONE_DRAW}")
    start = time.perf_counter()
    code, _, err = run(["session", *map(str, paths), "--rules", "riichi"], capsys)
    assert time.perf_counter() - start < 5
    assert code == 2 and "session: a number (1, 2, …) or a name" in err
    _one_error_line(err)


def test_a_csv_session_numbered_nan_ends_in_its_own_process(tmp_path: Path) -> None:
    """Run as the user runs it: before the fix this process spun at full CPU until killed."""
    paths = [tmp_path / f"t{table}.csv" for table in (1, 2)]  # two tables of the session
    for table, path in enumerate(paths, 1):
        rows = ["kind,value,name,seat", "session,nan,,", f"table,{table},,"]
        rows += [f"player,,{n},{s}" for n, s in zip(("Anna", "Bruno", "Carla", "Dario"), "ESWN", strict=True)]
        path.write_text("\n".join([*rows, "draw,,,"]) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "session", *map(str, paths), "--rules", "mcr"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "line 2 (session): a number (1, 2, …) or a name" in done.stderr


def test_sessions_are_grouped_by_an_exact_key() -> None:
    assert session_key("2") == session_key(" 2 ") and session_key("2") != session_key("2.5")
    ordered = sorted(["10", "2", "finale", "2.5", "1"], key=session_key)
    assert ordered == ["1", "2", "2.5", "10", "finale"]
    assert all(session_key(s) == session_key(s) for s in ["nan", "inf", "1e400", "x"])
    assert session_key("3")[1] == Fraction(3)


# ------------------------------------------------------------------------------------------------
# the one number parser: what the notation refuses, a session refuses
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("١٢", "digits 0-9"),  # Arabic-Indic: int() reads 12
        ("１２", "digits 0-9"),  # fullwidth: int() reads 12
        ("1_000", "without '_'"),  # int() reads 1000
        ("nan", "not a number"),
        ("-inf", "not a number"),
        ("4" * 5001, "5001 digits"),  # int() raises its own ValueError: a traceback before
        ("1e3", ""),
        ("3.0", ""),
    ],
)
def test_whole_number_refuses_what_the_notation_refuses(text: str, why: str) -> None:
    with pytest.raises(SessionError) as caught:
        whole_number(text, "hands[0].honba")
    message = str(caught.value)
    assert message.startswith("hands[0].honba: ") and why in message and len(message) < 200


def test_whole_number_takes_plain_numbers_and_bounds_them() -> None:
    assert whole_number(" 12 ", "x") == 12 and whole_number(-3, "x") == -3 and whole_number("", "x") is None
    for bad in (True, 1.0, [1]):
        with pytest.raises(SessionError):
            whole_number(bad, "x")
    with pytest.raises(SessionError, match=r"x: a whole number 0..100, not 101"):
        whole_number("101", "x", 0, 100)


@pytest.mark.parametrize("value", ["1_000", "'١'", "'１'", "0x10", ".nan"])
def test_yaml_counts_are_read_by_the_same_rule(value: str, tmp_path: Path) -> None:
    """YAML 1.1 reads ``1_000`` as 1000 and ``0x10`` as 16: the session's loader reads only plain
    decimal numbers as numbers, so the parser refuses these by name."""
    path = tmp_path / "s.yaml"
    path.write_text(f"{PLAYERS}hands:\n  - {{draw: exhaustive, honba: {value}}}\n")
    with pytest.raises(SessionError, match=r"hands\[0\]\.honba: expected a whole number"):
        load_session(path)


def test_csv_counts_and_losers_scores_are_read_by_the_same_rule() -> None:
    head = "kind,value,name,seat,honba,others,hand,winner\n" + "".join(
        f"player,,{n},{s},,,,\n" for n, s in zip(("Anna", "Bruno", "Carla", "Dario"), "ESWN", strict=True)
    )
    with pytest.raises(SessionError, match=r"line 6\.honba: expected a whole number, got '١'"):
        parse_csv(head + "draw,,,,١,,,\n")
    with pytest.raises(SessionError, match=r"line 6\.others\.Bruno: expected a whole number.*without '_'"):
        parse_csv(head + "hand,,,,,Bruno=1_000,123m456p789s1122z,Anna\n")


@pytest.mark.parametrize(
    ("oka", "words"),
    [
        ("4" * 5001, "5001 digits"),
        ("400000000000000000000000000", "27 digits"),
        ("2000000", "0..1000000, not 2000000"),
        ("nan", "not a number"),
        ("１２", "digits 0-9"),
        ("6", "multiple of 4"),
    ],
)
def test_oka_is_bounded_and_never_a_traceback(
    oka: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(PLAYERS + ONE_DRAW)
    code, _, err = run(["session", str(path), "--rules", "riichi", "--setting", f"oka={oka}"], capsys)
    assert code == 2 and "settings.oka" in err and words in err and len(err) < 300
    _one_error_line(err)
    code, out, _ = run(["session", str(path), "--rules", "riichi", "--setting", "oka=20000"], capsys)
    assert code == 0 and "Final" in out


# ------------------------------------------------------------------------------------------------
# item 5: the CSV row limit
# ------------------------------------------------------------------------------------------------
def test_a_csv_session_has_the_yaml_row_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    players = "".join(f"player,,{n},{s}\n" for n, s in zip(("A", "B", "C", "D"), "ESWN", strict=True))
    path = tmp_path / "s.csv"
    path.write_text("kind,value,name,seat\n" + players + "draw,,,\n" * 62_000)  # 0.5 MB: under 2 MB
    start = time.perf_counter()
    code, _, err = run(["session", str(path), "--rules", "mcr"], capsys)
    assert time.perf_counter() - start < 5
    assert code == 2 and f"at most {MAX_ROWS} rows" in err and "line 1006" in err
    _one_error_line(err)


# ------------------------------------------------------------------------------------------------
# items 4 and 6: the one name cleaner
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("look_alike", ["Bru\u200bno", "Ｂｒｕｎｏ", "Bruno\u200d", " Bruno ", "\ufeffBruno"])
def test_look_alike_players_are_one_player(look_alike: str) -> None:
    players = [
        {"name": n, "seat": s} for n, s in zip(("Anna", "Bruno", "Carla", "Dario"), "ESWN", strict=True)
    ]
    twin = [*players[:3], {"name": look_alike, "seat": "N"}]
    with pytest.raises(SessionError, match="two players have the same name"):
        session_from_dict({"players": twin, "hands": []})
    row = {"hand": "123m456p789s1122z ron 2z", "winner": look_alike, "discarder": "Anna"}
    session = session_from_dict({"players": players, "hands": [row]})
    assert session.rows[0].winner == "Bruno"


def test_unicode_normal_forms_are_one_name() -> None:
    composed, decomposed = "Nicol\u00f2", "Nicolo\u0300"
    assert composed != decomposed and same_name(composed) == same_name(decomposed)


@pytest.mark.parametrize(
    "field", ["tournament", "table", "session", "players[0].name", "hands[0].winner", "hands[0].note"]
)
def test_escape_codes_in_names_never_reach_the_terminal(
    field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = "\x1b[2J\x1b]0;owned\x07X\rY"
    doc: dict[str, object] = {
        "tournament": "T",
        "players": [
            {"name": n, "seat": s} for n, s in zip(("Anna", "Bruno", "Carla", "Dario"), "ESWN", strict=True)
        ],
        "hands": [{"hand": "123m456p789s1122z ron 2z", "winner": "Anna", "discarder": "Bruno"}],
    }
    if field.startswith("players"):
        doc["players"][0]["name"] = hostile  # type: ignore[index]
    elif field.startswith("hands"):
        doc["hands"][0][field.split(".")[1]] = hostile  # type: ignore[index]
    else:
        doc[field] = hostile
    path = tmp_path / "s.json"
    import json

    path.write_text(json.dumps(doc))
    code, out, err = run(["session", str(path), "--rules", "mcr"], capsys)
    assert code == 2 and "control character (\\x1b)" in err and out == ""
    _one_error_line(err)


def test_for_terminal_escapes_every_control_and_invisible_character() -> None:
    shown = for_terminal("a\x1b[2Jb\rc\nd\x9be\u202ef\u200bg\x07")
    assert shown.isprintable() and shown == "a\\x1b[2Jb\\x0dc\\x0ad\\x9be\\u202ef\\u200bg\\x07"
    assert for_terminal("x" * 100, 10) == "x" * 9 + "…"


def test_a_manifest_cell_holding_an_escape_code_is_its_lines_error() -> None:
    from mahjong_camera_scorer.scoring.session.manifest import parse_manifest, session_from_manifest

    rows = parse_manifest("photo,seat,note\nok.jpg,E,\n\x1b[2Jbad.jpg,E,\nok2.jpg,S,\x1b]0;owned\x07\n")
    assert rows[0].error is None
    assert rows[1].error == "manifest line 3: photo: holds a control character (\\x1b): write it without"
    assert rows[2].error is not None and "note: holds a control character" in rows[2].error
    with pytest.raises(SessionError, match="control character"):
        session_from_manifest(rows, ["Anna", "Bruno", "Carla", "Dario"])
    with pytest.raises(SessionError, match=r"--players: a name holds a control character \(\\x1b\)"):
        session_from_manifest(rows[:1], ["Anna", "Bruno\x1b[2J", "Carla", "Dario"])
    session = session_from_manifest(rows[:1], ["Anna", "Ｂｒｕｎｏ", "Carla", "Dario"])
    assert [p.name for p in session.players] == ["Anna", "Bruno", "Carla", "Dario"]
