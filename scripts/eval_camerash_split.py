#!/usr/bin/env python3
"""Assign every camerash crop to the raw photo it was cut from, and fold by source photo.

camerash's ``labels/data.csv`` names each crop and its class but not its source photo, and the
crops are numbered in shuffled order. To keep the crops of one photo in one fold (otherwise the
reader is tested on near-copies of its training crops) we find each crop's photo by local-feature
matching: SIFT keypoints of the crop (upright, and turned 180° because some photos show tiles
upside down) against each raw photo, Lowe's ratio test, then a RANSAC homography; the photo with
the most inliers wins. (Matching runs on luminance because SIFT does; the models never see it.)

Photos named ``N-k`` are shots of the same tile set, so the fold unit is the set ``N``: a crop
of set 1 in training would leak the exact artwork of set 1's test crops. The test fold is a
deterministic choice of sets (``TEST_SETS``) holding about a third of the crops and every class.

Writes ``models/camerash-split.csv`` (crop, label, source photo, inliers, set, fold), which
``train_reader.py`` and ``eval_reader.py`` read. Run: ``python scripts/eval_camerash_split.py``.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CAMERASH = ROOT.parent / "shared" / "data" / "camerash"
OUT = ROOT / "models" / "camerash-split.csv"

#: Tile sets held out for testing (set = photo name before the dash). Chosen so the test fold
#: holds roughly a third of the crops, several tile designs, and every class at least once.
TEST_SETS: tuple[str, ...] = ("2", "4", "7", "9", "11", "13")

CAMERASH_TO_CODE: dict[str, str] = {
    **{f"dots-{n}": f"{n}p" for n in range(1, 10)},
    **{f"bamboo-{n}": f"{n}s" for n in range(1, 10)},
    **{f"characters-{n}": f"{n}m" for n in range(1, 10)},
    "honors-east": "1z",
    "honors-south": "2z",
    "honors-west": "3z",
    "honors-north": "4z",
    "honors-white": "5z",
    "honors-green": "6z",
    "honors-red": "7z",
    "bonus-plum": "1f",
    "bonus-orchid": "2f",
    "bonus-chrysanthemum": "3f",
    "bonus-bamboo": "4f",
    "bonus-spring": "5f",
    "bonus-summer": "6f",
    "bonus-autumn": "7f",
    "bonus-winter": "8f",
}


def _features(sift: cv2.SIFT, image: np.ndarray, max_side: int) -> tuple[list, np.ndarray | None]:
    h, w = image.shape[:2]
    s = min(1.0, max_side / max(h, w))
    if s < 1.0:
        image = cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return sift.detectAndCompute(grey, None)


def _inliers(kp_a, des_a, kp_b, des_b, matcher) -> int:  # type: ignore[no-untyped-def]
    if des_a is None or des_b is None or len(kp_a) < 4 or len(kp_b) < 4:
        return 0
    good = [
        m
        for m, n in (p for p in matcher.knnMatch(des_a, des_b, k=2) if len(p) == 2)
        if m.distance < 0.75 * n.distance
    ]
    if len(good) < 6:
        return len(good) // 2
    src = np.float32([kp_a[m.queryIdx].pt for m in good]).reshape(-1, 1, 2)
    dst = np.float32([kp_b[m.trainIdx].pt for m in good]).reshape(-1, 1, 2)
    _, mask = cv2.findHomography(src, dst, cv2.RANSAC, 5.0)
    return int(mask.sum()) if mask is not None else 0


def photo_set(photo: str) -> str:
    """``1-3.jpg`` → ``1``; ``10.jpg`` → ``10``: the tile set a photo shows."""
    return Path(photo).stem.split("-")[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--camerash", type=Path, default=CAMERASH)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    if not (args.camerash / "labels" / "data.csv").is_file():
        print(f"error: camerash not found at {args.camerash}", file=sys.stderr)
        return 2
    sift = cv2.SIFT_create(nfeatures=3000)
    matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 32})
    photos = sorted(p for p in (args.camerash / "raw-images").iterdir() if p.suffix in (".jpg", ".png"))
    photo_feats = [_features(sift, cv2.imread(str(p)), 1200) for p in photos]
    rows = list(csv.DictReader((args.camerash / "labels" / "data.csv").open(encoding="utf-8-sig")))
    out: list[dict[str, str]] = []
    for i, row in enumerate(rows):
        crop = cv2.imread(str(args.camerash / "tiles-resized" / row["image-name"]))
        if crop is None:
            continue
        scores = np.zeros(len(photos), dtype=int)
        for crop_img in (crop, cv2.rotate(crop, cv2.ROTATE_180)):
            kp, des = _features(sift, crop_img, 240)
            for j, (kp_p, des_p) in enumerate(photo_feats):
                scores[j] = max(scores[j], _inliers(kp, des, kp_p, des_p, matcher))
        best = int(scores.argmax())
        photo = photos[best].name
        out.append(
            {
                "crop": row["image-name"],
                "label": row["label-name"],
                "code": CAMERASH_TO_CODE[row["label-name"]],
                "photo": photo,
                "inliers": str(int(scores[best])),
                "set": photo_set(photo),
                "fold": "test" if photo_set(photo) in TEST_SETS else "train",
            }
        )
        if i % 25 == 0:
            print(f"{i}/{len(rows)} {row['image-name']} → {photo} ({scores[best]} inliers)", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(out[0]))
        w.writeheader()
        w.writerows(out)
    test = [r for r in out if r["fold"] == "test"]
    print(
        f"{len(out)} crops: {len(out) - len(test)} train, {len(test)} test; "
        f"test classes {len({r['code'] for r in test})}/42 → {args.out}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
