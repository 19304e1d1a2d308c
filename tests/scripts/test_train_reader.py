"""The reader trainer's choice of faces (scripts/train_reader.py); needs torch (the training venv)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

pytest.importorskip("torch")


@pytest.fixture(scope="module")
def tr():  # type: ignore[no-untyped-def]
    return load_script("train_reader")


def test_boosted_faces_are_those_codes_of_the_styles_named(tr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    for style in ("proc-beast-hk", "proc-beast-ivory", "proc-hk"):
        (tmp_path / style).mkdir()
        for code in ("6z", "7z", "1m"):
            (tmp_path / style / f"{code}.png").write_bytes(b"")
    faces = tr.face_items(tmp_path)
    boosted = tr.boosted_faces(faces, ["proc-beast:6z,7z=40"])
    assert sorted((p.parent.name, p.stem, n) for p, _, n in boosted) == [
        (s, c, 40) for s in ("proc-beast-hk", "proc-beast-ivory") for c in ("6z", "7z")
    ]
    assert tr.boosted_faces(faces, []) == []


@pytest.mark.parametrize("spec", ["proc-beast=4", "proc-beast:6z=x", "proc-beast:9z=3"])
def test_a_bad_boost_is_a_clear_error(tr, spec: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit, match="--boost"):
        tr.boosted_faces([], [spec])
