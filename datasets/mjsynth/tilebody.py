"""3D-looking tiles: a textured front face on a box with visible thickness and a coloured back layer.

Each tile is a real box in table coordinates (millimetres; table plane z = 0, x right, y away from the
photographer, z up), projected by the scene camera and painted face by face. That gives correct
perspective, thickness and foreshortening for standing and lying tiles alike, and the projected face
corners give the rotated quad and the orientation label for free.

Local tile frame: ``u`` along the face's width (reading right), ``v`` along its height (reading up), ``n``
out of the face. The box spans u in [-W/2, W/2], v in [-H/2, H/2], n in [-T, 0]; the front layer (ivory, or
the set's face colour) is n in [-T*front, 0], the coloured back layer the rest.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict, final

import cv2
import numpy as np

#: Back-layer colours real sets use (BGR): white, yellow, green, blue, black, plus red and orange, and
#: ivory (bone): the colour that a blank white face must be told from by its body and edge.
BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "green": (60, 120, 30),
    "dark_green": (40, 80, 20),
    "blue": (150, 80, 20),
    "light_blue": (200, 150, 80),
    "yellow": (40, 180, 220),
    "orange": (30, 110, 225),
    "black": (30, 28, 28),
    "white": (225, 232, 235),
    "red": (40, 40, 170),
    "pink": (150, 120, 225),
    "ivory": (168, 212, 232),
}


@dataclass
class TileDims:
    """Tile size in mm (riichi ~26x35x20, Chinese/western sets up to ~30x40x25)."""

    w: float = 26.0
    h: float = 35.0
    t: float = 20.0
    front: float = 0.55  # fraction of the thickness that is the front (face-coloured) layer
    corner: float = 0.12  # rounded-corner radius as a fraction of the width


@dataclass
class TilePose:
    """Where a tile is: its face centre and its local axes in table coordinates."""

    center: np.ndarray  # face centre (mm)
    u: np.ndarray
    v: np.ndarray
    n: np.ndarray

    def corners(self, d: TileDims) -> np.ndarray:
        """The 8 box corners: index bit 0 = u side, bit 1 = v side, bit 2 = back (n = -T)."""
        out = []
        for k in range(8):
            su = 1 if k & 1 else -1
            sv = 1 if k & 2 else -1
            sn = -d.t if k & 4 else 0.0
            out.append(self.center + su * d.w / 2 * self.u + sv * d.h / 2 * self.v + sn * self.n)
        return np.array(out)


class TileExtra(TypedDict, total=False):
    """What some layouts note on a tile beyond its role, for the manifest and the labels."""

    upside_down_in_hand: bool  # a concealed tile turned the wrong way up in the row
    on_edge: bool  # a loose tile standing on its long edge
    riichi: bool  # a discard lying sideways (the riichi declaration)
    pond_index: int  # its place among its owner's discards
    ring: int  # a wall stack's place round the table (side * 17 + stack)


@dataclass
class TileInstance:
    """One tile in a scene: what it is, where, how it looks, and what role it has in the hand."""

    code: str
    pose: TilePose
    face_down: bool = False
    role: str = "concealed"  # concealed | winning | meld | bonus | other
    group: int = -1  # meld index, or -1
    seat: int = 0
    style: str = ""
    back_colour: tuple[float, ...] = (60, 120, 30)  # BGR
    face_colour: tuple[float, ...] = (222, 236, 242)
    extra: TileExtra = field(default_factory=TileExtra)


# Box faces: (corner indices in order around the face, outward normal in local (u, v, n)).
# The front face is ordered as read: top-left, top-right, bottom-right, bottom-left.
FRONT = (2, 3, 1, 0)
BACK = (6, 7, 5, 4)  # the back plane (bit 2 set), in the same reading order
_SIDES = {
    "top": ((2, 3, 7, 6), (0, 1, 0)),
    "bottom": ((0, 1, 5, 4), (0, -1, 0)),
    "right": ((1, 3, 7, 5), (1, 0, 0)),
    "left": ((0, 2, 6, 4), (-1, 0, 0)),
}


@final  # no other keys: a prop's drawn geometry is this or a cup's (``clutter.CupGeometry``)
class TileGeometry(TypedDict):
    """Where :func:`draw_tile` painted a tile, in photo pixels (what the labels are made of)."""

    corners: np.ndarray  # the 8 box corners projected, (8, 2)
    quad: np.ndarray  # the face as read (the back for a face-down tile), TL TR BR BL
    silhouette: np.ndarray  # the convex hull of the corners
    in_view: bool
    size: tuple[int, int]  # the canvas (width, height)
    sides: list[np.ndarray]  # projected side quads (the "tile side" hard negatives)
    shows: NotRequired[str | None]  # "face", "back" or None (drawn tiles only)
    shown_area: NotRequired[float]  # the shown broad side's area in px²


#: A camera's projection: world points (N, 3) in mm -> pixels (N, 2).
Projection = Callable[[np.ndarray], np.ndarray]

#: A fill colour as OpenCV takes it: one value (a mask, the id image) or BGR(A).
Colour = float | Sequence[float]


def local_to_world(pose: TilePose, vec: tuple[float, float, float]) -> np.ndarray:
    return vec[0] * pose.u + vec[1] * pose.v + vec[2] * pose.n


def bevel_face(
    face: np.ndarray, edge_bgr: tuple[int, ...], corner: float, gloss_map: np.ndarray | None = None
) -> np.ndarray:
    """Bake the tile's rounded-corner bevel and a glossy highlight into a flat face image.

    The outer band reads as the rounded edge of the tile (darker, fading in); ``gloss_map`` (from
    ``gloss_map``, one per scene since all tiles share the lamp) is the specular sheen of glossy plastic.
    """
    h, w = face.shape[:2]
    t, _, _ = _bevel_map(w, h, round(corner, 3))
    edge = np.array(edge_bgr, np.float32) * 0.78
    f = face.astype(np.float32) * ((0.82 + 0.18 * t) * t) + edge * (1 - t)
    if gloss_map is not None:
        f += gloss_map
    beveled: np.ndarray = np.clip(f, 0, 255).astype(np.uint8)
    return beveled


def gloss_map(w: int, h: int, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A soft diagonal specular band across a face, ``strength`` of full white at its peak."""
    _, xx, yy = _bevel_map(w, h, 0.12)
    ang = rng.uniform(0, np.pi)
    c = rng.uniform(-0.4, 0.4)
    proj = ((xx / w - 0.5) * np.cos(ang) + (yy / h - 0.5) * np.sin(ang) - c) / rng.uniform(0.12, 0.35)
    sheen: np.ndarray = (strength * 255 * np.exp(-proj * proj))[..., None].astype(np.float32)
    return sheen


@functools.lru_cache(maxsize=8)
def _bevel_map(w: int, h: int, corner: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0 at the tile's rounded edge rising to 1 inside (per pixel of a face), and the pixel grids."""
    r = corner * w
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx = np.maximum(np.maximum(r - xx, xx - (w - 1 - r)), 0)
    dy = np.maximum(np.maximum(r - yy, yy - (h - 1 - r)), 0)
    inside = r - np.sqrt(dx * dx + dy * dy)  # >0 inside the rounded rect
    edge_d = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy))
    dist = np.where((dx > 0) & (dy > 0), inside, edge_d)
    band = 0.045 * w
    t = np.clip(dist / band, 0, 1)[..., None]
    return t, xx, yy


def lambert(normal: np.ndarray, light: np.ndarray, ambient: float) -> float:
    return ambient + (1 - ambient) * max(0.0, float(np.dot(normal, light)))


def draw_tile(
    canvas: np.ndarray,
    ids: np.ndarray,
    tile_id: int,
    tile: TileInstance,
    dims: TileDims,
    texture: np.ndarray | None,
    project: Projection,  # (N,3) world -> (N,2) pixels
    cam_pos: np.ndarray,
    light: np.ndarray,
    ambient: float,
) -> TileGeometry:
    """Paint one tile onto ``canvas`` (in place) and its id into ``ids``; return its geometry.

    ``texture`` is the beveled face (None for a face-down tile). Returns the projected corners, the face
    quad (as read), and the silhouette polygon.
    """
    P = tile.pose
    corners3 = P.corners(dims)
    pts = project(corners3)
    if np.abs(pts).max() > 1e5:  # (partly) behind the camera: not drawn, never labelled
        sil = cv2.convexHull(np.clip(pts, -1e5, 1e5).astype(np.float32)).reshape(-1, 2)
        return {
            "corners": pts,
            "quad": pts[list(FRONT)],
            "silhouette": sil,
            "in_view": False,
            "size": canvas.shape[1::-1],
            "sides": [],
        }
    h_img, w_img = canvas.shape[:2]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    if hi[0] < 0 or hi[1] < 0 or lo[0] > w_img or lo[1] > h_img:  # wholly outside the photo
        return {
            "corners": pts,
            "quad": pts[list(BACK if tile.face_down else FRONT)],
            "silhouette": cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2),
            "in_view": False,
            "size": (w_img, h_img),
            "sides": [],
        }
    visible_faces = []
    sides = []  # projected side quads (both layers), for the scene's "tile side" hard negatives

    def facing(idx: tuple[int, ...], normal: np.ndarray) -> bool:
        c = corners3[list(idx)].mean(axis=0)
        return float(np.dot(normal, cam_pos - c)) > 0

    front_n = P.n
    # sides, split into the front layer (face colour) and the back layer (back colour)
    for idx, nl in _SIDES.values():
        nw = local_to_world(P, nl)
        if not facing(idx, nw):
            continue
        shade = lambert(nw, light, ambient)
        a, b, c, d = (corners3[i] for i in idx)  # a,b on the front plane, c,d on the back plane (c<-b, d<-a)
        f = dims.front
        mid_a, mid_b = a + (d - a) * f, b + (c - b) * f
        quad_front = project(np.array([a, b, mid_b, mid_a]))
        quad_back = project(np.array([mid_a, mid_b, c, d]))
        col_f = tuple(float(min(255, x * shade * 0.93)) for x in tile.face_colour)
        col_b = tuple(float(min(255, x * shade)) for x in tile.back_colour)
        _fill(canvas, quad_front, col_f)
        _fill(canvas, quad_back, col_b)
        visible_faces.append(np.vstack([quad_front, quad_back]))
        sides.append(project(np.array([a, b, c, d])))
    # front (face) or back
    front_idx = FRONT
    quad = pts[list(front_idx)]
    shows, shown_area = None, 0.0  # which broad side the camera sees (the face, the back) and its area
    if facing(front_idx, front_n):
        shows, shown_area = "face", abs(float(cv2.contourArea(quad.astype(np.float32))))
        shade = lambert(front_n, light, ambient)
        if texture is not None and not tile.face_down:
            _warp_texture(canvas, texture, quad, shade)
        else:
            _fill(canvas, quad, tuple(float(min(255, x * shade)) for x in tile.face_colour))
        visible_faces.append(quad)
    back_idx = BACK
    if facing(back_idx, -front_n):
        shade = lambert(-front_n, light, ambient)
        bq = pts[list(back_idx)]
        shows, shown_area = "back", abs(float(cv2.contourArea(bq.astype(np.float32))))
        if tile.face_down and texture is not None:  # a textured back (e.g. FluffyStuff's Back.svg)
            _warp_texture(canvas, texture, bq, shade)
        else:
            _fill(canvas, bq, tuple(float(min(255, x * shade)) for x in tile.back_colour))
            _back_sheen(canvas, bq, shade)
        visible_faces.append(bq)
    sil = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)
    if visible_faces:
        fill_convex(ids, sil, tile_id, aa=False)
    read_quad = pts[list(BACK)] if tile.face_down else quad
    return {
        "corners": pts,
        "quad": read_quad,
        "silhouette": sil,
        "in_view": bool(visible_faces),
        "size": (w_img, h_img),
        "sides": sides,
        "shows": shows,
        "shown_area": shown_area,
    }


def clip_convex(poly: np.ndarray, w: int, h: int) -> np.ndarray | None:
    """Clip a convex polygon to the image (plus a 2 px margin). Filling polygons that reach far outside the
    image is what made rendering slow; clipping keeps every fill proportional to what is visible."""
    poly = np.asarray(poly, np.float32).reshape(-1, 2)
    lo, hi = poly.min(axis=0), poly.max(axis=0)
    if hi[0] < -2 or hi[1] < -2 or lo[0] > w + 2 or lo[1] > h + 2:
        return None
    if lo[0] >= -2 and lo[1] >= -2 and hi[0] <= w + 2 and hi[1] <= h + 2:
        return poly
    rect = np.array([[-2, -2], [w + 2, -2], [w + 2, h + 2], [-2, h + 2]], np.float32)
    hull = cv2.convexHull(poly)
    area, inter = cv2.intersectConvexConvex(hull, rect)
    if inter is None or area <= 0:
        return None
    return inter.reshape(-1, 2)


def fill_convex(img: np.ndarray, poly: np.ndarray, colour: Colour, aa: bool = True) -> None:
    """Fill a convex polygon (float pixel coordinates), clipped to the image, with sub-pixel precision."""
    p = clip_convex(poly, img.shape[1], img.shape[0])
    if p is None or len(p) < 3:
        return
    if aa:
        cv2.fillConvexPoly(img, np.round(p * 16).astype(np.int32), colour, lineType=cv2.LINE_AA, shift=4)
    else:
        cv2.fillConvexPoly(img, np.round(p).astype(np.int32), colour)


def _fill(canvas: np.ndarray, poly: np.ndarray, colour: Colour) -> None:
    fill_convex(canvas, poly, colour)


def _back_sheen(canvas: np.ndarray, quad: np.ndarray, shade: float) -> None:
    """A faint highlight band on the (glossy) back so it is not a flat polygon."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return
    roi = canvas[y0:y1, x0:x1].astype(np.float32)
    m = np.zeros(roi.shape[:2], np.uint8)
    fill_convex(m, quad - [x0, y0], 255)
    yy, xx = np.mgrid[0 : y1 - y0, 0 : x1 - x0].astype(np.float32)
    g = np.exp(-(((xx / (x1 - x0) - 0.35) + (yy / (y1 - y0) - 0.35)) ** 2) / 0.05) * 40 * shade
    roi += (g * (m / 255.0))[..., None]
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _warp_texture(canvas: np.ndarray, tex: np.ndarray, quad: np.ndarray, shade: float) -> None:
    """Map ``tex`` onto the image quad (TL, TR, BR, BL) with a perspective warp, inside the quad's ROI."""
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 - cx0 < 1 or cy1 - cy0 < 1:
        return
    th, tw = tex.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    dst = (quad - [cx0, cy0]).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    size = (cx1 - cx0, cy1 - cy0)
    # downscaling a lot: pre-shrink the texture so the warp does not alias
    scale = max(np.linalg.norm(dst[1] - dst[0]) / tw, np.linalg.norm(dst[3] - dst[0]) / th)
    if scale < 0.5:
        f = max(scale * 1.5, 1.0 / min(tw, th))
        small = cv2.resize(tex, (max(2, int(tw * f)), max(2, int(th * f))), interpolation=cv2.INTER_AREA)
        src2 = np.array(
            [[0, 0], [small.shape[1], 0], [small.shape[1], small.shape[0]], [0, small.shape[0]]], np.float32
        )
        m = cv2.getPerspectiveTransform(src2, dst)
        tex = small
    warped = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((size[1], size[0]), np.uint8)
    fill_convex(mask, dst, 255)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi = canvas[cy0:cy1, cx0:cx1]
    roi[:] = np.clip(roi * (1 - a) + warped.astype(np.float32) * shade * a, 0, 255).astype(np.uint8)
