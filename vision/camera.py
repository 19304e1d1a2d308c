"""Live scoring from a webcam or a video: detect tiles every frame, read them when the view is steady.

The loop, per frame:

1. the detector finds the tiles (boxes only: cheap enough for every frame);
2. :class:`Steadiness` compares a small blurred grey copy of the frame with the previous one: the
   view is *steady* once the picture has barely changed for a few frames and the number of tiles
   found has stayed the same;
3. on the first steady frame the tiles are read (the reader model), laid out and scored; that
   reading stays on screen, its codes following the boxes, until the view moves again.

Any movement drops the reading, so what is shown is always the hand under the camera now. The
overlay (boxes, codes, a status line, the score breakdown) is drawn with OpenCV only; its words are
:mod:`vision.render.camera`'s.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.detect import Detection, detect, iou
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.render.camera import breakdown_rows, live_lines
from mahjong_camera_scorer.vision.render.records import camera_json
from mahjong_camera_scorer.vision.result import HandResult

#: Detector input size for live frames when the model allows another size than its own (dynamic
#: axes): a webcam pointed at a hand shows large tiles, and 320 px runs the detector in about half
#: the time of the 480 px a photo gets (measured 23 vs 45 ms on 2 threads), keeping the view live.
LIVE_DETECT_SIZE = 320

OK = (60, 200, 60)  # BGR
FLAG = (40, 40, 230)
BACK_C = (200, 140, 40)
SEEN = (0, 200, 255)  # a detected tile not read yet (moving view)
PANEL = (30, 30, 30)


class CameraError(RuntimeError):
    """The video source cannot be opened or read; the message says which and why."""


# ------------------------------------------------------------------------------------------------
# sources
# ------------------------------------------------------------------------------------------------
def open_source(source: str | int, width: int | None = None, height: int | None = None) -> cv2.VideoCapture:
    """A device index (``0``), a video file, or a stream URL (``rtsp://…``, ``http://…``)."""
    text = str(source).strip()
    is_device = text.isdigit()
    if not is_device and "://" not in text and not Path(text).exists():
        raise CameraError(f"no such video file: {text} (give a camera index such as 0, a file or a URL)")
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        cap = cv2.VideoCapture(int(text)) if is_device else cv2.VideoCapture(text)
        if is_device:
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued while we worked
            if width and height:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
    finally:
        cv2.utils.logging.setLogLevel(level)
    if not cap.isOpened():
        cap.release()
        what = f"camera {text}" if is_device else f"video {text}"
        hint = " (is it connected, and not used by another program?)" if is_device else ""
        raise CameraError(f"cannot open {what}{hint}")
    return cap


def frames(cap: cv2.VideoCapture, max_frames: int | None = None) -> Iterator[np.ndarray]:
    """Frames until the source ends (or ``max_frames``)."""
    n = 0
    while max_frames is None or n < max_frames:
        ok, frame = cap.read()
        if not ok or frame is None:
            return
        n += 1
        yield frame


def display_problem() -> str | None:
    """Why no window can be shown here, or None. Probed in a child process: with no X server,
    OpenCV's Qt backend aborts the whole process instead of raising."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return "there is no display (DISPLAY is not set)"
    probe = "import cv2; cv2.namedWindow('probe'); cv2.waitKey(1); cv2.destroyAllWindows()"
    try:
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot open a window ({exc})"
    if r.returncode != 0:
        lines = [ln for ln in (r.stderr or "").splitlines() if ln.strip()]
        return "cannot open a window" + (f" ({lines[0].strip()})" if lines else "")
    return None


# ------------------------------------------------------------------------------------------------
# steadiness
# ------------------------------------------------------------------------------------------------
class Steadiness:
    """Is the view steady? Two measures between consecutive frames, both on a small blurred grey
    copy: the global shift found by phase correlation (in pixels of a 1000-pixel-wide frame: a
    hand-held camera drifting), and the mean absolute grey-level change (0–255: something moving
    in the view, the light changing). Steady once both have stayed below their thresholds for
    ``frames`` frames running, with the same number of tiles detected throughout."""

    def __init__(self, shift: float = 1.0, frames: int = 4, change: float = 2.0, width: int = 160) -> None:
        self.shift_limit, self.frames, self.change_limit, self.width = shift, frames, change, width
        self.prev: np.ndarray | None = None
        self.window: np.ndarray | None = None
        self.count: int | None = None
        self.run = 0
        self.shift = self.change = float("inf")

    def thumb(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        small = cv2.resize(
            frame, (self.width, max(8, round(h * self.width / w))), interpolation=cv2.INTER_AREA
        )
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        return cv2.GaussianBlur(grey.astype(np.float32), (5, 5), 0)

    @property
    def motion(self) -> float:
        """The shift, for display (pixels per 1000 px of width)."""
        return self.shift

    def update(self, frame: np.ndarray, n_tiles: int) -> bool:
        t = self.thumb(frame)
        if self.prev is None or self.prev.shape != t.shape:
            self.shift = self.change = float("inf")
            self.window = cv2.createHanningWindow((t.shape[1], t.shape[0]), cv2.CV_32F)
        else:
            self.change = float(np.abs(t - self.prev).mean())
            # copies: some OpenCV versions apply the window to the inputs in place
            (dx, dy), _ = cv2.phaseCorrelate(self.prev.copy(), t.copy(), self.window)
            self.shift = float(np.hypot(dx, dy)) * 1000.0 / self.width
        self.prev = t
        still = self.shift < self.shift_limit and self.change < self.change_limit
        if still and n_tiles == self.count and n_tiles > 0:
            self.run += 1
        else:
            self.run = 0
        self.count = n_tiles
        return self.run >= self.frames

    @property
    def steady(self) -> bool:
        return self.run >= self.frames


# ------------------------------------------------------------------------------------------------
# reading and scoring
# ------------------------------------------------------------------------------------------------
class FrameReader(Protocol):
    """The models as the camera loop uses them: boxes every frame (to tell a steady view from a
    moving one), the whole photo road on the steady ones
    (:meth:`vision.pipeline.PhotoReader.read_and_score`, its own looks included)."""

    def detect(self, image: np.ndarray) -> list[Detection]: ...

    def read_and_score(
        self,
        source: np.ndarray,
        context: HandContext | None = None,
        rules: str | None = None,
        options: dict[str, str] | None = None,
        *,
        mend_boxes: bool = True,
    ) -> HandResult: ...


class ModelFrameReader:
    """A :class:`vision.pipeline.PhotoReader` whose detector runs on the frame shrunk to a live size."""

    def __init__(self, reader: PhotoReader) -> None:
        self.reader = reader

    def detect(self, image: np.ndarray) -> list[Detection]:
        """The detector on the frame shrunk to the model's input first (bilinear, as ultralytics
        letterboxes in training; much cheaper per frame than an area resize), boxes scaled back."""
        model = self.reader.detector_model()
        h, w = image.shape[:2]
        if model is None:
            return self.reader.detect(image)
        size = (LIVE_DETECT_SIZE, LIVE_DETECT_SIZE) if model.dynamic else model.imgsz
        if max(h, w) <= max(size):
            return self.reader.detect(image)
        s = min(size[0] / h, size[1] / w)
        small = cv2.resize(
            image, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_LINEAR
        )
        dets = detect(model, small, conf=self.reader.conf, size=size)
        k = 1.0 / s
        return [
            Detection((d.box[0] * k, d.box[1] * k, d.box[2] * k, d.box[3] * k), d.label, d.score)
            for d in dets
        ]

    def read_and_score(self, source: np.ndarray, *args: Any, **kwargs: Any) -> HandResult:
        result: HandResult = self.reader.read_and_score(source, *args, **kwargs)
        return result


@dataclass
class SteadyView:
    """One steady view read and scored: the frame's number and what the pipeline made of it."""

    frame: int
    result: HandResult
    seconds: float

    @property
    def hand(self) -> dict[str, Any]:
        return self.result.hand_json()

    @property
    def score(self) -> Score:
        assert self.result.score is not None  # the camera always scores
        return self.result.score

    def to_json(self) -> dict[str, Any]:
        return camera_json(self.result, self.frame, self.seconds)


@dataclass
class FrameState:
    index: int
    detections: list[Detection]
    steady: bool
    motion: float
    reading: SteadyView | None
    new_reading: bool = False
    seconds: dict[str, float] = field(default_factory=dict)


class LiveScorer:
    """The per-frame logic, independent of where frames come from and where they go."""

    def __init__(
        self,
        reader: FrameReader,
        rules: str,
        options: dict[str, str] | None = None,
        context: HandContext | None = None,
        steadiness: Steadiness | None = None,
    ) -> None:
        self.reader = reader
        self.rules, self.options = rules, dict(options or {})
        self.context = context or HandContext()
        self.steadiness = steadiness or Steadiness()
        self.reading: SteadyView | None = None
        self.index = -1

    def read_now(self, frame: np.ndarray) -> SteadyView:
        """Read and score this frame whatever its steadiness (the freeze key), through the photo
        road, its own looks included: the live view's boxes (:meth:`FrameReader.detect`, at
        :data:`LIVE_DETECT_SIZE`) only tell a steady view from a moving one. Reading with them
        read a frame that the photo road reads right with one tile boxed twice (2026-11-27), and a
        steady view is read once. No faint box is taken in: a live view is read again as soon as
        it moves."""
        t0 = time.perf_counter()
        result = self.reader.read_and_score(frame, self.context, self.rules, self.options, mend_boxes=False)
        return SteadyView(self.index, result, time.perf_counter() - t0)

    def process(self, frame: np.ndarray) -> FrameState:
        self.index += 1
        t0 = time.perf_counter()
        dets = self.reader.detect(frame)
        t1 = time.perf_counter()
        was_steady = self.steadiness.steady
        steady = self.steadiness.update(frame, len(dets))
        new = False
        if not steady:
            self.reading = None
        elif not was_steady or self.reading is None:
            self.reading = self.read_now(frame)
            new = True
        t2 = time.perf_counter()
        return FrameState(
            self.index,
            dets,
            steady,
            self.steadiness.motion,
            self.reading,
            new,
            {"detect": t1 - t0, "read": t2 - t1},
        )


# ------------------------------------------------------------------------------------------------
# drawing
# ------------------------------------------------------------------------------------------------
def _label(canvas: np.ndarray, text: str, x: int, y: int, colour: tuple[int, int, int], scale: float) -> None:
    thick = max(1, round(scale * 2))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    ty = y - 4 if y - th - 6 > 0 else y + th + 6
    cv2.rectangle(canvas, (x, ty - th - 3), (x + tw + 4, ty + 3), colour, -1)
    cv2.putText(
        canvas, text, (x + 2, ty), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), thick, cv2.LINE_AA
    )


def _text_block(
    canvas: np.ndarray, lines: list[str], x: int, y: int, scale: float, width: int | None = None
) -> int:
    """White text on a dark translucent panel; returns the y below it."""
    thick = max(1, round(scale * 2))
    (_, th), base = cv2.getTextSize("Ag", cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    step = th + base + 6
    w = (
        width
        or max((cv2.getTextSize(ln, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0][0] for ln in lines), default=0)
        + 16
    )
    h = step * len(lines) + 10
    x1, y1 = min(canvas.shape[1], x + w), min(canvas.shape[0], y + h)
    roi = canvas[y:y1, x:x1]
    roi[:] = (roi * 0.3 + np.array(PANEL) * 0.7).astype(np.uint8)
    for i, ln in enumerate(lines):
        cv2.putText(
            canvas,
            ln,
            (x + 8, y + 6 + th + i * step),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale,
            (255, 255, 255),
            thick,
            cv2.LINE_AA,
        )
    return int(y1)


def _ascii(text: str) -> str:
    """OpenCV's Hershey fonts draw ASCII only: arrows and signs spelt out, accents dropped (the
    Italian "già" drawn "gia"), anything else a ``?``."""
    text = text.replace("→", "->").replace("×", "x").replace("—", "-")
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).encode("ascii", "replace").decode()


def overlay(
    frame: np.ndarray, state: FrameState, fps: float | None = None, rules: str = "", lang: str = DEFAULT_LANG
) -> np.ndarray:
    """The frame with every box; codes once the steady view was read; a status line."""
    canvas = frame.copy()
    scale = max(frame.shape[:2]) / 1000
    thick = max(1, round(2 * scale))
    fs = 0.5 * max(scale, 0.7)
    reading = state.reading
    for d in state.detections:
        x0, y0, x1, y1 = (round(v) for v in d.box)
        match = None
        if reading is not None:
            best = max(reading.result.tiles, key=lambda r: iou(r.box, d.box), default=None)
            if best is not None and iou(best.box, d.box) > 0.5:
                match = best
        if match is None:
            colour, text = (BACK_C, "") if d.label == BACK else (SEEN, "")
        else:
            colour = FLAG if match.flagged else BACK_C if match.code == BACK else OK
            text = match.code + ("?" if match.flagged else "")
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, thick)
        if text:
            _label(canvas, text, x0, y0, colour, fs)
    words = live_lines(
        len(state.detections),
        state.steady,
        state.motion,
        fps,
        reading.result if reading is not None else None,
        rules,
        lang,
    )
    _text_block(canvas, [_ascii(ln)[:110] for ln in words], 0, 0, fs, width=canvas.shape[1])
    return canvas


def _wrap(lines: list[str], width_px: int, scale: float) -> list[str]:
    """Lines broken at spaces to fit ``width_px`` in the Hershey font."""
    thick = max(1, round(scale * 2))
    out: list[str] = []
    for line in lines:
        lead = line[: len(line) - len(line.lstrip(" "))]
        words, cur = line.strip(" ").split(" "), lead
        indent = lead + "  "
        for w in words:
            trial = f"{cur} {w}" if cur.strip() else cur + w
            if (
                cur.strip()
                and cv2.getTextSize(trial, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)[0][0] > width_px
            ):
                out.append(cur)
                cur = indent + w
            else:
                cur = trial
        out.append(cur)
    return out


def breakdown(frame: np.ndarray, reading: SteadyView, lang: str = DEFAULT_LANG) -> np.ndarray:
    """The frozen frame with the read tiles, and the full score breakdown in a panel below it:
    the hand, each element with its value, the total, the system's notes (fu, payments…)."""
    canvas = frame.copy()
    scale = max(frame.shape[:2]) / 1000
    fs = 0.5 * max(scale, 0.7)
    thick = max(1, round(fs * 2))
    for r in reading.result.tiles:
        x0, y0, x1, y1 = (round(v) for v in r.box)
        colour = FLAG if r.flagged else BACK_C if r.code == BACK else OK
        cv2.rectangle(canvas, (x0, y0), (x1, y1), colour, max(1, round(2 * scale)))
        _label(canvas, r.code + ("?" if r.flagged else ""), x0, y0, colour, fs)
    width = canvas.shape[1] - 24
    rows: list[tuple[str, str]] = []
    for left, right in breakdown_rows(reading.result, lang):  # whole lines wrapped to the width
        if right:
            rows.append((_ascii(left), _ascii(right)))
        else:
            rows += [(ln, "") for ln in _wrap([_ascii(left)], width, fs)]
    (_, th), base = cv2.getTextSize("Ag", cv2.FONT_HERSHEY_SIMPLEX, fs, thick)
    step = th + base + 6
    panel = np.full((len(rows) * step + 16, canvas.shape[1], 3), PANEL, np.uint8)
    names = [cv2.getTextSize(a, cv2.FONT_HERSHEY_SIMPLEX, fs, thick)[0][0] for a, b in rows if b]
    col = min(canvas.shape[1] - 16, max(names, default=0) + 40)
    for i, (left, right) in enumerate(rows):
        y = 8 + th + i * step
        cv2.putText(panel, left, (8, y), cv2.FONT_HERSHEY_SIMPLEX, fs, (255, 255, 255), thick, cv2.LINE_AA)
        if right:
            w = cv2.getTextSize(right, cv2.FONT_HERSHEY_SIMPLEX, fs, thick)[0][0]
            x = col if not right[0].isdigit() or " " in right else col + 40 - w
            cv2.putText(
                panel, right, (x, y), cv2.FONT_HERSHEY_SIMPLEX, fs, (255, 255, 160), thick, cv2.LINE_AA
            )
    return np.vstack([canvas, panel])
