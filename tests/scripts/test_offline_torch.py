"""Training scripts started from the runtime venv (no torch) say which venv to use, not a traceback."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed here")
@pytest.mark.parametrize("script", ["train_detector.py", "train_reader.py", "average_detectors.py"])
def test_training_script_without_torch_names_the_training_venv(script: str) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), "--help"], capture_output=True, text=True, timeout=60
    )
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert ".venv-train" in run.stderr
