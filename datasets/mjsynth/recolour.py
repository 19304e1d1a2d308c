"""Red fives made from photographed plain fives.

camerash, the only real tile photos here, has no red five. A red five is a plain five whose
symbols are printed red (riichi sets: the five circles, the five bamboo sticks, or both characters
of 五萬 in red). :func:`redden` repaints the ink of a real plain-five crop red, leaving the
ivory face, its shading, the photo's blur and noise as they are: the reader then sees red fives
with real-photo texture instead of only rendered artwork, and the same function gives a
red-five test on real crops the reader never saw (labelled as recoloured in the model card).
"""

from __future__ import annotations

import random

import cv2
import numpy as np

#: code of the plain five → code of its red five
RED_OF = {"5m": "0m", "5p": "0p", "5s": "0s"}


def ink_weight(img: np.ndarray) -> np.ndarray:
    """How much each pixel is ink rather than face, 0..1 (float32, H×W).

    The face is the crop's dominant light colour (median of its brightest half); ink is what
    differs from it in colour or brightness. Soft, so anti-aliased strokes recolour smoothly.
    """
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    light = lab[..., 0] >= np.median(lab[..., 0])
    face = np.median(lab[light], axis=0)
    dist = np.sqrt(((lab - face) ** 2).sum(axis=2))
    w: np.ndarray = np.clip((dist - 18.0) / 45.0, 0.0, 1.0)
    return cv2.GaussianBlur(w, (3, 3), 0)


def redden(img: np.ndarray, rng: random.Random | None = None) -> np.ndarray:
    """The crop with its ink repainted in a printing red (BGR uint8 in, BGR uint8 out).

    The red keeps the ink's shading (darker strokes stay darker), so the strokes' texture is
    the photo's own; hue, saturation and brightness vary a little between sets.
    """
    rng = rng or random.Random(0)
    w = ink_weight(img)[..., None]
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    v = hsv[..., 2:3]
    red_v = np.clip(rng.uniform(150, 215) * (0.55 + 0.45 * v / 255.0), 0, 255)
    red = np.concatenate(
        [
            np.full_like(v, rng.choice([rng.uniform(0, 5), rng.uniform(172, 180)])),
            np.full_like(v, rng.uniform(170, 235)),
            red_v,
        ],
        axis=2,
    )
    red_bgr = cv2.cvtColor(red.astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    out = img.astype(np.float32) * (1 - w) + red_bgr * w
    reddened: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return reddened
