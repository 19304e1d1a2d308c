"""The layout asks for a tile where a row's pitch predicts one (:mod:`vision.ask`): a slot of the
row's tile size in a gap between two tiles of a row, read in one batch; a tile read there is taken
in, marked and checked. Never at a row's ends, never on a box already read, never a back or an
unsure reading. The last tests run the shipped models on the example photo with a blank white
dragon the detector gave no box, a gap over the table, and a row's end tile missing."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.vision.ask import ASKED, MAX_SLOTS, ask, gap_slots
from mahjong_camera_scorer.vision.checks import checks
from mahjong_camera_scorer.vision.detect import Detection, iou
from mahjong_camera_scorer.vision.layout import lay_out
from mahjong_camera_scorer.vision.read import TileRead
from tests.vision.support import EXAMPLE, models_present, truth_tiles

W, H, PITCH = 40.0, 54.0, 42.0
SHAPE = (400, 1200, 3)


def row(places: list[int], codes: str | None = None, y: float = 100.0) -> list[TileRead]:
    """Tiles at these places of a row (place k's left edge at 50 + k pitches)."""
    names = (codes or " ".join("1m" for _ in places)).split()
    return [
        TileRead((50 + PITCH * p, y, 50 + PITCH * p + W, y + H), c, 0.95, "upright", 0.9, index=k)
        for k, (p, c) in enumerate(zip(places, names, strict=True))
    ]


def stand_in(code: str = "5z", confidence: float = 0.9):
    """The reader on the slots: every box read as ``code``; remembers what it was asked."""
    asked: list[list[Detection]] = []

    def read_boxes(dets: list[Detection]) -> list[TileRead]:
        asked.append(list(dets))
        return [TileRead(d.box, code, confidence, "upright", d.score, index=k) for k, d in enumerate(dets)]

    read_boxes.asked = asked  # type: ignore[attr-defined]
    return read_boxes


def test_a_gap_one_pitch_wide_asks_for_one_tile_of_the_rows_size_where_it_stands() -> None:
    tiles = row([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13])  # place 4 missed
    slots = gap_slots(lay_out(tiles), [t.box for t in tiles], SHAPE)
    assert len(slots) == 1 and slots[0].missing == 1 and slots[0].between == (3, 4)
    want = (50 + 4 * PITCH, 100.0, 50 + 4 * PITCH + W, 100 + H)
    assert slots[0].box == pytest.approx(want)


def test_a_gap_two_pitches_wide_asks_for_two_and_a_wider_one_for_none() -> None:
    two = row([0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13])
    slots = gap_slots(lay_out(two), [t.box for t in two], SHAPE)
    assert [s.missing for s in slots] == [2, 2]
    assert [(s.box[0] - 50) / PITCH for s in slots] == pytest.approx([4.0, 5.0], abs=0.05)
    three = row([0, 1, 2, 3, 7, 8, 9, 10, 11, 12, 13])  # sets laid apart, not tiles missed
    assert gap_slots(lay_out(three), [t.box for t in three], SHAPE) == []


def test_a_narrow_gap_between_sets_asks_for_nothing() -> None:
    tiles = row([0, 1, 2, 3.4, 4.4, 5.4, 6.4, 7.4])  # a third of a tile between the groups
    assert gap_slots(lay_out(tiles), [t.box for t in tiles], SHAPE) == []


def test_the_tile_read_in_a_gap_is_taken_in_marked_and_numbered_after_every_box() -> None:
    tiles = row([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13], "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 5z 5z")
    rejected = [TileRead((900, 300, 940, 354), "none", 0.9, "upright", 0.5, index=20)]
    reader = stand_in("5z", 0.9)
    got = ask(reader, lay_out(tiles), tiles + rejected, SHAPE, keep=0.35)
    assert len(reader.asked) == 1 and len(reader.asked[0]) == 1  # one batched call
    assert [(t.code, t.found_by, t.detector_score, t.index) for t in got] == [("5z", ASKED, 0.35, 21)]
    # it joins the row like a tile the detector found, and a check names it for the player
    lay = lay_out(tiles + got)
    assert lay.concealed[:6] == ["1m", "2m", "3m", "4p", "5z", "5p"] and len(lay.concealed) == 14
    found = checks(tiles + got, lay)
    assert [c.kind for c in found] == ["asked"] and found[0].tiles == (21,)
    assert "5z" in found[0].message and "check it" in found[0].message


@pytest.mark.parametrize(("code", "confidence"), [("none", 0.9), ("back", 0.95), ("5z", 0.55)])
def test_a_slot_read_as_no_tile_a_back_or_unsurely_is_left_empty(code: str, confidence: float) -> None:
    tiles = row([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    reader = stand_in(code, confidence)
    assert ask(reader, lay_out(tiles), tiles, SHAPE, keep=0.35) == []
    assert len(reader.asked) == 1


def test_nothing_is_asked_at_a_rows_ends_nor_where_a_box_was_read_already() -> None:
    short = row([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13])  # the tile at place 0 missed: an end
    reader = stand_in()
    assert ask(reader, lay_out(short), short, SHAPE, keep=0.35) == [] and reader.asked == []
    tiles = row([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    faint = replace(tiles[0], box=(50 + 4 * PITCH + 3, 102, 50 + 4 * PITCH + W + 3, 156), detector_score=0.25)
    faint = replace(faint, index=30, confidence=0.5)  # a faint box in the gap, read unsurely
    assert ask(reader, lay_out(tiles), [*tiles, faint], SHAPE, keep=0.35) == [] and reader.asked == []


def test_a_faint_box_read_surely_in_a_gap_is_taken_in_with_its_own_number() -> None:
    # a blank white dragon in a tight crop of a row: boxed faintly (0.34), read 5z at 0.64; with
    # no hand to complete the mending never takes it, but the row's pitch says a tile stands there
    tiles = row([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    box = (50 + 4 * PITCH + 3, 102, 50 + 4 * PITCH + W + 3, 156)
    faint = TileRead(box, "5z", 0.64, "upright", 0.34, index=30)
    reader = stand_in("1m")
    got = ask(reader, lay_out(tiles), [*tiles, faint], SHAPE, keep=0.35)
    assert [(t.code, t.found_by, t.detector_score, t.index, t.box) for t in got] == [
        ("5z", ASKED, 0.35, 30, box)
    ]
    assert reader.asked == []  # read already: the slot is not read again


def test_a_turned_hand_is_asked_about_in_its_own_frame() -> None:
    tiles = row([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13])
    # the same row photographed with the phone turned a quarter: boxes transposed, tiles lying turned
    turned = [replace(t, box=(t.box[1], t.box[0], t.box[3], t.box[2]), turn=90) for t in tiles]
    lay = lay_out(turned)
    assert lay.turn == 90
    slots = gap_slots(lay, [t.box for t in turned], (1200, 400, 3))
    assert len(slots) == 1
    x0, y0, x1, y1 = slots[0].box
    assert (x1 - x0, y1 - y0) == pytest.approx((H, W)) and y0 == pytest.approx(50 + 4 * PITCH)


def test_at_most_a_batch_of_slots_is_read() -> None:
    # ten gaps a tile wide between pairs of tiles
    every = row([p for k in range(11) for p in (3 * k, 3 * k + 1)])
    reader = stand_in()
    got = ask(reader, lay_out(every), every, (400, 1500, 3), keep=0.35)
    assert len(reader.asked[0]) == MAX_SLOTS and len(got) == MAX_SLOTS


# -- the shipped models on the example photo -----------------------------------------------------


def _blank_white(image: np.ndarray, box: tuple[float, ...]) -> np.ndarray:
    """The photo with the face of the tile at ``box`` made plain ivory (its glyph painted over
    with the face's own tone): a blank white dragon where the photo had another tile."""
    out = image.copy()
    x0, y0, x1, y1 = (round(v) for v in box)
    # the face: below the tile's back showing at its top, left of the next tile's side
    fx0, fy0, fx1, fy1 = x0 + 5, y0 + 13, x1 - 11, y1 - 4
    face = out[fy0:fy1, fx0:fx1].astype(np.float32)
    grey = face.mean(axis=2)
    glyph = (grey < np.percentile(grey, 80) - 15).astype(np.uint8)
    glyph = cv2.dilate(glyph, np.ones((3, 3), np.uint8)).astype(bool)
    face[glyph] = np.median(face[~glyph], axis=0)
    out[fy0:fy1, fx0:fx1] = face.astype(np.uint8)
    return out


def _detections(truth: list[dict], leave_out: int | None = None) -> list[Detection]:
    return [
        Detection(tuple(t["box"]), "back" if t["code"] == "back" else "tile", 0.9)
        for i, t in enumerate(truth)
        if i != leave_out
    ]


@pytest.fixture(scope="module")
def shipped():
    if not models_present():
        pytest.skip("the shipped models are not in models/")
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    return PhotoReader()


@pytest.mark.models
def test_a_blank_white_the_detector_gave_no_box_is_asked_for_and_read(shipped) -> None:
    truth = truth_tiles()
    image = cv2.imread(str(EXAMPLE))
    k = 6  # the second 8p of the concealed row, inside it
    photo = _blank_white(image, truth[k]["box"])
    result = shipped.read_and_score(photo, detections=_detections(truth, k), mend_boxes=False)
    asked = [t for t in result.tiles if t.found_by == ASKED]
    assert [t.code for t in asked] == ["5z"]
    assert iou(asked[0].box, truth[k]["box"]) > 0.8
    assert "5z" in result.layout.concealed and result.layout.concealed.index("5z") == k
    assert [c.kind for c in result.checks if asked[0].index in c.tiles] == ["asked"]
    assert result.to_check(asked[0]) and "gap" not in [c.kind for c in result.checks]
    assert "gaps" in result.timings


@pytest.mark.models
def test_a_gap_over_the_table_and_a_missing_end_tile_add_nothing(shipped) -> None:
    truth = truth_tiles()
    image = cv2.imread(str(EXAMPLE))
    # the row cut between its 6th and 7th tiles and its right part moved a pitch on: plain table
    cut, pitch = 348, 49
    h, w = image.shape[:2]
    table = cv2.resize(image[500:h, 0:pitch], (pitch, h))  # table below the hand
    photo = np.ascontiguousarray(np.concatenate([image[:, :cut], table, image[:, cut : w - pitch]], axis=1))
    moved = [
        {**t, "box": [t["box"][0] + pitch, t["box"][1], t["box"][2] + pitch, t["box"][3]]}
        if t["box"][0] >= cut - 10
        else t
        for t in truth
    ]
    moved = [t for t in moved if t["box"][2] <= w]
    result = shipped.read_and_score(photo, detections=_detections(moved), mend_boxes=False)
    assert [t for t in result.tiles if t.found_by] == []
    assert "gap" in [c.kind for c in result.checks]  # still flagged: a tile may be missing
    # the row's first tile missed: nothing is asked for beyond a row's end
    result = shipped.read_and_score(image, detections=_detections(truth, 0), mend_boxes=False)
    assert [t for t in result.tiles if t.found_by] == [] and len(result.tiles) == len(truth) - 1


def _none(
    place: float, index: int, score: float = 0.65, second: str = "5z", h: float = H, p: float = 0.3
) -> TileRead:
    """A box at ``place`` of the row read as no tile, ``second`` the reader's next answer (``p``)."""
    x = 50 + PITCH * place
    return TileRead(
        (x, 100 + H - h, x + W, 100 + H),
        "none",
        0.7,
        "upright",
        score,
        ((second, p),),
        index=index,
    )


def test_a_blank_face_read_as_no_tile_in_a_row_is_a_white_dragon() -> None:
    from mahjong_camera_scorer.vision.ask import blank_whites

    tiles = row([0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11])  # a plain face at place 5, two beyond 11
    blanks = [_none(5, 20), _none(12, 21), _none(13, 22)]
    got = blank_whites(lay_out(tiles), blanks)
    assert [(t.code, t.index, t.found_by, t.confidence) for t in got] == [
        ("5z", 20, ASKED, 0.3),
        ("5z", 21, ASKED, 0.3),
        ("5z", 22, ASKED, 0.3),  # beside the blank taken in before it
    ]
    assert checks(tiles + got, lay_out(tiles + got))[0].kind == "asked"  # the player is told to check


@pytest.mark.parametrize(
    "blank",
    [
        _none(5, 20, score=0.4),  # boxed faintly: the table between two tiles
        _none(5, 20, second="1m"),  # the reader's next answer is no blank face
        _none(5, 20, p=0.05),  # ... or hardly
        _none(5, 20, h=H * 0.6),  # not the row's size
        _none(14, 20),  # three pitches beyond the row's end
    ],
)
def test_a_box_read_as_no_tile_stays_one_unless_it_stands_in_a_row_as_a_blank_white(blank: TileRead) -> None:
    from mahjong_camera_scorer.vision.ask import blank_whites

    tiles = row([0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11])
    assert blank_whites(lay_out(tiles), [blank]) == []
