"""What the mjsynth tests may rely on here: which artwork sources are installed, and fast styles."""

from __future__ import annotations

from pathlib import Path

import pytest
from mjsynth.artwork import DEFAULT_SHARED
from mjsynth.procedural import ProceduralSource

SHARED = DEFAULT_SHARED
HAS_SHARED = (SHARED / "artwork" / "fluffystuff" / "Regular" / "Man1.svg").is_file()
HAS_FONTS = ProceduralSource().available()
HAS_DEBIAN = Path("/usr/share/kmahjongglib/tilesets/default.svgz").is_file()

needs_fonts = pytest.mark.skipif(not HAS_FONTS, reason="CJK fonts missing: run scripts/install_artwork.sh")
needs_shared = pytest.mark.skipif(not HAS_SHARED, reason="../shared/artwork/fluffystuff not present")
needs_debian = pytest.mark.skipif(
    not HAS_DEBIAN, reason="Debian tilesets not installed: run scripts/install_artwork.sh"
)

#: Styles the scene tests draw with: procedural faces render in milliseconds.
FAST_STYLES = ("proc-classic", "proc-western", "proc-hk", "proc-bold")
