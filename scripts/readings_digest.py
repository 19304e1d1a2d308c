#!/usr/bin/env python3
"""What every photo of the real test material reads as, one digest a photo: proof that a change of
the runtime's shape changed no reading.

A refactor of the photo road (issue 35: the typed scene) must leave every reading as it was. This
reads each photo of the fixed test material with the shipped models, exactly as ``mahjong-score
photo`` does, and writes a digest of what a user could see of it: every tile (code, box, confidence,
orientation, turn, detector score, how it was found or corrected), the boxes read as no tile, the
layout (hand, melds, winning tile, bonus tiles, what was left out and why), every check's kind
with the tiles it names, and the MCR score's total and validity. Timings and the record of the road's steps
are left out (they are not a reading).

Sources (read from ../shared, never copied): the real test split of ``models/real-split.csv``
(Chinese/HK phone photos and camera pictures), the camera frames' teach split, the four camerash-pr4
grid photos, the five camerash test-fold grid photos, and the bundled example photo, once as it is
and once enlarged to 12 megapixels (a JPEG decoded reduced: boxes come back in the photo's pixels).

    python scripts/readings_digest.py --out tests/vision/data/readings-digest.json   # write
    python scripts/readings_digest.py --check tests/vision/data/readings-digest.json # compare

``tests/vision/test_readings_digest.py`` runs the comparison (skipped without ../shared).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402
import eval_unseen  # noqa: E402

from mahjong_camera_scorer.mjsynth.realphotos import load_picture  # noqa: E402
from mahjong_camera_scorer.scoring.context import HandContext  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.result import HandResult  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
EXAMPLE = ROOT / "examples" / "hand.jpg"


def _tile(t: Any) -> list[Any]:
    return [
        t.index,
        t.code,
        [round(float(v), 2) for v in t.box],
        round(float(t.confidence), 5),
        t.orientation,
        t.turn,
        round(float(t.turn_confidence), 4),
        round(float(t.detector_score), 5),
        t.corrected_from,
        t.found_by,
        [[c, round(float(p), 4)] for c, p in t.alternatives],
    ]


def reading(result: HandResult) -> dict[str, Any]:
    """What a user can see of one read photo (see the module's docstring), in a canonical form."""
    lay = result.layout
    score = result.score
    return {
        "tiles": [_tile(t) for t in result.tiles],
        "rejected": [_tile(t) for t in result.rejected],
        "layout": lay.to_dict(),
        "groups": [[g.role, g.row, [t.index for t in g.tiles]] for g in lay.groups],
        "turn": lay.turn,
        "left_out": [[lo.why, [t.index for t in lo.tiles]] for lo in lay.left_out],
        "dropped": [t.index for t in lay.dropped],
        "added": [t.index for t in lay.added],
        # kinds and tiles, not sentences: their wording is the front ends' to change
        "checks": [[c.kind, list(c.tiles)] for c in result.checks],
        "score": None if score is None else [score.valid, score.total],
        "image_shape": list(result.image_shape),
    }


def digest(result: HandResult) -> str:
    text = json.dumps(reading(result), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def sources(limit: int | None = None) -> Iterator[tuple[str, Any]]:
    """(name, a photo file or decoded pixels) for every photo of the fixed material."""
    yield "example", EXAMPLE
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "example-12mp.jpg"
        image = cv2.imread(str(EXAMPLE))
        h, w = image.shape[:2]
        k = (12e6 / (h * w)) ** 0.5
        cv2.imwrite(str(big), cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_CUBIC))
        yield "example-12mp", big
    if not SHARED.is_dir():
        return
    photos = [
        *eval_real.test_photos(SHARED / "real", "test"),
        *eval_real.test_photos(SHARED / "real", "teach"),
    ]
    for n, p in enumerate(photos):
        if limit is not None and n >= limit:
            break
        yield f"{p.dataset}/{p.path.name}", load_picture(p)
    for path, _codes in [*eval_unseen.pr4_grids(), *eval_unseen.camerash_grids()]:
        yield f"grid/{path.parent.parent.name}/{path.name}", path


def digests(reader: PhotoReader, limit: int | None = None) -> dict[str, str]:
    return {name: digest(reader.read_and_score(src, HandContext(), "mcr")) for name, src in sources(limit)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="write the digests here")
    ap.add_argument("--check", type=Path, help="compare with the digests written here")
    ap.add_argument("--limit", type=int, help="at most this many real photos (a quick look)")
    args = ap.parse_args(argv)
    got = digests(PhotoReader(), args.limit)
    if args.out:
        args.out.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        print(f"{len(got)} photos -> {args.out}")
    if args.check:
        want = json.loads(args.check.read_text())
        differ = sorted(k for k in got if k in want and want[k] != got[k])
        missing = sorted(k for k in want if k not in got)
        print(f"{len(got)} photos read; {len(differ)} differ; {len(missing)} not read")
        for k in differ:
            print(f"differs: {k}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    raise SystemExit(main())
