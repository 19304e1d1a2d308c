"""A bounded fuzzer for exported sets: a small valid export, its bytes flipped, fields set to
extremes, cut short, members marked encrypted or compressed by an unknown method (the second
probe's zips), goes through :func:`vision.teach.store.read_export`. Only :class:`SetError` may
come out. Seeded: the same inputs every run (about 1 s)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.vision.teach.profile import Example, SetError, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore, read_export
from tests.vision.teach.test_store import _patched_zip
from tests.vision.test_fuzz_images import mutate

ROUNDS = 400


def _seeds(tmp_path: Path) -> list[bytes]:
    store = SetStore(tmp_path / "sets")
    rng = np.random.default_rng(5)
    crops = [rng.integers(0, 255, (24, 24, 3), dtype=np.uint8) for _ in range(3)]
    store.save(TileSet("club", [Example(c, x) for c, x in zip(("1m", "2p", "7z"), crops, strict=True)]))
    out = [store.export("club", tmp_path / "club.mjset").read_bytes()]
    for patch in ("corrupt", "encrypted", "method"):
        out.append(_patched_zip(tmp_path / f"{patch}.mjset", patch).read_bytes())
    return out


@pytest.mark.slow
def test_mutated_exports_give_only_clear_errors(tmp_path: Path) -> None:
    rng = random.Random(20251125)
    pool = _seeds(tmp_path)
    assert len(read_export(tmp_path / "club.mjset")) == 3
    path = tmp_path / "x.mjset"
    outcomes = {"read": 0, "refused": 0}
    for _ in range(ROUNDS):
        data = mutate(rng.choice(pool), rng)
        path.write_bytes(data)
        try:
            read_export(path)
        except SetError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 600, str(exc)
            outcomes["refused"] += 1
            continue
        outcomes["read"] += 1
    assert outcomes["refused"] > ROUNDS // 2, outcomes
