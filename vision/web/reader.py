"""The web app's one :class:`vision.pipeline.PhotoReader`: loaded on first use, used by one request
at a time.

The page works before the models exist (they load on the first photo), and the models already
use every core, so requests take turns (a lock) rather than compete: reading a photo, pairing a
teaching photo and computing a taught set's features all go through :meth:`SharedReader.use`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from mahjong_camera_scorer.vision.models import ModelError
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.web.errors import ApiError

T = TypeVar("T")


class SharedReader:
    def __init__(self, reader: PhotoReader | None, models_dir: str | Path, det_conf: float) -> None:
        self.reader, self.models_dir, self.det_conf = reader, models_dir, det_conf
        self.lock = threading.Lock()

    def use(self, work: Callable[[PhotoReader], T]) -> T:
        """``work(reader)`` while no other request uses the reader; a 503 when the models cannot
        be loaded."""
        with self.lock:
            if self.reader is None:
                try:
                    self.reader = PhotoReader(self.models_dir, conf=self.det_conf)
                except ModelError as exc:
                    raise ApiError(503, f"the tile models are not available: {exc}") from None
            return work(self.reader)
