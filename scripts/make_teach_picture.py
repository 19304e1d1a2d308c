#!/usr/bin/env python3
"""The README's teaching picture and the standard-layout example photo ``teach --standard`` reads.

Composes a top-down photo of one tile of each kind in the standard layout (1-9m / 1-9p / 1-9s /
1-7z / red fives and a face-down tile) from the generator's FluffyStuff faces (CC0, rendered by
:class:`mjsynth.artwork.Artwork` from ``../shared/artwork`` into its cache) on the generator's
green felt, reads it with the shipped models as ``mahjong-score teach --standard`` does, and
writes the annotated pairing (each tile's box with the code it is taught as) to
``docs/teach.jpg``. ``--example`` also writes the photo itself as ``examples/standard.jpg`` (a
small JPEG, the same pixels on every run: the seed fixes every random choice), so the README's
``teach --standard`` example runs on a bundled file.

    python scripts/make_teach_picture.py [--out docs/teach.jpg] [--photo-out teach-photo.jpg] [--example]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.mjsynth.artwork import Artwork  # noqa: E402
from mahjong_camera_scorer.mjsynth.backgrounds import table_texture  # noqa: E402
from mahjong_camera_scorer.vision.classes import BACK  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.teach.codes import STANDARD_ROWS  # noqa: E402
from mahjong_camera_scorer.vision.teach.teaching import pair_photo  # noqa: E402

STYLE = "fluffy-regular"
#: the example photo: README-sized, JPEG quality 85 (about 100 KB)
EXAMPLE = ROOT / "examples" / "standard.jpg"
EXAMPLE_SIZE, EXAMPLE_QUALITY = (1000, 750), 85
IVORY = (222, 236, 242)  # BGR
BACK_BGR = (60, 140, 220)  # an orange back
ROWS = [list(r) for r in STANDARD_ROWS] + [["0m", "0p", "0s", BACK]]


def tile_image(art: Artwork, code: str, w: int, h: int, rng: random.Random) -> np.ndarray:
    """A tile seen from above and a little in front: its face on an ivory rim, its body below."""
    body = int(h * 0.14)
    tile = np.full((h, w, 3), IVORY, np.uint8)
    if code == BACK:
        tile[:] = BACK_BGR
    else:
        face = art.face(STYLE, code)
        rim = max(2, int(w * 0.07))
        fh, fw = h - body - 2 * rim, w - 2 * rim
        tile[rim : rim + fh, rim : rim + fw] = cv2.resize(face, (fw, fh), interpolation=cv2.INTER_AREA)
    tile[h - body :] = BACK_BGR  # the tile's back shows below its face
    tile[h - body : h - body + 2] = (150, 160, 170)
    shade = np.linspace(1.04, 0.9, h, dtype=np.float32)[:, None, None] * rng.uniform(0.95, 1.03)
    return np.clip(tile.astype(np.float32) * shade, 0, 255).astype(np.uint8)


def compose(art: Artwork, seed: int = 3) -> np.ndarray:
    rng = random.Random(seed)
    W, H, tw = 1600, 1200, 104
    th = int(tw * 1.42)
    img = table_texture("felt", (H, W), 26.0 / tw, np.random.default_rng(seed)).astype(np.float32)
    shade = np.zeros((H, W), np.float32)
    boxes = []
    for r, row in enumerate(ROWS):
        x = 70 + rng.uniform(-8, 8)
        y = 60 + r * (th + 70)
        for code in row:
            boxes.append((code, int(x), int(y + rng.uniform(-4, 4))))
            x += tw + rng.uniform(4, 14)
    for _, x, y in boxes:
        cv2.rectangle(shade, (x + 8, y + 10), (x + tw + 8, y + th + 10), 1.0, -1)
    img *= 1.0 - 0.5 * cv2.GaussianBlur(shade, (0, 0), 9)[..., None]
    for code, x, y in boxes:
        img[y : y + th, x : x + tw] = tile_image(art, code, tw, th, rng)
    m = cv2.getRotationMatrix2D((W / 2, H / 2), 3.0, 1.0)
    img = cv2.warpAffine(np.clip(img, 0, 255).astype(np.uint8), m, (W, H), borderMode=cv2.BORDER_REFLECT)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "teach.jpg")
    ap.add_argument("--photo-out", type=Path, help="also write the photo itself")
    where = EXAMPLE.relative_to(ROOT)
    ap.add_argument("--example", action="store_true", help=f"also write the photo as {where}")
    args = ap.parse_args(argv)
    art = Artwork()
    if STYLE not in art.styles:
        print("error: no FluffyStuff artwork (read from ../shared/artwork/fluffystuff)", file=sys.stderr)
        return 2
    photo = cv2.resize(compose(art), EXAMPLE_SIZE, interpolation=cv2.INTER_AREA)  # README-sized
    if args.photo_out:
        cv2.imwrite(str(args.photo_out), photo)
    if args.example:
        cv2.imwrite(str(EXAMPLE), photo, [cv2.IMWRITE_JPEG_QUALITY, EXAMPLE_QUALITY])
    paired = pair_photo(PhotoReader(), photo, None, name="standard layout")
    paired.annotate(args.out)
    print(f"wrote {args.out}: {len(paired.pairs)} tiles paired, {len(paired.disagreeing)} read otherwise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
