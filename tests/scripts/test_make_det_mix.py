"""The detector's training mix: real pictures, spread synthetic photos, real val only."""

from __future__ import annotations

from pathlib import Path

from tests.scripts.scriptutil import load_script

mix = load_script("make_det_mix")


def _set(root: Path, split: str, n: int, prefix: str) -> None:
    (root / "images" / split).mkdir(parents=True)
    (root / "labels" / split).mkdir(parents=True)
    for i in range(n):
        (root / "images" / split / f"{prefix}{i:03d}.jpg").write_bytes(b"\xff\xd8")
        (root / "labels" / split / f"{prefix}{i:03d}.txt").write_text("0 0.5 0.5 0.1 0.2\n")


def test_spread_takes_evenly_and_never_more_than_there_is() -> None:
    items = [Path(str(i)) for i in range(100)]
    assert [p.name for p in mix.spread(items, 4)] == ["0", "25", "50", "75"]
    assert mix.spread(items[:3], 10) == items[:3]
    assert mix.spread(items, 0) == []


def test_mix_lists_real_and_synthetic_pictures_with_their_labels(tmp_path: Path) -> None:
    real, synth, out = tmp_path / "real", tmp_path / "synth", tmp_path / "mix"
    _set(real, "train", 5, "r")
    _set(real, "val", 2, "v")
    _set(synth, "train", 20, "s")
    (synth / "labels" / "train" / "s019.txt").unlink()  # a picture without labels is not used
    argv = ["--out", str(out), "--real", str(real), "--synth", str(synth), "--synth-count", "4"]
    assert mix.main([*argv, "--grids", "0"]) == 0
    train = (out / "train.txt").read_text().split()
    assert len(train) == 5 + 4 and len([t for t in train if "/syn0_" in t]) == 4
    for line in train:  # ultralytics finds each label by replacing /images/ with /labels/
        label = Path(line.replace("/images/", "/labels/")).with_suffix(".txt")
        assert label.is_file()
    assert len((out / "val.txt").read_text().split()) == 2
    assert "val: val.txt" in (out / "data.yaml").read_text()


def test_mix_without_real_photos_is_a_clear_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert mix.main(["--out", str(tmp_path / "m"), "--real", str(tmp_path / "none"), "--grids", "0"]) == 2
    assert "real_photos.py" in capsys.readouterr().err
