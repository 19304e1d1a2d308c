"""Real crops pasted into scenes (issue 22): faceless tiles are tiles, clutter is not, and every
crop's box, code and way up are what the scene shows."""

import csv
import random

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.artwork import Artwork
from mahjong_camera_scorer.mjsynth.pasted import (
    BACKS,
    CLUTTER,
    RIICHI_STYLES,
    WHITE_VARIANTS,
    Crop,
    ProcMix,
    back_face,
    blank_white,
    clutter_item,
    compose,
    cut_labels,
    drawn_face,
    reader_crops,
)
from mahjong_camera_scorer.mjsynth.pasted_set import generate
from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE, READER_CLASSES
from tests.mjsynth.mjsynth_testutil import needs_fonts


def _ink(face: np.ndarray) -> float:
    """Share of pixels much darker or more saturated than the face's own ivory."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    return float(((hsv[..., 2] < 150) | (hsv[..., 1] > 120)).mean())


def test_blank_whites_are_nearly_blank_and_their_variants_differ() -> None:
    rng = random.Random(0)
    faces = {v: blank_white(rng, v) for v in WHITE_VARIANTS}
    assert _ink(faces["plain"]) < 0.01
    for v in ("frame", "B", "P"):
        assert 0.003 < _ink(faces[v]) < 0.15, v  # a thin frame or a small letter, not a design
    frame = faces["frame"]
    # the frame runs down both sides: dark pixels in the outer fifth on the left and on the right
    dark = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) < 170
    assert dark[:, : frame.shape[1] // 4].any() and dark[:, -frame.shape[1] // 4 :].any()


@pytest.mark.parametrize("colour", sorted(BACKS))
def test_backs_have_their_colour(colour: str) -> None:
    face = back_face(random.Random(1), colour)
    mean = face[: face.shape[0] // 2].reshape(-1, 3).mean(0)  # the top half: never the two-tone layer
    assert np.abs(mean - np.array(BACKS[colour])).max() < 60


def test_yellow_back_is_yellow() -> None:
    hsv = cv2.cvtColor(back_face(random.Random(2), "yellow"), cv2.COLOR_BGR2HSV)
    assert 15 <= float(np.median(hsv[:60, :, 0])) <= 35  # OpenCV hue of yellow is ~30


@pytest.mark.parametrize("kind", CLUTTER)
def test_clutter_is_drawn(kind: str) -> None:
    img = clutter_item(kind, random.Random(3))
    assert img.dtype == np.uint8 and img.ndim == 3 and min(img.shape[:2]) >= 20


def test_scene_boxes_codes_and_clutter(bank) -> None:
    for seed in range(6):
        scene = compose(random.Random(seed), bank, clutter=3)
        h, w = scene.image.shape[:2]
        assert scene.tiles, seed
        for t in scene.tiles + scene.clutter:
            x0, y0, x1, y1 = t.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert all(t.code in READER_CLASSES and t.code != NOT_A_TILE for t in scene.tiles)
        assert all(c.code == NOT_A_TILE and c.source in CLUTTER for c in scene.clutter)


def test_faceless_tiles_keep_their_codes(bank) -> None:
    scene = compose(random.Random(4), bank, p_white=0.5, p_back=0.5)
    codes = {t.code for t in scene.tiles}
    assert codes == {"5z", BACK}
    assert {t.source for t in scene.tiles if t.code == "5z"} == {"white"}


@pytest.mark.slow
def test_red_fives_come_from_repainted_plain_fives(bank) -> None:
    codes = [t.code for s in range(20) for t in compose(random.Random(s), bank, p_white=0, p_back=0).tiles]
    assert "0m" in codes and "5m" in codes and "0p" not in codes  # the bank has a 5m, no 5p


def test_crops_know_which_way_up(bank) -> None:
    """A tile turned sideways or upside down is cut as the runtime cuts it, and the crop's
    ``upright`` says which way the face lies: the marked (dark) end is up exactly when it says so."""
    seen = {True: 0, False: 0}
    for seed in range(8):
        scene = compose(
            random.Random(seed), bank, p_white=0, p_back=0, p_sideways=0.4, p_upside=0.4, clutter=0
        )
        for crop, code, upright, _ in reader_crops(scene):
            if upright is None or code not in bank:
                continue
            grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(float)
            rows = grey.mean(1)
            top, bottom = rows[20:40].mean(), rows[56:76].mean()
            assert (top < bottom) == upright, (seed, code, top, bottom)
            seen[upright] += 1
    assert seen[True] > 5 and seen[False] > 5


@pytest.fixture(scope="module")
def riichi_faces(tmp_path_factory) -> Artwork:
    return Artwork(shared_dir=None, cache_dir=tmp_path_factory.mktemp("faces"), sources=["procedural"])


def _sources(bank, mix: ProcMix, seeds: range) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {}
    for seed in seeds:
        scene = compose(
            random.Random(seed), bank, p_white=0, p_back=0, p_sideways=0, p_upside=0, clutter=0, proc=mix
        )
        for t in scene.tiles:
            seen.setdefault(t.source, set()).add(t.code)
        assert all(up is True for _, _, up, src in reader_crops(scene) if src == "proc")  # drawn upright
    return seen


@needs_fonts
def test_drawn_faces_fill_the_codes_the_bank_lacks(bank, riichi_faces) -> None:
    seen = _sources(bank, ProcMix(riichi_faces, RIICHI_STYLES, fraction=0.0), range(4))
    have = set(bank) | {"0m"}  # the bank's 5m is turned into a red five, as without drawn faces
    assert seen["real"] <= have and len(seen["proc"]) > 10
    assert not seen["proc"] & have  # fraction 0: drawn only where the bank has nothing


@needs_fonts
def test_drawn_faces_mix_into_the_rows_at_their_fraction(bank, riichi_faces) -> None:
    seen = _sources(bank, ProcMix(riichi_faces, ("proc-riichi-ink",), fraction=1.0), range(3))
    assert set(seen) - {"back"} == {"proc"}  # every face-up tile drawn (a kong adds backs)
    face = drawn_face(riichi_faces, "proc-riichi-ink", "9p", random.Random(0))
    assert face.shape == (200, 150, 3)  # the pasted face size
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    red = ((hsv[..., 0] >= 170) | (hsv[..., 0] <= 10)) & (hsv[..., 1] > 80)
    assert red[85:115].mean() > 0.1 and red[:40].mean() < 0.01  # still a 9p: the middle row red


def test_cut_labels_keeps_portrait_boxes_of_known_codes() -> None:
    img = np.zeros((100, 200, 3), np.uint8)
    out = cut_labels(img, [("1m", (10, 10, 40, 50)), ("zz", (50, 10, 80, 50)), ("2p", (90, 10, 160, 40))])
    assert list(out) == ["1m"] and out["1m"][0].image.shape == (40, 30, 3)
    assert not out["1m"][0].upright  # a scene photo's label does not say which way up


def test_photo_crops_have_no_way_up(bank) -> None:
    photo = {c: [Crop(x.image, upright=False) for x in v] for c, v in bank.items()}
    scene = compose(random.Random(5), photo, p_white=0, p_back=0, clutter=0)
    assert scene.tiles and {t.source for t in scene.tiles} == {"photo"}
    assert all(up is None for _, _, up, _ in reader_crops(scene))


def test_generate_writes_crops_and_yolo(bank, tmp_path) -> None:
    counts = generate(tmp_path, 3, 7, bank)
    rows = list(csv.DictReader((tmp_path / "cls" / "crops.csv").open()))
    assert len(rows) == sum(counts.values()) > 0
    for r in rows:
        assert (tmp_path / "cls" / r["file"]).is_file()
        assert r["upright_in_crop"] in ("", "0", "1")
        assert r["code"] == r["file"].split("/")[1]
    labels = sorted((tmp_path / "det" / "labels" / "train").glob("*.txt"))
    assert len(labels) == 3
    for f in labels:
        for line in f.read_text().split("\n"):
            if line:
                c, *xywh = line.split()
                assert c in ("0", "1") and all(0 <= float(v) <= 1 for v in xywh)
