"""Tiles the detector missed, found again: rows fitted to the typed codes, and a taught set finding
its tiles (generated rows of boxes; the real photo cases are in ``test_finding_photos.py``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES
from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.teach.adapt import TaughtReader
from mahjong_camera_scorer.vision.teach.codes import parse_rows, row_text
from mahjong_camera_scorer.vision.teach.finding import find, fit_rows
from mahjong_camera_scorer.vision.teach.pairing import PairingError, pair_fitted

IMAGE = np.zeros((400, 1000, 3), np.uint8)
W, H, PITCH = 40.0, 54.0, 44.0


def _tile(x: float, y: float, index: int, score: float = 0.8, w: float = W, code: str = "1m") -> TileRead:
    return TileRead((x, y, x + w, y + H), code, 0.9, "upright", score, index=index)


def _row(places: list[int], y: float = 100.0, start: int = 0) -> list[TileRead]:
    return [_tile(50 + PITCH * p, y, start + k) for k, p in enumerate(places)]


def _reader(code: str = "5z"):
    """A stand-in for the reader on new boxes: every box read as ``code``."""
    seen: list[Detection] = []

    def read_boxes(image: np.ndarray, dets: list[Detection]) -> list[TileRead]:
        seen.extend(dets)
        return [TileRead(d.box, code, 0.7, "upright", d.score, index=k) for k, d in enumerate(dets)]

    read_boxes.seen = seen  # type: ignore[attr-defined]
    return read_boxes


def test_a_gap_at_the_rows_pitch_is_taken_in() -> None:
    row = _row([0, 1, 2, 4, 5, 6, 7, 8])  # place 3 missed (a blank white the detector never boxed)
    rows, recovered, dropped = fit_rows([row], [], [9], IMAGE, _reader())
    assert len(rows[0]) == 9 and not dropped
    (r,) = recovered
    assert r.how == "gap" and r.row == 1
    assert abs((r.tile.box[0] + r.tile.box[2]) / 2 - (50 + 3 * PITCH + W / 2)) < 2
    assert [t.index for t in rows[0]].index(r.tile.index) == 3  # in its place in the row


def test_a_missing_end_tile_is_found_at_either_end() -> None:
    rows, recovered, _ = fit_rows([_row(list(range(1, 9)))], [], [9], IMAGE, _reader())
    assert len(rows[0]) == 9 and recovered[0].how == "gap"


def test_a_faint_box_in_the_band_comes_first() -> None:
    row = _row([0, 1, 2, 4, 5])
    faint = [_tile(50 + 3 * PITCH, 102, 50, score=0.25), _tile(50 + 3 * PITCH, 300, 51, score=0.3)]
    read = _reader()
    _rows, recovered, _ = fit_rows([row], faint, [6], IMAGE, read)
    assert [r.how for r in recovered] == ["faint"] and recovered[0].tile.index == 50
    assert not read.seen  # no new box needed reading


def test_a_box_two_tiles_wide_is_split() -> None:
    row = [*_row([0, 1, 2]), _tile(50 + 3 * PITCH, 100, 9, w=PITCH + W), *_row([5, 6], start=10)]
    rows, recovered, dropped = fit_rows([row], [], [7], IMAGE, _reader())
    assert len(rows[0]) == 7
    assert [r.how for r in recovered] == ["split", "split"] and dropped[0].tile.index == 9


def test_a_row_with_too_many_boxes_drops_its_weakest() -> None:
    row = _row([0, 1, 2, 3])
    row[2] = _tile(row[2].box[0], 100, 2, score=0.36)
    rows, recovered, dropped = fit_rows([row], [], [3], IMAGE, _reader())
    assert [t.index for t in rows[0]] == [0, 1, 3] and not recovered
    assert dropped[0].tile.index == 2
    # boxes nobody doubts are not dropped to fit codes that are short (the codes are wrong)
    rows, _, dropped = fit_rows([_row([0, 1, 2, 3])], [], [3], IMAGE, _reader())
    assert len(rows[0]) == 4 and not dropped


def test_pairing_recovers_and_marks_how() -> None:
    tiles = _row([0, 1, 2, 4, 5, 6, 7, 8]) + _row(list(range(9)), y=200, start=20)
    fitted = pair_fitted(tiles, [], parse_rows("123456789m / 123456789p"), IMAGE, _reader())
    assert len(fitted.pairs) == 18
    found = [p for p in fitted.pairs if p.found]
    assert [(p.row, p.place, p.code, p.found) for p in found] == [(1, 4, "4m", "gap")]


def test_rows_that_cannot_be_fitted_still_name_the_rows() -> None:
    tiles = _row([0, 1])  # two tiles: no pitch to look for seven more at
    try:
        pair_fitted(tiles, [], parse_rows("123456789m"), IMAGE, _reader(NOT_A_TILE))
    except PairingError as exc:
        assert "row 1" in exc.lines[0] and exc.rows
    else:
        raise AssertionError("a row of 2 tiles cannot pair with 9 codes")


def test_not_a_tile_is_typed_as_a_dash() -> None:
    assert parse_rows("12m - 3m") == [["1m", "2m", NOT_A_TILE, "3m"]]
    assert row_text(["1m", NOT_A_TILE]) == "1m -"


def _basis(n: int, dim: int = 16) -> np.ndarray:
    return np.eye(dim, dtype=np.float32)[:n]


def test_match_is_the_best_taught_similarity_unless_a_negative_is_closer() -> None:
    f = _basis(3)
    tr = TaughtReader.build("t", f, ["1m", "2m", NOT_A_TILE], READER_CLASSES)
    looks = np.stack([f[0], f[1], f[2], 0.6 * f[0] + 0.8 * f[2]])
    m = tr.match(looks)
    assert m[0] == 1.0 and m[1] == 1.0
    assert m[2] == 0.0 and m[3] == 0.0  # like the set's "not a tile" crop more than any tile
    # a negative raises "not a tile" for boxes like it (the reader then rejects them)
    logits = np.zeros((1, len(READER_CLASSES)), np.float32)
    out = tr.adjust(logits, f[2:3])
    assert int(out.argmax()) == READER_CLASSES.index(NOT_A_TILE)


def test_a_negative_survives_save_export_and_import(tmp_path) -> None:
    from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
    from mahjong_camera_scorer.vision.teach.store import SetStore, read_export

    crop = np.full((96, 96, 3), 90, np.uint8)
    ts = TileSet("club", [Example("1m", crop), Example(NOT_A_TILE, crop, "photo.jpg", how="correction")])
    store = SetStore(tmp_path / "sets")
    store.save(ts)
    assert store.load("club").codes() == {"1m": 1, NOT_A_TILE: 1}
    back = read_export(store.export("club", tmp_path / "club.mjset"))
    assert [e.code for e in back.examples] == ["1m", NOT_A_TILE]


def test_blank_whites_at_a_rows_end_are_plain_faces_of_the_rows_tone() -> None:
    """A generated photo: a green table, a row of ivory tiles with a dark mark, then four blank
    whites (plain ivory) the detector gave no box; the reader reads them as no tile. The row's
    codes say 12 tiles: the four plain faces are taken, outwards from the row's end; the table
    beyond the other end is not."""
    image = np.zeros((300, 1000, 3), np.uint8)
    image[:] = (40, 120, 40)
    tiles = []
    for k in range(12):
        x = 100 + PITCH * k
        image[100 : 100 + int(H), int(x) : int(x + W)] = (205, 228, 238)
        if k < 8:
            image[115:140, int(x) + 12 : int(x) + 28] = (30, 30, 160)
            tiles.append(_tile(x, 100, k))
    rows, recovered, _ = fit_rows([tiles], [], [12], image, _reader(NOT_A_TILE))
    assert len(rows[0]) == 12 and [r.how for r in recovered] == ["gap"] * 4
    centres = sorted((r.tile.box[0] + r.tile.box[2]) / 2 for r in recovered)
    assert [round((c - 100 - W / 2) / PITCH) for c in centres] == [8, 9, 10, 11]
    # no codes for more tiles than the plain faces there: the table is not a blank white
    rows, recovered, _ = fit_rows([tiles], [], [13], image, _reader(NOT_A_TILE))
    assert len(rows[0]) == 12 and len(recovered) == 4


class _Taught:
    """A set that finds faint boxes only (no gap slots): ``find_at`` as the runtime's default."""

    find_at, gap_at, end_at = 0.85, 2.0, 2.0


def test_a_set_finds_a_faint_box_on_a_face_and_not_one_on_the_bare_table() -> None:
    """A blank white dragon taught from photos on a teal mat matches, in the reader's features, a
    faint box on bare mat as well as one on a plain ivory face: only the face is taken."""
    image = np.zeros((300, 1000, 3), np.uint8)
    image[:] = (150, 140, 40)  # teal mat (BGR)
    sure = []
    for k in range(6):
        x = 100 + PITCH * k
        image[100 : 100 + int(H), int(x) : int(x + W)] = (205, 228, 238)
        image[115:140, int(x) + 12 : int(x) + 28] = (30, 30, 160)
        sure.append(_tile(x, 100, k))
    blank_x = 100 + PITCH * 7
    image[100 : 100 + int(H), int(blank_x) : int(blank_x + W)] = (205, 228, 238)  # a blank white
    faint = [
        replace(_tile(blank_x, 100, 6, score=0.25, code="5z"), taught_match=0.95),
        replace(_tile(100 + PITCH * 10, 100, 7, score=0.25, code="5z"), taught_match=0.99),  # bare mat
    ]
    out = find(_Taught(), None, image, [*sure, *faint], keep=0.35)
    found = [r for r in out if r.found_by == "set"]
    assert [r.index for r in found] == [6] and found[0].detector_score == 0.35
    assert out[7].found_by is None and out[7].detector_score == 0.25  # left as it was
