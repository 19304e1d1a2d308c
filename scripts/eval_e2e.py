#!/usr/bin/env python3
"""End to end on held-out synthetic hand photos: is the hand read exactly?

A photo counts as exact when the concealed tiles (with the winning tile), every declared set
(type, tiles, open or concealed), the winning tile and the bonus tiles all equal the generator's
manifest. Failures are split by first cause: tile count (detector), a misread tile (reader), or
the layout. Photos generated with a seed not used for training (see ``models/README.md``).

    python scripts/make_dataset.py --out data/vision-holdout --count 500 --seed 777 \
        --table-fraction 0 --closeup-fraction 0 --val-fraction 0
    python scripts/eval_e2e.py --data data/vision-holdout
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.scoring.context import HandContext  # noqa: E402
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF, iou  # noqa: E402
from mahjong_camera_scorer.vision.layout import kind, lay_out, orient  # noqa: E402
from mahjong_camera_scorer.vision.pipeline import PhotoError, PhotoReader  # noqa: E402
from mahjong_camera_scorer.vision.read import TileRead  # noqa: E402
from mahjong_camera_scorer.vision.result import HandResult, finish  # noqa: E402


def _tiles(mpsz: str) -> list[str]:
    out, digits = [], ""
    for ch in mpsz:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return sorted(out)


def _melds(melds: list[dict]) -> list[tuple[str, tuple[str, ...], bool]]:
    return sorted((m["type"], tuple(_tiles(m["tiles"])), bool(m["open"])) for m in melds)


def compare(truth: dict, got: dict) -> str | None:
    """None when the hands are equal, else the first difference."""
    if _tiles(truth["hand"]) != _tiles(got.get("hand") or ""):
        return "concealed"
    if _melds(truth.get("melds", [])) != _melds(got.get("melds", [])):
        return "melds"
    if truth.get("winning_tile") != got.get("winning_tile"):
        return "winning_tile"
    if sorted(truth.get("bonus_tiles", [])) != sorted(got.get("bonus_tiles", [])):
        return "bonus"
    return None


def match_tiles(truth: list[dict], readings: list) -> tuple[int, int, int]:
    """Greedy one-to-one matching at IoU >= 0.5: (matched, of them read right, readings).

    Separates the detector's share (recall = matched / truth, precision = matched / readings)
    from the reader's (right / matched) beyond the photo-level first cause."""
    pairs = sorted(
        ((iou(t["box"], r.box), i, j) for i, t in enumerate(truth) for j, r in enumerate(readings)),
        reverse=True,
    )
    used_t: set[int] = set()
    used_r: set[int] = set()
    matched = right = 0
    for overlap, i, j in pairs:
        if overlap < 0.5:
            break
        if i in used_t or j in used_r:
            continue
        used_t.add(i)
        used_r.add(j)
        matched += 1
        want = "back" if truth[i].get("face_down") else truth[i]["code"]
        right += readings[j].code == want
    return matched, right, len(readings)


#: The photos of a whole table (four hands): the generator's ordinary tables and automatic tables.
TABLE_KINDS = ("table", "automatic")
#: Tiles that are not the player's hand in manifests without parts: loose tiles near it, the discards,
#: the walls.
NOT_THE_HAND = ("other", "discard", "wall")


def player_tiles(manifest: dict) -> list[dict]:
    """The tiles of the player's hand: ``part`` ``player_hand`` (the generator marks the hand
    nearest the camera); in manifests without parts, seat 0's hand."""
    if any("part" in t for t in manifest["tiles"]):
        return [t for t in manifest["tiles"] if t.get("part") == "player_hand"]
    return [t for t in manifest["tiles"] if t.get("seat", 0) == 0 and t.get("role") not in NOT_THE_HAND]


def player_hand(manifest: dict) -> dict:
    """The player's hand in the structured form (``player_seat``'s; seat 0's without one)."""
    if "hand" in manifest:
        return manifest["hand"]
    seat = manifest.get("player_seat") or 0
    return next(h for h in manifest["hands"] if h.get("seat", 0) == seat)


def oracle_result(manifest: dict) -> HandResult:
    """What the pipeline would give with a perfect detector and reader: the manifest's boxes,
    codes (backs for face-down tiles) and turns (rotation rounded to a quarter), then the real
    orientation and layout steps. Measures the layout alone. On a whole-table photo every tile
    in view is given (the other hands, discards and walls too): choosing the player's hand
    among them is the layout's job."""
    if manifest.get("kind") in TABLE_KINDS:
        truth = [t for t in manifest["tiles"] if t.get("labelled") and t.get("box")]
    else:
        truth = player_tiles(manifest)
    readings = orient(
        [
            TileRead(
                tuple(t["box"]),
                "back" if t.get("face_down") else t["code"],
                1.0,
                "upright",
                turn=int(round(t.get("rotation_deg", 0.0) / 90) * 90) % 360,
                index=i,
            )
            for i, t in enumerate(truth)
        ]
    )
    shape = tuple(manifest["image_size"][::-1])
    return finish(readings, lay_out(readings), HandContext(), None, image_shape=shape)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "data" / "vision-holdout")
    ap.add_argument("--limit", type=int, default=500)
    ap.add_argument("--models", type=Path, default=ROOT / "models")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "metrics" / "e2e.json")
    ap.add_argument("--split", help="only photos of this split (e.g. val, to tune thresholds)")
    ap.add_argument("--det-conf", type=float, default=DETECTOR_CONF, help="detector confidence threshold")
    ap.add_argument(
        "--det-size", type=int, default=None, help="detector input size, multiple of 32 (default: its own)"
    )
    ap.add_argument(
        "--oracle",
        action="store_true",
        help="layout only: the ground-truth boxes, codes and turns in place of the two models",
    )
    ap.add_argument(
        "--tables",
        action="store_true",
        help="also whole-table photos (four hands, walls, discards): the player's hand is the one nearest "
        "the camera (the manifest's player_hand; seat 0's in manifests without parts)",
    )
    args = ap.parse_args(argv)
    det_size = (args.det_size, args.det_size) if args.det_size else None
    reader = None if args.oracle else PhotoReader(args.models, conf=args.det_conf, det_size=det_size)
    manifests = sorted((args.data / "manifests").glob("*.json"))
    causes: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    exact_by_kind: Counter[str] = Counter()
    n = exact = 0
    tiles_truth = tiles_matched = tiles_right = tiles_read = 0
    examples: list[dict] = []
    for mpath in manifests:
        m = json.loads(mpath.read_text())
        table = args.tables and m.get("kind") in TABLE_KINDS
        if table:
            # older manifests (no player_seat): the player's hand is seat 0's when the photo is taken
            # from seat 0's side (a tenth of those tables are photographed from another side)
            side = "player_seat" not in m and round(m["camera"]["azimuth"] / 90) % 4
            if side or not all(t.get("labelled") for t in player_tiles(m)):
                continue
        elif len(m.get("hands", [m.get("hand")])) != 1 or not m.get("complete_in_frame", True):
            continue
        if args.split and m.get("split") != args.split:
            continue
        image = args.data / m["image"]
        if not image.is_file():
            image = args.data / "det" / "images" / m.get("split", "train") / f"{mpath.stem}.jpg"
        try:
            res = oracle_result(m) if reader is None else reader.read_and_score(image)
        except PhotoError as exc:
            causes["unreadable"] += 1
            n += 1
            print(f"{mpath.stem}: {exc}")
            continue
        n += 1
        truth = player_hand(m)
        got = res.layout.to_dict()
        diff = compare(truth, got)
        k = m.get("kind", "?")
        kinds[k] += 1
        truth_tiles = player_tiles(m)
        read = sorted(("back" if t.get("face_down") else t["code"]) for t in truth_tiles)
        ignored = {t.index for t in res.layout.ignored}
        used = [r for r in res.tiles if r.index not in ignored]
        got_codes = sorted(r.code for r in used)
        matched, right, n_read = match_tiles(truth_tiles, res.tiles)
        tiles_truth += len(truth_tiles)
        tiles_matched += matched
        tiles_right += right
        tiles_read += n_read
        if diff is None:
            exact += 1
            exact_by_kind[k] += 1
        else:
            if len(used) > len(truth_tiles):
                cause = "tile count: extra tile(s) (detector)"
            elif len(used) < len(truth_tiles):
                cause = "tile count: missing tile(s) (detector)"
            elif [kind(c) if c != "back" else c for c in got_codes] != [
                kind(c) if c != "back" else c for c in read
            ] or got_codes != read:
                cause = "misread tile (reader)"
            else:
                cause = f"layout ({diff})"
            causes[cause] += 1
            if len(examples) < 15:
                examples.append(
                    {
                        "photo": mpath.stem,
                        "cause": cause,
                        "truth": truth,
                        "got": got,
                        "problems": res.layout.problems,
                    }
                )
        if n % 50 == 0:
            print(f"{n} photos: exact {exact / n:.3f}", flush=True)
        if n >= args.limit:
            break
    result = {
        "data": str(args.data),
        "mode": "oracle (ground-truth tiles, layout only)" if args.oracle else "models",
        "det_conf": args.det_conf,
        "det_size": list(reader.det_size or reader.det.imgsz) if reader else None,
        "photos": n,
        "exact": exact,
        "exact_rate": round(exact / max(1, n), 4),
        "failures": dict(causes.most_common()),
        "tiles": {
            "truth": tiles_truth,
            "detected": tiles_read,
            "matched_iou50": tiles_matched,
            "detector_recall": round(tiles_matched / max(1, tiles_truth), 4),
            "detector_precision": round(tiles_matched / max(1, tiles_read), 4),
            "reader_accuracy_on_matched": round(tiles_right / max(1, tiles_matched), 4),
        },
        "by_kind": {k: {"photos": v, "exact": exact_by_kind[k]} for k, v in kinds.items()},
        "examples": examples,
    }
    print(json.dumps({k: v for k, v in result.items() if k != "examples"}, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
