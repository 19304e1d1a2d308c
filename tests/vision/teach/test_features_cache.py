"""A taught set's features: computed once per crop, in batches, kept in the set's cache by
example id (a change reads only the crops it added), and reading with a cached set reads no crop."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mahjong_camera_scorer.vision.models import MODELS_DIR, READER_FILE, reader
from mahjong_camera_scorer.vision.teach import adapt
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore

pytestmark = [
    pytest.mark.skipif(not (MODELS_DIR / READER_FILE).is_file(), reason="no reader model"),
    pytest.mark.models,
]


def _examples(n: int, seed: int = 0) -> list[Example]:
    rng = np.random.default_rng(seed)
    return [
        Example("1m" if k % 2 else "2p", rng.integers(0, 255, (96, 96, 3), dtype=np.uint8)) for k in range(n)
    ]


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    sizes: list[int] = []
    real = adapt._crop_looks

    def counted(model, crops):  # type: ignore[no-untyped-def]
        sizes.append(len(crops))
        return real(model, crops)

    monkeypatch.setattr(adapt, "_crop_looks", counted)
    return sizes


def test_looks_are_computed_once_per_crop_and_in_batches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(adapt, "LOOK_BATCH", 4)
    sizes = _counting(monkeypatch)
    model, cache = reader(), tmp_path / "features.npz"
    ts = TileSet("s", _examples(10))
    whole = adapt.crop_looks(model, [e.crop for e in ts.examples][:4])  # one batch, as reference
    sizes.clear()
    first = adapt.looks_of(ts, model, cache)
    assert sizes == [4, 4, 2] and first.features.shape == (20, 768) and len(first.sure) == 10
    np.testing.assert_allclose(first.features[:4], whole.features[:4], atol=1e-5)
    np.testing.assert_allclose(first.features[10:14], whole.features[4:], atol=1e-5)
    sizes.clear()
    again = adapt.looks_of(ts, model, cache)  # from the cache: no crop read
    assert sizes == [] and np.array_equal(first.features, again.features) and again.sure == first.sure
    ts.add(_examples(1, seed=5))
    ts.examples.pop(0)
    changed = adapt.looks_of(ts, model, cache)  # only the added crop
    assert sizes == [1] and changed.features.shape == (20, 768)
    np.testing.assert_array_equal(changed.features[:9], first.features[1:10])


def test_reading_with_a_cached_set_decodes_no_crop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mahjong_camera_scorer.vision.pipeline import PhotoReader
    from mahjong_camera_scorer.vision.teach import store as store_module
    from mahjong_camera_scorer.vision.teach.teaching import check_set, load_taught_reader

    store = SetStore(tmp_path)
    store.save(TileSet("club", _examples(6)))
    photo_reader = PhotoReader(str(MODELS_DIR))
    check_set(store.load("club"), photo_reader, store)  # fills the cache, as teach does
    monkeypatch.setattr(store_module, "_crop_from", lambda *a: pytest.fail("a crop was decoded"))
    sizes = _counting(monkeypatch)
    load_taught_reader(store, "club", photo_reader)
    assert sizes == [] and photo_reader.tileset is not None and photo_reader.tileset.features.shape[0] == 6
