#!/usr/bin/env python3
"""Pack what a training run on the lent accelerator needs into one ignored folder (``.devpack/``).

    .venv/bin/python scripts/device_pack.py --scenes data/dev-scenes/det --crops data/dev-scenes/cls

A run on the accelerator (``scripts/device_run.py``) gets the working tree plus the folders the
``run`` tool's ``carry`` names, 64 MiB in all, and nothing from ``../shared`` or a registry. The
tree itself (its tracked and untracked-not-ignored files: the shipped models and checkpoints are
most of it) travels anyway, so the pack may hold at most what it leaves: 64 MiB less the tree less
:data:`MARGIN`, and never more than :data:`CEILING` (56 MiB). The limit is enforced here, by
bytes written, and the pack is refused (and removed) when even its fixed part does not fit.

What it holds (``manifest.json`` lists every part, the mix, and what was left out and why):

- ``det/``: the detector's training set: the real training photos (``models/real-split.csv``,
  split ``train``; the ``val`` split as validation, the label audit applied), re-encoded to fit,
  and generated scenes (``--scenes``: the generator's seat views of automatic tables, close-ups,
  far rows, blank white dragons and backs). The real photos are re-framed on the accelerator
  (``scripts/pack_reframe.py``: issue 33's scene variants, ``mjsynth.photo_variants``: row crops,
  far views, seat views, turns), which costs no bytes.
- ``reader/crops.npz``: the reader's crops as WebP bytes in one uint8 array (``encoded`` with
  ``offsets``), their ``label`` (index in ``READER_CLASSES``), ``upside`` (1/0, -1 unknown) and
  ``kind`` (how the trainer treats them: camerash, scene, none, synthetic); classes drawn in
  turn so that every class is in however few crops fit.
- ``wheels/``: pinned wheels of what the accelerator lacks (:data:`WHEELS`).

Nothing of the test splits, the camera frames or camerash's test fold goes in: what the pack
trains must stay measurable on them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "datasets", ROOT / "scripts"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names
from pack_reframe import RECIPE, Label, read_yolo, yolo_text  # noqa: E402
from reader_items import CAMERASH, REAL_CROPS, camerash_items, folder_items, none_items, real_scene_items  # noqa: E402

from mahjong_camera_scorer.mjsynth.realphotos import (  # noqa: E402
    RealPhoto,
    apply_audit,
    load_picture,
    read_audit,
    read_labels,
)
from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES  # noqa: E402

MIB = 1 << 20
#: what the device tool carries in all: the working tree plus the carried folders
CARRY_LIMIT = 64 * MIB
#: the most a pack may hold whatever the tree (issue 34)
CEILING = 56 * MIB
#: room kept free under the carry limit: files the tree gains before the run, a run's own notes
MARGIN = 1 * MIB
#: What one file costs the carry beyond its bytes. The run tool counts more than the files' bytes:
#: on 2026-11-27 it refused a tree of 43.75 MiB and a pack of 19.38 MiB (2,520 files, 63.1 MiB)
#: and carried 43.75 + 17.63 MiB (~2,400 files, 61.4 MiB) and 33.0 + 26.8 MiB. A tar-like
#: record per file (a 512-byte header, the last block padded) fits all three: 1 KiB a file.
FILE_COST = 1024
#: the folder the pack is written to, relative to the checkout (ignored by git: .gitignore)
PACK = ".devpack"
SHARED = ROOT.parent / "shared"
REAL = SHARED / "data" / "real"
AUDIT_CSV = ROOT / "models" / "real-audit.csv"
SPLIT_CSV = ROOT / "models" / "real-split.csv"
#: What the accelerator lacks, pinned to the versions the CPU training venv trains with (KINDS.md:
#: it has torch, torchvision, onnx, onnxruntime, opencv-python-headless, numpy, pillow, pyyaml,
#: matplotlib, psutil, requests, httpx, sympy, nvidia-ml-py, no ultralytics). ultralytics also
#: requires polars (a ~40 MB wheel): training does without it (train_detector.results_without_polars).
WHEELS = (
    "ultralytics==8.4.190",
    "ultralytics-thop==2.2.3",
    "ultralytics-platform==0.1.99",
    "onnxslim==0.1.98",
)
#: How the pack's limit is shared once the wheels are in: the reader's crops, then the
#: detector's real photos (of what is left), the generated scenes the rest.
READER_SHARE = 0.2
REAL_SHARE = 0.6
#: The reader's crop kinds, in the order they are packed, and each one's share of the reader's
#: bytes (camerash's train fold first and whole: few, and the real faces the reader must read).
CROP_SHARES = {"camerash": 0.15, "scene": 0.35, "none": 0.1, "synthetic": 0.4}
#: Every picture is WebP: measured on 40 real training photos at 512 px, 22 KB at quality 75
#: against 37 KB for JPEG (mean error 2.5 and 2.2 grey levels); ultralytics and OpenCV read it.
#: Encodings tried for the real photos, best first (long side px, quality): the first whose
#: estimated total fits the real photos' share is used for all of them.
REAL_LADDER = ((640, 80), (640, 70), (576, 70), (512, 75), (512, 65), (448, 65), (384, 60))
SCENE_ENCODING = (640, 70)
CROP_QUALITY = 85
EXT = ".webp"


class PackError(Exception):
    """The pack cannot be made as asked (one line for the user)."""


# --------------------------------------------------------------------------------------- budget
def tree_bytes(root: Path = ROOT) -> int:
    """What the run tool sends besides the carried folders: tracked and untracked-not-ignored
    files, each with its :data:`FILE_COST`."""
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise PackError(f"cannot list the working tree with git ({exc})") from None
    total = 0
    for name in out.decode("utf-8", "surrogateescape").split("\0"):
        p = root / name
        if name and p.is_file() and not p.is_symlink():
            total += p.stat().st_size + FILE_COST
    return total


def pack_limit(tree: int, asked: int | None = None) -> int:
    """The most the pack may hold beside a tree of ``tree`` bytes; ``asked`` may only lower it."""
    cap = min(CEILING, CARRY_LIMIT - tree - MARGIN)
    if cap <= 0:
        raise PackError(
            f"the working tree alone ({tree / MIB:.1f} MiB) leaves no room under the 64 MiB a run carries"
        )
    if asked is not None and asked > cap:
        raise PackError(
            f"--limit-mib {asked / MIB:.1f} is more than a run can carry beside this tree "
            f"({cap / MIB:.1f} MiB: 64 MiB less {tree / MIB:.1f} MiB of tree less {MARGIN / MIB:.0f} MiB)"
        )
    return asked if asked is not None else cap


def folder_bytes(folder: Path) -> int:
    """A folder's cost to the carry: its files' bytes, each with its :data:`FILE_COST`."""
    return sum(p.stat().st_size + FILE_COST for p in folder.rglob("*") if p.is_file())


def check_size(folder: Path, limit: int) -> int:
    """The pack's size; :class:`PackError` when it is over ``limit`` (the last guard)."""
    size = folder_bytes(folder)
    if size > limit:
        raise PackError(f"the pack {folder} holds {size / MIB:.2f} MiB, more than its {limit / MIB:.2f} MiB")
    return size


class Budget:
    """Bytes left to one part of the pack; what does not fit is counted as left out. After
    :data:`Budget.GIVE_UP` refusals in a row the part is full: the rest is left out unencoded."""

    GIVE_UP = 20

    def __init__(self, name: str, limit: int) -> None:
        self.name, self.limit, self.used, self.refused, self.misses = name, max(0, limit), 0, 0, 0

    def take(self, n: int) -> bool:
        if self.used + n > self.limit:
            self.refused += 1
            self.misses += 1
            return False
        self.used += n
        self.misses = 0
        return True

    def full(self) -> bool:
        """True (and one more item counted as left out) once nothing has fitted for a while."""
        if self.misses >= self.GIVE_UP:
            self.refused += 1
            return True
        return False

    @property
    def left(self) -> int:
        return self.limit - self.used


# ----------------------------------------------------------------------------------------- parts
def encode(image: np.ndarray, long_side: int, quality: int) -> bytes:
    h, w = image.shape[:2]
    s = long_side / max(h, w)
    if s < 1:
        image = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(EXT, image, [cv2.IMWRITE_WEBP_QUALITY, quality])
    if not ok:
        raise PackError(f"this OpenCV cannot write {EXT}")
    return buf.tobytes()


def spread(items: list, n: int) -> list:
    """``n`` items evenly over ``items`` (the generator's scenes vary with their index)."""
    if n >= len(items):
        return list(items)
    step = len(items) / max(1, n)
    return [items[int(i * step)] for i in range(n)]


def real_split(real: Path, split: str, split_csv: Path = SPLIT_CSV) -> list[RealPhoto]:
    """The real photos of one split of ``models/real-split.csv``."""
    from real_photos import read_split

    return [photo for photo, s in read_split(real, split_csv) if s == split]


def labelled(photo: RealPhoto, audit: dict) -> tuple[str, np.ndarray, list[Label]]:
    """(name in the pack, picture, labels): the label audit applied (a tile it adds is class 0,
    a back class 1, a bad label removed). Loaded one at a time: 649 pictures are 800 MB decoded."""
    image = load_picture(photo)
    h, w = image.shape[:2]
    audited = audit.get((photo.dataset, photo.path.name), [])
    backs = {a.box for a in audited if a.verdict == "back"}
    labels = apply_audit(read_labels(photo, w, h), audited)
    boxes = [(1 if lab.box in backs else 0, *lab.box) for lab in labels]
    return f"real_{photo.dataset[:3]}_{photo.path.stem}", image, boxes


def choose_encoding(photos: list[RealPhoto], budget: int) -> tuple[int, int]:
    """The best rung of :data:`REAL_LADDER` whose size, estimated on up to 24 pictures, fits."""
    sample = [load_picture(p) for p in spread(photos, 24)]
    for side, q in REAL_LADDER:
        each = sum(len(encode(im, side, q)) for im in sample) / max(1, len(sample)) + 2 * FILE_COST
        est = each * len(photos)
        if est <= budget:
            return side, q
    return REAL_LADDER[-1]


def write_det(
    dest: Path,
    split: str,
    items: Iterable[tuple[str, np.ndarray, list]],
    encoding: tuple[int, int],
    budget: Budget,
) -> list[str]:
    """Images and YOLO labels into ``dest/{images,labels}/<split>`` while the budget lasts."""
    img_dir, lab_dir = dest / "images" / split, dest / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    names = []
    for name, image, labels in items:
        if budget.full():
            continue
        data = encode(image, *encoding)
        text = yolo_text(labels, image.shape[1], image.shape[0]).encode()
        if not budget.take(len(data) + len(text) + 2 * FILE_COST):
            continue
        (img_dir / f"{name}{EXT}").write_bytes(data)
        (lab_dir / f"{name}.txt").write_bytes(text)
        names.append(name)
    return names


def scene_items(folder: Path, prefix: str) -> list[tuple[str, Path, Path]]:
    """(name in the pack, image, label file) of a YOLO folder's training split."""
    img_dir = folder / "images" / "train"
    lab_dir = folder / "labels" / "train"
    return [
        (f"{prefix}{p.stem}", p, lab_dir / f"{p.stem}.txt")
        for p in sorted(img_dir.glob("*.jpg"))
        if (lab_dir / f"{p.stem}.txt").is_file()
    ]


def scene_kind(image: Path) -> str:
    """What a generated scene shows, from the generator's manifest beside its set (``kind``, and
    close-up / far row / blank whites), or ``scene`` without one."""
    m = image.parents[3] / "manifests" / f"{image.stem}.json"
    if not m.is_file():
        return "scene"
    d = json.loads(m.read_text())
    parts = [d.get("kind", "scene")]
    parts += [k for k in ("closeup", "far", "eyelevel") if d.get(k)]
    if d.get("blank_white"):
        parts.append("blank-white")
    return "+".join(parts)


def scene_sets(folders: list[Path]) -> list[list[tuple[str, Path, Path]]]:
    """Each folder's scenes, in a seeded random order: a budget cut still keeps their variety."""
    sets = []
    for k, folder in enumerate(folders):
        items = scene_items(folder, f"syn{k}_")
        if not items:
            raise PackError(f"no scenes in {folder} (expected images/train and labels/train)")
        random.Random(k).shuffle(items)
        sets.append(items)
    return sets


def scene_bytes(sets: list[list[tuple[str, Path, Path]]]) -> int:
    """What every scene would take in the pack, estimated on up to 12 of each set."""
    total = 0.0
    for items in sets:
        sample = [cv2.imread(str(img), cv2.IMREAD_COLOR) for _, img, _ in spread(items, 12)]
        sizes = [len(encode(im, *SCENE_ENCODING)) + 2048 for im in sample if im is not None]
        total += sum(sizes) / max(1, len(sizes)) * len(items)
    return int(total)


def pack_scenes(
    dest: Path,
    folders: list[Path],
    sets: list[list[tuple[str, Path, Path]]],
    budget: Budget,
    left: list[dict],
) -> tuple[dict[str, int], Counter]:
    """Generated scenes, each folder an equal share of the budget (what one leaves passes on)."""
    counts: dict[str, int] = {}
    kinds: Counter = Counter()
    for k, (folder, items) in enumerate(zip(folders, sets, strict=True)):
        share = Budget(str(folder), budget.left // (len(folders) - k))
        order = items

        def loaded(order: list = order) -> Iterable[tuple[str, np.ndarray, list]]:
            for name, img, lab in order:
                image = cv2.imread(str(img), cv2.IMREAD_COLOR)
                if image is None:
                    continue
                h, w = image.shape[:2]
                yield name, image, read_yolo(lab.read_text(), w, h)

        names = set(write_det(dest, "train", loaded(), SCENE_ENCODING, share))
        budget.used += share.used
        counts[str(folder)] = len(names)
        kinds.update(scene_kind(img) for name, img, _ in items if name in names)
        if share.refused:
            left.append({"what": f"generated scenes of {folder}", "count": share.refused, "why": "budget"})
    return counts, kinds


def crop_bytes(path: Path, kind: str) -> bytes | None:
    """A crop as the pack keeps it: camerash's tight tiles at 128 px (the trainer frames them
    itself), every other crop (already framed as at run time) at 96 px."""
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        return None
    return encode(image, 96 if kind != "camerash" else 128, CROP_QUALITY)


def balanced(items: list[tuple[Path, int, float]], seed: int) -> list[tuple[Path, int, float]]:
    """Items ordered class by class in turn (each class shuffled), so a budget cut keeps every class."""
    by: dict[int, list] = defaultdict(list)
    for it in items:
        by[it[1]].append(it)
    rng = random.Random(seed)
    for v in by.values():
        rng.shuffle(v)
    out, k = [], 0
    while any(k < len(v) for v in by.values()):
        out += [v[k] for _, v in sorted(by.items()) if k < len(v)]
        k += 1
    return out


def pack_crops(
    dest: Path,
    sources: dict[str, list[tuple[Path, int, float]]],
    budget: Budget,
    left: list[dict],
) -> dict[str, dict]:
    """The reader's crops into one npz, each kind its share of the budget (unspent share passes on)."""
    blobs: list[bytes] = []
    labels, upside, kinds = [], [], []
    summary: dict[str, dict] = {}
    order = [k for k in CROP_SHARES if sources.get(k)]
    for i, kind in enumerate(order):
        rest = sum(CROP_SHARES[k] for k in order[i:])
        share = Budget(kind, int(budget.left * CROP_SHARES[kind] / rest))
        items = sources[kind] if kind == "camerash" else balanced(sources[kind], i)
        n0 = len(blobs)
        for path, label, up in items:
            if share.full():
                continue
            data = crop_bytes(path, kind)
            if data is None or not share.take(len(data) + 8):
                continue
            blobs.append(data)
            labels.append(label)
            upside.append(up)
            kinds.append(order.index(kind))
        budget.used += share.used
        got = Counter(READER_CLASSES[c] for c in labels[n0:])
        summary[kind] = {"available": len(items), "packed": len(blobs) - n0, "classes": len(got)}
        if share.refused:
            left.append({"what": f"reader crops ({kind})", "count": share.refused, "why": "budget"})
    dest.mkdir(parents=True, exist_ok=True)
    offsets = np.cumsum([0] + [len(b) for b in blobs]).astype(np.int64)
    np.savez_compressed(
        dest / "crops.npz",
        encoded=np.frombuffer(b"".join(blobs), np.uint8) if blobs else np.zeros(0, np.uint8),
        format=np.asarray(EXT),
        offsets=offsets,
        label=np.asarray(labels, np.int16),
        upside=np.asarray(upside, np.float32),
        kind=np.asarray(kinds, np.uint8),
        kinds=np.asarray(order),
        classes=np.asarray(READER_CLASSES),
    )
    return summary


def crop_sources(args: argparse.Namespace) -> dict[str, list[tuple[Path, int, float]]]:
    """Where the reader's crops come from: camerash's train fold (tight real tiles), the real
    training photos' labelled tiles and not-a-tile crops (``scripts/real_photos.py``), the
    generator's crops (``--crops``: backs, blank whites, every set's faces)."""
    out: dict[str, list[tuple[Path, int, float]]] = {}
    out["camerash"] = [(p, c, 0.0) for p, c in camerash_items("train", camerash=args.camerash)]
    if args.real_crops.is_dir():
        out["scene"] = real_scene_items(args.real_crops)
        out["none"] = [(p, READER_CLASSES.index(NOT_A_TILE), -1.0) for p in none_items(args.real_crops)]
    out["synthetic"] = [
        it
        for root in args.crops
        for it in folder_items(root / "train" if (root / "train").is_dir() else root)
    ]
    return out


# ------------------------------------------------------------------------------------------ main
def fetch_wheels(dest: Path, source: Path | None) -> list[str]:
    """The pinned wheels: copied from ``source``, or downloaded for the accelerator (Python 3.12,
    x86-64 Linux; these are pure Python wheels) when no folder is given."""
    dest.mkdir(parents=True, exist_ok=True)
    if source is not None:
        found = sorted(source.glob("*.whl"))
        if not found:
            raise PackError(f"no wheels in {source}")
        for whl in found:
            shutil.copyfile(whl, dest / whl.name)
    else:
        cmd = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--python-version", "3.12", "--implementation", "cp",
            "--platform", "manylinux2014_x86_64", "--platform", "manylinux_2_17_x86_64",
            "-d", str(dest), *WHEELS,
        ]  # fmt: skip
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode:
            tail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["?"]
            raise PackError(
                f"pip could not download the wheels ({tail[0]}); pass --wheels DIR or --no-wheels"
            )
    return sorted(p.name for p in dest.glob("*.whl"))


def clear(out: Path) -> None:
    """Remove an earlier pack; refuse a folder that is not one (never delete a user's files)."""
    if not out.exists():
        return
    if not out.is_dir() or (any(out.iterdir()) and not (out / "manifest.json").is_file()):
        raise PackError(f"{out} exists and is not a pack (no manifest.json): choose another --out")
    shutil.rmtree(out)


def git_head() -> str:
    run = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return run.stdout.strip()


def ignored_here(out: Path) -> bool:
    """Is ``out`` outside the checkout, or ignored by git? A pack git does not ignore would
    travel twice (in the tree and carried) and be one ``git add`` from being committed."""
    try:
        out.resolve().relative_to(ROOT)
    except ValueError:
        return True
    run = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", str(out.resolve())])
    return run.returncode == 0


def build(args: argparse.Namespace) -> dict:
    """Write the pack; on any :class:`PackError` after the folder is made, remove it again."""
    if not ignored_here(args.out):
        raise PackError(f"{args.out} is inside the checkout and not ignored by git: add it to .gitignore")
    tree = tree_bytes()
    limit = pack_limit(tree, None if args.limit_mib is None else int(args.limit_mib * MIB))
    clear(args.out)
    args.out.mkdir(parents=True)
    try:
        return fill(args, tree, limit)
    except PackError:
        shutil.rmtree(args.out, ignore_errors=True)  # a half-made pack is no pack
        raise


def fill(args: argparse.Namespace, tree: int, limit: int) -> dict:
    out: Path = args.out
    left: list[dict] = []
    total = Budget("pack", limit - min(16 * 1024, limit // 10))  # the manifest's room
    wheels = [] if args.no_wheels else fetch_wheels(out / "wheels", args.wheels)
    if not total.take(folder_bytes(out)):
        raise PackError(
            f"the wheels alone ({folder_bytes(out) / MIB:.2f} MiB) exceed the pack's {limit / MIB:.2f} MiB"
        )

    reader = Budget("reader", int(total.left * args.reader_share))
    crops = pack_crops(out / "reader", crop_sources(args), reader, left)
    total.used += reader.used

    if not args.real.is_dir():
        raise PackError(f"no real photos at {args.real} (the shared folder beside the checkout)")
    train, val = (real_split(args.real, split, args.real_split) for split in ("train", "val"))
    audit = read_audit(args.audit)
    # the scenes get what they need up to their share, the real photos the rest (better encoded)
    sets = scene_sets(args.scenes)
    scene_room = min(scene_bytes(sets), int(total.left * (1 - args.real_share))) if sets else 0
    real_budget = Budget("real", total.left - scene_room)
    encoding = choose_encoding(train + val, real_budget.limit)
    val_names = write_det(out / "det", "val", (labelled(p, audit) for p in val), encoding, real_budget)
    train_names = write_det(out / "det", "train", (labelled(p, audit) for p in train), encoding, real_budget)
    total.used += real_budget.used
    if real_budget.refused:
        left.append({"what": "real photos", "count": real_budget.refused, "why": "budget"})

    scenes = Budget("scenes", total.left)
    scene_counts, kinds = pack_scenes(out / "det", args.scenes, sets, scenes, left)
    total.used += scenes.used

    manifest = {
        "format": 1,
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": git_head(),
        "limit_bytes": limit,
        "tree_bytes": tree,
        "wheels": wheels,
        "detector": {
            "train": {
                "real photos": len(train_names),
                **{f"generated {k}": v for k, v in scene_counts.items()},
            },
            "val": {"real photos": len(val_names)},
            "real encoding": {"long side": encoding[0], "quality": encoding[1], "format": EXT},
            "generated kinds": dict(sorted(kinds.items())),
            "reframed on the accelerator, per real training photo": RECIPE,
        },
        "reader": crops,
        "left_out": [
            *left,
            {"what": "real photos of the splits test, teach, excluded", "why": "measured, never trained on"},
            {"what": "camerash test fold, camerash-pr4", "why": "measured, never trained on"},
        ],
        "serves": "issue 33: seat views (generated automatic tables, seat-view warps of the real photos), "
        "tight crops (row crops, generated close-ups), far rows (far views, generated far rows), faceless "
        "tiles (generated blank whites and backs; the reader's back and blank-white crops)",
    }
    manifest["bytes"] = 0
    for _ in range(3):  # the manifest counts itself: write until its own size stops moving
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")
        size = check_size(out, limit)
        if size == manifest["bytes"]:
            break
        manifest["bytes"] = size
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / PACK)
    ap.add_argument("--real", type=Path, default=REAL, help="the labelled real photos (../shared/data/real)")
    ap.add_argument("--real-split", type=Path, default=SPLIT_CSV, help="which real photo is in which split")
    ap.add_argument("--audit", type=Path, default=AUDIT_CSV, help="the real photos' label audit")
    ap.add_argument("--scenes", type=Path, nargs="*", default=[], help="YOLO folders of generated scenes")
    ap.add_argument("--crops", type=Path, nargs="*", default=[], help="the generator's crop sets (OUT/cls)")
    ap.add_argument("--real-crops", type=Path, default=REAL_CROPS, help="scripts/real_photos.py's crops")
    ap.add_argument("--camerash", type=Path, default=CAMERASH, help="camerash (its train fold's crops)")
    ap.add_argument("--wheels", type=Path, help="a folder of the pinned wheels (default: pip download them)")
    ap.add_argument(
        "--no-wheels", action="store_true", help="no wheels (a rehearsal where ultralytics is installed)"
    )
    ap.add_argument("--limit-mib", type=float, help="a lower limit than what the tree leaves (MiB)")
    ap.add_argument("--reader-share", type=float, default=READER_SHARE, help="the reader's crops' share")
    ap.add_argument(
        "--real-share", type=float, default=REAL_SHARE, help="the real photos' share of the detector's"
    )
    args = ap.parse_args(argv)
    try:
        m = build(args)
    except PackError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    det = m["detector"]
    print(
        f"pack {args.out}: {m['bytes'] / MIB:.1f} MiB of {m['limit_bytes'] / MIB:.1f} MiB "
        f"(tree {m['tree_bytes'] / MIB:.1f} MiB); detector train {det['train']}, val {det['val']}; "
        f"reader {m['reader']}; wheels {len(m['wheels'])}; left out {m['left_out'][:-2]}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
