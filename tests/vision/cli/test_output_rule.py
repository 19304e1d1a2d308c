"""One rule for every command that writes (scoring.output_paths): never a device, a FIFO, a
folder or an input of the run, an existing file only with --force; checked before any work."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "hand.jpg"
SESSION = ROOT / "examples" / "session-mcr.yaml"
#: the bundled example's codes, row by row (it pairs: without the rule the picture would be written)
CODES = "345m 55888p 44s | 4s | ?11p?"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser, _ = build_parser()
    buf = io.StringIO()
    code = run(parser, argv, out=buf)
    return code, buf.getvalue(), capsys.readouterr().err


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 255, (96, 96, 3), dtype=np.uint8) for _ in range(2)]
    SetStore(tmp_path / "sets").save(TileSet("club", [Example("1m", crops[0]), Example("2m", crops[1])]))
    return tmp_path / "sets"


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def test_export_never_replaces_a_fifo_a_folder_a_set_file_or_an_existing_file(
    profile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teach = ["teach", "--profile", str(profile), "--set", "club", "--export"]
    set_json = profile / "club" / "set.json"
    before = set_json.read_bytes()
    crop = next((profile / "club" / "crops").iterdir())
    for target, words in [
        (_fifo(tmp_path / "pipe"), "is a FIFO"),
        (tmp_path, "is a folder"),
        (set_json, "inside"),
        (crop, "inside"),
    ]:
        code, _, err = _run([*teach, str(target)], capsys)
        assert code == 2 and words in err and err.count("\n") == 1, err
    assert set_json.read_bytes() == before and (tmp_path / "pipe").is_fifo()
    old = tmp_path / "old.mjset"
    old.write_bytes(b"keep")
    code, _, err = _run([*teach, str(old)], capsys)
    assert code == 2 and "exists already: give --force" in err and old.read_bytes() == b"keep"
    code, _, err = _run([*teach, str(old), "--force"], capsys)
    assert code == 0 and old.read_bytes()[:2] == b"PK", err


def test_export_through_a_link_keeps_the_link(profile: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "real.mjset").write_bytes(b"old")
    (tmp_path / "link.mjset").symlink_to(tmp_path / "real.mjset")
    assert (
        _run(
            [
                "teach",
                "--profile",
                str(profile),
                "--set",
                "club",
                "--export",
                str(tmp_path / "link.mjset"),
                "--force",
            ],
            capsys,
        )[0]
        == 0
    )
    assert (tmp_path / "link.mjset").is_symlink() and (tmp_path / "real.mjset").read_bytes()[:2] == b"PK"


def test_outputs_follow_the_umask(profile: Path, tmp_path: Path, capsys) -> None:
    old = os.umask(0o022)
    try:
        assert (
            _run(
                ["teach", "--profile", str(profile), "--set", "club", "--export", str(tmp_path / "x.mjset")],
                capsys,
            )[0]
            == 0
        )
        SetStore(profile).save(TileSet("other", []))
    finally:
        os.umask(old)
    assert (tmp_path / "x.mjset").stat().st_mode & 0o777 == 0o644
    assert (profile / "other" / "set.json").stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize(
    "extra",
    [
        ["{photo}", CODES, "--annotate", "{photo}"],  # onto the photo taught
        ["{photo}", CODES, "--annotate", "{photo}", "--dry-run"],
        ["--from", "{d}", "--annotate", "{d}"],  # pictures the next --from would take for photos
    ],
)
def test_annotate_never_writes_over_what_is_taught(
    extra: list[str], profile: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "photos"
    d.mkdir()
    photo = d / "a.jpg"
    photo.write_bytes(EXAMPLE.read_bytes())
    (d / "a.txt").write_text(CODES + "\n")
    (d / "codes.txt").write_bytes(b"x")
    argv = ["teach", "--profile", str(profile), "--set", "club"] + [a.format(d=d, photo=photo) for a in extra]
    code, _, err = _run(argv, capsys)
    assert code == 2 and "error:" in err, err
    assert photo.read_bytes() == EXAMPLE.read_bytes() and sorted(p.name for p in d.iterdir()) == [
        "a.jpg",
        "a.txt",
        "codes.txt",
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["--list", "--remove"],
        ["--list", "--export", "x.mjset"],
        ["--remove", "{photo}", "1m"],
        ["--list", "--import", "x.mjset"],
    ],
)
def test_conflicting_actions_are_refused(argv: list[str], profile: Path, capsys) -> None:
    full = ["teach", "--profile", str(profile), "--set", "club"] + [a.format(photo=EXAMPLE) for a in argv]
    try:
        code, _, err = _run(full, capsys)
    except SystemExit as exc:  # argparse's own refusal
        code, err = exc.code, capsys.readouterr().err
    assert code == 2 and "error" in err
    assert SetStore(profile).exists("club") and len(SetStore(profile).load("club")) == 2


def test_dry_runs_change_nothing(profile: Path, capsys) -> None:
    one = SetStore(profile).load("club").examples[0].id
    for extra in (["--remove"], ["--remove-tile", one]):
        code, out, err = _run(
            ["teach", "--profile", str(profile), "--set", "club", *extra, "--dry-run"], capsys
        )
        assert code == 0 and "dry run" in out, err
    assert len(SetStore(profile).load("club")) == 2


@pytest.mark.parametrize("option", ["--csv", "--out-json", "--html"])
def test_session_outputs_never_replace_the_session_or_a_device(
    option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = tmp_path / "s.yaml"
    session.write_text(SESSION.read_text())
    base = ["session", str(session), "--rules", "mcr", option]
    for target, words in [(session, "inputs"), (_fifo(tmp_path / "p"), "FIFO"), (tmp_path, "folder")]:
        code, _, err = _run([*base, str(target)], capsys)
        assert code == 2 and words in err, err
    assert session.read_text() == SESSION.read_text()
    (tmp_path / "old").write_text("keep")
    assert _run([*base, str(tmp_path / "old")], capsys)[0] == 2 and (tmp_path / "old").read_text() == "keep"
    assert _run([*base, str(tmp_path / "old"), "--force"], capsys)[0] == 0
    assert (tmp_path / "old").read_text() != "keep"


def test_a_session_file_that_is_not_a_file_says_what_it_is(tmp_path: Path, capsys) -> None:
    code, _, err = _run(["session", str(_fifo(tmp_path / "p.yaml")), "--rules", "mcr"], capsys)
    assert code == 2 and "is a FIFO" in err


def test_a_huge_session_file_is_refused_before_parsing(tmp_path: Path, capsys) -> None:
    import time

    big = tmp_path / "s.yaml"
    big.write_text("rows:\n" + "  - {hand: 123m456m789m123p11s, winner: E}\n" * 500_000)
    start = time.perf_counter()
    code, _, err = _run(["session", str(big), "--rules", "mcr"], capsys)
    assert code == 2 and "too large" in err and time.perf_counter() - start < 2


def test_photo_annotate_onto_a_fifo_or_an_existing_file(tmp_path: Path, capsys) -> None:
    fifo = _fifo(tmp_path / "a.jpg")
    code, _, err = _run(["photo", str(EXAMPLE), "--rules", "riichi", "--annotate", str(fifo)], capsys)
    assert code == 2 and "FIFO" in err
    (tmp_path / "b.jpg").write_bytes(b"keep")
    code, _, err = _run(
        ["photo", str(EXAMPLE), "--rules", "riichi", "--annotate", str(tmp_path / "b.jpg")], capsys
    )
    assert code == 2 and "--force" in err and (tmp_path / "b.jpg").read_bytes() == b"keep"


@pytest.mark.models  # the photos command loads the shipped models before it reads a file
def test_the_photos_csv_neutralises_formulas_and_resumes(tmp_path: Path, capsys) -> None:
    d = tmp_path / "in"
    d.mkdir()
    (d / "=1+2.jpg").write_bytes(b"not a photo")
    (d / "@x.jpg").write_bytes(b"not a photo either")
    out = str(tmp_path / "r.csv")
    argv = ["photos", str(d), "--rules", "riichi", "--out", out, "--quiet", "--no-annotate"]
    code, _, err = _run([*argv, "--workers", "1"], capsys)
    assert code == 0, err
    text = (tmp_path / "r.csv").read_text()
    assert "'=1+2.jpg" in text and "'@x.jpg" in text and "\n=" not in text and "\n@" not in text
    code, out, err = _run([*argv, "--workers", "1", "--resume"], capsys)
    assert code == 0 and "2 done before" in out, err
