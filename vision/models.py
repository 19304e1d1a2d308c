"""Load the two ONNX models once and read what they are from their own metadata.

Each model carries its class list and input size as ONNX metadata (``classes``: JSON list,
``imgsz``: JSON ``[h, w]``), so the runtime never hard-codes either and a retrained model with
another input size just works. onnxruntime only: no torch or ultralytics at run time.

Where the models are (:func:`default_models_dir`): ``$MAHJONG_MODELS`` if set; in a source
checkout, its own ``models/`` folder; installed, the package data of ``mahjong_models`` (the same
folder, carried by the wheel), found through :mod:`importlib.resources`.
"""

from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")

import onnxruntime as ort

from mahjong_camera_scorer.vision.bundled import bundled_dir

DETECTOR_FILE = "detector.onnx"
READER_FILE = "reader.onnx"
#: the detector of the closer looks (:mod:`vision.zoom`: slices, a closer region), trained on far
#: rows and small tiles as well; optional: a folder without it looks closer with ``detector.onnx``
SMALL_DETECTOR_FILE = "detector-small.onnx"
#: the import package the wheel carries the models in (pyproject.toml maps models/ onto it)
MODELS_PACKAGE = "mahjong_camera_scorer.models"


def default_models_dir() -> Path:
    """The folder the shipped models are read from unless a command says otherwise (``--models``):
    ``$MAHJONG_MODELS``, else the checkout's ``models/`` or the installed ``mahjong_models``
    (:func:`vision.bundled.bundled_dir`)."""
    if os.environ.get("MAHJONG_MODELS"):
        return Path(os.environ["MAHJONG_MODELS"])
    return bundled_dir(MODELS_PACKAGE, "models")


MODELS_DIR = default_models_dir()


class ModelError(RuntimeError):
    """A model file is missing or is not a model this runtime understands."""


@dataclass(frozen=True)
class OnnxModel:
    """An inference session plus the facts from its metadata."""

    path: Path
    session: ort.InferenceSession
    classes: tuple[str, ...]
    imgsz: tuple[int, int]  # (height, width)
    metadata: dict[str, str]

    @property
    def input_name(self) -> str:
        name: str = self.session.get_inputs()[0].name
        return name

    @property
    def dynamic(self) -> bool:
        """Does the model take other input sizes than ``imgsz`` (exported with dynamic axes)?"""
        shape = self.session.get_inputs()[0].shape
        return not (isinstance(shape[2], int) and isinstance(shape[3], int))

    def run(self, batch: np.ndarray) -> list[np.ndarray]:
        outputs: list[np.ndarray] = self.session.run(None, {self.input_name: batch})
        return outputs


def _parse_classes(meta: dict[str, str]) -> tuple[str, ...]:
    if "classes" in meta:
        return tuple(json.loads(meta["classes"]))
    if "names" in meta:  # ultralytics writes a Python dict literal {0: 'tile', 1: 'back'}
        names = ast.literal_eval(meta["names"])
        return tuple(names[i] for i in sorted(names)) if isinstance(names, dict) else tuple(names)
    raise ModelError("model metadata has no class list ('classes' or 'names')")


def _parse_imgsz(meta: dict[str, str], session: ort.InferenceSession) -> tuple[int, int]:
    if "imgsz" in meta:
        v = json.loads(meta["imgsz"].replace("(", "[").replace(")", "]"))
        v = [v, v] if isinstance(v, int) else v
        return int(v[0]), int(v[1])
    shape = session.get_inputs()[0].shape
    if isinstance(shape[2], int) and isinstance(shape[3], int):
        return int(shape[2]), int(shape[3])
    raise ModelError("model metadata has no input size ('imgsz')")


def load_model(path: str | Path, threads: int = 2) -> OnnxModel:
    """Open an ONNX model (uncached; see :func:`detector` / :func:`reader` for the shared ones)."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(
            f"model not found: {path} (set MAHJONG_MODELS or --models to a folder with "
            f"{DETECTOR_FILE} and {READER_FILE}; in a checkout, 'make models' builds them)"
        )
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    # Threads that finish a run spin-wait for the next one by default. The detector and the reader
    # are two sessions with a pool each: on 2 cores one pool's spinning threads starve the other's
    # work (detect took 99 ms right after a read, 49 ms alone). No spinning: each pool sleeps.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for bad files
        raise ModelError(f"cannot load model {path}: {exc}") from None
    meta = dict(session.get_modelmeta().custom_metadata_map)
    return OnnxModel(path, session, _parse_classes(meta), _parse_imgsz(meta, session), meta)


@lru_cache(maxsize=4)
def detector(models_dir: str | Path = MODELS_DIR) -> OnnxModel:
    """The tile detector, loaded once per process."""
    return load_model(Path(models_dir) / DETECTOR_FILE)


def load_small_detector(models_dir: str | Path, threads: int = 2) -> OnnxModel | None:
    """The folder's detector of the closer looks (:data:`SMALL_DETECTOR_FILE`), None where the
    folder has none (a user's own models: the closer looks use its ``detector.onnx``)."""
    path = Path(models_dir) / SMALL_DETECTOR_FILE
    return load_model(path, threads) if path.is_file() else None


@lru_cache(maxsize=4)
def small_detector(models_dir: str | Path = MODELS_DIR) -> OnnxModel | None:
    """:func:`load_small_detector`, loaded once per process."""
    return load_small_detector(models_dir)


@lru_cache(maxsize=4)
def reader(models_dir: str | Path = MODELS_DIR) -> OnnxModel:
    """The tile reader, loaded once per process."""
    return load_model(Path(models_dir) / READER_FILE)


def training_entry(model: OnnxModel) -> str | None:
    """How the model was trained, as its own metadata says: the ``training`` entry (one JSON object
    the training scripts write, naming the run, its data and its measures); None without one."""
    return model.metadata.get("training")
