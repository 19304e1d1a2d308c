"""Photo manifests: one line per photo; a bad line is that line's error, the others stand; one
table's lines become its session."""

from __future__ import annotations

import io
import re
import shlex
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.manifest import (
    ManifestError,
    parse_manifest,
    session_from_manifest,
)
from mahjong_camera_scorer.scoring.session.model import Session, SessionError
from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.scoring.structured import hand_from_dict, hand_to_dict
from tests.vision.support import models_present

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
README = EXAMPLES.parent / "README.md"

COLUMNS = "photo,table,hand,seat,round,win_by,discarder,flags,riichi,dora,ura,honba,sticks,winning_tile"
SECOND = 't3-h02.jpg,3,2,W,east,tsumo,,"ippatsu, last_tile",W S,3m 7z,1p,1,2,4s,'
MANIFEST = f"""{COLUMNS},options,confirmed,note
t3-h01.jpg,3,1,E,E,ron,S,,,,,,,,,,
{SECOND}red_fives=false; five_counters=yes,yes,checked
,,,,,,,,,,,,,,,,
#t3-h03.jpg,3,3,N,,,,,,,,,,,,,
t3-h04.jpg,3,4,Q,,,,,,,,,,,,,
t3-h05.jpg,3,5,E,,bad,,,,,,,,,,,
t3-h06.jpg,3,6,E,,,,,,9x,,,,,,,
t3-h07.jpg,3,7,E,,,,,,,,1e29,,,,,
t3-h08.jpg,3,8,E,,,,,,,,true,,,,,
t3-h09.jpg,3,9,E,,,,,,,,101,,,,,
t3-h10.jpg,3,10,E,,,,Ippatsu!,,,,,,,,,
t3-h11.jpg,3,11,E,,,,,,,,,,45m,,,
t3-h12.jpg,3,12,E,,,,,,,,,,,nonsense,,
t3-h01.jpg,3,13,E,,,,,,,,,,,,,
,3,14,E,,,,,,,,,,,,,
t3-h15.jpg,3,15,E,,,,,,,,٣,,,,,
t4-h01.jpg,4,1,E,,,,,,,,,,,,maybe,
"""


def test_each_line_is_read_and_a_bad_line_is_its_own_error() -> None:
    rows = parse_manifest(MANIFEST)
    by_hand = {r.hand: r for r in rows if r.table == "3"}
    assert "3" not in by_hand  # a line whose photo starts with # is a comment; empty lines are skipped
    first, second = by_hand["1"], by_hand["2"]
    assert first.error is None and (first.seat, first.win_by, first.discarder) == ("E", "discard", "S")
    assert second.error is None
    assert (second.seat, second.round, second.win_by) == ("W", "E", "self_draw")
    assert second.flags == ["ippatsu", "last_tile"] and second.riichi == ["W", "S"]
    assert (second.dora, second.ura, second.honba, second.sticks) == (["3m", "7z"], ["1p"], 1, 2)
    assert second.winning_tile == "4s" and second.confirmed and second.note == "checked"
    assert second.options == {"red_fives": "false", "five_counters": "yes"}
    expected = {
        # the situation's words read as on every front end, with the one message (issue 35 item 3)
        "4": "seat must be E, S, W or N",
        "5": "win_by",
        "6": "dora",
        "7": "honba: a whole number 0..100, not '1e29'",
        "8": "honba: a whole number 0..100, not 'true'",
        "9": "honba: a whole number 0..100, not 101",
        "10": "flags: 'Ippatsu!' is not a flag name",
        "11": "winning_tile: one tile code",
        "12": "options: NAME=VALUE",
        "13": "t3-h01.jpg is listed twice (first on line 2)",
        "14": "no photo named",
        "15": "honba: a whole number",  # Arabic-Indic digits are not read as ASCII ones
    }
    for hand, words in expected.items():
        row = by_hand[hand]
        assert row.error and words in row.error and row.error.startswith("manifest line "), (hand, row.error)
    assert by_hand["1"].error is None and "confirmed" in by_hand["1"].__slots__
    assert "confirmed: yes or no" in (rows[-1].error or "")
    assert [r.line for r in rows][:2] == [2, 3]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("file,seat\nx.jpg,E\n", "'photo' column"),
        ("photo,seat,colour\nx.jpg,E,red\n", "unknown manifest column 'colour'"),
        ("photo,seat,Seat\nx.jpg,E,E\n", "named twice"),
        ("", "'photo' column"),
    ],
)
def test_a_manifest_that_cannot_be_one_is_refused_whole(text: str, words: str) -> None:
    with pytest.raises(ManifestError, match=words):
        parse_manifest(text)


def test_cells_and_lines_are_bounded() -> None:
    rows = parse_manifest("photo,note\nx.jpg," + "n" * 5000 + "\ny.jpg,ok,extra\n")
    assert "longer than 200" in (rows[0].error or "") and len(rows[0].error or "") < 200
    assert "more cells than the header" in (rows[1].error or "")
    with pytest.raises(ManifestError, match="more than 10000 lines"):
        parse_manifest("photo\n" + "".join(f"p{i}.jpg\n" for i in range(10_001)))


# ------------------------------------------------------------------------------------------------
# one table's lines as its session
# ------------------------------------------------------------------------------------------------
TABLES = """photo,table,hand,seat,win_by,discarder,riichi,dora,confirmed
a1.jpg,1,1,S,tsumo,,S,1z,
b1.jpg,2,1,E,ron,W,,,yes
a2.jpg,1,2,W,tsumo,,,,yes
"""
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def test_one_tables_lines_become_its_session() -> None:
    session = session_from_manifest(parse_manifest(TABLES), PLAYERS, "1", "photos")
    assert session.table == "1" and session.base_dir == "photos"
    assert [(p.name, p.seat) for p in session.players] == list(zip(PLAYERS, "ESWN", strict=True))
    first, second = session.rows
    assert (first.photo, first.winner, first.win_by, first.riichi, first.dora) == (
        "a1.jpg",
        "S",
        "self_draw",
        ["S"],
        ["1z"],
    )
    assert (second.photo, second.confirmed, second.line) == ("a2.jpg", True, "manifest line 4")


@pytest.mark.parametrize(
    ("text", "players", "table", "words"),
    [
        (TABLES, PLAYERS, None, r"several tables \(1, 2\): choose one with --table"),
        (TABLES, PLAYERS, "9", "no photo of table '9'"),
        (TABLES, PLAYERS[:3], "1", "four players"),
        ("photo,table,seat\na.jpg,1,\n", PLAYERS, None, "manifest line 2: seat: give the winner's seat"),
        ("photo,table,seat\na.jpg,1,X\n", PLAYERS, None, "manifest line 2: seat must be E, S, W or N"),
        ("photo,table\n", PLAYERS, None, "lists no photo"),
    ],
)
def test_a_session_from_a_manifest_names_what_is_wrong(
    text: str, players: list[str], table: str | None, words: str
) -> None:
    with pytest.raises(SessionError, match=words):
        session_from_manifest(parse_manifest(text), players, table)


def test_the_session_scores_each_photo_in_the_lines_context(tmp_path: Path) -> None:
    """The photos are read by the reader the engine is given (here: each file's typed hand)."""
    hands = {
        "a1.jpg": "234m55p12345678s tsumo 9s",  # Bruno (S) wins by self-draw after riichi
        "a2.jpg": "123m456p789s5556z tsumo 6z",
    }

    def read(path: Path) -> PhotoHand:
        data = hand_to_dict(parse_hand(hands[path.name]))
        shown = ("hand", "melds", "winning_tile", "bonus_tiles")
        return PhotoHand(hand_from_dict({k: data[k] for k in shown}))

    for name in hands:
        (tmp_path / name).touch()
    session = session_from_manifest(parse_manifest(TABLES), PLAYERS, "1", str(tmp_path))
    sheet = run_session(session, "riichi", read_photo=read)
    first, second = sheet.lines
    assert first.status == "scored", first.notes
    assert first.winner == "Bruno" and first.status == "scored" and "Riichi" in first.elements
    assert first.deltas["Bruno"] > 0 and sum(first.deltas.values()) == 0
    assert second.winner == "Dario" and second.status == "scored"  # W at hand 2: the deal passed
    assert sheet.complete


def read_a_jpg(path: Path) -> PhotoHand:
    """Every photo reads as this concealed hand, its winning tile apart (9s)."""
    return PhotoHand(hand_from_dict({"hand": "234m55p123456789s", "winning_tile": "9s", "melds": []}))


def photo_session(tmp_path: Path, text: str) -> Session:
    """The session of a manifest whose photo ``a.jpg`` is in ``tmp_path`` (read by read_a_jpg)."""
    (tmp_path / "a.jpg").touch()
    return session_from_manifest(parse_manifest(text), PLAYERS, None, str(tmp_path))


def test_a_manifests_winning_tile_is_the_photos(tmp_path: Path) -> None:
    text = "photo,seat,win_by,winning_tile,confirmed\na.jpg,S,tsumo,5p,yes\n"
    line = run_session(photo_session(tmp_path, text), "riichi", read_photo=read_a_jpg).lines[0]
    assert line.status == "scored", line.notes
    assert line.status == "scored" and "tsumo 5p" in line.hand


def test_riichi_columns_are_refused_under_another_system_not_dropped(tmp_path: Path) -> None:
    # the old bundled line: a riichi hand in mid-game; under MCR its counters, declaration and dora
    # were checked against riichi's count ("honba 1, the session counts 0") or dropped in silence
    text = "photo,seat,win_by,riichi,dora,honba,sticks\na.jpg,W,self_draw,W,3m,1,1\n"
    session, read = photo_session(tmp_path, text), read_a_jpg
    with pytest.raises(
        SessionError, match=r"line 2\.honba: honba, sticks, riichi, dora are riichi's; mcr has"
    ):
        run_session(session, "mcr", read_photo=read)
    with pytest.raises(SessionError, match="the file says honba 1, the session counts 0"):
        run_session(session, "riichi", read_photo=read)  # a first hand has no counters yet
    sheet = run_session(photo_session(tmp_path, text.replace(",1,1\n", ",,\n")), "riichi", read_photo=read)
    assert sheet.complete and "Riichi" in sheet.lines[0].elements


@pytest.mark.slow
@pytest.mark.models
@pytest.mark.skipif(not models_present(), reason="the shipped models are not in models/")
def test_the_readmes_manifest_session_runs_as_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 36 item 6: the README's command, exactly as it is printed there, with the bundled
    # manifest and photo, prints what the README shows (before: "manifest line 2: the file says
    # honba 1, the session counts 0")
    from mahjong_camera_scorer.scoring.cli import run
    from mahjong_camera_scorer.vision.cli import build_parser

    text = README.read_text(encoding="utf-8")
    block = re.search(r"```text\n\$ (mahjong-score session --manifest examples/[^\n]*)\n(.*?)```", text, re.S)
    assert block, "the README shows the manifest session with its output"
    command, shown = block.group(1), block.group(2)
    argv = shlex.split(command)[1:]
    assert argv[argv.index("--rules") + 1] == "mcr" and "examples/photos-manifest.csv" in argv
    monkeypatch.chdir(README.parent)
    out = io.StringIO()
    parser, _ = build_parser()
    assert run(parser, argv, out) == 0
    assert out.getvalue() == shown
