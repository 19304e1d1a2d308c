"""The labelled real scene photos of ``../shared/data/real/`` as this project's classes and splits.

Two public Roboflow exports (CC BY 4.0, credited in ``models/README.md`` and the README):

- ``chinese-mahjong-detection``: 856 phone photos of Chinese/HK sets, 42 classes;
- ``riichi-camera-frames``: 67 camera frames of one Japanese set, 35 classes.

Their class indices are mapped to the project's tile codes by the tables below. The tables were
**checked by eye** on contact sheets of crops of every class (the exports' own class lists are not
shipped, and the Chinese export's order is neither the README's nor alphabetical): in
``chinese-mahjong-detection`` the classes run by number, ``n``-season, ``n``m, ``n``p, ``n``s,
``n``z for n = 1..4, then the flowers at the places of 5..8 (class 20 shows 梅 plum with a 1, class 0
春 spring with a 1), and 8m 8p 8s 9m 9p 9s at the end; ``riichi-camera-frames`` is alphabetical
(``0``, ``1_man``, ``1_pin``, ``1_sou`` … ``9_sou``, ``chun haku hatsu nan pe- sya- ton``). Its
class ``0`` marks two tiles whose face cannot be seen (one turned away, one half hidden): a tile
for the detector, no code for the reader (:data:`UNKNOWN_FACE`). Wrong labels found and checked by
eye are corrected by :data:`LABEL_FIXES`.

Splits are made **by source photo**: Roboflow names each copy ``<source>_<ext>.rf.<hash>.jpg``, and
the same source (e.g. the 20 ``hand_0xx`` photos) sits in more than one published split; near-
duplicate pictures under different names (mirrored or turned copies too) are grouped by a
difference hash. Every group that touches the published ``test`` split is test (for the camera
frames, the published ``valid`` frames too: 4 frames alone would measure little); the test split
is never trained on. Camera frames taken within :data:`FRAME_GAP_S` seconds of a test frame are left
out of training (the next frame of a video is nearly the same picture).
"""

from __future__ import annotations

import csv
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.vision.detect import iou
from mahjong_camera_scorer.vision.linked import Linked

CHINESE = "chinese-mahjong-detection"
RIICHI = "riichi-camera-frames"
#: A labelled tile whose face is not visible: the detector's ``tile``, no reader class.
UNKNOWN_FACE = "?"
#: How much wider each data set's pictures were before the export made them 640x640. The camera
#: frames were 16:9 webcam frames squashed to a square: their labelled tiles measure 0.41 wide per
#: tall (median of 582), a standing tile's face 0.73 once the width is restored by 16/9 (a riichi
#: tile's face is 0.74). A user's webcam frame is not squashed, so they are read restored
#: (:func:`load_picture`); the reader alone reads 82 % of their tiles squashed, 94 % restored.
#: The phone photos' own aspect is not known (stretched or not, they look like tiles): kept.
PUBLISHED_STRETCH = {RIICHI: 16 / 9}

_SEASONS = ("5f", "6f", "7f", "8f")  # spring summer autumn winter (our codes)
_FLOWERS = ("1f", "2f", "3f", "4f")  # plum orchid chrysanthemum bamboo


def _chinese_classes() -> tuple[str, ...]:
    out: list[str] = []
    for n in range(1, 8):
        bonus = _SEASONS[n - 1] if n <= 4 else _FLOWERS[n - 5]
        out += [bonus, f"{n}m", f"{n}p", f"{n}s", f"{n}z"]
    out += [_FLOWERS[3], "8m", "8p", "8s", "9m", "9p", "9s"]
    return tuple(out)


#: class index → tile code, ``chinese-mahjong-detection`` (checked by eye, see the module doc).
CHINESE_CLASSES: tuple[str, ...] = _chinese_classes()
#: class index → tile code, ``riichi-camera-frames`` (alphabetical export order).
RIICHI_CLASSES: tuple[str, ...] = (
    UNKNOWN_FACE,
    *(f"{n}{s}" for n in range(1, 10) for s in "mps"),
    *("7z", "5z", "6z", "2z", "4z", "3z", "1z"),  # chun haku hatsu nan pe- sya- ton
)
CLASSES = {CHINESE: CHINESE_CLASSES, RIICHI: RIICHI_CLASSES}
assert len(CHINESE_CLASSES) == 42 and len(set(CHINESE_CLASSES)) == 42
assert len(RIICHI_CLASSES) == 35 and len(set(RIICHI_CLASSES)) == 35

#: Wrong labels found where the reader trained on real photos disagreed with them (>= 0.8 sure) on
#: the test and val pictures, each checked by eye on a contact sheet: (picture, label line) → code.
#: All 17 disagreements of that scan were label errors. The training pictures were not scanned.
LABEL_FIXES: dict[tuple[str, int], str] = {
    ("393862359_1016644659388196_9121892287557604620_n_jpg.rf.79dd5ad6b19e70a34b7fece27a09166d.jpg", 3): "3z",
    ("395943457_352951880638020_6708737081433333054_n_jpg.rf.e904d311bdc2e6894ab1f35e40f264e7.jpg", 14): "1z",
    # one tray photo labels eleven circles of 2-7 as 1p (line 4, its second 5p, found 2026-11-27)
    **{
        ("IMG_2781_JPG.rf.be5e1635a9c939158d0b781063b7654c.jpg", i): c
        for i, c in {
            0: "7p",
            1: "6p",
            2: "6p",
            3: "5p",
            4: "5p",
            5: "4p",
            6: "4p",
            7: "3p",
            8: "3p",
            9: "2p",
            10: "2p",
        }.items()
    },
    # characters labelled as circles
    ("hand_016_jpg.rf.146843be36fa4d2596f2d47aca3a1020.jpg", 3): "6m",
    ("hand_016_jpg.rf.146843be36fa4d2596f2d47aca3a1020.jpg", 4): "5m",
    ("hand_016_jpg.rf.146843be36fa4d2596f2d47aca3a1020.jpg", 5): "4m",
    ("384431440_2098836703848534_2011137045866255817_n_jpg.rf.3b79bad4c1e5282aeb2d807019280595.jpg", 7): "9m",
    (
        "387325315_1383103635941496_1298924592315797177_n_jpg.rf.58cd58dc960f6a6930e65355e4b45ab6.jpg",
        13,
    ): "9m",
}

#: Camera frames closer in time than this to a test frame are not trained on.
FRAME_GAP_S = 60.0
#: Data sets no base model trains on, so that one real set stays unseen: issue 14 measures teaching
#: the reader a user's own set on it (teach from some pictures, read the others). Their pictures
#: outside the test split are ``teach``. The camera frames are the one set of a single maker.
KEPT_OUT: tuple[str, ...] = (RIICHI,)
#: Two pictures whose 64-bit difference hashes differ in at most this many bits are one photo.
DUPLICATE_BITS = 6
PUBLISHED_SPLITS = ("train", "valid", "test")


@dataclass(frozen=True)
class Label:
    """One labelled tile: its code (or :data:`UNKNOWN_FACE`) and ``xyxy`` box in pixels."""

    code: str
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class RealPhoto:
    """One picture of the real sets, where it was published and which source photo it copies."""

    dataset: str
    published: str  # train | valid | test
    path: Path

    @property
    def source(self) -> str:
        """The source photo's name: Roboflow's ``<name>_<ext>.rf.<hash>`` without its suffixes."""
        return source_of(self.path.name)

    @property
    def labels_path(self) -> Path:
        return self.path.parent.parent / "labels" / f"{self.path.stem}.txt"

    @property
    def is_screenshot(self) -> bool:
        """A screen capture, not a photograph (16 of the Chinese ``valid`` pictures); the camera
        frames are named ``Screenshot-…`` too but are camera pictures."""
        return self.dataset == CHINESE and self.source.lower().startswith("screenshot")


def source_of(filename: str) -> str:
    stem = filename.split(".rf.")[0]
    return re.sub(r"_(jpe?g|png|webp|bmp)$", "", stem, flags=re.IGNORECASE)


def frame_time(source: str) -> datetime | None:
    """When a camera frame was captured, from its ``Screenshot-YYYY-MM-DD-HH-MM-SS`` name."""
    m = re.search(r"(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})", source)
    if m is None:
        return None
    year, month, day, hour, minute, second = (int(g) for g in m.groups())
    return datetime(year, month, day, hour, minute, second)


def photos(root: Path) -> Iterator[RealPhoto]:
    """Every labelled picture under ``root`` (``../shared/data/real``), in a stable order."""
    for dataset in (CHINESE, RIICHI):
        for split in PUBLISHED_SPLITS:
            folder = root / dataset / split / "images"
            if folder.is_dir():
                for p in sorted(folder.iterdir()):
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png"):
                        yield RealPhoto(dataset, split, p)


def load_picture(photo: RealPhoto) -> np.ndarray:
    """The picture as it was taken: its width restored by :data:`PUBLISHED_STRETCH`. The labels
    are normalised, so :func:`read_labels` with this picture's size gives their restored boxes."""
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"cannot read {photo.path}")
    sx = PUBLISHED_STRETCH.get(photo.dataset, 1.0)
    if sx != 1.0:
        h, w = image.shape[:2]
        image = cv2.resize(image, (round(w * sx), h), interpolation=cv2.INTER_LINEAR)
    return image


def published_box(dataset: str, box: tuple[float, ...]) -> tuple[float, ...]:
    """A box on a restored picture (:func:`load_picture`) in the published picture's pixels, as
    the audit file keeps boxes."""
    sx = PUBLISHED_STRETCH.get(dataset, 1.0)
    return (box[0] / sx, box[1], box[2] / sx, box[3])


def read_labels(photo: RealPhoto, width: int, height: int) -> list[Label]:
    """The photo's tiles in pixels; polygon lines (``class x1 y1 x2 y2 …``) become their bounds."""
    if not photo.labels_path.is_file():
        return []
    table = CLASSES[photo.dataset]
    out: list[Label] = []
    for n, line in enumerate(photo.labels_path.read_text().splitlines()):
        v = line.split()
        if len(v) < 5:
            continue
        cls, nums = int(v[0]), [float(x) for x in v[1:]]
        if len(nums) == 4:
            cx, cy, w, h = nums
            x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
        else:
            xs, ys = nums[0::2], nums[1::2]
            x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        x0, x1 = max(0.0, x0) * width, min(1.0, x1) * width
        y0, y1 = max(0.0, y0) * height, min(1.0, y1) * height
        if x1 - x0 >= 2 and y1 - y0 >= 2 and 0 <= cls < len(table):
            code = LABEL_FIXES.get((photo.path.name, n), table[cls])
            out.append(Label(code, (x0, y0, x1, y1)))
    return out


#: What a person saw in an audited box (``models/real-audit.csv``, written with
#: ``scripts/audit_real_labels.py``): the published labels leave out many tiles in view (heaps,
#: walls, rows of standing tiles), so the boxes a detector finds on no label were judged by eye.
AUDIT_VERDICTS: dict[str, str] = {
    "tile": "a whole tile, face visible, that the labels left out",
    "back": "a whole tile lying face down or standing with its back to the camera",
    "part": "a tile cut by the frame or mostly hidden",
    "side": "only a tile's side or edge",
    "clutter": "not a tile (hand, mat, object ...)",
    "double": "a box spanning two tiles, or far off a tile that is labelled",
    "bad_label": "a published label that is plainly wrong (e.g. on no tile)",
}
#: The verdicts that make an audited box a tile a reader of the photo should report.
AUDITED_TILES: tuple[str, ...] = ("tile", "back")
#: A ``bad_label`` row copies the box of the published label it condemns (to 0.1 px): this close.
SAME_LABEL_IOU = 0.9
AUDIT_COLUMNS = ("file", "dataset", "x0", "y0", "x1", "y1", "verdict", "note")


@dataclass(frozen=True)
class AuditBox:
    """One judged box of the label audit, ``xyxy`` in the picture's pixels."""

    dataset: str
    file: str
    box: tuple[float, float, float, float]
    verdict: str
    note: str = ""


def read_audit(path: Path) -> dict[tuple[str, str], list[AuditBox]]:
    """The label audit, ``(dataset, file) → boxes``; a malformed line raises ``ValueError`` naming it.

    The audit adds what the published labels left out; it never changes them (wrong codes go to
    :data:`LABEL_FIXES`). A missing file is an empty audit. The file keeps boxes in the published
    pictures' pixels; they come back in the restored pictures' (:func:`load_picture`)."""
    out: dict[tuple[str, str], list[AuditBox]] = {}
    if not path.is_file():
        return out
    with path.open(encoding="utf-8", newline="") as f:
        rows = csv.DictReader(f)
        if tuple(rows.fieldnames or ()) != AUDIT_COLUMNS:
            raise ValueError(f"{path}: the header must be {','.join(AUDIT_COLUMNS)}")
        for row in rows:
            where = f"{path}:{rows.line_num}"
            if row["verdict"] not in AUDIT_VERDICTS:
                raise ValueError(f"{where}: unknown verdict {row['verdict']!r}")
            if row["dataset"] not in CLASSES:
                raise ValueError(f"{where}: unknown data set {row['dataset']!r}")
            try:
                x0, y0, x1, y1 = (float(row[k]) for k in ("x0", "y0", "x1", "y1"))
            except (TypeError, ValueError):
                raise ValueError(f"{where}: the box is not four numbers") from None
            if not (0 <= x0 < x1 and 0 <= y0 < y1):
                raise ValueError(f"{where}: not a box: {x0} {y0} {x1} {y1}")
            sx = PUBLISHED_STRETCH.get(row["dataset"], 1.0)
            box = AuditBox(
                row["dataset"], row["file"], (x0 * sx, y0, x1 * sx, y1), row["verdict"], row["note"] or ""
            )
            out.setdefault((box.dataset, box.file), []).append(box)
    return out


def apply_audit(labels: list[Label], audited: list[AuditBox]) -> list[Label]:
    """A picture's labels with its audit applied: each ``bad_label`` row removes the published label
    it copies, and each ``tile``/``back`` box is added as a label of :data:`UNKNOWN_FACE` (a tile
    for the box metrics, no code for the reader's). Other verdicts change nothing: a box judged
    ``part``, ``side``, ``clutter`` or ``double`` stays on no label."""
    bad = [a.box for a in audited if a.verdict == "bad_label"]
    kept = [lab for lab in labels if all(iou(lab.box, b) < SAME_LABEL_IOU for b in bad)]
    return kept + [Label(UNKNOWN_FACE, a.box) for a in audited if a.verdict in AUDITED_TILES]


def dhash(image: np.ndarray) -> int:
    """64-bit difference hash of a picture (grey, 9x8)."""
    g = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (9, 8), interpolation=cv2.INTER_AREA)
    bits = (g[:, 1:] > g[:, :-1]).flatten()
    return int("".join("1" if b else "0" for b in bits), 2)


def hashes(image: np.ndarray) -> list[int]:
    """The hashes of a picture as published and mirrored or turned, as Roboflow's copies are."""
    views = [image, image[:, ::-1]]
    views += [np.rot90(v, k) for v in views[:2] for k in (1, 2, 3)]
    return [dhash(np.ascontiguousarray(v)) for v in views]


def _groups(items: list[RealPhoto], hash_of: dict[Path, list[int]]) -> dict[Path, int]:
    """Union-find over same source name or near-identical picture: photo → group id."""
    groups = Linked(len(items))
    by_source: dict[tuple[str, str], int] = {}
    for i, p in enumerate(items):
        key = (p.dataset, p.source)
        if key in by_source:
            groups.link(i, by_source[key])
        else:
            by_source[key] = i
    first = [hash_of[p.path][0] for p in items]
    for i, p in enumerate(items):
        hs = hash_of[p.path]
        for j in range(i):
            if items[j].dataset == p.dataset and any(
                bin(h ^ first[j]).count("1") <= DUPLICATE_BITS for h in hs
            ):
                groups.link(i, j)
    return {p.path: groups.find(i) for i, p in enumerate(items)}


def assign_splits(
    items: list[RealPhoto],
    hash_of: dict[Path, list[int]],
    val_fraction: float = 0.15,
    seed: int = 0,
    kept_out: tuple[str, ...] = KEPT_OUT,
) -> dict[Path, str]:
    """photo → ``train`` | ``val`` | ``test`` | ``excluded`` | ``teach`` (see the module doc).

    ``val`` (for choosing thresholds and stopping) is drawn from the Chinese groups published as
    ``valid``; screenshots are trained on but never measured; camera frames near a test frame, and
    Roboflow's augmented training copies of test photos, are ``excluded``; pictures of a
    ``kept_out`` data set that are not test are ``teach``."""
    group = _groups(items, hash_of)
    test_groups = {
        group[p.path]
        for p in items
        if p.published == "test" or (p.dataset == RIICHI and p.published == "valid")
    }
    rng = random.Random(seed)
    valid_groups = sorted(
        {group[p.path] for p in items if p.published == "valid" and p.dataset == CHINESE}
        - test_groups
        - {group[p.path] for p in items if p.is_screenshot}
    )
    val_groups = set(rng.sample(valid_groups, round(len(valid_groups) * val_fraction)))
    test_times = [
        t
        for p in items
        if p.dataset == RIICHI and group[p.path] in test_groups
        if (t := frame_time(p.source))
    ]
    out: dict[Path, str] = {}
    for p in items:
        g = group[p.path]
        if g in test_groups and p.dataset == CHINESE and p.published == "train":
            # Roboflow's augmented training copies of a test photo (turned, sheared): never trained
            # on, and not measured either, because the augmentation loosened or shifted their boxes
            # (the label audit found 87 of 106 false boxes there); the original stays in test
            out[p.path] = "excluded"
        elif g in test_groups:
            out[p.path] = "test"
        elif p.dataset in kept_out:
            out[p.path] = "teach"
        elif p.dataset == RIICHI and any(
            abs(((frame_time(p.source) or t) - t).total_seconds()) < FRAME_GAP_S for t in test_times
        ):
            out[p.path] = "excluded"
        elif g in val_groups:
            out[p.path] = "val"
        else:
            out[p.path] = "train"
    return out
