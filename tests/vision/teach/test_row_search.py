"""Teaching never refuses what pairs: the typed rows searched for in the photo (generated rows of
boxes; the bundled photo's two rows are in tests/vision/cli/test_teach.py). Issue 38 item 5."""

from __future__ import annotations

import numpy as np

from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.teach.codes import parse_rows
from mahjong_camera_scorer.vision.teach.pairing import PairingError, pair_fitted

IMAGE = np.zeros((600, 1000, 3), np.uint8)
W, H, PITCH = 40.0, 54.0, 44.0


def _tile(x: float, y: float, code: str, index: int, turn: int = 0) -> TileRead:
    return TileRead((x, y, x + W, y + H), code, 0.9, "upright", 0.8, turn=turn, index=index)


def _row(codes: list[str], y: float, start: int, x0: float = 50.0, skip: tuple[int, ...] = (), turn: int = 0):
    """Tiles of these codes left to right at the row's pitch; ``skip``: places left empty."""
    return [_tile(x0 + PITCH * p, y, c, start + p, turn) for p, c in enumerate(codes) if p not in skip]


def _reader(code: str = "5z"):
    """The reader on new boxes (a gap's slot): every box read as ``code``."""

    def read_boxes(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
        return [TileRead(d.box, code, 0.7, "upright", d.score, index=k) for k, d in enumerate(dets)]

    return read_boxes


def _paired(fitted) -> list[tuple[int, str, str]]:  # type: ignore[no-untyped-def]
    return [(p.row, p.code, p.tile.code) for p in fitted.pairs]


def test_a_row_standing_behind_another_is_its_own_row() -> None:
    """Three tiles stand behind the front row, a third of a tile higher, partly hidden: the
    chaining makes one row of twelve; the codes' two rows are its two heights."""
    back = [_tile(80 + 2 * PITCH * k, 82, c, 100 + k) for k, c in enumerate(["5z", "6z", "7z"])]
    front = _row([f"{n}m" for n in range(1, 10)], 100, 0)
    fitted = pair_fitted(back + front, [], parse_rows("567z / 123456789m"), IMAGE, _reader())
    assert not fitted.unpaired and len(fitted.pairs) == 12
    assert all(code == read for _, code, read in _paired(fitted))  # each tile with its own code
    assert [p.tile.index for p in fitted.pairs if p.row == 1] == [100, 101, 102]


def test_a_block_whose_tiles_point_sideways_is_read_by_its_rows() -> None:
    """Twelve dragons, a 2x2 block above a 4x2 one, their faces turned a quarter (the tiles'
    ``turn``): the hand's frame chains them by columns; the player's four rows are found."""
    tiles = [
        *_row(["5z", "5z"], 50, 0, turn=90),
        *_row(["5z", "5z"], 50 + H + 4, 10, turn=90),
        *_row(["6z"] * 4, 50 + 2 * (H + 4), 20, turn=90),
        *_row(["7z"] * 4, 50 + 3 * (H + 4), 30, turn=90),
    ]
    fitted = pair_fitted(tiles, [], parse_rows("55z / 55z / 6666z / 7777z"), IMAGE, _reader())
    assert not fitted.unpaired and len(fitted.pairs) == 12
    assert all(code == read for _, code, read in _paired(fitted))
    assert [p.tile.index for p in fitted.pairs] == [0, 1, 10, 11, 20, 21, 22, 23, 30, 31, 32, 33]


def test_one_photo_row_holding_two_typed_rows_is_cut_where_the_first_ends() -> None:
    """A hand, then a set laid apart on the same line: typed as two rows."""
    tiles = _row([f"{n}p" for n in range(1, 10)], 100, 0) + _row(["2s"] * 4, 100, 20, x0=50 + 11 * PITCH)
    fitted = pair_fitted(tiles, [], parse_rows("123456789p / 2222s"), IMAGE, _reader())
    assert [(p.row, p.code) for p in fitted.pairs][-4:] == [(2, "2s")] * 4 and not fitted.unpaired


def test_a_missing_tile_is_found_at_the_rows_pitch_when_other_rows_do_not_match_the_codes() -> None:
    """A blank white dragon the detector never boxed in row 2, and a stray pair of tiles below
    the set that no code names: the stray row is left out, the gap taken in, all 18 taught."""
    tiles = [
        *_row([f"{n}s" for n in range(1, 10)], 100, 0),
        *_row(["1z", "2z", "3z", "4z", "5z", "6z", "7z", "1m", "2m"], 200, 20, skip=(4,)),
        *_row(["9m", "9m"], 400, 40, x0=600),
    ]
    fitted = pair_fitted(tiles, [], parse_rows("123456789s / 1234567z 12m"), IMAGE, _reader("5z"))
    assert not fitted.unpaired and len(fitted.pairs) == 18
    (found,) = [p for p in fitted.pairs if p.found]
    assert (found.row, found.place, found.code, found.found) == (2, 5, "5z", "gap")
    assert sorted(t.index for t in fitted.left_out) == [40, 41]


def test_the_rows_that_pair_are_taught_and_the_rest_reported() -> None:
    """Row 2 has two tiles for nine codes (nothing to fit them from): rows 1 and 3 pair, row 2
    is reported with the tiles found for it."""
    tiles = [
        *_row([f"{n}m" for n in range(1, 10)], 100, 0),
        *_row(["1p", "2p"], 200, 20),
        *_row([f"{n}s" for n in range(1, 10)], 300, 40),
    ]
    codes = parse_rows("123456789m / 123456789p / 123456789s")
    fitted = pair_fitted(tiles, [], codes, IMAGE, _reader("none"))
    assert {p.row for p in fitted.pairs} == {1, 3} and len(fitted.pairs) == 18
    (u,) = fitted.unpaired
    assert u.row == 2 and [t.index for t in u.tiles] == [20, 21]
    assert u.line == "row 2: 2 tiles found, 9 codes given (1p 2p 3p 4p 5p 6p 7p 8p 9p)"


def test_nothing_paired_is_still_an_error_naming_every_row() -> None:
    tiles = _row(["1m", "2m"], 100, 0)
    try:
        pair_fitted(tiles, [], parse_rows("123456789m / 5z"), IMAGE, _reader("none"))
    except PairingError as exc:
        assert exc.lines[0] == "the photo shows 1 row of tiles, the codes give 2"
        # the photo's row is named with the typed row whose count is nearest its own
        assert exc.lines[1].startswith("row 1: 0 tiles found, 9 codes given")
        assert exc.lines[2] == "row 2: 2 tiles found, 1 code given (5z)" and exc.rows
    else:
        raise AssertionError("two tiles cannot pair with these codes")


def test_the_standard_layout_never_cuts_a_row_into_two_of_its_rows() -> None:
    """Eighteen tiles in one row are not 1-9m and 1-9p: the standard's rows are not the player's."""
    tiles = _row(["1m"] * 18, 100, 0)
    try:
        pair_fitted(tiles, [], None, IMAGE, _reader("none"))
    except PairingError as exc:
        assert "at least 4 rows" in exc.lines[0]
    else:
        raise AssertionError("one row of 18 is not the standard layout")
