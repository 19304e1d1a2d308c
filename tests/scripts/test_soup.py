"""What the two weight-averaging scripts check before averaging (scripts/_soup.py; no torch needed)."""

from __future__ import annotations

from pathlib import Path

from tests.scripts.scriptutil import load_script


def test_two_existing_checkpoints_are_needed(tmp_path: Path) -> None:
    soup = load_script("_soup")
    a, b = tmp_path / "a.pt", tmp_path / "b.pt"
    a.write_bytes(b"x")
    assert soup.input_error([a]) == "error: give two or more checkpoints to average"
    assert soup.input_error([a, b]) == f"error: no such checkpoint: {b}"
    b.write_bytes(b"x")
    assert soup.input_error([a, b]) is None
