"""``mahjong-score session``: the sheet in the terminal, CSV, JSON and HTML files, the ranking,
exit statuses and one-line errors."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring import cli

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    parser, _ = cli.build_parser()
    return cli.run(parser, argv, out), out.getvalue()


def test_mcr_session_outputs(tmp_path: Path) -> None:
    csv_path, json_path, html_path = tmp_path / "s.csv", tmp_path / "s.json", tmp_path / "s.html"
    code, out = run(
        [
            "session",
            str(EXAMPLES / "session-mcr.yaml"),
            "--rules",
            "mcr",
            "--csv",
            str(csv_path),
            "--out-json",
            str(json_path),
            "--html",
            str(html_path),
        ]
    )
    assert code == 0
    assert "Punti Tavolo" in out and "Mini Punti" in out
    doc = json.loads(json_path.read_text())
    assert doc["complete"] and doc["hands_played"] == 16 and len(doc["penalties"]) == 3
    assert sum(doc["totals"].values()) == -20  # the late arrival and the forgotten tile
    assert sorted(doc["closing"]["table_points"].values()) == [0, 1, 2, 4]
    rows = list(csv.reader(io.StringIO(csv_path.read_text())))
    assert rows[0][:3] == ["hand", "kind", "status"] and rows[-1][0] == "Punti Tavolo (4/2/1/0)"
    assert [r[0] for r in rows[1:] if r[1] == "hand"] == [str(i) for i in range(1, 17) if i not in (4, 11)]
    html = html_path.read_text()
    assert "Punti Tavolo" in html and "Mini Punti" in html and "Firma" in html and "Cambio posti" in html
    assert html.count('<tr class="') == 19  # 16 hands and 3 penalties


def test_json_on_stdout_and_the_ranking(tmp_path: Path) -> None:
    other = (EXAMPLES / "session-mcr.yaml").read_text().replace("session: 1", "session: 2")
    other = other.replace("winner: Anna", "winner: Dario").replace("table: 3", "table: 4")
    (tmp_path / "s2.yaml").write_text(other)
    code, out = run(
        ["session", str(EXAMPLES / "session-mcr.yaml"), str(tmp_path / "s2.yaml"), "--rules", "mcr", "--json"]
    )
    doc = json.loads(out)
    assert code == 0 and len(doc["sheets"]) == 2
    rank = doc["ranking"]
    assert [r["rank"] for r in rank] == sorted(r["rank"] for r in rank)
    keys = [(-r["table_points"], -r["mini_punti"]) for r in rank]
    assert keys == sorted(keys) and all(r["sessions"] == 2 for r in rank)


def test_pending_rows_exit_1(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "players: {A: E, B: S, C: W, D: N}\n"
        "hands:\n  - {hand: '123m456p789s1234z ron 5z', winner: A, discarder: B}\n"
    )
    code, out = run(["session", str(tmp_path / "s.yaml"), "--rules", "mcr"])
    assert code == 1 and "NOT COMPLETE" in out and "not a valid win" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("players: {A: E}\nhands: []\n", "four players"),
        (
            "players: {A: E, B: S, C: W, D: N}\nhands: [{penalty: shouting, player: A}]\n",
            "unknown MCR penalty",
        ),
        ("rules: riichi\nplayers: {A: E, B: S, C: W, D: N}\nhands: []\n", "for riichi, not mcr"),
    ],
)
def test_bad_files_are_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, message: str
) -> None:
    path = tmp_path / "s.yaml"
    if content is not None:
        path.write_text(content)
    code, out = run(["session", str(path), "--rules", "mcr"])
    err = capsys.readouterr().err
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mahjong-score: error:") and message in err


def test_html_sheet_takes_thumbnails_from_the_caller_and_reads_no_disk() -> None:
    from mahjong_camera_scorer.scoring.session.engine import run_session
    from mahjong_camera_scorer.scoring.session.html import sheet_html
    from mahjong_camera_scorer.scoring.session.load import session_from_dict
    from mahjong_camera_scorer.scoring.session.photo import PhotoHand

    reading = {"hand": {"hand": "123m456p789s55566z", "winning_tile": "6z"}}
    rows = [
        {"photo": "1-a.jpg", "reading": reading, "winner": "A", "discarder": "B"},
        {"photo": "pyproject.toml", "reading": reading, "winner": "B", "discarder": "C"},
    ]
    doc = {"players": {"A": "E", "B": "S", "C": "W", "D": "N"}, "hands": rows}
    sheet = run_session(session_from_dict(doc), "mcr", read_photo=lambda p: PhotoHand(None))
    html = sheet_html(sheet, ".", thumbs={"1-a.jpg": "data:image/jpeg;base64,AAAA"})
    assert html.count("<img") == 1 and 'src="data:image/jpeg;base64,AAAA"' in html
    assert 'pyproject.toml"' not in html  # a photo the caller has no picture of gets none
