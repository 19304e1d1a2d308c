"""``scripts/render_scenes.py``: its checks before Blender is needed, and the crop list it rebuilds
after each photo (a stopped run leaves a usable dataset)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script

render_scenes = load_script("render_scenes")


@pytest.mark.parametrize(
    "argv", [["--count", "0"], ["--samples", "0"], ["--img-size", "32"], ["--automatic-fraction", "0.9"]]
)
def test_bad_arguments_are_said_before_anything_renders(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert render_scenes.main(["--out", str(tmp_path / "r"), *argv]) == 2
    assert "error:" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


@pytest.mark.skipif(importlib.util.find_spec("bpy") is not None, reason="bpy is installed here")
def test_without_blender_it_says_which_venv_to_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert render_scenes.main(["--out", str(tmp_path / "r"), "--count", "1"]) == 2
    err = capsys.readouterr().err
    assert "bpy" in err and ".venv-render" in err and "STAGE=render" in err


def test_the_crop_list_is_every_photos_rows_in_order(tmp_path: Path) -> None:
    rows = tmp_path / "cls" / "rows"
    rows.mkdir(parents=True)
    (rows / "000001.csv").write_text("train/1m/000001_00.jpg,1m,upright,0,0,1,000001,0\n")
    (rows / "000000.csv").write_text("val/back/000000_00.jpg,back,upright,0,0,1,000000,0\n")
    render_scenes.crops_csv(tmp_path)
    lines = (tmp_path / "cls" / "crops.csv").read_text().splitlines()
    assert lines[0].startswith("file,class,")
    assert [line.split(",")[0] for line in lines[1:]] == ["val/back/000000_00.jpg", "train/1m/000001_00.jpg"]
