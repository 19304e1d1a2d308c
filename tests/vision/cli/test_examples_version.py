"""``mahjong-score examples`` (copy the bundled examples out) and ``mahjong-score --version``;
where the bundled data is found (:mod:`vision.bundled`)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import mahjong_camera_scorer.vision.bundled
from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision import __version__
from mahjong_camera_scorer.vision.cli import build_parser, main
from mahjong_camera_scorer.vision.cli.version import version_text
from mahjong_camera_scorer.vision.examples import bundled_examples, copy_examples
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE, SMALL_DETECTOR_FILE


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return run(build_parser()[0], argv, out), out.getvalue()


def test_examples_copies_every_example_and_keeps_what_is_there(tmp_path: Path) -> None:
    dest = tmp_path / "ex"
    dest.mkdir()
    (dest / "hand.json").write_text("my own edit")
    code, out = _run(["examples", str(dest)])
    assert code == 0
    names = {p.name for p in bundled_examples()}
    assert {p.name for p in dest.iterdir()} == names
    assert (dest / "hand.json").read_text() == "my own edit" and "kept" in out and "hand.json" in out
    assert (dest / "hand.jpg").read_bytes()[:2] == b"\xff\xd8"
    assert "mahjong-score photo" in out


def test_examples_into_a_file_is_one_error_line(tmp_path: Path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert _run(["examples", str(blocker / "sub")])[0] == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot copy the examples" in err


def test_copy_examples_from_an_empty_folder_says_so(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    with pytest.raises(FileNotFoundError, match="no bundled examples"):
        copy_examples(tmp_path / "dest", tmp_path / "src")


@pytest.mark.skipif(
    not (MODELS_DIR / DETECTOR_FILE).is_file() or not (MODELS_DIR / READER_FILE).is_file(),
    reason="models/*.onnx not built yet",
)
@pytest.mark.models  # it loads them for their metadata (unseen while version.py bound load_model early)
def test_version_prints_the_version_and_each_model_s_training_entry(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"mahjong-score {__version__}" and lines[1] == f"models: {MODELS_DIR}"
    names = (DETECTOR_FILE, READER_FILE, SMALL_DETECTOR_FILE)  # the shipped folder has all three
    for line, name in zip(lines[2:], names, strict=True):
        head, _, entry = line.partition(": training ")
        assert head == name and isinstance(json.loads(entry), dict), line


def test_version_with_the_models_missing_still_prints_the_version(tmp_path: Path) -> None:
    lines = version_text(models_dir=tmp_path).splitlines()
    assert lines[0] == f"mahjong-score {__version__}"
    assert lines[2].startswith(f"{DETECTOR_FILE}: model not found") and len(lines) == 4


def test_installed_the_data_is_the_package_s_own(tmp_path: Path, monkeypatch) -> None:
    """Outside a checkout (no pyproject.toml beside vision/) the folder is the import package's,
    through importlib.resources; a checkout's own folder comes first."""
    package = tmp_path / "somewhere" / "fake_bundle"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(package.parent))
    site = tmp_path / "site"
    (site / "models").mkdir(parents=True)  # a folder named like the checkout's, but no pyproject.toml
    monkeypatch.setattr(mahjong_camera_scorer.vision.bundled, "_ROOT", site)
    assert mahjong_camera_scorer.vision.bundled.bundled_dir("fake_bundle", "models") == package
    assert (
        mahjong_camera_scorer.vision.bundled.bundled_dir("no_such_bundle", "models")
        == site / "no_such_bundle"
    )
    (site / "pyproject.toml").write_text("")
    assert mahjong_camera_scorer.vision.bundled.bundled_dir("fake_bundle", "models") == site / "models"
