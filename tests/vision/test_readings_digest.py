"""Every photo of the fixed test material reads exactly as the digests say (``scripts/readings_digest.py``).

A change of the runtime's shape (the typed scene of issue 35) must change no reading: every tile's
code, box, confidence and orientation, the layout, the checks and the score stay byte for byte. A
change that is meant to change readings (a new step on the road, a retrained model) writes the
digests anew (``python scripts/readings_digest.py --out tests/vision/data/readings-digest.json``)
and says so in its commit. Without ../shared only the two example photos are compared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.scripts.scriptutil import load_script
from tests.vision.support import models_present

DIGESTS = Path(__file__).parent / "data" / "readings-digest.json"

pytestmark = [
    pytest.mark.models,
    pytest.mark.slow,
    pytest.mark.skipif(not models_present(), reason="the shipped ONNX models are missing"),
]


def test_every_photo_reads_as_its_digest_says() -> None:
    mod = load_script("readings_digest")
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    want = json.loads(DIGESTS.read_text())
    got = mod.digests(PhotoReader())
    assert {"example", "example-12mp"} <= got.keys()
    differ = sorted(k for k in got if want.get(k) != got[k])
    assert not differ, f"{len(differ)} of {len(got)} photos read otherwise: {differ[:5]}"


def test_the_digest_sees_a_changed_reading() -> None:
    mod = load_script("readings_digest")
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    result = PhotoReader().read_and_score(Path(mod.EXAMPLE))
    first = mod.digest(result)
    from dataclasses import replace

    moved = replace(result, tiles=[replace(result.tiles[0], code="9s"), *result.tiles[1:]])
    assert mod.digest(moved) != first
