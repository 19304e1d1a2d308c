"""Shared fixtures: one Artwork per test session."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.mjsynth.artwork import DEFAULT_CACHE, Artwork
from mahjong_camera_scorer.mjsynth.pasted import Crop, CropBank
from tests.mjsynth.mjsynth_testutil import HAS_FONTS, HAS_SHARED, SHARED, marked_crop


@pytest.fixture(scope="session")
def art() -> Artwork:
    if not HAS_FONTS:
        pytest.skip("CJK fonts missing: run scripts/install_artwork.sh")
    return Artwork(shared_dir=SHARED if HAS_SHARED else None, cache_dir=DEFAULT_CACHE)


@pytest.fixture(scope="module")
def proc(tmp_path_factory: pytest.TempPathFactory) -> Artwork:
    """Procedural faces only, in a fresh cache (what the design tests draw)."""
    return Artwork(shared_dir=None, cache_dir=tmp_path_factory.mktemp("faces"), sources=["procedural"])


@pytest.fixture(scope="module")
def bank() -> CropBank:
    """Five codes of stand-in real crops (:func:`marked_crop`) for the pasted and desk scenes."""
    return {c: [Crop(marked_crop(i))] for i, c in enumerate(("1m", "2p", "3s", "5m", "7z"))}
