"""Desk scenes (issue 22, item 6): keys in rows at a keyboard's real pitch, loose tiles labelled and
lying on keys only where the scene says so, ``none`` crops cut from keys and devices only."""

from __future__ import annotations

import csv
import itertools
import json
import random

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth import desk
from mahjong_camera_scorer.mjsynth.pasted_set import generate
from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE, READER_CLASSES


@pytest.fixture(scope="module")
def scenes(bank) -> list[desk.DeskScene]:
    return [desk.compose(random.Random(seed), bank) for seed in range(8)]


def _quad(box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


@pytest.mark.parametrize("kind", desk.KEYBOARDS)
def test_keys_sit_in_rows_at_the_real_pitch(kind: str) -> None:
    ppm = 3.0
    board = desk.keyboard(kind, random.Random(1), ppm)
    if kind == "laptop":
        assert 18.0 <= board.pitch_mm <= desk.PITCH_MM
    else:
        assert board.pitch_mm == desk.PITCH_MM  # 19.05 mm: every desktop keyboard's pitch
    u = board.pitch_mm * ppm
    main_right = board.top[0] + 15 * u  # the main block: 15 units wide
    tops = []
    for row in range(1, 5):  # number row to the shift row: a whole row of full-height keys each
        keys = sorted(
            (p for p in board.parts if p.row == row and p.rect[0] < main_right), key=lambda p: p.rect[0]
        )
        assert sum(k.units for k in keys) == pytest.approx(15.0), (kind, row)
        for a, b in itertools.pairwise(keys):  # each key starts where the last one's units end
            assert b.rect[0] - a.rect[0] == pytest.approx(a.units * u, abs=1.0), (kind, row, a.legend)
        ones = [k for k in keys if k.units == 1]
        assert len(ones) >= 10
        for k in ones:  # a cap is a little smaller than its pitch: the gap between keys shows
            assert 0.8 * u <= k.rect[2] - k.rect[0] <= 0.97 * u
            assert k.rect[3] - k.rect[1] == pytest.approx(k.rect[2] - k.rect[0], abs=1.0)  # square
        tops.append(keys[0].rect[1])
    assert np.diff(tops) == pytest.approx([u] * 3, abs=1.0)  # rows one pitch apart
    letters = {p.legend for p in board.parts}
    assert set("QWERTYASDFZXCV") <= letters
    if kind == "full":  # the number pad right of the navigation block
        assert {"Num", "Ent", "7", "0"} <= letters
        assert max(p.rect[2] for p in board.parts) > board.top[0] + 21 * u
    else:
        assert "Num" not in letters


def test_other_devices_have_their_parts() -> None:
    rng = random.Random(2)
    kinds = {d: desk.make_device(d, rng, 2.5) for d in ("remote", "dice", "sticks")}
    assert {p.kind for p in kinds["remote"].parts} == {"button"}
    assert len([p for p in kinds["remote"].parts if p.legend.isdigit()]) == 10  # 1-9 and 0
    assert {p.kind for p in kinds["dice"].parts} == {"dice"} and 2 <= len(kinds["dice"].parts) <= 3
    assert {p.kind for p in kinds["sticks"].parts} == {"stick"}
    lit = [desk.phone(random.Random(s), 2.5) for s in range(6)]
    assert any(p.parts for p in lit) and any(not p.parts for p in lit)  # lit with icons, and dark
    for dev in (*kinds.values(), *lit):
        h, w = dev.image.shape[:2]
        assert dev.alpha.shape == (h, w) and dev.alpha.max() == 255
        for p in dev.parts:
            assert 0 <= p.rect[0] < p.rect[2] <= w + 1 and 0 <= p.rect[1] < p.rect[3] <= h + 1


def test_labels_cover_every_pasted_tile(scenes) -> None:
    for scene in scenes:
        h, w = scene.image.shape[:2]
        assert scene.pasted == len(scene.tiles) > 0
        for t in scene.tiles:
            x0, y0, x1, y1 = t.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
            assert t.code in READER_CLASSES and t.code != NOT_A_TILE
            assert t.inside > 0.999  # loose tiles lie wholly in the photo
    devices = [name.split("#")[0] for s in scenes for name in s.devices]
    assert sum(d in desk.KEYBOARDS for d in devices) >= 5
    assert sum(len(s.parts) for s in scenes) > 300  # keys, icons, buttons: no boxes, but listed


def test_tiles_touch_keys_only_where_they_lie_on_them(scenes) -> None:
    on_keys = 0
    for scene in scenes:
        for t in scene.tiles:
            for p in scene.parts:
                if desk.overlap_area(t.quad, p.quad) > 1.0:
                    assert t.on == p.device, (t.on, p.device, p.source)
                    on_keys += p.source == "key"
            if t.on == "desk":
                assert all(desk.overlap_area(t.quad, o) < 1.0 for o in scene.devices.values())
            else:
                assert t.on in scene.devices
        for a in scene.tiles:  # loose tiles do not lie on each other
            assert all(desk.overlap_area(a.quad, b.quad) < 1.0 for b in scene.tiles if b is not a)
    assert on_keys > 10  # tiles do lie on keyboards
    assert any(t.code == BACK for s in scenes for t in s.tiles)


def test_none_crops_come_from_clutter(scenes) -> None:
    kinds = set(desk.PART_KINDS) | {"window"}
    n = 0
    for scene in scenes:
        crops = desk.reader_crops(scene)
        nones = [c for c in crops if c[1] == NOT_A_TILE]
        assert len(nones) == len(scene.clutter)
        assert len(crops) - len(nones) == sum(t.inside > 0.999 for t in scene.tiles)
        for crop, _, up, src in nones:
            assert crop.shape == (96, 96, 3) and up is None and src in kinds
        for c in scene.clutter:
            q = _quad(c.box)
            cx, cy = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
            # on a device, on no tile
            assert any(
                cv2.pointPolygonTest(o.astype(np.float32), (cx, cy), False) >= 0
                for o in scene.devices.values()
            )
            for t in scene.tiles:
                assert cv2.pointPolygonTest(t.quad.astype(np.float32), (cx, cy), False) < 0
                assert desk.overlap_area(q, t.quad) < 0.25 * desk._poly_area(q)
            n += 1
        part_boxes = {p.box for p in scene.parts if p.visible >= 0.999}
        assert all(c.box in part_boxes for c in scene.clutter if c.source != "window")
    assert n > 30


def test_crops_know_which_way_up(bank) -> None:
    """A tile lying near square to the photo has a way up in its crop (the dark marked end is up
    exactly when the crop says so); one lying askew has none."""
    seen = {True: 0, False: 0, None: 0}
    for seed in range(6):
        scene = desk.compose(random.Random(seed), bank, size=(600, 800), p_back=0, p_white=0)
        for crop, code, upright, _ in desk.reader_crops(scene):
            if code not in bank:
                continue
            seen[upright] += 1
            if upright is None:
                continue
            grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(float)
            rows = grey.mean(1)
            top, bottom = rows[20:40].mean(), rows[56:76].mean()
            assert (top < bottom) == upright, (seed, code, top, bottom)
    assert seen[True] > 3 and seen[False] > 3 and seen[None] > 3


def test_a_seed_gives_the_same_scene(bank) -> None:
    a, b = (desk.compose(random.Random(5), bank, size=(600, 800)) for _ in range(2))
    assert np.array_equal(a.image, b.image)
    assert [t.box for t in a.tiles] == [t.box for t in b.tiles]
    assert [c.box for c in a.clutter] == [c.box for c in b.clutter]
    other = desk.compose(random.Random(6), bank, size=(600, 800))
    assert [t.box for t in a.tiles] != [t.box for t in other.tiles]


def test_generate_writes_desk_scenes(bank, tmp_path) -> None:
    generate(tmp_path, 2, 3, bank, desk_fraction=1.0)
    records = sorted((tmp_path / "det" / "desk").glob("*.json"))
    assert [r.stem for r in records] == [f"d3_{i:05d}" for i in range(2)]
    for r in records:
        rec = json.loads(r.read_text())
        lines = (tmp_path / "det" / "labels" / "train" / f"{r.stem}.txt").read_text().split("\n")
        boxes = [ln for ln in lines if ln]
        assert len(boxes) == len(rec["tiles"]) > 0  # one YOLO box a tile, none for keys
        assert [ln.split()[0] for ln in boxes] == ["1" if t["code"] == BACK else "0" for t in rec["tiles"]]
        assert rec["parts"] and all(p["kind"] in desk.PART_KINDS for p in rec["parts"])
    rows = list(csv.DictReader((tmp_path / "cls" / "crops.csv").open()))
    nones = {r["source"] for r in rows if r["code"] == NOT_A_TILE}
    assert nones and nones <= set(desk.PART_KINDS) | {"window"}
    generate(tmp_path / "mixed", 2, 3, bank, desk_fraction=0.0)
    assert not (tmp_path / "mixed" / "det" / "desk").exists()
