"""``mahjong-score teach`` end to end, and ``--set`` on the photo commands."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.cli import run
from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "hand.jpg"
#: the bundled example, row by row as a player reads it (one row: hand, winning tile, kong)
EXAMPLE_CODES = "345m 55888p 44s | 4s | ?11p?"
CAMERASH = ROOT.parent / "shared" / "data" / "camerash" / "raw-images"
GRID_CODES = ROOT / "tests" / "vision" / "data" / "camerash_grid_codes.txt"

pytestmark = pytest.mark.skipif(
    not (MODELS_DIR / DETECTOR_FILE).is_file()
    or not (MODELS_DIR / READER_FILE).is_file()
    or not EXAMPLE.is_file(),
    reason="models or the bundled example missing",
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    parser, _ = build_parser()
    buf = io.StringIO()
    code = run(parser, argv, out=buf)
    return code, buf.getvalue(), capsys.readouterr().err


def _teach(profile: Path, *args: str) -> list[str]:
    return ["teach", "--profile", str(profile), *args]


@pytest.mark.models
@pytest.mark.slow
def test_teach_pairs_saves_and_lists(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(
        _teach(tmp_path, "--set", "home", str(EXAMPLE), EXAMPLE_CODES, "--annotate", str(tmp_path / "a.jpg")),
        capsys,
    )
    assert code == 0, err
    assert "row 1: 3m 4m 5m 5p 5p 8p 8p 8p 4s 4s 4s back 1p 1p back" in out
    assert "15 taught" in out and "set 'home': 15 taught tiles" in out
    assert (tmp_path / "home" / "set.json").is_file() and (tmp_path / "a.jpg").stat().st_size > 1000
    code, out, _ = _run(_teach(tmp_path, "--list"), capsys)
    assert code == 0 and "home: 15 tiles, 8 codes" in out
    code, out, _ = _run(_teach(tmp_path, "--list", "--set", "home"), capsys)
    assert code == 0 and out.count(str(EXAMPLE.name)) == 15


@pytest.mark.models
def test_a_row_that_does_not_match_saves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 16 codes for the photo's 15 tiles: no row pairs (the two rows the photo shows do: below)
    sixteen = "345m55888p44s / 4s ?11p? 9m"
    code, _, err = _run(_teach(tmp_path, "--set", "home", str(EXAMPLE), sixteen), capsys)
    assert code == 2
    assert "row 1: 15 tiles found, 10 codes given" in err and "row 2: 0 tiles found, 6 codes given" in err
    assert "nothing was taught" in err and "Traceback" not in err
    assert not (tmp_path / "home").exists()


@pytest.mark.models
@pytest.mark.slow
def test_the_photos_two_rows_pair_and_the_same_photo_taught_again_is_not_doubled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example as the photo shows it, two rows (the hand, then the kong lying lower right):
    every tile paired; taught a second time, nothing is added (issue 38 items 5, 6)."""
    two_rows = "345m 55888p 44s | 4s / ?11p?"
    code, out, err = _run(_teach(tmp_path, "--set", "home", str(EXAMPLE), two_rows), capsys)
    assert code == 0, err
    assert "row 1: 3m 4m 5m 5p 5p 8p 8p 8p 4s 4s 4s\n  row 2: back 1p 1p back" in out
    assert "taught 15 tiles in" in out
    code, out, err = _run(_teach(tmp_path, "--set", "home", str(EXAMPLE), two_rows), capsys)
    assert code == 0, err
    assert "taught 0 tiles in" in out and "15 taught before from the same photo: not added again" in out
    assert "set 'home': 15 taught tiles" in out
    # one code changed: that crop is taught again with it, the others stay as they were
    nine = "345m 55888p 44s | 4s / ?19p?"
    code, out, err = _run(_teach(tmp_path, "--set", "home", str(EXAMPLE), nine), capsys)
    assert code == 0 and "1 taught before with another code: replaced" in out, out + err
    assert "set 'home': 15 taught tiles" in out and "9p×1" in out


@pytest.mark.models
def test_a_row_that_does_not_pair_is_reported_and_the_others_taught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(
        _teach(
            tmp_path,
            "--set",
            "home",
            str(EXAMPLE),
            "345m 55888p 44s | 4s / ?11p? / 1234z",
            "--annotate",
            str(tmp_path / "a.jpg"),
        ),
        capsys,
    )
    assert code == 0, err
    assert "row 3: 0 tiles found, 4 codes given (1z 2z 3z 4z): not taught" in out
    assert "warning:" in err and "row(s) 3 did not pair" in err and (tmp_path / "a.jpg").is_file()
    assert "set 'home': 15 taught tiles" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--set", "home", "PHOTO", "345m / 9q"], "row 2"),
        (["--set", "home", "PHOTO"], "give each photo with its codes"),
        (["PHOTO", "123m"], "name the set"),
        (["--set", "../up", "PHOTO", "123m"], "bad set name"),
        (["--set", "home", "--standard"], "--standard needs one or more photos"),
        (["--set", "home", "--from", "/no/such/dir"], "no such folder"),
        (["--set", "home", "--remove"], "no taught set 'home'"),
        (["--import", "/no/such.mjset"], "no such file"),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    args = [str(EXAMPLE) if a == "PHOTO" else a for a in args]
    code, _, err = _run(_teach(tmp_path, *args), capsys)
    assert code == 2 and words in err and err.count("\n") == 1, err


@pytest.mark.models
def test_standard_layout_that_is_not_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(_teach(tmp_path, "--set", "home", "--standard", str(EXAMPLE)), capsys)
    assert code == 2 and "at least 4 rows" in err and "the standard layout: 123456789m" in err


@pytest.mark.models
@pytest.mark.slow
def test_from_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "a.jpg")
    code, _, err = _run(_teach(tmp_path, "--set", "home", "--from", str(folder)), capsys)
    assert code == 2 and "a.jpg has no a.txt beside it" in err
    (folder / "a.txt").write_text(EXAMPLE_CODES + "\n")
    code, out, err = _run(_teach(tmp_path, "--set", "home", "--from", str(folder)), capsys)
    assert code == 0 and "taught 15 tiles" in out, err


@pytest.mark.models
@pytest.mark.slow
def test_export_import_remove(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(_teach(tmp_path, "--set", "home", str(EXAMPLE), EXAMPLE_CODES), capsys)[0] == 0
    file = tmp_path / "home.mjset"
    assert _run(_teach(tmp_path, "--set", "home", "--export", str(file)), capsys)[0] == 0
    code, _, err = _run(_teach(tmp_path, "--import", str(file)), capsys)
    assert code == 2 and "exists already" in err
    code, out, _ = _run(_teach(tmp_path, "--import", str(file), "--set", "club"), capsys)
    assert code == 0 and "imported set 'club' (15 taught tiles)" in out
    assert _run(_teach(tmp_path, "--import", str(file), "--replace"), capsys)[0] == 0
    one = json.loads((tmp_path / "club" / "set.json").read_text())["examples"][0]["id"]
    code, out, _ = _run(_teach(tmp_path, "--set", "club", "--remove-tile", one), capsys)
    assert code == 0 and one in out
    code, _, err = _run(_teach(tmp_path, "--set", "club", "--remove-tile", one), capsys)
    assert code == 2 and "no taught tile" in err
    assert _run(_teach(tmp_path, "--set", "club", "--remove"), capsys)[0] == 0
    code, out, _ = _run(_teach(tmp_path, "--list"), capsys)
    assert "club" not in out and "home" in out


def _hand(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("Hand:"))


@pytest.mark.models
@pytest.mark.slow
def test_photo_reads_with_the_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = ["photo", str(EXAMPLE), "--rules", "riichi", "--seat", "W", "--win-by", "self_draw"]
    code, plain, _ = _run(photo, capsys)
    assert code == 0
    # a set taught from this photo reads it as before
    assert _run(_teach(tmp_path, "--set", "home", str(EXAMPLE), EXAMPLE_CODES), capsys)[0] == 0
    code, out, _ = _run([*photo, "--set", "home", "--profile", str(tmp_path)], capsys)
    assert code == 0 and _hand(out) == _hand(plain)
    # a set that says this set's 3-characters are 7-characters: the set wins over the reader
    wrong = EXAMPLE_CODES.replace("345m", "745m")
    assert _run(_teach(tmp_path, "--set", "odd", str(EXAMPLE), wrong), capsys)[0] == 0
    code, out, _ = _run([*photo, "--set", "odd", "--profile", str(tmp_path)], capsys)
    read = next(ln for ln in out.splitlines() if ln.startswith("Read:"))  # after the verdict
    assert "7m" in read and "3m" not in read
    code, _, err = _run([*photo, "--set", "nosuch", "--profile", str(tmp_path)], capsys)
    assert code == 2 and "no taught set 'nosuch'" in err and "home" in err


@pytest.mark.models
@pytest.mark.slow
def test_photos_reads_with_the_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(EXAMPLE, folder / "a.jpg")
    wrong = EXAMPLE_CODES.replace("345m", "745m")
    assert _run(_teach(tmp_path, "--set", "odd", str(EXAMPLE), wrong), capsys)[0] == 0
    out_csv = tmp_path / "r.csv"
    args = ["photos", str(folder), "--rules", "riichi", "--out", str(out_csv), "--set", "odd"]
    code, _, err = _run([*args, "--profile", str(tmp_path)], capsys)
    assert code in (0, 1), err
    assert "7m" in out_csv.read_text()


def _grids() -> list[tuple[str, str]]:
    lines = [ln for ln in GRID_CODES.read_text().splitlines() if ln and not ln.startswith("#")]
    return [tuple(s.strip() for s in ln.split(":", 1)) for ln in lines]  # type: ignore[misc]


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.skipif(not CAMERASH.is_dir(), reason="../shared/data/camerash not here")
def test_camerash_grids_pair_with_their_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The five camerash test-fold grids (144-156 tiles) pair as typed; the set whose dragons are
    drawn as dragons reads them as dragons once taught. (The reader shipped since the third
    session of 2026-11-26 trained on these grids, measured leave one set out, and reads them
    without teaching too; the readers before read them as red fives and flowers.)"""
    for photo, codes in _grids():
        code, out, err = _run(
            _teach(tmp_path, "--set", "g" + photo[:-4], str(CAMERASH / photo), codes), capsys
        )
        assert code == 0, (photo, err)
    photo = ["photo", str(CAMERASH / "4.jpg"), "--rules", "mcr", "--json"]
    code, out, _ = _run([*photo, "--set", "g4", "--profile", str(tmp_path)], capsys)
    after = [t["code"] for t in json.loads(out)["tiles"]]
    assert after.count("0m") == 0  # (exit code 1: a grid is not a hand to score)
    assert after.count("7z") == 4 and after.count("6z") == 4


def _missing_reader(monkeypatch: pytest.MonkeyPatch, place: int) -> None:
    """``teach`` with the detector's boxes on the ``place``-th tile from the left taken out."""
    from mahjong_camera_scorer.vision.cli import teach as teach_cli

    real = teach_cli._base_reader

    def base(args):
        reader = real(args)
        find = reader.find_boxes

        def find_boxes(image, mend_boxes=True):
            found, closer = find(image, mend_boxes)
            sure = sorted((d for d in found if d.score >= reader.conf), key=lambda d: d.box[0])
            gone = sure[place].box
            cx = (gone[0] + gone[2]) / 2
            return [d for d in found if not d.box[0] <= cx <= d.box[2]], closer

        reader.find_boxes = find_boxes
        return reader

    monkeypatch.setattr(teach_cli, "_base_reader", base)


@pytest.mark.models
@pytest.mark.slow
def test_a_tile_the_detector_missed_is_recovered_and_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _missing_reader(monkeypatch, 5)
    picture = tmp_path / "a.jpg"
    code, out, err = _run(
        _teach(tmp_path, "--set", "home", str(EXAMPLE), EXAMPLE_CODES, "--annotate", str(picture)), capsys
    )
    assert code == 0, err
    assert "row 1: 3m 4m 5m 5p 5p 8p+ 8p 8p" in out
    assert "row 1, tile 6: 8p recovered (a gap at the row's tile pitch)" in out
    assert "set 'home': 15 taught tiles" in out and picture.stat().st_size > 1000


@pytest.mark.models
@pytest.mark.slow
def test_annotate_draws_what_was_found_when_pairing_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    picture = tmp_path / "found.jpg"
    code, _, err = _run(
        _teach(tmp_path, "--set", "home", str(EXAMPLE), "345m 55888p", "--annotate", str(picture)), capsys
    )
    assert code == 2 and "nothing was taught" in err
    assert picture.stat().st_size > 1000 and str(picture) in err
    assert not (tmp_path / "home").exists()
