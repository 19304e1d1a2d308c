"""CSV cells a spreadsheet would run as formulas are written as text (scoring.csv_cells), in
the session sheet's CSV (the command line's and the page's export) and the photos batch's."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring import cli
from mahjong_camera_scorer.scoring.csv_cells import plain_cell, safe_cell

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+cmd", "'+cmd"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-5", "-5"),
        ("+3.5", "+3.5"),
        ("-1e3", "-1e3"),
        ("Anna", "Anna"),
        (-8, -8),
    ],
)
def test_cells(value: object, written: object) -> None:
    assert safe_cell(value) == written
    if isinstance(value, str):
        assert plain_cell(str(written)) == value


def test_the_session_csv_neutralises_names(tmp_path: Path) -> None:
    text = (EXAMPLES / "session-mcr.yaml").read_text().replace("Anna", "=HYPERLINK(x)")
    (tmp_path / "s.yaml").write_text(text)
    out = tmp_path / "s.csv"
    parser, _ = cli.build_parser()
    code = cli.run(
        parser, ["session", str(tmp_path / "s.yaml"), "--rules", "mcr", "--csv", str(out)], io.StringIO()
    )
    assert code in (0, 1)
    cells = [c for row in csv.reader(io.StringIO(out.read_text())) for c in row]
    assert "'=HYPERLINK(x)" in " ".join(cells) and not any(c.startswith("=") for c in cells)
