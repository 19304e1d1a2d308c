"""``mahjong-score --version``: the tool's version and how each shipped model was trained.

The models are part of what a user runs, so the version names them too: the folder they are read
from and each one's ``training`` metadata entry (:func:`vision.models.training_entry`), which says
which run produced it. A missing or broken model is reported on its line, not as a failure.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mahjong_camera_scorer.vision import __version__


def version_text(prog: str = "mahjong-score", models_dir: str | Path | None = None) -> str:
    """The version and each model's training entry (``models_dir``: the shipped models' folder).
    The models' module (onnxruntime, NumPy) is imported here, not with the command line: every
    command builds a parser with ``--version``, and typing a hand should not pay for it."""
    from mahjong_camera_scorer.vision.models import (
        DETECTOR_FILE,
        MODELS_DIR,
        READER_FILE,
        SMALL_DETECTOR_FILE,
        ModelError,
        load_model,
        training_entry,
    )

    models_dir = MODELS_DIR if models_dir is None else models_dir
    lines = [f"{prog} {__version__}", f"models: {models_dir}"]
    small = Path(models_dir) / SMALL_DETECTOR_FILE
    for name in (DETECTOR_FILE, READER_FILE, *([SMALL_DETECTOR_FILE] if small.is_file() else [])):
        try:
            model = load_model(Path(models_dir) / name, threads=1)
        except ModelError as exc:
            lines.append(f"{name}: {exc}")
        else:
            entry = training_entry(model)
            exported = model.metadata.get("date", "on an unknown date")
            lines.append(f"{name}: training {entry}" if entry else f"{name}: no training entry ({exported})")
    return "\n".join(lines) + "\n"


class VersionAction(argparse.Action):
    """Like argparse's ``version`` action, but the text is made only when asked for: loading the
    models for their metadata is no cost every other command should pay."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        kwargs.setdefault("help", "print the version and the shipped models' training entries, then exit")
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(version_text(parser.prog))
        parser.exit()
