"""Reading with a taught set (vision.teach.adapt): the logits move towards the taught crops a
tile looks like, untaught codes stay as read, suspects are found."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.vision.classes import READER_CLASSES
from mahjong_camera_scorer.vision.models import MODELS_DIR, READER_FILE, reader
from mahjong_camera_scorer.vision.teach.adapt import (
    SIMILAR_AT,
    CropLooks,
    TaughtReader,
    looks_of,
    suspects,
    taught_reader,
)
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet

CLASSES = READER_CLASSES


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def _basis(n: int, dim: int = 16) -> np.ndarray:
    return np.eye(dim, dtype=np.float32)[:n]


def test_a_tile_like_a_taught_crop_takes_its_code() -> None:
    feats = _basis(2)  # crop 0 taught 7z, crop 1 taught 6z
    tr = TaughtReader.build("s", feats, ["7z", "6z"], CLASSES)
    logits = np.zeros((2, len(CLASSES)), np.float32)
    logits[:, CLASSES.index("0m")] = 8.0  # the reader is sure of a red five (a design it never saw)
    query = np.stack([feats[0] * 3.0, _unit(feats[0] + feats[1])])  # like crop 0; like neither
    out = tr.adjust(logits, query)
    assert CLASSES[int(out[0].argmax())] == "7z"
    # like neither (0.71 alike): the reader's answer stands, unchanged
    assert CLASSES[int(out[1].argmax())] == "0m"
    assert np.array_equal(out[1], logits[1])
    untaught = [i for i, c in enumerate(CLASSES) if c not in ("7z", "6z")]
    assert np.array_equal(out[:, untaught], logits[:, untaught])


def test_similarity_threshold() -> None:
    tr = TaughtReader.build("s", _basis(1), ["1m"], CLASSES)
    q = np.zeros((1, 16), np.float32)
    q[0, 0], q[0, 1] = SIMILAR_AT, np.sqrt(1 - SIMILAR_AT**2)  # exactly SIMILAR_AT alike
    out = tr.adjust(np.zeros((1, len(CLASSES)), np.float32), q)
    assert out[0, CLASSES.index("1m")] == pytest.approx(0.0, abs=1e-4)


def test_an_empty_set_changes_nothing() -> None:
    tr = TaughtReader.build("s", np.zeros((0, 16), np.float32), [], CLASSES)
    logits = np.arange(2 * len(CLASSES), dtype=np.float32).reshape(2, -1)
    assert np.array_equal(tr.adjust(logits, np.ones((2, 16), np.float32)), logits)


def _ts(codes: list[str]) -> TileSet:
    crop = np.zeros((8, 8, 3), np.uint8)
    return TileSet("s", [Example(c, crop, id=f"{k:08x}") for k, c in enumerate(codes)])


def test_swapped_codes_are_suspect() -> None:
    # two copies each of 3m and 4m, one of each swapped: each swapped crop looks like the other code
    f = _unit(np.array([[1, 0.1, 0], [1, 0, 0.1], [0, 1, 0.1], [0.1, 1, 0]], np.float32))
    codes = ["3m", "4m", "4m", "3m"]  # crops 1 and 3 swapped
    found = suspects(_ts(codes), CropLooks(f, tuple(codes), (0.99,) * 4))
    assert {int(s.example.id, 16) for s in found} >= {1, 3}
    assert all(s.why == "neighbours" for s in found)
    assert "looks more like the taught" in found[0].message


def test_a_swap_of_codes_taught_once_is_seen_by_the_reader() -> None:
    f = _unit(np.eye(3, dtype=np.float32))
    codes = ["3m", "4m", "5z"]
    read_as = ("4m", "3m", "5z")  # the reader reads each swapped crop as the other's code
    found = suspects(_ts(codes), CropLooks(f, read_as, (0.95, 0.9, 0.99)))
    assert [(s.example.code, s.looks_like, s.why) for s in found] == [
        ("3m", "4m", "swap"),
        ("4m", "3m", "swap"),
    ]
    unsure = suspects(_ts(codes), CropLooks(f, read_as, (0.95, 0.3, 0.99)))
    assert unsure == []


def test_a_clean_set_and_flowers_raise_nothing() -> None:
    f = _unit(np.array([[1, 0.2], [1, 0.25], [0.98, 0.2]], np.float32))  # a series alike
    codes = ["5f", "6f", "7f"]
    assert suspects(_ts(codes), CropLooks(f, tuple(codes), (0.9,) * 3)) == []


needs_reader = pytest.mark.skipif(not (MODELS_DIR / READER_FILE).is_file(), reason="no reader model")


@pytest.mark.models
@needs_reader
def test_features_cached_per_reader_and_examples(tmp_path: Path) -> None:
    model = reader()
    rng = np.random.default_rng(0)
    ts = TileSet("s", [Example("1m", rng.integers(0, 255, (96, 96, 3), dtype=np.uint8)) for _ in range(3)])
    cache = tmp_path / "features.npz"
    first = looks_of(ts, model, cache)
    assert cache.is_file() and first.features.shape == (6, 768) and len(first.read_as) == 3
    again = looks_of(ts, model, cache)
    assert np.array_equal(first.features, again.features)
    ts.examples.pop()
    fewer = looks_of(ts, model, cache)  # other examples: computed again
    assert fewer.features.shape == (4, 768)
    cache.write_bytes(b"broken")
    assert looks_of(ts, model, cache).features.shape == (4, 768)
    tr = taught_reader(ts, model)
    assert list(tr.classes) == [CLASSES.index("1m")] and tr.features.shape == (2, 768)


def test_spread_keeps_the_variety_of_a_code() -> None:
    from mahjong_camera_scorer.vision.teach.adapt import spread

    # ten copies of one look and two other looks: the other two are kept, not ten alike
    f = _unit(np.array([[1, 0, 0]] * 10 + [[0, 1, 0], [0, 0, 1]], np.float32))
    assert spread(f, list(range(12)), most=3) == [0, 10, 11]
    assert spread(f, [3, 4], most=3) == [3, 4]


@pytest.mark.models
@needs_reader
def test_a_big_set_reads_with_a_bounded_number_of_crops() -> None:
    from mahjong_camera_scorer.vision.teach.adapt import READ_PER_CODE

    rng = np.random.default_rng(1)
    crops = [rng.integers(0, 255, (96, 96, 3), dtype=np.uint8) for _ in range(READ_PER_CODE + 6)]
    ts = TileSet("s", [Example("1m", c) for c in crops] + [Example("2m", crops[0])])
    tr = taught_reader(ts, reader())
    assert tr.features.shape[0] == READ_PER_CODE + 1
