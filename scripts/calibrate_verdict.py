#!/usr/bin/env python3
"""Choose the verdict's thresholds on held-out real photos (issue 33 item 6), and measure them.

A read must know when it is right: called **sure** when every tile is right, never when one is
wrong. :mod:`vision.verdict` doubts a tile whose face the reader is unsure of
(``READ_SURE``), whose runner-up is close (``MARGIN_SURE``), whose box the detector is unsure of
(``BOX_SURE``), or which a check names. This reads every variant of the chosen photos
(:mod:`mjsynth.photo_variants`, as ``scripts/eval_scenes.py`` does), records per photo whether
it was read exactly and the weakest of those numbers over the tiles shown, and sweeps the three
thresholds: for each, the share of exact photos called sure and of wrong photos called sure.
The choice: the most right photos called sure with at most ``--max-wrong`` (2 %) of the wrong
ones called sure: under issue 33's 3 % target, because the val split's ~110-130 wrong variants
make 3 % three reads, and the third one a 3 % rule let in (a box at 0.55-0.7) is a kind unseen
sets hold more of (2026-11-27: chosen at 3 % on val, 4.5 % of the test sources' wrong reads were
sure). Thresholds are chosen on the Chinese/HK validation split (``--sources chinese-val``, the
default), never on a test split; ``--at`` measures given
thresholds on other sources.

    python scripts/calibrate_verdict.py                                  # choose on val
    python scripts/calibrate_verdict.py --sources chinese,frames --at 0.9,0.0,0.5   # measure

These photos are no hands, so what is swept is the tiles' part of the verdict
(:attr:`vision.verdict.Verdict.tiles_sure`, over every tile shown); a hand of the wrong size is
never sure whatever the thresholds.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))
sys.path.insert(0, str(ROOT / "scripts"))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
import eval_real  # noqa: E402
import eval_scenes  # noqa: E402

from mahjong_camera_scorer.mjsynth.photo_variants import KINDS, variants  # noqa: E402
from mahjong_camera_scorer.mjsynth.realphotos import read_audit  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.result import HandResult  # noqa: E402
from mahjong_camera_scorer.vision.verdict import DOUBT_KINDS, HAND_FINE  # noqa: E402

READ = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
MARGIN = (0.0, 0.2, 0.4, 0.6, 0.8)
BOX = (0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7)


@dataclass(frozen=True)
class Seen:
    """One read photo: exact or not, and the weakest numbers over its tiles."""

    exact: bool
    tiles: int  # how many tiles were shown
    read: float  # the least sure face
    margin: float  # the smallest gap between a face and its runner-up
    box: float  # the faintest box
    #: the kinds of the checks that name a tile (the faint-box check aside: ``box`` is its number)
    checked: frozenset[str]

    def sure(self, read: float, margin: float, box: float) -> bool:
        return (
            self.tiles > 0
            and not self.checked
            and self.read >= read
            and self.margin >= margin
            and self.box >= box
        )


def seen(result: HandResult, exact: bool) -> Seen:
    tiles = result.tiles
    named = frozenset(
        c.kind for c in result.checks if c.tiles and c.kind in DOUBT_KINDS - HAND_FINE - {"faint"}
    )

    def margin(t: Any) -> float:
        others = [p for c, p in t.alternatives if c != t.code]
        return float(t.confidence - (others[0] if others else 0.0))

    return Seen(
        exact,
        len(tiles),
        min((t.confidence for t in tiles), default=1.0),
        min((margin(t) for t in tiles), default=1.0),
        min((t.detector_score for t in tiles), default=1.0),
        named,
    )


def read_all(reader: PhotoReader, sources: list[str], kinds: list[str], limit: int | None) -> list[Seen]:
    audit = read_audit(eval_real.AUDIT_CSV)
    out = []
    for source in sources:
        for photo in eval_scenes.spread(eval_scenes.source_photos(source, audit), limit):
            image, tiles = photo.load()
            bands = eval_scenes.row_bands(tiles)
            for v in variants(image, tiles, kinds, f"{photo.source}/{photo.name}", 0):
                result = reader.read_and_score(v.image)
                exact = eval_scenes.SceneTally().add(v, bands, result.tiles, result.rejected)
                out.append(seen(result, exact))
    return out


def rates(photos: list[Seen], at: tuple[float, float, float]) -> tuple[int, int, int, int]:
    right = [p for p in photos if p.exact]
    wrong = [p for p in photos if not p.exact]
    return sum(p.sure(*at) for p in right), len(right), sum(p.sure(*at) for p in wrong), len(wrong)


def choose(
    photos: list[Seen], max_wrong: float
) -> tuple[tuple[float, float, float], tuple[int, int, int, int]]:
    """The thresholds that call the most right photos sure with at most ``max_wrong`` of the
    wrong ones sure (ties: the strictest)."""
    best: tuple[tuple[int, float], tuple[float, float, float], tuple[int, int, int, int]] | None = None
    for at in product(READ, MARGIN, BOX):
        r, nr, w, nw = rates(photos, at)
        if nw and w / nw > max_wrong:
            continue
        key = (r, sum(at))
        if best is None or key > best[0]:
            best = (key, at, (r, nr, w, nw))
    if best is None:
        raise SystemExit("no threshold keeps the wrong reads called sure under the limit")
    return best[1], best[2]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sources", default="chinese-val")
    ap.add_argument("--variants", default=",".join(KINDS))
    ap.add_argument("--limit", type=int, help="at most this many photos a source")
    ap.add_argument("--max-wrong", type=float, default=0.02)
    ap.add_argument("--at", help="READ,MARGIN,BOX: measure these thresholds instead of choosing")
    ap.add_argument("--out", type=Path, help="JSON of the choice and its rates")
    args = ap.parse_args(argv)
    if not (eval_real.ROOT.parent / "shared" / "data" / "real").is_dir():
        print("error: ../shared/data/real is not here", file=sys.stderr)
        return 2
    sources = [s for s in args.sources.split(",") if s]
    kinds = [k for k in args.variants.split(",") if k]
    photos = read_all(PhotoReader(), sources, kinds, args.limit)
    if args.at:
        at_list = [float(x) for x in args.at.split(",")]
        at = (at_list[0], at_list[1], at_list[2])
        r, nr, w, nw = rates(photos, at)
    else:
        at, (r, nr, w, nw) = choose(photos, args.max_wrong)
    out = {
        "sources": sources,
        "variants": kinds,
        "photos": len(photos),
        "read_sure": at[0],
        "margin_sure": at[1],
        "box_sure": at[2],
        "right_called_sure": f"{r}/{nr}",
        "wrong_called_sure": f"{w}/{nw}",
        "chosen": not args.at,
    }
    print(json.dumps(out, indent=1))
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
