"""The weight mean of checkpoints fine-tuned from one start ("model soup"), shared by
``average_detectors.py`` and ``average_readers.py``: the same check of the inputs, the same mean."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def input_error(paths: list[Path]) -> str | None:
    """Why these checkpoints cannot be averaged (fewer than two, or missing), or None."""
    if len(paths) < 2:
        return "error: give two or more checkpoints to average"
    missing = [str(p) for p in paths if not p.is_file()]
    return f"error: no such checkpoint: {', '.join(missing)}" if missing else None


def mean_state(states: list[dict[str, Any]], paths: list[Path]) -> dict[str, Any]:
    """The mean of state dicts of one architecture: floating-point tensors (weights, BatchNorm
    statistics) averaged, integer buffers taken from the first. Another architecture is refused."""
    keys = set(states[0])
    for p, s in zip(paths[1:], states[1:], strict=True):
        if set(s) != keys or any(s[k].shape != states[0][k].shape for k in keys):
            raise SystemExit(f"error: {p} is not the same architecture as {paths[0]}")
    return {
        k: sum(s[k] for s in states) / len(states) if states[0][k].is_floating_point() else states[0][k]
        for k in states[0]
    }
