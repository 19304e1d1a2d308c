"""Where the generator lays tiles: a Japanese pond in rows of six, the walls of an automatic table."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np

from mahjong_camera_scorer.mjsynth.layout import DEAD_WALL, POND_ROW, WALL_STACKS, automatic_walls, pond_rows
from mahjong_camera_scorer.mjsynth.tilebody import TileDims

D = TileDims(26, 35, 20)


def _footprint(t) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    """The tile's box on the table (x0, y0, x1, y1), from its pose."""
    c = t.pose.corners(D)
    return float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max())


def test_a_pond_lies_in_rows_of_six_from_the_centre_towards_its_owner() -> None:
    tiles = pond_rows([f"{n}m" for n in range(1, 10)] + ["1p"] * 5, D, random.Random(3))
    rows = Counter(round((-float(t.pose.center[1]) - D.h / 2) / (D.h + 2)) for t in tiles)
    assert sorted(rows.values(), reverse=True) == [6, 6, 2]
    first = [t for t in tiles[:POND_ROW]]
    assert all(t.pose.center[1] > tiles[POND_ROW].pose.center[1] for t in first)  # owner at -y
    xs = [float(t.pose.center[0]) for t in first]
    assert xs == sorted(xs) and all(t.pose.n[2] > 0.9 and not t.face_down for t in tiles)


def test_the_riichi_tile_lies_sideways_and_widens_its_row() -> None:
    plain = pond_rows(["1m"] * 6, D, random.Random(5))
    riichi = pond_rows(["1m"] * 6, D, random.Random(5), riichi_at=2)
    side = riichi[2]
    assert side.extra["riichi"] and abs(float(side.pose.v[0])) > 0.95  # its up along the row
    assert sum(t.extra["riichi"] for t in riichi) == 1
    span = lambda ts: _footprint(ts[-1])[2] - _footprint(ts[0])[0]  # noqa: E731
    assert span(riichi) - span(plain) > 0.6 * (D.h - D.w)
    # aligned to the row's front edge (nearest the owner), as players lay it
    assert abs(_footprint(side)[1] - _footprint(riichi[1])[1]) < 3.0


def test_the_walls_of_an_automatic_table_are_a_square_of_17_stacks_two_high() -> None:
    half = WALL_STACKS / 2 * D.w + 4
    walls = automatic_walls(D, random.Random(1), half, taken=0, kongs=0, dora=["3p"])
    assert len(walls) == 4 * WALL_STACKS * 2
    assert [t.code for t in walls if not t.face_down] == ["3p"]  # the dora indicator, on top
    assert next(t for t in walls if not t.face_down).pose.center[2] > 1.5 * D.t
    per_ring = Counter(t.extra["ring"] for t in walls)
    assert set(per_ring.values()) == {2} and len(per_ring) == 4 * WALL_STACKS
    # a square: each side's stacks lie half away from the centre, and no two walls overlap
    for side in range(4):
        centres = np.array([t.pose.center[:2] for t in walls if t.extra["ring"] // WALL_STACKS == side])
        yaw = side * math.pi / 2
        out = centres @ np.array([math.sin(yaw), -math.cos(yaw)])
        assert np.allclose(out, half, atol=2.0)
    boxes = [(t.extra["ring"] // WALL_STACKS, _footprint(t)) for t in walls]
    for sa, a in boxes:
        for sb, b in boxes:
            if sa < sb:
                assert min(a[2], b[2]) - max(a[0], b[0]) < 0.5 or min(a[3], b[3]) - max(a[1], b[1]) < 0.5


def test_tiles_dealt_and_drawn_are_gone_from_the_walls_but_the_dead_wall_stays() -> None:
    half = WALL_STACKS / 2 * D.w + 4
    walls = automatic_walls(D, random.Random(2), half, taken=81, kongs=2, dora=["1m", "2m", "3m", "4m"])
    assert len(walls) == 4 * WALL_STACKS * 2 - 81 - 2  # the deal and draws, and two replacements
    assert sorted(t.code for t in walls if not t.face_down) == ["1m", "2m", "3m"]  # 1 + a kong each
    stacks = Counter(t.extra["ring"] for t in walls)
    assert sum(n == 1 for n in stacks.values()) <= 2  # a stack half taken at the live end, the dead wall's
    assert len(stacks) >= DEAD_WALL
