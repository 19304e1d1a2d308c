"""Issue 37 items 6-7 on taught sets: an imported set's version is the whole number 1 (``true`` and
``1.0`` equal 1 in Python, and were imported), its texts are kept bounded and listed escaped (a
3 MB ``added`` of escape codes was printed whole), a kill between an import's two renames leaves
a set that ``--list`` shows, and codes that teach nothing are refused."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.teach.codes import CodesError, parse_rows
from mahjong_camera_scorer.vision.teach.profile import Example, SetError, TileSet
from mahjong_camera_scorer.vision.teach.store import MAX_WORD, SetStore, read_export


def _export(tmp_path: Path, **changes: object) -> Path:
    """A valid export of a two-tile set, with ``changes`` made to its set.json (``examples`` keys
    go into every example)."""
    store = SetStore(tmp_path / "src")
    rng = np.random.default_rng(1)
    crops = [rng.integers(0, 255, (32, 32, 3), dtype=np.uint8) for _ in range(2)]
    store.save(TileSet("club", [Example("1m", crops[0]), Example("2m", crops[1])]))
    path = store.export("club", tmp_path / "club.mjset")
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    doc = json.loads(members["set.json"])
    for key, value in changes.items():
        if key == "examples":
            assert isinstance(value, dict)
            for e in doc["examples"]:
                e.update(value)
        else:
            doc[key] = value
    members["set.json"] = json.dumps(doc).encode()
    out = tmp_path / "hostile.mjset"
    with zipfile.ZipFile(out, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    return out


@pytest.mark.parametrize("version", [True, 1.0, "1", [1], None, 2])
def test_only_version_1_is_imported(version: object, tmp_path: Path) -> None:
    with pytest.raises(SetError, match="this program reads version 1") as caught:
        read_export(_export(tmp_path, version=version))
    assert len(str(caught.value)) < 300


@pytest.mark.models
def test_an_imported_sets_texts_are_bounded_and_listed_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = "\x1b[2J\x1b]0;owned\x07" + "A" * 1_500_000  # 3 MB over the two examples
    ts = read_export(_export(tmp_path, examples={"added": hostile}))
    assert all(len(e.added) <= MAX_WORD for e in ts.examples)
    profile = tmp_path / "sets"
    SetStore(profile).replace(ts)
    parser, _ = build_parser()
    out = io.StringIO()
    assert run(parser, ["teach", "--profile", str(profile), "--list", "--set", "club"], out) == 0
    listed = out.getvalue() + capsys.readouterr().err
    assert "\x1b" not in listed and "\x07" not in listed and len(listed) < 2000


def test_a_kill_between_an_imports_renames_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "sets"
    store = SetStore(profile)
    store.replace(read_export(_export(tmp_path)))
    # killed after the old folder went aside and before the new one came in
    (profile / "club").rename(profile / ".club.removed")
    (profile / ".club.removed").rename(profile / ".club.new")
    parser, _ = build_parser()
    out = io.StringIO()
    assert run(parser, ["teach", "--profile", str(profile), "--list"], out) == 0
    assert "club: 2 tiles" in out.getvalue(), out.getvalue() + capsys.readouterr().err
    assert (profile / "club" / "set.json").is_file() and not (profile / ".club.new").exists()


@pytest.mark.parametrize("codes", ["x", "xxx xxx", "x / x x", "xx | x"])
def test_codes_that_teach_nothing_are_refused(codes: str) -> None:
    with pytest.raises(CodesError, match="no tile to teach"):
        parse_rows(codes)


def test_all_x_codes_exit_2_and_make_no_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.vision.support import EXAMPLE

    profile = tmp_path / "sets"
    parser, _ = build_parser()
    argv = ["teach", "--profile", str(profile), "--set", "club", str(EXAMPLE), "xxx xxx"]
    code = run(parser, argv, io.StringIO())
    err = capsys.readouterr().err
    assert code == 2 and "no tile to teach" in err and err.count("\n") == 1
    assert not (profile / "club").exists()


def test_codes_beginning_with_a_dash_are_told_to_go_after_double_dash(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser, _ = build_parser()
    with pytest.raises(SystemExit) as exited:  # argparse's own exit, with its status 2
        run(parser, ["teach", "--set", "club", "photo.jpg", "-123m"], io.StringIO())
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.count("\n") == 2  # argparse's usage line, then the one error
    assert "unrecognized arguments: -123m" in err and "goes after '--'" in err
    args = parser.parse_args(["teach", "--set", "club", "--", "photo.jpg", "-123m"])
    assert args.items == ["photo.jpg", "-123m"]
