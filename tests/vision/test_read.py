"""The reader's post-processing with a stand-in model: confidence, flags, orientation, backs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES, TILE_CLASSES
from mahjong_camera_scorer.vision.detect import Detection
from mahjong_camera_scorer.vision.read import LOW_CONFIDENCE, read_tiles


@dataclass
class FakeReader:
    """Answers a fixed class per crop (in call order) and 'upside down' for the chosen ones."""

    answers: list[tuple[str, float]]
    upside_down: set[int]
    imgsz: tuple[int, int] = (96, 96)
    classes: tuple[str, ...] = TILE_CLASSES

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        n = len(self.answers)
        logits = np.full((len(batch), len(self.classes)), -10.0, np.float32)
        flip = np.full((len(batch), 1), -6.0, np.float32)
        for k in range(len(batch)):
            i = k % n  # with TTA the second half is the same crops turned 180°
            code, p = self.answers[i]
            logits[k, self.classes.index(code)] = 0.0
            logits[k, self.classes.index("9s" if code != "9s" else "1s")] = np.log((1 - p) / p)
            turned = k >= n
            flip[k, 0] = 6.0 if (i in self.upside_down) != turned else -6.0
        return [logits, flip]


def test_readings_carry_code_confidence_orientation_and_flags() -> None:
    image = np.full((200, 400, 3), 90, np.uint8)
    dets = [
        Detection((10, 10, 40, 50), "tile", 0.9),
        Detection((50, 10, 80, 50), "tile", 0.9),
        Detection((90, 20, 152, 50), "tile", 0.8),  # lying: 2:1, wider than read both ways
        Detection((140, 10, 170, 50), "back", 0.9),
    ]
    # the 1z reads upside down (a wind shows its up; a white dragon would not: vision.layout)
    model = FakeReader([("0p", 0.97), ("1z", 0.52), ("7z", 0.9), ("3m", 0.55)], upside_down={1})
    r = read_tiles(model, image, dets)  # type: ignore[arg-type]
    assert [x.code for x in r[:3]] == ["0p", "1z", "7z"]
    assert (
        r[0].orientation == "upright" and r[1].orientation == "upside_down" and r[2].orientation == "sideways"
    )
    assert abs(r[0].confidence - 0.97) < 0.01  # 44 other classes share the rest
    assert r[1].flagged and r[1].confidence < LOW_CONFIDENCE and r[1].to_json()["flagged"] is True
    assert not r[0].flagged and "flagged" not in r[0].to_json()
    assert r[3].code == "back"  # the detector saw a back and the reader is not sure of a face


def test_a_detector_back_the_reader_takes_for_no_tile_is_rejected() -> None:
    # the mat in shadow between two tiles, a dark thing on a shelf: the detector says "back", the
    # reader puts "not a tile" above "back" (here 0.45 against nothing; a likelier 9s beside it
    # would have made it a back before)
    image = np.full((200, 400, 3), 90, np.uint8)
    dets = [Detection((10, 10, 40, 50), "back", 0.5), Detection((50, 10, 80, 50), "back", 0.5)]
    model = FakeReader([(NOT_A_TILE, 0.45), ("back", 0.45)], set(), classes=READER_CLASSES)
    r = read_tiles(model, image, dets)  # type: ignore[arg-type]
    assert [(x.code, x.index) for x in r] == [("back", 1), (NOT_A_TILE, 0)]  # rejected ones come last
    assert abs(r[1].confidence - 0.45) < 0.01 and not r[1].is_tile


def test_turn_comes_from_the_box_shape_and_the_upside_down_head() -> None:
    image = np.full((200, 400, 3), 90, np.uint8)
    dets = [
        Detection((10, 10, 40, 50), "tile", 0.9),  # portrait, upright
        Detection((50, 10, 80, 50), "tile", 0.9),  # portrait, upside down
        Detection((90, 10, 154, 40), "tile", 0.9),  # landscape, crop turned clockwise, reads upright
        Detection((160, 10, 224, 40), "tile", 0.9),  # landscape, reads upside down
    ]
    model = FakeReader([("1m", 0.9), ("2m", 0.9), ("3m", 0.9), ("4m", 0.9)], upside_down={1, 3})
    r = read_tiles(model, image, dets)  # type: ignore[arg-type]
    assert [x.turn for x in r] == [0, 180, 270, 90]
    assert r[0].to_json()["turn"] == 0 and r[3].to_json()["turn"] == 90


@dataclass
class ShapeReader:
    """Reads '3s' surely when the red tile in the crop stands (portrait), '9m' unsurely otherwise."""

    imgsz: tuple[int, int] = (96, 96)
    classes: tuple[str, ...] = TILE_CLASSES

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        logits = np.full((len(batch), len(self.classes)), -10.0, np.float32)
        for k, x in enumerate(batch):
            ys, xs = np.nonzero((x[0] > 0.7) & (x[2] < 0.3))
            standing = (ys.max() - ys.min()) > (xs.max() - xs.min())
            logits[k, self.classes.index("3s" if standing else "9m")] = 5.0 if standing else 0.5
        return [logits, np.full((len(batch), 1), -6.0, np.float32)]


def test_a_nearly_square_box_is_read_both_ways_and_the_surer_reading_wins() -> None:
    image = np.full((200, 400, 3), 90, np.uint8)
    image[60:94, 100:146] = (0, 0, 230)  # a red tile lying sideways, 46 x 34
    square = Detection((98, 48, 148, 96), "tile", 0.9)  # boxed 50 x 48: the row's height
    tall = Detection((200, 40, 230, 80), "tile", 0.9)  # a portrait box is read one way only
    image[42:78, 202:228] = (0, 0, 230)
    r = read_tiles(ShapeReader(), image, [square, tall])  # type: ignore[arg-type]
    assert r[0].code == "3s" and r[0].turn in (90, 270)  # read turned: a tile lying sideways
    assert r[1].code == "3s" and r[1].turn == 0
    plain = read_tiles(ShapeReader(), image, [Detection((98, 20, 148, 120), "tile", 0.9)])  # type: ignore[arg-type]
    assert plain[0].turn in (0, 180)  # a clearly portrait box (0.5) is not turned


def test_a_box_read_as_not_a_tile_is_set_apart_and_never_a_candidate() -> None:
    """The ``none`` class: a box read as not a tile is split off (listed as rejected, never laid
    out), and a real tile's alternatives never offer ``none`` to :mod:`vision.mend`."""
    from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES
    from mahjong_camera_scorer.vision.read import split_rejected

    image = np.full((200, 400, 3), 90, np.uint8)
    dets = [Detection((10, 10, 40, 50), "tile", 0.9), Detection((50, 10, 80, 50), "tile", 0.9)]
    model = FakeReader([("2p", 0.9), (NOT_A_TILE, 0.95)], upside_down=set(), classes=READER_CLASSES)
    tiles, rejected = split_rejected(read_tiles(model, image, dets))  # type: ignore[arg-type]
    assert [t.code for t in tiles] == ["2p"] and [t.code for t in rejected] == [NOT_A_TILE]
    assert not rejected[0].is_tile and tiles[0].is_tile
    assert all(c != NOT_A_TILE for t in tiles for c, _ in t.alternatives)


@dataclass
class HeadReader:
    """Reads '3s' (logit ``sure``) where the crop shows the tile's red head band lying across it
    (the crop not turned), '9m' (logit 2) where it stands along it (the crop turned)."""

    sure: float
    imgsz: tuple[int, int] = (96, 96)
    classes: tuple[str, ...] = TILE_CLASSES

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        logits = np.zeros((len(batch), len(self.classes)), np.float32)  # unsure of all but one
        for k, x in enumerate(batch):
            ys, xs = np.nonzero((x[0] > 0.7) & (x[2] < 0.3))
            across = (xs.max() - xs.min()) > (ys.max() - ys.min())
            logits[k, self.classes.index("3s" if across else "9m")] = self.sure if across else 2.0
        return [logits, np.full((len(batch), 1), -6.0, np.float32)]


def test_a_standing_tile_seen_from_the_seat_is_read_unturned_when_that_is_surer() -> None:
    # seen from the seat a standing tile's face is foreshortened: boxed 1.4 times wider than tall,
    # which turns its crop; it is read unturned too, and that reading wins where it is surer by
    # OTHER_WAY_MARGIN (here a sure 3s against an unsure 9m), not where it is barely surer
    from mahjong_camera_scorer.vision.read import AMBIGUOUS_ASPECT, OTHER_WAY_MARGIN

    image = np.full((200, 400, 3), 255, np.uint8)
    image[60:66, 100:156] = (0, 0, 230)  # the head band across the top of a 56 x 40 face
    wide = Detection((100, 60, 156, 100), "tile", 0.9)
    assert AMBIGUOUS_ASPECT[0] < wide.width / wide.height <= AMBIGUOUS_ASPECT[1]
    r = read_tiles(HeadReader(sure=8.0), image, [wide])  # type: ignore[arg-type]
    assert r[0].code == "3s" and r[0].turn == 0
    p_turned = read_tiles(HeadReader(sure=0.0), image, [wide])[0].confidence  # type: ignore[arg-type]
    q = p_turned + OTHER_WAY_MARGIN / 2  # the unturned reading this sure: surer, not by the margin
    others = len(TILE_CLASSES) - 1
    close = read_tiles(HeadReader(sure=float(np.log(others * q / (1 - q)))), image, [wide])  # type: ignore[arg-type]
    assert close[0].code == "9m" and close[0].turn in (90, 270)  # the shape's turn stands
    wider = Detection((100, 60, 178, 100), "tile", 0.9)  # 1.95: a tile lying sideways, one way only
    assert read_tiles(HeadReader(sure=8.0), image, [wider])[0].turn in (90, 270)  # type: ignore[arg-type]


def test_the_boxes_a_photo_s_shape_turned_vote_for_one_way() -> None:
    # three foreshortened standing tiles (boxes 1.4 wide): two read surely unturned; the third
    # (marked blue) reads unsurely unturned and a little surer turned, which alone would keep it
    # turned; the photo's vote reads all three unturned (a hand from the seat stands as one)
    from mahjong_camera_scorer.vision.read import VOTE_MIN

    image = np.full((200, 400, 3), 255, np.uint8)
    boxes = [(20, 60, 76, 100), (100, 60, 156, 100), (180, 60, 236, 100)]
    for x0, y0, x1, _ in boxes:
        image[y0 : y0 + 6, x0:x1] = (0, 0, 230)
    image[80:86, 205:211] = (230, 0, 0)
    dets = [Detection(tuple(float(v) for v in b), "tile", 0.9) for b in boxes]  # type: ignore[arg-type]

    @dataclass
    class Marked(HeadReader):
        def run(self, batch: np.ndarray) -> list[np.ndarray]:
            logits, flip = super().run(batch)
            for k, x in enumerate(batch):
                if np.any((x[2] > 0.7) & (x[0] < 0.3)) and logits[k, self.classes.index("3s")] > 0:
                    logits[k, self.classes.index("3s")] = 1.0  # the marked tile, unturned: unsure
            return [logits, flip]

    alone = read_tiles(Marked(sure=8.0), image, dets[2:])  # type: ignore[arg-type]
    assert alone[0].code == "9m" and alone[0].turn in (90, 270)  # by itself it stays turned
    assert len(dets) >= VOTE_MIN
    r = read_tiles(Marked(sure=8.0), image, dets)  # type: ignore[arg-type]
    assert [(x.code, x.turn) for x in r] == [("3s", 0), ("3s", 0), ("3s", 0)]
