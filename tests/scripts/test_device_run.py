"""The accelerator run (scripts/device_run.py) rehearsed on the CPU: a tiny pack, a few seconds a
stage, the same command as on the machine. Needs torch and ultralytics (the training venv):

    PYTHONPATH=. .venv-train/bin/python -m pytest tests/scripts/test_device_run.py

Skipped where they are missing (CI, the runtime venv)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.scripts.scriptutil import load_script
from tests.scripts.tiny_pack import FAKE_PACKAGE, make_inputs

pytest.importorskip("torch")
pytest.importorskip("ultralytics")

ROOT = Path(__file__).resolve().parents[2]
POLARS_HIDDEN = """
import sys


class _NoPolars:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "polars" or name.startswith("polars."):
            raise ModuleNotFoundError(f"No module named {name!r} (hidden: the accelerator has none)")
        return None


sys.meta_path.insert(0, _NoPolars)
"""
pytestmark = [pytest.mark.slow, pytest.mark.models]  # trains from the committed checkpoints


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The run, once: its exit status, output folder, log and the site its wheels went to."""
    tmp = tmp_path_factory.mktemp("device")
    inputs = make_inputs(tmp / "inputs", photos=4, crops_per_kind=12)
    pack = tmp / "pack"
    assert load_script("device_pack").main(inputs.argv(pack, "--limit-mib", "2")) == 0
    out, site = tmp / "OUT", tmp / "site"
    # the accelerator has no polars (ultralytics requires it; the pack does not carry its ~40 MB
    # wheel): hidden here too, in every process of the run
    hide = tmp / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(POLARS_HIDDEN)
    # nor is the checkout installed there: the run must find vision, scoring and mjsynth itself
    env = {**os.environ, "PYTHONPATH": str(hide)}
    cmd = [sys.executable, str(ROOT / "scripts" / "device_run.py"), "--pack", str(pack), "--out", str(out)]
    cmd += ["--work", str(tmp / "work"), "--site", str(site), "--budget", "400", "--imgsz", "96"]
    cmd += ["--detector-seconds", "2", "--reader-seconds", "2", "--det-batch", "2", "--reader-batch", "8"]
    cmd += ["--per-epoch", "16", "--workers", "1"]
    cmd += ["--detector-reserve", "240", "--reader-reserve", "120"]  # 2 shared cores: slow to start
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT, env=env)
    return done, out, site


def test_the_run_ends_well_and_brings_back_seven_small_files(run) -> None:  # type: ignore[no-untyped-def]
    done, out, _ = run
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(
        [
            "detector.onnx",
            "detector.pt",
            "detector-results.csv",
            "reader.onnx",
            "reader.pt",
            "metrics.json",
            "run.log",
        ]
    )
    assert all(0 < (out / n).stat().st_size <= 16 << 20 for n in names)


def test_the_wheels_were_installed_where_the_run_put_them(run) -> None:  # type: ignore[no-untyped-def]
    _, out, site = run
    assert (site / FAKE_PACKAGE / "__init__.py").is_file()
    assert json.loads((out / "metrics.json").read_text())["wheels"] == [
        f"{FAKE_PACKAGE}-0.1-py3-none-any.whl"
    ]


def test_the_onnx_models_load_as_the_runtime_loads_the_shipped_ones(run) -> None:  # type: ignore[no-untyped-def]
    from mahjong_camera_scorer.vision.classes import DETECTOR_CLASSES, READER_CLASSES
    from mahjong_camera_scorer.vision.models import load_model, training_entry

    _, out, _ = run
    det = load_model(out / "detector.onnx")
    assert det.classes == DETECTOR_CLASSES and det.imgsz == (96, 96) and det.dynamic
    assert json.loads(training_entry(det) or "{}").get("imgsz") == 96
    assert set(load_model(ROOT / "models" / "detector.onnx").metadata) <= set(det.metadata)
    boxes = det.run(np.zeros((1, 3, 96, 96), np.float32))[0]
    assert boxes.shape[:2] == (1, 4 + len(DETECTOR_CLASSES))
    rd = load_model(out / "reader.onnx")
    assert rd.classes == READER_CLASSES and rd.imgsz == (96, 96)
    logits, up, feats = rd.run(np.zeros((2, 3, 96, 96), np.float32))
    assert logits.shape == (2, len(READER_CLASSES)) and up.shape == (2, 1) and feats.shape[0] == 2
    shipped = load_model(ROOT / "models" / "reader.onnx")
    assert set(shipped.metadata) <= set(rd.metadata)  # every key the shipped reader carries


def test_the_metrics_say_what_was_trained_and_on_what(run) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run
    m = json.loads((out / "metrics.json").read_text())
    assert m["device"].startswith("cpu")
    assert m["detector"]["exit"] == 0 and m["detector"]["images_seen"] > 0
    assert m["detector"]["stopped_by_clock"] is True  # two seconds end it, not the 1000 epochs
    assert m["reader"]["exit"] == 0 and m["reader"]["crops_seen"] > 0
    made = m["detector_data"]["re-framed from real photos"]
    assert made.get("crop", 0) >= 1 and m["detector_data"]["val images"] == 1
    assert m["seconds"] < 400
    log = (out / "run.log").read_text()
    assert "time is up" in log and "done in" in log and "hidden: the accelerator has none" not in log
