"""The re-framed training photos of the accelerator run (scripts/pack_reframe.py): issue 33's scene
variants drawn as the recipe says, each label still on its tile, its class kept."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.scripts.scriptutil import load_script
from tests.scripts.tiny_pack import row_photo

EVERYTHING = {"rows": 1, "far": 1.0, "seat": 1.0, "turn": 1.0}


@pytest.fixture(scope="module")
def pr():  # type: ignore[no-untyped-def]
    return load_script("pack_reframe")


def photo(pr, seed: int = 0):  # type: ignore[no-untyped-def]
    image, text = row_photo(np.random.default_rng(seed), tiles=6)
    return image, pr.read_yolo(text, image.shape[1], image.shape[0])


def ivory_share(image: np.ndarray, box: tuple) -> float:  # type: ignore[type-arg]
    """How much of ``box`` is tile ivory (the drawn tiles are (220, 235, 240), the table green)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    patch = image[max(0, y0) : y1, max(0, x0) : x1].astype(int)
    return float((patch.min(axis=2) > 150).mean()) if patch.size else 0.0


def test_yolo_labels_round_trip(pr) -> None:  # type: ignore[no-untyped-def]
    _, labels = photo(pr)
    again = pr.read_yolo(pr.yolo_text(labels, 320, 240), 320, 240)
    assert np.allclose([b[1:] for b in again], [b[1:] for b in labels], atol=0.01)


@pytest.mark.slow  # a hundred draws
def test_the_recipe_says_which_variants_a_photo_gives(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    kinds = [k for k, _, _ in pr.variants(image, labels, random.Random(0), EVERYTHING, "p")]
    assert kinds[:3] == ["crop", "far", "seat"] and kinds[3] in ("turn90", "turn180") and len(kinds) == 4
    none = {"rows": 0, "far": 0.0, "seat": 0.0, "turn": 0.0}
    assert pr.variants(image, labels, random.Random(0), none, "p") == []
    counts = [len(pr.variants(image, labels, random.Random(s), pr.RECIPE, "p")) for s in range(100)]
    assert min(counts) >= 1 and max(counts) <= 4  # one row crop, each other kind by its chance
    assert 2.2 < np.mean(counts) < 2.9  # 1 + 0.5 + 0.7 + 0.3 (4 standard errors either way)


def test_each_label_stays_on_its_tile_in_the_frame(pr) -> None:  # type: ignore[no-untyped-def]
    for seed in range(6):
        image, labels = photo(pr, seed)
        for kind, out, moved in pr.variants(image, labels, random.Random(seed), EVERYTHING, f"p{seed}"):
            h, w = out.shape[:2]
            assert moved, kind
            assert all(0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h for _, x0, y0, x1, y1 in moved), kind
            assert all(ivory_share(out, b[1:]) > 0.4 for b in moved), kind
            if kind.startswith("turn") or kind == "far":
                assert len(moved) == len(labels), kind  # nothing cut
            if kind == "far":
                assert 9 <= np.median([max(b[3] - b[1], b[4] - b[2]) for b in moved]) <= 25


def test_a_back_stays_a_back(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    labels[2] = (1, *labels[2][1:])
    for kind, _, moved in pr.variants(image, labels, random.Random(1), EVERYTHING, "p"):
        assert sorted(c for c, *_ in moved).count(1) == 1, kind


def test_the_same_draw_gives_the_same_pictures(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    a = pr.variants(image, labels, random.Random(5), EVERYTHING, "p")
    b = pr.variants(image, labels, random.Random(5), EVERYTHING, "p")
    assert [k for k, _, _ in a] == [k for k, _, _ in b]
    assert all(np.array_equal(x, y) and p == q for (_, x, p), (_, y, q) in zip(a, b, strict=True))


def test_a_photo_whose_boxes_fit_loosely_is_not_reframed(pr) -> None:  # type: ignore[no-untyped-def]
    image, labels = photo(pr)
    loose = [(c, x0 - 20, y0, x1 + 20, y1) for c, x0, y0, x1, y1 in labels]  # each box over its neighbours
    assert pr.variants(image, loose, random.Random(0), EVERYTHING, "p") == []
    assert pr.variants(image, labels, random.Random(0), EVERYTHING, "p") != []
