"""Where the tiles of a finished hand lie on the table.

The conventions players follow when they show a winning hand, as poses in table millimetres (see
``tilebody``): the concealed tiles in a row (standing, or laid flat), the winning tile set apart at the
right, declared sets set apart with the claimed tile turned sideways, concealed kongs with two tiles face
down, flowers placed apart; also melds in a second row, and a whole table of four such hands with discards.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from mahjong_camera_scorer.mjsynth.hands import SynthHand
from mahjong_camera_scorer.mjsynth.tilebody import TileDims, TileInstance, TilePose

X = np.array([1.0, 0, 0])
Y = np.array([0, 1.0, 0])
Z = np.array([0, 0, 1.0])


def flat_pose(x: float, y: float, d: TileDims, angle: float = 0.0, face_down: bool = False) -> TilePose:
    """A tile lying on the table, face up (or down), its reading-up direction at ``angle`` from +y."""
    u = np.array([math.cos(angle), math.sin(angle), 0.0])
    v = np.array([-math.sin(angle), math.cos(angle), 0.0])
    if face_down:
        return TilePose(np.array([x, y, 0.0]), -u, v, -Z)
    return TilePose(np.array([x, y, d.t]), u, v, Z.copy())


def standing_pose(x: float, y: float, d: TileDims, upside_down: bool = False, tilt: float = 0.0) -> TilePose:
    """A tile standing on its edge facing the photographer (-y); ``tilt`` leans it back (radians)."""
    n = np.array([0.0, -math.cos(tilt), math.sin(tilt)])
    v = np.array([0.0, math.sin(tilt), math.cos(tilt)])
    c = np.array([x, y, 0.0]) + (d.h / 2) * v  # the bottom edge rests on the table at (x, y)
    u = X.copy()
    if upside_down:
        u, v = -u, -v
    return TilePose(c, u, v, n)


@dataclass
class LayoutOptions:
    standing: bool = False
    melds_second_row: bool = False
    gap: float = 0.6  # mm between neighbours in a row (0 = touching)
    set_gap: float = 10.0  # mm between groups
    p_upside_down: float = 0.03
    jitter_mm: float = 0.5
    jitter_deg: float = 1.2
    kong_style: str = "outer"  # outer | inner : which two tiles of a concealed kong lie face down


def _jit(rng: random.Random, o: LayoutOptions) -> tuple[float, float, float]:
    return (rng.gauss(0, o.jitter_mm), rng.gauss(0, o.jitter_mm), math.radians(rng.gauss(0, o.jitter_deg)))


def layout_hand(
    hand: SynthHand, d: TileDims, o: LayoutOptions, rng: random.Random, seat: int = 0
) -> list[TileInstance]:
    """Tiles of one hand in its own frame: the row along +x starting at x = 0, the player at -y."""
    tiles: list[TileInstance] = []
    x = 0.0
    win_i = hand.concealed.index(hand.winning_tile)
    rest = hand.concealed[:win_i] + hand.concealed[win_i + 1 :]
    if rng.random() < 0.15:  # some players do not sort
        i, j = rng.randrange(len(rest)), rng.randrange(len(rest))
        rest[i], rest[j] = rest[j], rest[i]

    def put(code: str, role: str, group: int = -1, standing: bool = o.standing, y: float = 0.0) -> None:
        nonlocal x
        jx, jy, ja = _jit(rng, o)
        ud = rng.random() < o.p_upside_down
        if standing:
            pose = standing_pose(
                x + d.w / 2 + jx, y + jy, d, upside_down=ud, tilt=math.radians(rng.uniform(-3, 8))
            )
        else:
            pose = flat_pose(x + d.w / 2 + jx, y + d.h / 2 + jy, d, angle=ja + (math.pi if ud else 0.0))
        tiles.append(
            TileInstance(code, pose, role=role, group=group, seat=seat, extra={"upside_down_in_hand": ud})
        )
        x += d.w + o.gap

    for c in rest:
        put(c, "concealed")
    x += rng.uniform(0.3, 1.2) * d.w
    put(hand.winning_tile, "winning")
    # melds
    if o.melds_second_row:
        x = rng.uniform(-0.5, 2.0) * d.w
        row_y = -(d.h + rng.uniform(8, 25)) if rng.random() < 0.5 else d.h + rng.uniform(8, 25)
        if o.standing:
            row_y = -(d.h + rng.uniform(8, 25))
    else:
        x += o.set_gap + rng.uniform(0, 1.0) * d.w
        row_y = 0.0 if not o.standing else -rng.uniform(0, 10)
    for gi, m in enumerate(hand.melds):
        for ti, code in enumerate(m.tiles):
            jx, jy, ja = _jit(rng, o)
            if m.claimed is not None and ti == m.claimed:  # sideways, aligned to the front edge
                pose = flat_pose(x + d.h / 2 + jx, row_y + d.w / 2 + jy, d, angle=math.pi / 2 + ja)
                tiles.append(TileInstance(code, pose, role="meld", group=gi, seat=seat))
                x += d.h + o.gap
                continue
            down = False
            if m.type == "kong" and not m.open:
                down = ti in ((0, 3) if o.kong_style == "outer" else (1, 2))
            pose = flat_pose(x + d.w / 2 + jx, row_y + d.h / 2 + jy, d, angle=ja, face_down=down)
            tiles.append(TileInstance(code, pose, face_down=down, role="meld", group=gi, seat=seat))
            x += d.w + o.gap
        x += o.set_gap + rng.uniform(0, 0.6) * d.w
    # bonus tiles: to the left of the row, or in front of it
    if hand.bonus_tiles:
        if rng.random() < 0.5:
            bx = -(len(hand.bonus_tiles) * (d.w + o.gap) + o.set_gap + rng.uniform(0, 1) * d.w)
            by = 0.0 if not o.standing else -d.h - 10
        else:
            bx = rng.uniform(0, 3) * d.w
            by = -(d.h + rng.uniform(10, 30)) * (2 if o.melds_second_row and row_y < 0 else 1)
        for b in hand.bonus_tiles:
            jx, jy, ja = _jit(rng, o)
            pose = flat_pose(bx + d.w / 2 + jx, by + d.h / 2 + jy, d, angle=ja)
            tiles.append(TileInstance(b, pose, role="bonus", seat=seat))
            bx += d.w + o.gap
    return tiles


def transform(tiles: list[TileInstance], yaw: float, offset: np.ndarray) -> None:
    """Rotate tiles about the table's z axis by ``yaw`` and move them by ``offset`` (in place)."""
    c, s = math.cos(yaw), math.sin(yaw)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    for t in tiles:
        p = t.pose
        p.center = R @ p.center + offset
        p.u, p.v, p.n = R @ p.u, R @ p.v, R @ p.n


def centre_of(tiles: list[TileInstance]) -> np.ndarray:
    pts = np.array([t.pose.center for t in tiles])
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    centre: np.ndarray = (lo + hi) / 2
    return centre


def scatter_tiles(
    codes: list[str],
    d: TileDims,
    rng: random.Random,
    area: tuple[float, float, float, float],
    role: str = "other",
    p_down: float = 0.3,
    rows: bool = False,
) -> list[TileInstance]:
    """Loose tiles on the table (discards, other players' tiles): flat, random angle, some face down.

    With ``rows`` they are laid as a discard pond: rows of six, roughly aligned.
    """
    x0, y0, x1, y1 = area
    out = []
    for i, code in enumerate(codes):
        down = rng.random() < p_down
        if rows:
            x = x0 + (i % 6) * (d.w + 1) + rng.gauss(0, 1)
            y = y1 - (i // 6) * (d.h + 2) + rng.gauss(0, 1)
            ang = math.radians(rng.gauss(0, 3))
        else:
            x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
            ang = rng.uniform(0, 2 * math.pi)
        pose = flat_pose(x, y, d, angle=ang, face_down=down)
        out.append(TileInstance(code, pose, face_down=down, role=role))
    # drop tiles that would overlap an earlier one (their boxes would interpenetrate)
    kept: list[TileInstance] = []
    for t in out:
        if all(np.linalg.norm(t.pose.center[:2] - k.pose.center[:2]) > d.h * 1.05 for k in kept):
            kept.append(t)
    return kept


def wall_segment(n_stacks: int, d: TileDims, rng: random.Random, two_high: bool = True) -> list[TileInstance]:
    """A piece of the wall left on a table: face-down tiles side by side, usually stacked two high,
    along +x starting at x = 0 (codes are unknown to the viewer: ``back``)."""
    out = []
    for i in range(n_stacks):
        x = i * (d.w + rng.uniform(0, 0.6)) + rng.gauss(0, 0.4)
        for level in range(2 if two_high else 1):
            pose = flat_pose(
                x + d.w / 2,
                d.h / 2 + rng.gauss(0, 0.5),
                d,
                angle=math.radians(rng.gauss(0, 1.2)),
                face_down=True,
            )
            pose.center = pose.center + np.array([0.0, 0.0, level * d.t])
            out.append(TileInstance("back", pose, face_down=True, role="wall"))
    return out


def edge_pose(
    x: float, y: float, d: TileDims, yaw: float, on_long_edge: bool = True, flip: bool = False
) -> TilePose:
    """A tile resting on an edge, its face vertical and facing ``yaw`` (0 = towards -y, the camera's
    usual side): on a long edge (lying sideways: the face reads turned 90 degrees) or on a short one
    (stood up like a loose tile), ``flip`` turning it over by 180 degrees. The box is centred on (x, y)."""
    n = np.array([math.sin(yaw), -math.cos(yaw), 0.0])
    across = np.array([math.cos(yaw), math.sin(yaw), 0.0])  # horizontal, in the face's plane
    if on_long_edge:  # u x v must be n: the face reads the right way round
        u, v, up = -Z, across, d.w / 2
    else:
        u, v, up = across, Z.copy(), d.h / 2
    if flip:
        u, v = -u, -v
    return TilePose(np.array([x, y, up]) + (d.t / 2) * n, u, v, n)


def loose_tiles(
    codes: list[str],
    d: TileDims,
    rng: random.Random,
    area: tuple[float, float, float, float],
    p_down: float = 0.15,
    p_edge: float = 0.2,
    role: str = "other",
) -> list[TileInstance]:
    """Tiles dropped on the table: flat at any angle (face up or down), some resting on an edge."""
    x0, y0, x1, y1 = area
    out: list[TileInstance] = []
    for code in codes:
        x, y = rng.uniform(x0, x1), rng.uniform(y0, y1)
        if any(np.linalg.norm(np.array([x, y]) - k.pose.center[:2]) < d.h * 1.15 for k in out):
            continue
        r = rng.random()
        if r < p_edge:
            yaw = rng.gauss(0, 0.6) if rng.random() < 0.7 else rng.uniform(-math.pi, math.pi)
            pose = edge_pose(x, y, d, yaw, on_long_edge=rng.random() < 0.6, flip=rng.random() < 0.5)
            out.append(TileInstance(code, pose, role=role, extra={"on_edge": True}))
            continue
        down = r < p_edge + p_down
        pose = flat_pose(x, y, d, angle=rng.uniform(-math.pi, math.pi), face_down=down)
        out.append(TileInstance(code, pose, face_down=down, role=role))
    return out


def wall_square(d: TileDims, rng: random.Random, half: float) -> list[TileInstance]:
    """The four walls of a game in progress: two-high rows of face-down tiles around the centre, each
    side ``half`` mm from it, with stacks already drawn (a gap) on one or two sides."""
    out: list[TileInstance] = []
    for side in range(4):
        n = rng.randint(6, 17) if side < 2 else rng.randint(12, 18)
        seg = wall_segment(n, d, rng, two_high=rng.random() < 0.85)
        start = rng.uniform(-8.5, 8.5 - n) * d.w
        transform(seg, 0.0, np.array([start, -d.h / 2, 0.0]))
        yaw = side * math.pi / 2
        transform(seg, yaw, np.array([math.sin(yaw) * half, -math.cos(yaw) * half, 0.0]))
        out += seg
    return out


#: Tiles to a row of a discard pond (Japanese rules: rows of six, the third row running on).
POND_ROW = 6
#: Stacks to a side of an automatic table's wall (136 tiles: 4 sides x 17 stacks x 2).
WALL_STACKS = 17
#: Stacks of the dead wall, left standing beside the break whatever is dealt.
DEAD_WALL = 7


def pond_rows(
    codes: list[str],
    d: TileDims,
    rng: random.Random,
    riichi_at: int | None = None,
    role: str = "discard",
    row_len: int = POND_ROW,
) -> list[TileInstance]:
    """One player's discards as they lie on a Japanese table: face up, left to right in rows of
    ``row_len`` from the owner's side (the first row nearest the centre, at y = 0, the rows after it
    towards the owner at -y), x from 0. The ``riichi_at``-th discard lies sideways (the riichi
    declaration), widening its row by a tile's length less its width."""
    out: list[TileInstance] = []
    x = y = 0.0
    for i, code in enumerate(codes):
        if i and i % row_len == 0:
            x, y = 0.0, y - (d.h + rng.uniform(1.0, 3.0))
        side = i == riichi_at
        along = d.h if side else d.w
        jx, jy, ja = rng.gauss(0, 0.8), rng.gauss(0, 0.8), math.radians(rng.gauss(0, 2.0))
        # a sideways tile lies along the row's front edge (nearest the owner), as players place it
        cy = y - d.h + (d.w / 2 if side else d.h / 2)
        pose = flat_pose(x + along / 2 + jx, cy + jy, d, angle=ja + (math.pi / 2 if side else 0.0))
        out.append(TileInstance(code, pose, role=role, extra={"riichi": side, "pond_index": i}))
        x += along + rng.uniform(0.3, 1.5)
    return out


def automatic_walls(
    d: TileDims, rng: random.Random, half: float, taken: int, kongs: int = 0, dora: list[str] | None = None
) -> list[TileInstance]:
    """The four walls of an automatic table, dealt from: :data:`WALL_STACKS` stacks two high on each
    side, ``half`` mm from the centre, laid as a pinwheel (each wall's end against the next wall's
    inner face). ``taken`` tiles are gone from the live wall, going one way round from a break;
    the :data:`DEAD_WALL` stacks on the other side of the break stay, less one top tile per kong
    (the replacement draws), with ``1 + kongs`` dora indicators turned face up on top (their codes
    from ``dora``; role ``wall`` like every wall tile). Stack ``extra["ring"]`` is its place round
    the table (side * 17 + stack)."""
    n = 4 * WALL_STACKS
    brk = rng.randrange(n)
    taken = min(taken, 2 * (n - DEAD_WALL))
    gone: dict[int, int] = {}  # ring index -> tiles taken from the stack (2 = the whole stack)
    for k in range(taken):
        ring = (brk - 1 - k // 2) % n
        gone[ring] = gone.get(ring, 0) + 1
    dead = [(brk + i) % n for i in range(DEAD_WALL)]
    for k in range(min(kongs, 4)):  # replacement tiles: from the dead wall's far end, tops first
        ring = dead[-1 - k // 2]
        gone[ring] = gone.get(ring, 0) + 1
    flipped = {dead[2 + k]: code for k, code in enumerate((dora or [])[: 1 + min(kongs, 4)])}
    out: list[TileInstance] = []
    for side in range(4):
        yaw = side * math.pi / 2
        start = -half - d.h / 2  # the wall's left end reaches the outer face of the wall to its left
        seg: list[TileInstance] = []
        for i in range(WALL_STACKS):
            ring = side * WALL_STACKS + i
            left = 2 - gone.get(ring, 0)
            x = start + (i + 0.5) * d.w + rng.gauss(0, 0.4)
            y = rng.gauss(0, 0.5)
            for level in range(max(left, 0)):
                up = level == 1 and ring in flipped
                code = flipped[ring] if up else "back"
                pose = flat_pose(x, y, d, angle=math.radians(rng.gauss(0, 1.0)), face_down=not up)
                pose.center = pose.center + np.array([0.0, 0.0, level * d.t])
                seg.append(TileInstance(code, pose, face_down=not up, role="wall", extra={"ring": ring}))
        transform(seg, yaw, np.array([math.sin(yaw) * half, -math.cos(yaw) * half, 0.0]))
        out += seg
    return out
