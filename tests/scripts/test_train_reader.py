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


def test_a_left_out_set_gives_no_crop_of_grid_or_camerash(tr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "crops.csv").write_text(
        "file,code,set,photo,box,read\n"
        'camerash-4/7z/4_0.jpg,7z,camerash-4,4.jpg,"[0, 0, 1, 1]",0m\n'
        'camerash-7/7z/7_0.jpg,7z,camerash-7,7.jpg,"[0, 0, 1, 1]",0m\n'
        'pr4/5z/15-1_0.jpg,5z,pr4,15-1.jpg,"[0, 0, 1, 1]",5z\n'
    )
    assert [p.parent.parent.name for p, _ in tr.grid_items(tmp_path, "camerash-4")] == ["camerash-7", "pr4"]
    assert len(tr.grid_items(tmp_path)) == 3 and tr.grid_items(tmp_path / "none") == []
    split = tmp_path / "split.csv"
    split.write_text(
        "crop,label,code,photo,match,runner_up,set,fold\n"
        "1.jpg,x,8f,1-3.jpg,0.9,0.7,1,train\n"
        "2.jpg,x,7z,4.jpg,0.9,0.7,4,test\n"
        "3.jpg,x,6z,7.jpg,0.9,0.7,7,test\n"
    )
    (tmp_path / "camerash").mkdir()

    def names(fold: str, leave_out: str = "") -> list[str]:
        return [p.name for p, _ in tr.camerash_items(fold, split, tmp_path / "camerash", leave_out)]

    assert names("train") == ["1.jpg"] and names("test") == ["2.jpg", "3.jpg"]
    assert names("all") == ["1.jpg", "2.jpg", "3.jpg"] and names("all", "camerash-4") == ["1.jpg", "3.jpg"]


def test_grid_crops_do_not_change_how_rare_each_class_looks(tr) -> None:  # type: ignore[no-untyped-def]
    items = [(Path("a"), 0, False, 0.0), (Path("b"), 1, "scene", -1.0)] + [(Path("g"), 0, "grid", -1.0)] * 50
    counts = tr.class_counts(items)
    assert counts[0] == 1 and counts[1] == 1 and counts.sum() == 2


def test_a_clock_budget_drives_the_schedule_and_the_stop(tr) -> None:  # type: ignore[no-untyped-def]
    assert tr.schedule(50, 100, elapsed=999.0, max_seconds=0) == 0.5  # no budget: by steps
    assert tr.schedule(10, 100_000, elapsed=30.0, max_seconds=60.0) == 0.5  # the clock is further on
    assert tr.schedule(90, 100, elapsed=1.0, max_seconds=60.0) == 0.9  # the steps are further on
    assert tr.schedule(1, 100_000, elapsed=61.0, max_seconds=60.0) >= 1.0  # time is up
