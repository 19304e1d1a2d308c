"""Session files: YAML and CSV say the same thing; every mistake names its row."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.session.load import load_session, parse_csv, parse_yaml
from mahjong_camera_scorer.scoring.session.model import SessionError

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

YAML = """
tournament: T
session: 2
table: 7
players:
  - {name: Anna, seat: E, number: 1}
  - {name: Bruno, seat: S, number: 2}
  - {name: Carla, seat: W, number: 3}
  - {name: Dario, seat: N, number: 4}
hands:
  - {hand: "123m456p789s5556z ron 6z", winner: Anna, discarder: Bruno, flags: [last_of_kind]}
  - {draw: true}
  - {penalty: false_hu_invalid, player: Carla}
  - {photo: h.jpg, winner: S, win_by: self_draw, confirmed: true}
  - {hand: "234m55p12345678s tsumo 9s", winner: S, riichi: [Bruno, Anna], dora: [1z], honba: 1, sticks: 2}
"""

HEADER = "kind,value,name,seat,number,hand,photo,winner,win_by,discarder,flags,riichi,dora,honba,sticks,"
CSV = (
    HEADER
    + """player,infraction,confirmed
tournament,T,,,,,,,,,,,,,,,,
session,2,,,,,,,,,,,,,,,,
table,7,,,,,,,,,,,,,,,,
player,,Anna,E,1,,,,,,,,,,,,,
player,,Bruno,S,2,,,,,,,,,,,,,
player,,Carla,W,3,,,,,,,,,,,,,
player,,Dario,N,4,,,,,,,,,,,,,
hand,,,,,123m456p789s5556z ron 6z,,Anna,,Bruno,last_of_kind,,,,,,,
draw,,,,,,,,,,,,,,,,,
penalty,,,,,,,,,,,,,,,Carla,false_hu_invalid,
hand,,,,,,h.jpg,S,self_draw,,,,,,,,,yes
hand,,,,,234m55p12345678s tsumo 9s,,S,,,,"Bruno, Anna",1z,1,2,,,
"""
)


def _strip(session):
    return [
        (
            r.kind,
            r.hand,
            r.photo,
            r.winner,
            r.win_by,
            r.discarder,
            r.flags,
            r.riichi,
            r.dora,
            r.honba,
            r.sticks,
            r.player,
            r.infraction,
            r.draw,
            r.confirmed,
        )
        for r in session.rows
    ]


def test_yaml_and_csv_read_the_same() -> None:
    a, b = parse_yaml(YAML), parse_csv(CSV)
    assert (a.tournament, a.session, a.table) == (b.tournament, b.session, b.table) == ("T", "2", "7")
    assert a.players == b.players
    assert _strip(a) == _strip(b)
    assert [r.kind for r in a.rows] == ["hand", "draw", "penalty", "hand", "hand"]
    assert a.rows[1].draw == "exhaustive" and a.rows[3].confirmed and a.rows[4].riichi == ["Bruno", "Anna"]


def test_examples_load() -> None:
    for name in ("session-mcr.yaml", "session-riichi.yaml", "session-zung-jung.csv"):
        s = load_session(EXAMPLES / name)
        assert len(s.players) == 4 and s.rows and s.base_dir == str(EXAMPLES)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players: [{name: A, seat: E}]\nhands: []", "four players"),
        ("players: {A: E, B: S, C: W, D: W}\nhands: []", "once each"),
        ("players: {A: E, B: S, C: W, D: N}\nhands: [{winner: A}]", r"hands\[0\]: a hand row needs"),
        ("players: {A: E, B: S, C: W, D: N}\nhands: [{penalty: late}]", r"hands\[0\]: a penalty needs"),
        ("players: {A: E, B: S, C: W, D: N}\nhands: [{draw: sideways}]", r"hands\[0\].draw"),
        ("players: {A: E, B: S, C: W, D: N}\nhands: [{hand: 1m, honba: two}]", r"hands\[0\].honba"),
        ("players: {A: E, B: S, C: W, E: N}\nhands: []", "named like a seat"),
        ("players: {A: E, B: S, C: W, D: N}\nhands: {a: 1}", "hands:"),
        ("[1, 2", "not valid YAML"),
    ],
)
def test_yaml_errors_name_the_row(text: str, message: str) -> None:
    with pytest.raises(SessionError, match=message):
        parse_yaml(text)


def test_csv_errors_name_the_line() -> None:
    with pytest.raises(SessionError, match="unknown CSV column 'colour'"):
        parse_csv("kind,colour\n")
    with pytest.raises(SessionError, match="line 2: kind 'hnad'"):
        parse_csv("kind,hand\nhnad,123m\n")
    with pytest.raises(SessionError, match="'kind' column"):
        parse_csv("a,b\n1,2\n")


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="no such file"):
        load_session(tmp_path / "nope.yaml")


# -- hostile files: a clear SessionError naming the field, never a traceback or a huge message ---
_BOMB = "\n".join(
    ["a: &a [x, x, x, x, x, x, x, x, x]"]
    + [f"{b}: &{b} [{', '.join(['*' + a] * 9)}]" for a, b in zip("abcdefg", "bcdefgh", strict=True)]
)
_PLAYERS = "players: {Anna: E, Bruno: S, Carla: W, Dario: N}\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("tournament: *h\n" + _PLAYERS + "hands: []", "tournament: expected a name or a number"),
        ("players: *h\nhands: []", "9 players"),
        (_PLAYERS + "hands: [{hand: '123m456p789s5556z ron 6z', winner: *h}]", r"hands\[0\]\.winner"),
        (_PLAYERS + "hands: [{hand: '123m ron 6z', winner: Anna, flags: *h}]", "expected a list"),
        (_PLAYERS + "hands: [{hand: '123m ron 6z', winner: Anna, options: {a: *h}}]", "NAME: value"),
        (_PLAYERS + "hands: [{draw: *h}]", r"hands\[0\]\.draw"),
        (_PLAYERS + "hands: *h", r"hands\[0\]: a row is an object"),
    ],
)
def test_alias_bombs_are_refused_with_a_short_message(body: str, message: str) -> None:
    with pytest.raises(SessionError, match=message) as exc:
        parse_yaml(_BOMB + "\n" + body)
    assert len(str(exc.value)) < 300


@pytest.mark.slow
def test_deep_nesting_and_long_numbers() -> None:
    with pytest.raises(SessionError, match="nested too deeply"):
        parse_yaml("players: " + "[" * 100_000)
    with pytest.raises(SessionError, match="4300 digits"):
        parse_yaml(_PLAYERS + "hands: [{penalty: late, player: Anna, minutes: " + "9" * 5000 + "}]")


# ---------------------------------------------------------------- the structured form (phone page)
def test_the_structured_form_and_a_photos_reading() -> None:
    from mahjong_camera_scorer.scoring.session.load import session_from_dict

    warning = "the winning tile is not set apart, taken as the rightmost tile"
    s = session_from_dict(
        {
            "players": [{"name": n, "seat": w} for n, w in zip("ABCD", "ESWN", strict=True)],
            "hands": [
                {
                    "photo": "1-hand.jpg",
                    "reading": {"hand": {"hand": "123m"}, "flagged": "4s at x=1 y=2", "warnings": [warning]},
                    "winner": "A",
                }
            ],
        }
    )
    row = s.rows[0]
    assert row.kind == "hand" and row.photo == "1-hand.jpg"
    # sentences stay whole (names and codes lists are split on spaces, these are not)
    assert row.reading.flagged == ["4s at x=1 y=2"] and row.reading.warnings == [warning]
    assert row.reading.needs_confirmation


@pytest.mark.parametrize(
    ("reading", "message"),
    [
        ({"hand": {"hand": "123m"}}, "names its photo"),
        ("123m", "a reading is"),
        ({"hand": "123m"}, "structured form"),
        ({"hand": {}, "tiles": 5}, "tiles"),
        ({"hand": {}, "flagged": [1]}, "flagged"),
    ],
)
def test_a_bad_reading_names_its_row(reading: object, message: str) -> None:
    from mahjong_camera_scorer.scoring.session.load import session_from_dict

    row: dict = {"reading": reading, "winner": "A"}
    if message != "names its photo":
        row["photo"] = "p.jpg"
    with pytest.raises(SessionError, match=message) as exc:
        session_from_dict(
            {"players": {"A": "E", "B": "S", "C": "W", "D": "N"}, "hands": [{"hand": "1m"}, row]}
        )
    assert "hands[1]" in str(exc.value)


@pytest.mark.parametrize(
    ("row", "where", "key"),
    [
        (
            {"hand": {"hand": "234m55p123456789s", "winning_tile": "9s", "flag": ["riichi"]}, "winner": "A"},
            "hands[0].hand",
            "flag",
        ),
        (
            {"hand": "123m", "winner": "A", "others": {"B": {"hand": "1m", "rol": "loser"}}},
            "hands[0].others.B",
            "rol",
        ),
    ],
)
def test_a_typed_hands_misspelled_key_is_the_files_error(row: dict, where: str, key: str) -> None:
    """A structured hand in a row is held to its form's keys as the row is read (issue 36 item 4):
    a file error naming the row (exit 2), never a line scored without the key's meaning."""
    from mahjong_camera_scorer.scoring.errors import UnknownKeyError
    from mahjong_camera_scorer.scoring.session.load import session_from_dict

    message = rf"^{re.escape(where)}: unknown key '{key}' \(known keys: "
    with pytest.raises(SessionError, match=message) as exc:
        session_from_dict({"players": {"A": "E", "B": "S", "C": "W", "D": "N"}, "hands": [row]})
    assert isinstance(exc.value, UnknownKeyError)  # the web answers it 422, as any misspelled key
