"""Taught sets that lose nothing: changes under the set's lock (two processes at once), a
replace that survives kill -9, a kill's leftovers cleaned, one bad crop or set skipped."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore

ROOT = Path(__file__).resolve().parents[3]


def _crop(value: int) -> np.ndarray:
    return np.random.default_rng(value).integers(0, 255, (96, 96, 3), dtype=np.uint8)


def _teach_many(root: str, seed: int, n: int, barrier) -> None:
    """One ``teach`` run's way into the set: load, add, save, many times over."""
    import mahjong_camera_scorer.vision.teach.store as store

    s = store.SetStore(root)
    barrier.wait()
    for k in range(n):
        s.update("club", lambda ts, k=k: ts.add([Example("1m", _crop(seed * 1000 + k))]), create=True)


@pytest.mark.slow
def test_two_processes_teaching_one_set_keep_both_runs_tiles(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_teach_many, args=(str(tmp_path), s, 15, barrier)) for s in (1, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    ts = SetStore(tmp_path).load("club")
    assert len(ts) == 30 and not ts.broken


def test_replace_killed_midway_keeps_a_whole_set(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    store.save(TileSet("club", [Example("1m", _crop(k)) for k in range(3)]))
    # a replace killed (-9) after writing the new set, before its renames: the old set stays
    script = (
        "import os, sys, numpy as np\n"
        "from mahjong_camera_scorer.vision.teach import store as s\n"
        "from mahjong_camera_scorer.vision.teach.profile import Example, TileSet\n"
        "real = s.Path.rename\n"
        "def rename(self, target):\n"
        "    if self.name == 'club': os.kill(os.getpid(), 9)\n"
        "    return real(self, target)\n"
        "s.Path.rename = rename\n"
        "crops = [np.full((96, 96, 3), k, np.uint8) for k in range(5)]\n"
        f"s.SetStore({str(tmp_path)!r}).replace(TileSet('club', [Example('2m', c) for c in crops]))\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'datasets'}"}
    done = subprocess.run([sys.executable, "-c", script], env=env, timeout=60)
    assert done.returncode == -signal.SIGKILL
    ts = store.load("club")
    assert len(ts) == 3 and not ts.broken
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == ["club"]
    store.replace(TileSet("club", [Example("2m", _crop(9))]))
    assert store.load("club").codes() == {"2m": 1}


def test_a_kill_between_the_renames_is_finished_on_the_next_open(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    store.save(TileSet("club", [Example("1m", _crop(1))]))
    (tmp_path / "club").rename(tmp_path / ".club.removed")
    new = SetStore(tmp_path / "elsewhere")
    new.save(TileSet("club", [Example("5p", _crop(2))]))
    (tmp_path / "elsewhere" / "club").rename(tmp_path / ".club.new")
    assert store.exists("club") and store.load("club").codes() == {"5p": 1}
    assert not (tmp_path / ".club.removed").exists() and not (tmp_path / ".club.new").exists()


def test_tmp_files_of_a_killed_save_are_cleaned_on_the_next_open(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    store.save(TileSet("club", [Example("1m", _crop(1))]))
    (tmp_path / "club" / "crops" / ".abcd.png.x1.tmp").write_bytes(b"half")
    (tmp_path / "club" / ".set.json.x2.tmp").write_bytes(b"half")
    store.load("club")
    assert not list((tmp_path / "club").rglob("*.tmp"))


def test_a_bad_crop_is_skipped_reported_and_removable(tmp_path: Path) -> None:
    store = SetStore(tmp_path)
    ts = TileSet("club", [Example("1m", _crop(1)), Example("2m", _crop(2)), Example("3m", _crop(3))])
    store.save(ts)
    bad = ts.examples[1].id
    (tmp_path / "club" / "crops" / f"{bad}.png").write_bytes(b"not a png")
    back = store.load("club")
    assert [e.code for e in back.examples] == ["1m", "3m"] and [b["id"] for b in back.broken] == [bad]
    store.update("club", lambda t: t.add([Example("4m", _crop(4))]))  # a change keeps it on disk
    assert len(json.loads((tmp_path / "club" / "set.json").read_text())["examples"]) == 4
    store.update("club", lambda t: t.remove([bad]))
    back = store.load("club")
    assert not back.broken and len(back) == 3 and not (tmp_path / "club" / "crops" / f"{bad}.png").exists()


def test_list_skips_a_corrupt_set_and_a_bad_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mahjong_camera_scorer.scoring.cli import run
    from mahjong_camera_scorer.vision.cli import build_parser

    store = SetStore(tmp_path)
    store.save(TileSet("good", [Example("1m", _crop(1))]))
    store.save(TileSet("bad", [Example("1m", _crop(1))]))
    (tmp_path / "bad" / "set.json").write_text("{")
    (tmp_path / "not a\tname").mkdir()
    (tmp_path / "not a\tname" / "set.json").write_text("{}")
    parser, _ = build_parser()
    out = io.StringIO()
    code = run(parser, ["teach", "--profile", str(tmp_path), "--list"], out=out)
    err = capsys.readouterr().err
    assert code == 0 and "good: 1 tiles" in out.getvalue()
    assert "set 'bad' cannot be read" in err and "not a set's folder name" in err and "\t" not in err


def test_crop_errors_say_what_a_crop_may_be() -> None:
    import cv2

    from mahjong_camera_scorer.vision.teach.profile import SetError
    from mahjong_camera_scorer.vision.teach.store import _crop_from

    with pytest.raises(SetError, match=r"too large for a tile crop \(256x256 at most\)"):
        _crop_from(cv2.imencode(".png", np.zeros((300, 300, 3), np.uint8))[1].tobytes(), "c.png")
    with pytest.raises(SetError, match="too small for a tile crop"):
        _crop_from(cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))[1].tobytes(), "c.png")


def test_an_import_that_is_not_a_file_says_what_it_is(tmp_path: Path) -> None:
    from mahjong_camera_scorer.vision.teach.profile import SetError
    from mahjong_camera_scorer.vision.teach.store import read_export

    os.mkfifo(tmp_path / "p.mjset")
    with pytest.raises(SetError, match="is a FIFO"):
        read_export(tmp_path / "p.mjset")
    with pytest.raises(SetError, match="is a folder"):
        read_export(tmp_path)


@pytest.mark.models
def test_text_from_an_import_is_listed_without_control_characters(tmp_path: Path, capsys) -> None:
    from mahjong_camera_scorer.scoring.cli import run
    from mahjong_camera_scorer.vision.cli import build_parser

    ts = TileSet(
        "club", [Example("1m", _crop(1), source="\x1b[2J\x1b]0;owned\x07photo.jpg")], note="\x1b[31mred"
    )
    SetStore(tmp_path).save(ts)
    parser, _ = build_parser()
    out = io.StringIO()
    assert run(parser, ["teach", "--profile", str(tmp_path), "--list", "--set", "club"], out=out) == 0
    text = out.getvalue() + capsys.readouterr().err
    assert "\x1b" not in text and "\x07" not in text and "photo.jpg" in text and "red" in text


def test_a_huge_codes_file_is_refused_and_a_mismatch_report_is_bounded(tmp_path: Path, capsys) -> None:
    from mahjong_camera_scorer.scoring.cli import run
    from mahjong_camera_scorer.vision.cli import build_parser

    d = tmp_path / "in"
    d.mkdir()
    (d / "a.jpg").write_bytes((ROOT / "examples" / "hand.jpg").read_bytes())
    (d / "a.txt").write_text("1m " * 400_000)
    parser, _ = build_parser()
    code = run(
        parser, ["teach", "--profile", str(tmp_path), "--set", "x", "--from", str(d)], out=io.StringIO()
    )
    err = capsys.readouterr().err
    assert code == 2 and "too large for a codes file" in err and len(err) < 500
    (d / "a.txt").write_text(" / ".join(["1m 2m 3m " * 100] * 100))  # 100 rows of 300 codes
    code = run(
        parser, ["teach", "--profile", str(tmp_path), "--set", "x", "--from", str(d)], out=io.StringIO()
    )
    err = capsys.readouterr().err
    assert code == 2 and len(err) < 10_000, len(err)


def test_a_set_read_while_it_is_saved_is_always_whole(tmp_path: Path) -> None:
    """One thread takes tiles out and puts new ones in; another reads the set meanwhile: every
    read is a whole set (never a set.json naming a crop the save just deleted)."""
    import threading

    store = SetStore(tmp_path)
    store.save(TileSet("club", [Example("1m", _crop(k)) for k in range(6)]))
    stop, problems = threading.Event(), []

    def change() -> None:
        for k in range(30):  # one writer: load, change, save
            ts = store.load("club")
            ts.remove([ts.examples[0].id])
            ts.add([Example("2m", _crop(100 + k))])
            store.save(ts)
        stop.set()

    def read() -> None:
        from mahjong_camera_scorer.vision.teach.profile import SetError

        while not stop.is_set():
            try:
                ts = store.load("club")
            except SetError as exc:  # a crop deleted under the read
                problems.append(str(exc))
                continue
            if getattr(ts, "broken", None) or len(ts) != 6:
                problems.append(len(ts))

    threads = [threading.Thread(target=change), threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not problems, problems[:3]
