"""The detector trainer's clock (scripts/train_detector.py): a hard stop at the deadline, the
images counted, and its own results read without polars (the accelerator has none)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.scripts.scriptutil import load_script

pytest.importorskip("torch")


@pytest.fixture(scope="module")
def td():  # type: ignore[no-untyped-def]
    return load_script("train_detector")


def trainer(batch: int = 16) -> SimpleNamespace:
    return SimpleNamespace(batch_size=batch, stop=False, epoch=0, args=SimpleNamespace(time=None))


def test_the_clock_stops_training_between_batches_at_its_deadline(td, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    clock = td.Clock(time.time() + 60, tmp_path)
    t = trainer()
    clock.on_train_start(t)
    assert 55 / 3600 < t.args.time <= 60 / 3600  # ultralytics' own schedule gets what is left
    for _ in range(3):
        clock.on_train_batch_end(t)
    assert not t.stop and clock.images == 48
    clock.deadline = time.time() - 1
    clock.on_train_batch_end(t)
    assert t.stop and clock.stopped
    clock.save(t)
    assert json.loads((tmp_path / "clock.json").read_text()) == {
        "images_seen": 64,
        "batches": 4,
        "stopped_by_clock": True,
        "epoch": 1,
    }


def test_results_are_read_without_polars(td, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("ultralytics")
    import builtins

    from ultralytics.engine.trainer import BaseTrainer

    real_import = builtins.__import__

    def no_polars(name, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name.split(".")[0] == "polars":
            raise ImportError("hidden")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_polars)
    monkeypatch.setattr(BaseTrainer, "read_results_csv", BaseTrainer.read_results_csv)
    td.results_without_polars()
    csv = tmp_path / "results.csv"
    csv.write_text("epoch,time,metrics/mAP50(B)\n1,10.5,0.91\n2,20.1,0.93\n")
    got = BaseTrainer.read_results_csv(SimpleNamespace(csv=csv))
    assert got == {"epoch": [1.0, 2.0], "time": [10.5, 20.1], "metrics/mAP50(B)": [0.91, 0.93]}
