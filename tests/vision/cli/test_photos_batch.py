"""``photos`` on a referee's folder: a manifest gives each photo its own context, several worker
processes give the same output as one, ``--resume`` goes on where a batch stopped, and the same
folder and manifest run through ``session`` in one command.

The models are the ground-truth stand-in (every photo reads as ``examples/hand.jpg``), sent to
each worker process as a :class:`TruthSpec`; one test runs the shipped models in two workers."""

from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import pytest

import mahjong_camera_scorer.vision.pipeline
from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.cli import photos as photos_cmd
from mahjong_camera_scorer.vision.cli.options import ReaderSpec
from tests.vision.cli.test_photos import _rows, _run
from tests.vision.support import EXAMPLE, TruthReader, TruthSpec, models_present
from tests.vision.test_images import png_claiming

MANIFEST = """photo,table,hand,seat,round,win_by,discarder,flags,riichi,dora,honba,sticks
h1.jpg,3,1,W,E,self_draw,,,,,,
h2.jpg,3,2,S,E,discard,E,,S,4s,2,1
h3.jpg,3,3,Q,E,,,,,,,
bomb.png,3,4,E,E,self_draw,,,,,,
h4.jpg,3,5,E,S,self_draw,,ippatsu,E,,,
missing.jpg,3,6,E,E,,,,,,,
h5.jpg,3,7,N,E,self_draw,,,,,1e29,
"""


def _records(path: Path) -> list[dict]:
    """The JSON lines without their timings (the one thing that differs from run to run)."""
    out = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        record.pop("timings_ms", None)
        out.append(record)
    return out


@pytest.fixture
def table(tmp_path: Path) -> Path:
    """A referee's folder: five photos, a pixel bomb, a photo the manifest does not name."""
    d = tmp_path / "table3"
    d.mkdir()
    for name in ("h1.jpg", "h2.jpg", "h3.jpg", "h4.jpg", "h5.jpg", "extra.jpg"):
        shutil.copy(EXAMPLE, d / name)
    (d / "bomb.png").write_bytes(png_claiming(65535, 65535))
    (tmp_path / "manifest.csv").write_text(MANIFEST)
    return d


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """The models must not even be loaded: the command stops before any work."""


@pytest.fixture
def truth_spec(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The stand-in models; returns the folder where each load leaves a file."""
    loads = tmp_path / "loads"
    loads.mkdir()
    monkeypatch.setattr(photos_cmd, "reader_spec", lambda args, threads=None: TruthSpec(str(loads)))
    return loads


def _photos(table: Path, out: Path, *extra: str) -> list[str]:
    return [
        "photos",
        str(table),
        "--manifest",
        str(table.parent / "manifest.csv"),
        "--rules",
        "riichi",
        "--out",
        str(out),
        "--quiet",
        *extra,
    ]


# ------------------------------------------------------------------------------------------------
# the manifest
# ------------------------------------------------------------------------------------------------
def test_each_photo_is_scored_in_its_manifest_lines_context(
    table: Path, truth_spec: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = table.parent / "r.csv"
    code, text, err = _run(_photos(table, out, "--workers", "1"), capsys)
    assert code == 0 and "Traceback" not in err, err
    rows = _rows(out)
    assert [r["file"] for r in rows] == [
        "h1.jpg",
        "h2.jpg",
        "h3.jpg",
        "bomb.png",
        "h4.jpg",
        "missing.jpg",
        "h5.jpg",
        "extra.jpg",
    ]
    assert list(rows[0])[:3] == ["file", "table", "hand_no"]
    assert [(r["table"], r["hand_no"]) for r in rows[:7]] == [("3", str(i)) for i in range(1, 8)]
    records = _records(out.with_suffix(".jsonl"))
    hands = {Path(r["file"]).name: r.get("hand", {}) for r in records}
    assert hands["h1.jpg"]["seat_wind"] == "W" and hands["h1.jpg"]["win_by"] == "self_draw"
    # h2: seat S won on E's discard, S had declared riichi, dora indicator 4s, 2 honba, 1 stick
    h2 = hands["h2.jpg"]
    assert (h2["seat_wind"], h2["win_by"], h2["discarder"], h2["flags"]) == ("S", "discard", "E", ["riichi"])
    assert (h2["dora_indicators"], h2["honba"], h2["riichi_sticks"]) == (["4s"], 2, 1)
    assert hands["h4.jpg"]["round_wind"] == "S" and hands["h4.jpg"]["flags"] == ["ippatsu", "riichi"]
    by_name = {r["file"]: r for r in rows}
    assert by_name["h1.jpg"]["valid"] == "True" and by_name["h2.jpg"]["valid"] == "True"
    assert by_name["h1.jpg"]["total"] != by_name["h2.jpg"]["total"]  # each in its own context
    # a bad line is its error row, the batch goes on
    # the one message for a wind, on every front end (issue 35 item 3)
    assert by_name["h3.jpg"]["error"] == (
        "manifest line 4: seat must be E, S, W or N (East, South, West, North), not 'Q'"
    )
    assert "too large" in by_name["bomb.png"]["error"]
    assert by_name["missing.jpg"]["error"] == "skipped: no such file"
    assert by_name["h5.jpg"]["error"].startswith("manifest line 8: honba: a whole number 0..100")
    assert by_name["extra.jpg"]["error"] == "skipped: not in the manifest"
    assert "8 photos: 3 read, 1 unreadable, 2 skipped, 2 manifest lines with errors" in text


def test_empty_cells_take_the_command_lines_context(
    table: Path, truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "manifest.csv").write_text("photo,seat\nh1.jpg,\nh2.jpg,N\n")
    argv = _photos(table, tmp_path / "r.csv", "--workers", "1", "--seat", "S", "--win-by", "tsumo")
    code, _, err = _run([*argv, "--dora", "1z", "--no-annotate"], capsys)
    assert code == 0, err
    hands = [r["hand"] for r in _records(tmp_path / "r.jsonl")[:2]]
    assert [(h["seat_wind"], h["win_by"], h["dora_indicators"]) for h in hands] == [
        ("S", "self_draw", ["1z"]),
        ("N", "self_draw", ["1z"]),
    ]


def test_a_line_with_an_unknown_flag_or_option_is_its_error_row(
    table: Path, truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "manifest.csv").write_text(
        "photo,seat,win_by,flags,options\nh1.jpg,W,tsumo,ipatsu,\nh2.jpg,W,tsumo,,nosuch=1\nh3.jpg,W,tsumo,,\n"
    )
    code, _, err = _run(_photos(table, tmp_path / "r.csv", "--workers", "1", "--no-annotate"), capsys)
    assert code == 0, err
    rows = _rows(tmp_path / "r.csv")
    assert rows[0]["error"].startswith("manifest line 2: unknown flag(s) for riichi: ipatsu")
    assert rows[1]["error"].startswith("manifest line 3: unknown option 'nosuch'")
    assert rows[2]["valid"] == "True"


@pytest.mark.parametrize(
    ("manifest", "extra", "words"),
    [
        ("file,seat\nh1.jpg,E\n", [], "'photo' column"),
        ("photo,colour\nh1.jpg,red\n", [], "unknown manifest column 'colour'"),
        (None, [], "no such file"),
        (b"photo\n\xff\xfe.jpg\n", [], "cannot be read"),
        (MANIFEST, ["--out", "{manifest}"], "would destroy it"),  # the CSV over the manifest
        (MANIFEST, ["--option", "no_such_option=1"], "unknown option 'no_such_option'"),
        (MANIFEST, ["--flag", "ipatsu"], "unknown flag(s) for riichi: ipatsu"),
        (MANIFEST, ["--honba", "1" + "0" * 29], "--honba must be a whole number from 0 to 100"),
        (MANIFEST, ["--discarder", "E"], "the winner's own seat"),
        (MANIFEST, ["--discarder", "S", "--win-by", "tsumo"], "not a self-draw"),
        (MANIFEST, ["--workers", "0"], "a number of processes from 1"),
        (MANIFEST, ["--workers", "two"], "a number of processes from 1"),
    ],
)
def test_bad_input_is_one_error_line_before_any_work(
    manifest: str | bytes | None,
    extra: list[str],
    words: str,
    table: Path,
    tmp_path: Path,
    no_work: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "manifest.csv"
    path.unlink()
    if isinstance(manifest, bytes):
        path.write_bytes(manifest)
    elif manifest is not None:
        path.write_text(manifest)
    parser, _ = build_parser()
    argv = _photos(table, tmp_path / "r.csv") + [a.format(manifest=path) for a in extra]
    try:
        code = run(parser, argv, out=io.StringIO())
    except SystemExit as exc:  # argparse's own refusals exit 2 too
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]  # argparse prints its usage first
    assert code == 2 and words in last and "error:" in last and "Traceback" not in err, err
    assert not (tmp_path / "r.csv").exists()
    if manifest == MANIFEST:
        assert path.read_text() == MANIFEST


# ------------------------------------------------------------------------------------------------
# workers
# ------------------------------------------------------------------------------------------------
@pytest.mark.slow
def test_two_workers_write_what_one_writes_and_each_loads_the_models_once(
    table: Path, truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = {}
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}" / "r.csv"
        code, text, err = _run(_photos(table, out, "--workers", workers), capsys)
        assert code == 0 and "Traceback" not in err, err
        outputs[workers] = (out.read_bytes(), _records(out.with_suffix(".jsonl")), text.split(" → ")[0])
        annotated = sorted(p.name for p in (out.parent / "r-annotated").iterdir())
        assert annotated == ["h1.jpg", "h2.jpg", "h4.jpg"]
    assert outputs["1"] == outputs["2"]
    loads = [p.name.split("-")[0] for p in truth_spec.iterdir()]
    # one load in this process for each run, and one in the helper process of the 2-worker run
    assert len(loads) == 3 and loads.count(str(os.getpid())) == 2 and len(set(loads)) == 2


def test_a_worker_that_cannot_load_the_models_is_one_error_line(
    table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = ReaderSpec(str(tmp_path / "no-models"), 0.25, 1)
    monkeypatch.setattr(photos_cmd, "reader_spec", lambda args, threads=None: spec)
    code, _, err = _run(_photos(table, tmp_path / "r.csv", "--workers", "2"), capsys)
    assert code == 2 and "model not found" in err and err.count("\n") == 1, err
    assert not (tmp_path / "r.csv").exists()  # no output opened before the models were there


def test_workers_fill_every_core(monkeypatch: pytest.MonkeyPatch) -> None:
    import mahjong_camera_scorer.vision.cli.pool as pool

    for module in (photos_cmd, pool):
        monkeypatch.setattr(module, "available_cores", lambda: 16)
    parser, _ = build_parser()
    args = parser.parse_args(["photos", "d", "--rules", "mcr", "--out", "r.csv"])
    assert args.workers == 8 and pool.threads_per_worker(8) == 2  # 8 processes x 2 threads
    args = parser.parse_args(["photos", "d", "--rules", "mcr", "--out", "r.csv", "--workers", "all"])
    assert args.workers == 16 and pool.threads_per_worker(16) == 1
    for module in (photos_cmd, pool):
        monkeypatch.setattr(module, "available_cores", lambda: 2)
    args = parser.parse_args(["photos", "d", "--rules", "mcr", "--out", "r.csv"])
    assert args.workers == 1 and pool.threads_per_worker(1) is None  # the models' own 2 threads
    assert (
        parser.parse_args(["photos", "d", "--rules", "mcr", "--out", "r.csv", "--workers", "3"]).workers == 3
    )


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not models_present(), reason="needs the shipped models (models/*.onnx)")
def test_the_shipped_models_read_the_same_in_two_workers_as_in_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    folder = tmp_path / "photos"
    folder.mkdir()
    image = cv2.imread(str(EXAMPLE))
    cv2.imwrite(str(folder / "a.jpg"), image)
    cv2.imwrite(str(folder / "b.png"), cv2.rotate(image, cv2.ROTATE_180))
    cv2.imwrite(str(folder / "c.jpg"), cv2.resize(image, None, fx=1.7, fy=1.7))
    results = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.csv"
        argv = ["photos", str(folder), "--rules", "riichi", "--win-by", "tsumo", "--seat", "W"]
        code, _, err = _run(
            [*argv, "--out", str(out), "--quiet", "--no-annotate", "--workers", workers], capsys
        )
        assert code == 0, err
        results.append((out.read_bytes(), _records(out.with_suffix(".jsonl"))))
    assert results[0] == results[1]
    assert _rows(tmp_path / "w2.csv")[0]["valid"] == "True"


# ------------------------------------------------------------------------------------------------
# --resume
# ------------------------------------------------------------------------------------------------
def test_resume_reads_only_the_photos_without_a_row(
    table: Path, truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = tmp_path / "whole.csv"
    assert _run(_photos(table, whole, "--workers", "1", "--no-annotate"), capsys)[0] == 0
    # a batch stopped after 3 rows: the CSV's 4th row cut short, the JSON lines one row behind
    out = tmp_path / "r.csv"
    csv_lines = whole.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(csv_lines[:4]) + csv_lines[4][:9])
    jsonl_lines = whole.with_suffix(".jsonl").read_bytes().splitlines(keepends=True)
    out.with_suffix(".jsonl").write_bytes(b"".join(jsonl_lines[:2]))
    for p in truth_spec.iterdir():
        p.unlink()
    calls = []
    real = photos_cmd.photo_row
    code, text, err = 0, "", ""

    def counting(reader, entry, *rest):  # type: ignore[no-untyped-def]
        calls.append(entry.name)
        return real(reader, entry, *rest)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(photos_cmd, "photo_row", counting)
        code, text, err = _run(_photos(table, out, "--workers", "1", "--no-annotate", "--resume"), capsys)
    assert code == 0, err
    assert calls == ["h3.jpg", "bomb.png", "h4.jpg", "missing.jpg", "h5.jpg", "extra.jpg"]
    assert "(2 done before, kept)" in text
    assert out.read_bytes() == whole.read_bytes()
    assert _records(out.with_suffix(".jsonl")) == _records(whole.with_suffix(".jsonl"))
    # resuming a finished batch reads nothing and changes nothing
    calls.clear()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(photos_cmd, "photo_row", counting)
        code, text, _ = _run(_photos(table, out, "--workers", "1", "--no-annotate", "--resume"), capsys)
    assert code == 0 and calls == [] and "0 photos" in text
    assert out.read_bytes() == whole.read_bytes()


def test_resume_without_results_starts_the_batch(
    table: Path, truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    code, _, err = _run(_photos(table, out, "--workers", "1", "--no-annotate", "--resume"), capsys)
    assert code == 0 and len(_rows(out)) == 8, err


def test_resume_refuses_another_batchs_results(
    table: Path, truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.csv"
    out.write_text("name,score\nx.jpg,3\n")
    code, _, err = _run(_photos(table, out, "--workers", "1", "--resume"), capsys)
    assert code == 2 and "does not have this batch's columns" in err
    assert out.read_text() == "name,score\nx.jpg,3\n"


# ------------------------------------------------------------------------------------------------
# the same folder and manifest, as a table's session
# ------------------------------------------------------------------------------------------------
def test_a_folder_of_photos_with_a_manifest_runs_through_session_in_one_command(
    table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(mahjong_camera_scorer.vision.pipeline, "_DEFAULT", TruthReader())
    manifest = tmp_path / "session.csv"
    manifest.write_text(
        "photo,table,hand,seat,win_by,discarder,riichi,dora\n"
        "h1.jpg,3,1,W,self_draw,,,\n"
        "h2.jpg,3,2,S,discard,N,S,4s\n"
        "h4.jpg,3,3,E,self_draw,,,\n"
    )
    argv = ["session", "--manifest", str(manifest), "--photos", str(table), "--rules", "riichi"]
    code, text, err = _run([*argv, "--players", "Anna Bruno Carla Dario", "--json"], capsys)
    assert code == 0, err
    sheet = json.loads(text)
    hands = [line for line in sheet["lines"] if line["kind"] == "hand"]
    # the winds move as riichi says: whoever holds the manifest's seat at that hand won
    assert [(h["winner"], h["status"]) for h in hands] == [
        ("Carla", "scored"),  # W at E1; Anna (East) did not win: the deal passes
        ("Carla", "scored"),  # Carla holds S at E2, Anna holds N and discarded
        ("Carla", "scored"),  # Carla holds E at E3
    ]
    assert all(sum(h["deltas"].values()) == 0 for h in hands)
    assert hands[1]["deltas"]["Anna"] < 0 and hands[1]["deltas"]["Bruno"] == 0


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ([], "--manifest needs --players"),
        (["--players", "Anna Bruno"], "four players"),
        (["--players", "A B C D", "--photos", "/no/such/folder"], "no such folder"),
    ],
)
def test_session_from_a_manifest_says_what_is_missing(
    extra: list[str], words: str, table: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["session", "--manifest", str(table.parent / "manifest.csv"), "--rules", "riichi", *extra]
    code, _, err = _run(argv, capsys)
    assert code == 2 and words in err and err.count("\n") == 1, err


def test_the_example_manifest_is_read_as_documented(
    truth_spec: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    examples = EXAMPLE.parent
    argv = ["photos", str(examples), "--manifest", str(examples / "photos-manifest.csv"), "--rules", "riichi"]
    code, _, err = _run([*argv, "--out", str(tmp_path / "r.csv"), "--workers", "1", "--no-annotate"], capsys)
    assert code == 0, err
    row = _rows(tmp_path / "r.csv")[0]
    assert (row["file"], row["table"], row["hand_no"], row["valid"]) == ("hand.jpg", "1", "1", "True")
    hand = _records(tmp_path / "r.jsonl")[0]["hand"]
    # the first hand of its table: no counters, no declarations (a session under any system takes it)
    assert (hand["seat_wind"], hand["round_wind"], hand["win_by"], hand.get("flags", []), hand["honba"]) == (
        "W",
        "E",
        "self_draw",
        [],
        0,
    )
