"""Shared fixtures: one Artwork per test session."""

from __future__ import annotations

import pytest
from mjsynth.artwork import DEFAULT_CACHE, Artwork

from tests.mjsynth.mjsynth_testutil import HAS_FONTS, HAS_SHARED, SHARED


@pytest.fixture(scope="session")
def art() -> Artwork:
    if not HAS_FONTS:
        pytest.skip("CJK fonts missing: run scripts/install_artwork.sh")
    return Artwork(shared_dir=SHARED if HAS_SHARED else None, cache_dir=DEFAULT_CACHE)
