"""Find tiles in a photo: letterbox, run the YOLO detector, decode, NMS (OpenCV/NumPy only).

The detector knows two classes, a face-up ``tile`` and a face-down ``back``; naming the face is
the reader's job (one 46-class detector does not converge on CPU, see ``models/README.md``).
NMS is class-agnostic because one physical tile must never yield both a ``tile`` and a ``back``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from mahjong_camera_scorer.vision.models import OnnxModel

LETTERBOX_VALUE = (114, 114, 114)


#: Detector confidence threshold, chosen on the 232 synthetic validation hand photos: 0.35, 0.45
#: and 0.55 give the same exact-hand rate (15 %); 0.35 keeps the most tiles (recall 90 %,
#: precision 88 % against 81/92 and 69/95), and the layout leaves out strays (models/README.md).
DETECTOR_CONF = 0.35


@dataclass(frozen=True)
class Detection:
    """One detected tile: ``box`` is ``xyxy`` in the original image's pixels."""

    box: tuple[float, float, float, float]
    label: str  # "tile" or "back"
    score: float

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]


@dataclass(frozen=True)
class Letterbox:
    """How an image was fitted into the model input: ``model = image * scale + (pad_x, pad_y)``."""

    scale: float
    pad_x: float
    pad_y: float


def letterbox(image: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio and pad to ``size`` (h, w), centred, ultralytics-style."""
    h, w = image.shape[:2]
    th, tw = size
    s = min(th / h, tw / w)
    nw, nh = round(w * s), round(h * s)
    resized = shrink(image, nw, nh) if s < 1 else cv2.resize(image, (nw, nh), interpolation=cv2.INTER_LINEAR)
    px, py = (tw - nw) / 2, (th - nh) / 2
    top, left = round(py - 0.1), round(px - 0.1)
    out = cv2.copyMakeBorder(
        resized, top, th - nh - top, left, tw - nw - left, cv2.BORDER_CONSTANT, value=LETTERBOX_VALUE
    )
    return out, Letterbox(s, left, top)


def shrink(image: np.ndarray, nw: int, nh: int) -> np.ndarray:
    """Area-average ``image`` down to ``nw`` x ``nh``, fast.

    OpenCV's INTER_AREA is a plain box average (fast) only for whole-number factors; for any other
    factor it weighs fractional pixels, which costs 12 ms on a 2000 px photo against 4 ms. So the
    photo is first averaged down by the largest whole factor that fits, then area-resized by the
    small remainder. The at most ``k - 1`` pixels cut at the right and bottom edges so that ``k``
    divides the size move boxes by under one model-input pixel."""
    h, w = image.shape[:2]
    k = int(min(w / nw, h / nh))
    if k >= 2:
        image = cv2.resize(image[: h - h % k, : w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)
    if image.shape[1] == nw and image.shape[0] == nh:
        return image
    return cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA)


def to_input(image: np.ndarray) -> np.ndarray:
    """BGR uint8 HWC → RGB float32 NCHW in [0, 1] (colour kept: red fives need it)."""
    return np.ascontiguousarray(image[None, :, :, ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def decode(
    output: np.ndarray,
    classes: tuple[str, ...],
    lb: Letterbox,
    image_shape: tuple[int, ...],
    conf: float = DETECTOR_CONF,
    iou: float = 0.5,
) -> list[Detection]:
    """YOLO (1, 4 + nc, anchors) output → detections in image pixels after class-agnostic NMS."""
    pred = output[0].T  # (anchors, 4 + nc)
    scores_all = pred[:, 4:]
    cls = scores_all.argmax(1)
    scores = scores_all[np.arange(len(cls)), cls]
    keep = scores >= conf
    pred, cls, scores = pred[keep], cls[keep], scores[keep]
    if not len(pred):
        return []
    cx, cy, bw, bh = pred[:, 0], pred[:, 1], pred[:, 2], pred[:, 3]
    x0 = (cx - bw / 2 - lb.pad_x) / lb.scale
    y0 = (cy - bh / 2 - lb.pad_y) / lb.scale
    x1 = (cx + bw / 2 - lb.pad_x) / lb.scale
    y1 = (cy + bh / 2 - lb.pad_y) / lb.scale
    h, w = image_shape[:2]
    x0, x1 = np.clip(x0, 0, w), np.clip(x1, 0, w)
    y0, y1 = np.clip(y0, 0, h), np.clip(y1, 0, h)
    boxes = np.stack([x0, y0, x1, y1], 1)
    idx = drop_contained(boxes, nms(boxes, scores, iou), CONTAINED)
    return [
        Detection(
            (float(x0[i]), float(y0[i]), float(x1[i]), float(y1[i])), classes[int(cls[i])], float(scores[i])
        )
        for i in idx
    ]


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two ``xyxy`` boxes (0 when they do not overlap)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def covered(box: Sequence[float], other: Sequence[float]) -> float:
    """The share of ``box``'s area that ``other`` covers (0 when they do not overlap)."""
    iw = min(box[2], other[2]) - max(box[0], other[0])
    ih = min(box[3], other[3]) - max(box[1], other[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    return float(iw * ih / max((box[2] - box[0]) * (box[3] - box[1]), 1e-6))


def is_free(box: Sequence[float], taken: Sequence[Sequence[float]], same: float) -> bool:
    """Does ``box`` lie on none of ``taken``: overlapping none by more than ``same`` (IoU), and its
    centre inside none? (Where a tile is looked for, a box already read there has said what is.)"""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return not any(iou(box, t) > same or (t[0] <= cx <= t[2] and t[1] <= cy <= t[3]) for t in taken)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """Greedy NMS on ``xyxy`` boxes (OpenCV's implementation); indices by descending score."""
    xywh = np.column_stack([boxes[:, 0], boxes[:, 1], boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]])
    idx = cv2.dnn.NMSBoxes(xywh.tolist(), scores.astype(float).tolist(), 0.0, iou)
    return [int(i) for i in np.array(idx).reshape(-1)]


#: A box lying this much (of its own area) inside a better-scored box is the same tile boxed twice
#: (a half-tile box, or a box on a tile's face inside one on the whole tile): plain IoU-NMS keeps
#: such pairs because their IoU is small. Not lower: standing tiles seen at an angle have boxes
#: that overlap their neighbour's by up to ~0.8 (measured on the camera test's frames).
CONTAINED = 0.9


def drop_contained(boxes: np.ndarray, order: list[int], frac: float) -> list[int]:
    """Keep ``order`` (best first) minus boxes mostly inside an already kept one."""
    kept: list[int] = []
    for i in order:
        if not any(covered(boxes[i], boxes[j]) > frac for j in kept):
            kept.append(i)
    return kept


def detect(
    model: OnnxModel,
    image: np.ndarray,
    conf: float = DETECTOR_CONF,
    iou: float = 0.5,
    size: tuple[int, int] | None = None,
) -> list[Detection]:
    """All tiles (face up or down) in a BGR image, sorted left to right.

    ``size`` (h, w, multiples of 32) runs a model exported with dynamic axes at another input
    size than the one it was trained at (``model.imgsz``): the live camera trades small-tile
    recall for speed that way. A static model always runs at its own size."""
    return look(model, image, conf, iou, size)[0]


def look(
    model: OnnxModel,
    image: np.ndarray,
    conf: float = DETECTOR_CONF,
    iou: float = 0.5,
    size: tuple[int, int] | None = None,
    hint: float | None = None,
) -> tuple[list[Detection], np.ndarray]:
    """:func:`detect`'s tiles and, from the same run, the centres (image pixels, ``(n, 2)``) of
    every anchor scored at least ``hint`` (none when ``hint`` is None): where the detector saw
    anything at all, however faint, without the cost of boxes and NMS for them."""
    if size is not None and model.dynamic:
        if size[0] % 32 or size[1] % 32:
            raise ValueError(f"detector input size {size} is not a multiple of 32")
    else:
        size = model.imgsz
    inp, lb = letterbox(image, size)
    out = model.run(to_input(inp))[0]
    dets = decode(out, model.classes, lb, image.shape, conf, iou)
    centres = np.zeros((0, 2), np.float32) if hint is None else faint_centres(out, lb, hint)
    return sorted(dets, key=lambda d: (d.box[0], d.box[1])), centres


def faint_centres(output: np.ndarray, lb: Letterbox, conf: float) -> np.ndarray:
    """The centres, in image pixels, of the anchors of a YOLO output scored at least ``conf``."""
    pred = output[0].T
    keep = pred[:, 4:].max(1) >= conf
    return np.stack([(pred[keep, 0] - lb.pad_x) / lb.scale, (pred[keep, 1] - lb.pad_y) / lb.scale], 1)
