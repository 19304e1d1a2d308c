"""The phone camera: a pinhole looking down at the table, and what a phone photo does to the picture.

Geometry: elevation (20-90 degrees above the table), azimuth (which side of the table the photographer
stands), roll (in-plane rotation), field of view, distance. Photometry: lens and motion blur, sensor noise,
white balance and warm/cold light, exposure, hard shadows, glare, vignetting and JPEG artefacts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypedDict

import cv2
import numpy as np


@dataclass
class Camera:
    K: np.ndarray  # 3x3 intrinsics
    R: np.ndarray  # world -> camera rotation (rows: right, down, forward)
    C: np.ndarray  # camera centre in world mm
    width: int
    height: int

    @staticmethod
    def look_at(
        target: np.ndarray,
        elevation_deg: float,
        azimuth_deg: float,
        roll_deg: float,
        distance: float,
        hfov_deg: float,
        width: int,
        height: int,
    ) -> Camera:
        el, az, roll = (math.radians(a) for a in (elevation_deg, azimuth_deg, roll_deg))
        C = target + distance * np.array(
            [math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)]
        )
        f = (target - C) / np.linalg.norm(target - C)
        r = np.array([math.cos(az), math.sin(az), 0.0])
        r = r - f * np.dot(r, f)
        r /= np.linalg.norm(r)
        down = np.cross(f, r)
        cr, sr = math.cos(roll), math.sin(roll)
        r2, d2 = cr * r + sr * down, -sr * r + cr * down
        R = np.stack([r2, d2, f])
        fpx = (width / 2) / math.tan(math.radians(hfov_deg) / 2)
        K = np.array([[fpx, 0, width / 2], [0, fpx, height / 2], [0, 0, 1.0]])
        return Camera(K, R, C, width, height)

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N,3) -> pixel coordinates (N,2). Points behind the camera are pushed far away."""
        pc = (pts - self.C) @ self.R.T
        z = np.maximum(pc[:, 2:3], 1e-3)
        uv: np.ndarray = (pc[:, :2] / z) @ self.K[:2, :2].T + self.K[:2, 2]
        return uv

    def shift(self, dx: float, dy: float) -> None:
        """Move the image content by (dx, dy) pixels (a crop of a larger sensor)."""
        self.K = self.K.copy()
        self.K[0, 2] += dx
        self.K[1, 2] += dy

    def plane_homography(self) -> np.ndarray:
        """Homography from table-plane (x, y) mm to image pixels."""
        M = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], -self.R @ self.C])
        H: np.ndarray = M / M[2, 2]
        return H


class Aim(TypedDict):
    """Where the camera looks, and its frame: :meth:`Camera.look_at`'s arguments but the distance,
    which the scene fits to the subject afterwards (:func:`fit_distance`)."""

    target: np.ndarray
    elevation_deg: float
    azimuth_deg: float
    roll_deg: float
    hfov_deg: float
    width: int
    height: int


def fit_distance(cam_args: Aim, pts: np.ndarray, fill: float, iters: int = 3) -> float:
    """Distance at which ``pts`` span ``fill`` of the image's limiting dimension."""
    d = 1000.0
    for _ in range(iters):
        cam = Camera.look_at(distance=d, **cam_args)
        uv = cam.project(pts)
        span_x = (uv[:, 0].max() - uv[:, 0].min()) / cam.width
        span_y = (uv[:, 1].max() - uv[:, 1].min()) / cam.height
        span = max(span_x, span_y, 1e-6)
        d *= span / fill
    return d


# ----------------------------------------------------------------------------------- photo degradations


def white_balance(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Per-channel gains: warm (tungsten) or cold (LED) light, and the camera's imperfect correction."""
    temp = rng.normal(0, 0.12) * strength  # >0 warm
    gains = np.array([1 - temp, 1.0 + rng.normal(0, 0.03) * strength, 1 + temp], np.float32)
    gains *= rng.uniform(0.85, 1.15)  # exposure
    out = img.astype(np.float32) * gains
    gamma = rng.uniform(0.85, 1.15)
    out = 255.0 * np.power(np.clip(out / 255.0, 0, 1), gamma)
    balanced: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return balanced


def lens_blur(img: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(img, (0, 0), sigma) if sigma > 0.2 else img


def defocus(img: np.ndarray, depth: np.ndarray, focus: float, max_sigma: float) -> np.ndarray:
    """Shallow depth of field: blur growing with the distance from the focused plane (in the relative
    units a lens sees, ``|1 - focus/depth|``), blended between four blur levels per pixel."""
    coc = np.clip(np.abs(1.0 - focus / np.maximum(depth, 1e-3)) * 2.0, 0.0, 1.0) * 3.0  # 0..3
    levels = [img.astype(np.float32)] + [
        cv2.GaussianBlur(img, (0, 0), max_sigma * k / 3).astype(np.float32) for k in (1, 2, 3)
    ]
    out = np.zeros_like(levels[0])
    for k, lv in enumerate(levels):
        wk = np.clip(1.0 - np.abs(coc - k), 0.0, 1.0)[..., None]
        out += lv * wk
    blurred: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return blurred


def motion_blur(img: np.ndarray, length: float, angle_deg: float) -> np.ndarray:
    if length < 1.5:
        return img
    k = math.ceil(length) | 1
    kernel: np.ndarray = np.zeros((k, k), np.float32)
    cv2.line(kernel, (0, k // 2), (k - 1, k // 2), 1.0, 1)
    M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle_deg, 1.0)
    kernel = cv2.warpAffine(kernel, M, (k, k))
    kernel = kernel / max(kernel.sum(), 1e-6)  # (not /=: OpenCV's stubs let the dtype be an integer)
    return cv2.filter2D(img, -1, kernel)


def sensor_noise(img: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Signal-dependent (shot) plus read noise, partly chromatic, as small sensors produce in dim rooms."""
    f = img.astype(np.float32)
    h, w = img.shape[:2]
    lum = np.empty((h, w, 1), np.float32)
    chroma = np.empty((h, w, 3), np.float32)
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    # OpenCV's stubs type the mean and the deviation as arrays; it takes scalars (cv::Scalar) too
    cv2.randn(lum, 0.0, 1.0)  # type: ignore[call-overload]
    cv2.randn(chroma, 0.0, 0.5)  # type: ignore[call-overload]
    shot = np.sqrt(np.maximum(f, 1) * (1 / 255.0))
    f += (lum + chroma) * (sigma * (0.5 + shot))
    noisy: np.ndarray = np.clip(f, 0, 255).astype(np.uint8)
    return noisy


def vignette(img: np.ndarray, strength: float) -> np.ndarray:
    h, w = img.shape[:2]
    yy, xx = np.ogrid[0:h, 0:w]
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    g = (1 - strength * np.clip(r2 / 2, 0, 1)).astype(np.float32)
    darkened: np.ndarray = np.clip(img.astype(np.float32) * g[..., None], 0, 255).astype(np.uint8)
    return darkened


def hard_shadow(img: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A large cast shadow (a hand, the phone, a lamp arm) with a fairly sharp edge across the picture."""
    h, w = img.shape[:2]
    pts = []
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    for k in range(rng.integers(4, 8)):
        a = k * 2 * math.pi / 7 + rng.uniform(-0.3, 0.3)
        r = rng.uniform(0.3, 0.8) * max(w, h)
        pts.append((cx + math.cos(a) * r, cy + math.sin(a) * r))
    m: np.ndarray = np.zeros((h, w), np.float32)
    cv2.fillPoly(m, [np.array(pts, np.int32)], 1.0)
    m = cv2.GaussianBlur(m, (0, 0), rng.uniform(1.5, 6))
    return np.clip(img.astype(np.float32) * (1 - strength * m[..., None]), 0, 255).astype(np.uint8)


def glare(img: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A bright soft reflection of a lamp or window on the glossy tiles/table."""
    h, w = img.shape[:2]
    m: np.ndarray = np.zeros((h, w), np.float32)
    c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    ax = (int(rng.uniform(0.05, 0.25) * w), int(rng.uniform(0.03, 0.15) * h))
    cv2.ellipse(m, c, ax, rng.uniform(0, 180), 0, 360, 1.0, -1)
    m = cv2.GaussianBlur(m, (0, 0), max(ax) * 0.4 + 1)
    tint = np.array([1.0, 1.0, 1.0]) * 255
    out = img.astype(np.float32) + strength * m[..., None] * (tint - img.astype(np.float32) * 0.5)
    lit: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return lit


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert out is not None  # what was just encoded decodes
    return out


class PhotoLog(TypedDict, total=False):
    """What :func:`photograph` (and the scene's depth of field) did to a photo: the manifest's ``photo``."""

    hard_shadow: float  # strength
    glare: float  # strength
    lens_blur: float  # sigma, px
    motion_blur: list[float]  # length px, angle degrees
    noise: float  # sigma
    jpeg: int  # quality
    depth_of_field: float  # the blur's strength (set by the scene)


@dataclass
class PhotoOptions:
    """Which degradations to apply and how strongly (probabilities and ranges)."""

    p_lens_blur: float = 0.5
    max_lens_sigma: float = 1.6
    p_motion_blur: float = 0.2
    max_motion_px: float = 9.0
    noise_sigma: tuple[float, float] = (1.0, 7.0)
    p_hard_shadow: float = 0.12
    p_glare: float = 0.25
    p_vignette: float = 0.5
    jpeg_quality: tuple[int, int] = (45, 95)
    wb_strength: float = 1.0


def photograph(
    img: np.ndarray, rng: np.random.Generator, o: PhotoOptions, applied: PhotoLog | None = None
) -> np.ndarray:
    """Apply the phone-photo degradations in the order light -> optics -> sensor -> encoder."""
    log: PhotoLog = applied if applied is not None else {}
    if rng.random() < o.p_hard_shadow:
        s = float(rng.uniform(0.25, 0.55))
        img = hard_shadow(img, rng, s)
        log["hard_shadow"] = s
    if rng.random() < o.p_glare:
        s = float(rng.uniform(0.2, 0.6))
        img = glare(img, rng, s)
        log["glare"] = s
    img = white_balance(img, rng, o.wb_strength)
    if rng.random() < o.p_vignette:
        img = vignette(img, float(rng.uniform(0.1, 0.45)))
    if rng.random() < o.p_lens_blur:
        s = float(rng.uniform(0.3, o.max_lens_sigma))
        img = lens_blur(img, s)
        log["lens_blur"] = s
    if rng.random() < o.p_motion_blur:
        length, ang = float(rng.uniform(2, o.max_motion_px)), float(rng.uniform(0, 180))
        img = motion_blur(img, length, ang)
        log["motion_blur"] = [length, ang]
    s = float(rng.uniform(*o.noise_sigma))
    img = sensor_noise(img, rng, s)
    log["noise"] = s
    q = int(rng.integers(o.jpeg_quality[0], o.jpeg_quality[1] + 1))
    img = jpeg(img, q)
    log["jpeg"] = q
    return img
