"""Shared by the web and camera tests: a reader that answers with a synthetic photo's ground truth.

The trained models are not needed to test the page, the API or the camera loop; this replaces the
models of :class:`vision.pipeline.PhotoReader` (``detect`` and ``read_boxes``) and returns the
tiles listed in the photo's manifest (``examples/hand.json``).
The tests that need the real models are separate and skip while ``models/*.onnx`` are missing.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import uvicorn

from mahjong_camera_scorer.vision.detect import DETECTOR_CONF, Detection
from mahjong_camera_scorer.vision.models import DETECTOR_FILE, MODELS_DIR, READER_FILE
from mahjong_camera_scorer.vision.pipeline import OWN_SET, PhotoReader
from mahjong_camera_scorer.vision.read import TileRead

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "hand.jpg"
EXAMPLE_TRUTH = ROOT / "examples" / "hand.json"


@dataclass(frozen=True)
class TruthSpec:
    """Stands for :class:`vision.cli.options.ReaderSpec` in the ``photos`` tests: what a worker
    process is sent to load its :class:`TruthReader`. With ``loads`` (a folder), each load leaves a
    file named by its process id there, so a test can count who loaded the models, and how often."""

    loads: str | None = None
    #: read every photo as the example in one row, no winning tile set apart (:func:`one_row_manifest`)
    one_row: bool = False

    def load(self) -> TruthReader:
        if self.loads:
            (Path(self.loads) / f"{os.getpid()}-{uuid.uuid4().hex}").touch()
        return TruthReader(one_row_manifest() if self.one_row else None)


def models_present() -> bool:
    return (MODELS_DIR / DETECTOR_FILE).is_file() and (MODELS_DIR / READER_FILE).is_file()


def truth_tiles(manifest: dict | None = None) -> list[dict]:
    """The labelled tiles of the manifest: code (``back`` when face down), box, orientation."""
    manifest = manifest or json.loads(EXAMPLE_TRUTH.read_text())
    return [
        {
            "code": "back" if t["face_down"] else t["code"],
            "box": tuple(float(v) for v in t["box"]),
            "orientation": t["orientation"],
        }
        for t in manifest["tiles"]
        if t.get("labelled", True) and t.get("seat", 0) == 0
    ]


def one_row_manifest() -> dict:
    """The example photo's manifest with its winning tile (the third 4s) pushed against the
    concealed row, as players leave a finished hand: no winning tile set apart."""
    manifest = json.loads(EXAMPLE_TRUTH.read_text())
    tiles = [t for t in manifest["tiles"] if t.get("labelled", True) and t.get("seat", 0) == 0]
    fours = [t for t in tiles if t["code"] == "4s"]
    prev, last = fours[-2]["box"], fours[-1]
    step = [prev[0] - fours[-3]["box"][0], prev[1] - fours[-3]["box"][1]]
    w, h = last["box"][2] - last["box"][0], last["box"][3] - last["box"][1]
    last["box"] = [prev[0] + step[0], prev[1] + step[1], prev[0] + step[0] + w, prev[1] + step[1] + h]
    return manifest


class TruthReader(PhotoReader):
    """A PhotoReader whose two models are stand-ins: every image is read as the manifest says
    (``low`` = indices of tiles to report with low confidence, and the alternatives offered for
    them). Everything after the models (mending, layout, hand, score) is the real pipeline."""

    def __init__(self, manifest: dict | None = None, low: tuple[int, ...] = (), scale: float = 1.0) -> None:
        self.tiles = truth_tiles(manifest)
        self.low = set(low)
        self.scale = scale
        self.calls = {"detect": 0, "read": 0}
        self.tilesets: list[object] = []
        self.conf, self.tta, self.det_size = DETECTOR_CONF, True, None
        self.closer = False  # the manifest's boxes are all there is: no second pass
        self.ask_gaps = False  # read_boxes gives the manifest whatever boxes it is asked about
        self.read_ends = False  # ... and so beyond a row's ends

    def detector_model(self) -> Any:  # a stand-in: no detector, unless a test gives it one
        return getattr(self, "det", None)

    def reader_model(self) -> Any:  # ... nor a reader model for a taught set's features
        return getattr(self, "rdr", None)

    def _box(self, t: dict) -> tuple[float, float, float, float]:
        return tuple(v * self.scale for v in t["box"])  # type: ignore[return-value]

    def detect(self, image: np.ndarray) -> list[Detection]:
        self.calls["detect"] += 1
        return [Detection(self._box(t), "back" if t["code"] == "back" else "tile", 0.9) for t in self.tiles]

    detect_candidates = detect

    def readings(self) -> list[TileRead]:
        out = []
        for i, t in enumerate(self.tiles):
            conf = 0.41 if i in self.low else 0.98
            alts = ((t["code"], conf), ("9s", 0.3), ("1s", 0.1)) if i in self.low else ((t["code"], conf),)
            out.append(TileRead(self._box(t), t["code"], conf, t["orientation"], 0.9, alts, index=i))
        return out

    def read_boxes(
        self, image: np.ndarray, detections: list[Detection], tileset: object = OWN_SET
    ) -> list[TileRead]:
        self.calls["read"] += 1
        self.tilesets.append(tileset)  # what each read was asked to read with (the stand-in ignores it)
        return self.readings()


class Server:
    """The app served by uvicorn as ``mahjong-score serve`` sets it up (:mod:`vision.web.server`:
    header timeout, connection limit), in a thread, on a free port of 127.0.0.1."""

    def __init__(self, app: Any, **settings: Any) -> None:
        from mahjong_camera_scorer.vision.web.server import config

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        settings = {"max_connections": 64, "log_level": "warning", "access_log": False, **settings}
        self.server = uvicorn.Server(config(app, "127.0.0.1", self.port, **settings))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if time.time() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
