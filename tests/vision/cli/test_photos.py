"""Hostile and careless input to ``photo`` and ``photos``: never a traceback, never an input
overwritten, every entry that looks like a photo accounted for, every photo decoded once.

The models are replaced by the ground-truth stand-in (``TruthReader``): what is tested here is the
command's handling of files, not the reading."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
from pathlib import Path

import cv2
import pytest

import mahjong_camera_scorer.vision.images
from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.cli import photo as photo_cmd
from mahjong_camera_scorer.vision.cli import photos as photos_cmd
from tests.vision.support import EXAMPLE, TruthReader, TruthSpec
from tests.vision.test_images import png_claiming, tiff_claiming


@pytest.fixture(autouse=True)
def truth_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(photo_cmd, "load_reader", lambda args: TruthReader())
    monkeypatch.setattr(photos_cmd, "reader_spec", lambda args, threads=None: TruthSpec())


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser, _ = build_parser()
    buf = io.StringIO()
    code = run(parser, argv, out=buf)
    return code, buf.getvalue(), capsys.readouterr().err


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "table"
    d.mkdir()
    shutil.copy(EXAMPLE, d / "p1.jpg")
    shutil.copy(EXAMPLE, d / "p2.jpg")
    return d


# ------------------------------------------------------------------------------------------------
# photo --annotate
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["out.xyz", "out", "folder.jpg", "p1.jpg"])
def test_annotate_to_what_cannot_be_written_is_refused_up_front(
    target: str, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "folder.jpg").mkdir()
    before = (folder / "p1.jpg").read_bytes()
    code, out, err = _run(
        ["photo", str(folder / "p1.jpg"), "--rules", "riichi", "--annotate", str(folder / target)], capsys
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and "error:" in err and "Traceback" not in err
    assert (folder / "p1.jpg").read_bytes() == before


@pytest.mark.slow
def test_annotate_writes_the_decoded_pixels_without_decoding_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), cv2.resize(cv2.imread(str(EXAMPLE)), (4096, 3072)))
    calls = []
    real = mahjong_camera_scorer.vision.images.decode_image
    monkeypatch.setattr(
        mahjong_camera_scorer.vision.images, "decode_image", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    ann = tmp_path / "ann.png"
    code, _, err = _run(["photo", str(big), "--rules", "riichi", "--annotate", str(ann)], capsys)
    assert code in (0, 1), err
    assert len(calls) == 1 and cv2.imread(str(ann)).shape == (1536, 2048, 3)


def test_a_pixel_bomb_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_claiming(40000, 40000))
    code, _, err = _run(["photo", str(bomb), "--rules", "riichi"], capsys)
    assert code == 2 and "too large" in err and err.count("\n") == 1


# ------------------------------------------------------------------------------------------------
# photos: outputs
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "extra",
    [
        ["--out", "{d}/p1.jpg"],  # the CSV over a photo
        ["--out", "{t}/r.csv", "--jsonl", "{t}/r.csv"],  # the JSON lines over the CSV
        ["--out", "{t}/r.jsonl"],  # the default JSON lines name is the CSV itself
        ["--out", "{t}/r.csv", "--jsonl", "{d}/p2.jpg"],
        ["--out", "{t}/r.csv", "--annotate-dir", "{d}"],  # annotated p1.jpg over p1.jpg
        ["--out", "{t}/r.csv", "--annotate-dir", "{t}", "--jsonl", "{t}/p1.jpg"],
        ["--out", "{d}/link.csv"],  # a link to a photo
    ],
)
def test_outputs_that_collide_with_photos_or_each_other_are_refused_before_any_work(
    extra: list[str], folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "link.csv").symlink_to(folder / "p2.jpg")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    monkeypatch.setattr(photos_cmd, "reader_spec", lambda args, threads=None: pytest.fail("work started"))
    t = folder.parent
    argv = ["photos", str(folder), "--rules", "riichi", *[a.format(d=folder, t=t) for a in extra]]
    code, _, err = _run(argv, capsys)
    assert code == 2 and "error:" in err and "Traceback" not in err, err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert not (t / "r.csv").exists()


def test_photos_sharing_a_stem_get_their_own_annotated_images(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cv2.imwrite(str(folder / "p1.png"), cv2.imread(str(EXAMPLE)))
    out = folder.parent / "r.csv"
    argv = ["photos", str(folder), "--rules", "riichi", "--out", str(out), "--quiet", "--workers", "1"]
    code, _, err = _run(argv, capsys)
    assert code == 0, err
    assert sorted(p.name for p in (folder.parent / "r-annotated").iterdir()) == [
        "p1-png.jpg",
        "p1.jpg",
        "p2.jpg",
    ]


# ------------------------------------------------------------------------------------------------
# photos: every entry gets a row, bad files do not end the batch, each photo decoded once
# ------------------------------------------------------------------------------------------------
def test_every_entry_that_looks_like_a_photo_gets_a_row(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (folder / "a-folder.jpg").mkdir()
    os.mkfifo(folder / "b-fifo.jpg")
    (folder / "c-broken.jpg").symlink_to(folder / "missing.jpg")
    (folder / "d-link.jpg").symlink_to(folder / "p1.jpg")
    (folder / "e-bomb.png").write_bytes(png_claiming(65535, 65535))
    (folder / "f-bomb.tif").write_bytes(tiff_claiming(65535, 65535))
    (folder / "notes.txt").write_text("not a photo: no row")
    calls = []
    real = mahjong_camera_scorer.vision.images.decode_image
    monkeypatch.setattr(
        mahjong_camera_scorer.vision.images, "decode_image", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    out = folder.parent / "r.csv"
    argv = ["photos", str(folder), "--rules", "riichi", "--win-by", "self_draw", "--out", str(out)]
    code, text, err = _run([*argv, "--workers", "1"], capsys)  # decodes counted in this process
    assert code == 0 and "Traceback" not in err
    rows = {r["file"]: r for r in _rows(out)}
    assert list(rows) == [
        "a-folder.jpg",
        "b-fifo.jpg",
        "c-broken.jpg",
        "d-link.jpg",
        "e-bomb.png",
        "f-bomb.tif",
        "p1.jpg",
        "p2.jpg",
    ]
    assert rows["a-folder.jpg"]["error"] == "skipped: a folder, not a photo file"
    assert rows["b-fifo.jpg"]["error"] == "skipped: a FIFO (named pipe), not a photo file"
    assert rows["c-broken.jpg"]["error"] == "skipped: a broken link"
    assert "too large" in rows["e-bomb.png"]["error"] and "too large" in rows["f-bomb.tif"]["error"]
    for name in ("d-link.jpg", "p1.jpg", "p2.jpg"):  # read, and the batch went on past the bombs
        assert rows[name]["valid"] == "True" and rows[name]["error"] == "", rows[name]
    assert "8 photos: 3 read, 2 unreadable, 3 skipped" in text
    assert len(calls) == 5  # three photos and two bombs, each decoded (or refused) once: no re-decode
    lines = [json.loads(x) for x in out.with_suffix(".jsonl").read_text().splitlines()]
    assert [x["file"].rsplit("/", 1)[1] for x in lines] == list(rows)
    assert sorted(p.name for p in (folder.parent / "r-annotated").iterdir()) == [
        "d-link.jpg",
        "p1.jpg",
        "p2.jpg",
    ]


def test_a_hand_in_one_row_is_scored_with_its_candidates_in_text_json_and_csv(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No winning tile set apart: the text lists the candidates and which one the score assumes,
    the JSON has them all, the CSV row gives the best and how many, for the referee to check."""
    from tests.vision.support import one_row_manifest

    monkeypatch.setattr(photo_cmd, "load_reader", lambda args: TruthReader(one_row_manifest()))
    monkeypatch.setattr(photos_cmd, "reader_spec", lambda args, threads=None: TruthSpec(one_row=True))
    ctx = ["--rules", "riichi", "--seat", "W", "--win-by", "self_draw"]
    code, out, err = _run(["photo", str(folder / "p1.jpg"), *ctx], capsys)
    assert code == 0 and "Winning tile: none set apart; scored as if" in out and "6 candidate(s)" in out
    assert out.count("  * ") == 1 and "--winning-tile" in out and "check which tile won" in err
    code, out, _ = _run(["photo", str(folder / "p1.jpg"), *ctx, "--json"], capsys)
    record = json.loads(out)
    assert code == 0 and record["winning_tile_from"] == "candidate" and record["score"]["valid"]
    assert sorted(c["tile"] for c in record["candidates"]) == ["3m", "4m", "4s", "5m", "5p", "8p"]
    assert record["scored_winning_tile"] == record["candidates"][0]["tile"]
    # the tile that won, given: scored with it, no candidate list printed
    code, out, _ = _run(["photo", str(folder / "p1.jpg"), *ctx, "--winning-tile", "4s"], capsys)
    assert code == 0 and "Winning tile:" not in out
    out_csv = folder.parent / "r.csv"
    batch = ["photos", str(folder), *ctx, "--out", str(out_csv), "--no-annotate", "--quiet"]
    code, _, _ = _run(batch, capsys)
    rows = _rows(out_csv)
    assert code == 0 and len(rows) == 2
    for row in rows:
        assert row["winning_tile"] == "" and row["best_candidate"] == record["scored_winning_tile"]
        assert row["candidates"] == "6" and row["valid"] == "True"


# ------------------------------------------------------------------------------------------------
# the progress bar: on a terminal only
# ------------------------------------------------------------------------------------------------
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_is_drawn_on_a_terminal_and_never_into_a_file(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """stderr redirected to a file gets no bar at all (it used to get a \\r line per photo)."""
    out = folder.parent / "r.csv"
    argv = ["photos", str(folder), "--rules", "riichi", "--out", str(out), "--workers", "1", "--no-annotate"]
    code, _, err = _run(argv, capsys)  # capsys: stderr is not a terminal
    assert code == 0 and "\r" not in err and "photo" not in err, err
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    shutil.copy(EXAMPLE, folder / "p3\x1b[2J.jpg")  # a name that would clear the screen
    code, _, _ = _run([*argv, "--force"], capsys)
    drawn = terminal.getvalue()
    assert code == 0 and "\r" in drawn and "3/3" in drawn and "p3" in drawn, drawn
    assert "\x1b[2J" not in drawn  # the name is cleaned (scoring.clean_text.for_terminal)
    quiet = _Terminal()
    monkeypatch.setattr("sys.stderr", quiet)
    code, _, _ = _run([*argv, "--force", "--quiet"], capsys)
    assert code == 0 and quiet.getvalue() == ""
