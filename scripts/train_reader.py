#!/usr/bin/env python3
"""Train the tile reader: a small two-head CNN on tile crops, exported to ``models/reader.onnx``.

Why a hand-written CNN rather than ``yolo11n-cls``: the reader must also say whether a tile is
upside down (a second head), and ultralytics' classify augmentation (random-resized crops down
to 8 % of the image, mirror flips) destroys what tells tiles apart; here every augmentation is
one a camera can produce: 180° turns (with the upside-down label), small perspective, scale and
shift, the 8 % box padding with table around it, blur, JPEG, brightness/contrast/saturation and a
hue shift of a few degrees at most, so red fives stay red. No greyscale anywhere.

Data: the synthetic crop set (folders named by class code, cut with :func:`vision.crops.crop_tile`)
and the real camerash crops of the *train* fold of ``models/camerash-split.csv`` (prepared with
:func:`vision.crops.prepare_tile_image`), oversampled because real tiles are what the reader
must get right. Fully offline, CPU, resumable (``runs/reader/last.pt``), progress on stdout.

    .venv-train/bin/python scripts/train_reader.py --synth data/synth/cls --epochs 25
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

import _offline_torch  # noqa: F401 - must come before torch-dependent imports
import cv2
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, RandomSampler

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "datasets"))  # mjsynth, where the checkout is not installed (the accelerator)
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

# the crop lists live in a torch-free module (device_pack.py reads them too); re-exported here
from reader_items import (  # noqa: E402, F401
    CAMERASH,
    IMG_EXT,
    REAL_CROPS,
    SPLIT,
    UNKNOWN,
    camerash_items,
    folder_items,
    grid_items,
    none_items,
    real_scene_items,
)

from mahjong_camera_scorer.mjsynth.recolour import RED_OF, redden  # noqa: E402
from mahjong_camera_scorer.vision.classes import BACK, NOT_A_TILE, READER_CLASSES, TILE_CLASSES  # noqa: E402
from mahjong_camera_scorer.vision.crops import CROP_SIZE, PAD_VALUE, letterbox, prepare_tile_image  # noqa: E402


# ------------------------------------------------------------------------------------------ model
def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class TileReader(nn.Module):
    """~0.3 M parameters, ~25 MFLOPs at 96 px: strided conv stages 16-32-64-128, two linear heads.

    Sized for training on two shared CPU cores (~80 crops/s there); a deeper 65-MFLOP variant
    trained at a sixth of that speed.
    """

    def __init__(self, n_classes: int = len(READER_CLASSES), pool: tuple[int, int] = (1, 1)) -> None:
        super().__init__()
        # pool (3, 2) keeps where on the face a stroke is (a character tile's numeral on top,
        # 萬 below): 768 features instead of 128, the same convolutions
        self.pool = tuple(pool)
        feat = 128 * pool[0] * pool[1]
        self.features = nn.Sequential(
            _conv(3, 16, 2),
            _conv(16, 32, 2),
            _conv(32, 32),
            _conv(32, 64, 2),
            _conv(64, 64),
            _conv(64, 128, 2),
            _conv(128, 128),
            nn.AdaptiveAvgPool2d(pool),
            nn.Flatten(),
            nn.Dropout(0.1),
        )
        self.tile = nn.Linear(feat, n_classes)
        self.upside_down = nn.Linear(feat, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(x)
        return self.tile(f), self.upside_down(f)


class ExportedReader(nn.Module):
    """The reader as exported: both heads plus the pooled features (eval mode: no dropout), which
    a taught tile set compares crops in (``mahjong-score teach``)."""

    def __init__(self, reader: TileReader) -> None:
        super().__init__()
        self.reader = reader

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = self.reader.features(x)
        return self.reader.tile(f), self.reader.upside_down(f), f


# ------------------------------------------------------------------------------------------- data
#: Tile back colours (BGR) seen on real sets: the body side of a face-up tile, and face-down tiles.
BACK_COLOURS = (
    (60, 120, 30),
    (40, 80, 20),
    (150, 80, 20),
    (200, 150, 80),
    (40, 180, 220),
    (30, 110, 225),
    (30, 28, 28),
    (225, 232, 235),
    (40, 40, 170),
    (150, 120, 225),
)


def face_items(root: Path) -> list[tuple[Path, int]]:
    """Flat tile faces ``root/<style>/<code>.png`` (the generator's artwork cache), plus one
    ``back`` item per style (drawn on the fly from :data:`BACK_COLOURS`)."""
    items: list[tuple[Path, int]] = []
    if not root.is_dir():
        return items
    for style in sorted(p for p in root.iterdir() if p.is_dir()):
        faces = [f for f in sorted(style.glob("*.png")) if f.stem in TILE_CLASSES]
        items += [(f, TILE_CLASSES.index(f.stem)) for f in faces]
        if faces:
            items.append((style / "back.png", TILE_CLASSES.index(BACK)))
    return items


def boosted_faces(faces: list[tuple[Path, int]], boosts: list[str]) -> list[tuple[Path, int, int]]:
    """Faces drawn more often than ``--face-repeat`` says: ``STYLE_PREFIX:CODE,CODE=N`` gives each
    face of those codes in the styles whose name starts with the prefix N more draws. A design that
    only a few faces show (the pictorial dragons of ``mjsynth.beasts``: two codes in three styles,
    6 of about 1,100 faces) is otherwise drawn about 20 times in a whole fine-tune, too few to be
    learnt."""
    out = []
    for spec in boosts:
        try:
            where, n = spec.rsplit("=", 1)
            prefix, codes = where.split(":", 1)
            extra = int(n)
        except ValueError:
            raise SystemExit(f"error: --boost {spec!r}: expected STYLE_PREFIX:CODE[,CODE...]=N") from None
        wanted = {TILE_CLASSES.index(c) for c in codes.split(",") if c in TILE_CLASSES}
        if len(wanted) != len(codes.split(",")):
            raise SystemExit(f"error: --boost {spec!r}: unknown tile code in {codes!r}")
        out += [(p, c, extra) for p, c in faces if p.parent.name.startswith(prefix) and c in wanted]
    return out


def _tile_from_face(face: np.ndarray | None, rng: random.Random) -> np.ndarray:
    """A face as a camera sees a tile: ivory rim, the coloured body showing at one edge, table around."""
    back = np.array(rng.choice(BACK_COLOURS), np.float32)
    if face is None:  # a face-down tile: the back colour with a soft sheen
        h, w = 192, 144
        yy = np.linspace(0.85, 1.1, h, dtype=np.float32)[:, None, None] * rng.uniform(0.8, 1.1)
        face = np.clip(np.ones((h, w, 3), np.float32) * back * yy, 0, 255).astype(np.uint8)
    h, w = face.shape[:2]
    rim = int(w * rng.uniform(0.0, 0.07))
    ivory = [int(c * rng.uniform(0.85, 1.0)) for c in (222, 236, 242)]
    tile = cv2.copyMakeBorder(face, rim, rim, rim, rim, cv2.BORDER_CONSTANT, value=ivory)
    side = int(tile.shape[0] * rng.uniform(0.0, 0.25))  # the tile's thickness, seen from above at an angle
    if side:
        body = np.empty((side, tile.shape[1], 3), np.uint8)
        split = int(side * rng.uniform(0.3, 0.7))
        body[:split] = ivory
        body[split:] = np.clip(back * rng.uniform(0.6, 1.0), 0, 255).astype(np.uint8)
        tile = np.vstack([tile, body]) if rng.random() < 0.8 else np.vstack([body[::-1], tile])
    return tile


def _colour(img: np.ndarray, rng: random.Random) -> np.ndarray:
    """Brightness/contrast/saturation jitter and a hue shift of at most ~6°: red stays red."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 0] = (hsv[..., 0] + rng.uniform(-3, 3)) % 180
    hsv[..., 1] *= rng.uniform(0.6, 1.3)
    hsv[..., 2] *= rng.uniform(0.6, 1.25)
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    c = rng.uniform(0.75, 1.25)
    out = (out - out.mean()) * c + out.mean() + rng.uniform(-15, 15)
    # white balance: a warm or cool cast, as under room light
    out *= np.array([rng.uniform(0.9, 1.1), 1.0, rng.uniform(0.9, 1.1)], np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _geometry(img: np.ndarray, rng: random.Random, strength: float) -> np.ndarray:
    """Small perspective warp, rotation, scale and shift, padded with the letterbox grey."""
    s = img.shape[0]
    d = strength * s
    src = np.float32([[0, 0], [s, 0], [s, s], [0, s]])
    dst = src + np.float32([[rng.uniform(-d, d), rng.uniform(-d, d)] for _ in range(4)])
    m = cv2.getPerspectiveTransform(src, dst)
    ang = rng.uniform(-6, 6) * strength / 0.06
    sc = rng.uniform(0.88, 1.08)
    r = cv2.getRotationMatrix2D((s / 2 + rng.uniform(-d, d), s / 2 + rng.uniform(-d, d)), ang, sc)
    m = np.vstack([r, [0, 0, 1]]) @ m
    return cv2.warpPerspective(img, m, (s, s), borderMode=cv2.BORDER_CONSTANT, borderValue=PAD_VALUE)


def _degrade(img: np.ndarray, rng: random.Random) -> np.ndarray:
    if rng.random() < 0.35:  # low resolution: the tile was small in the photo
        f = rng.uniform(0.3, 0.7)
        s = img.shape[0]
        img = cv2.resize(cv2.resize(img, (max(8, int(s * f)),) * 2, interpolation=cv2.INTER_AREA), (s, s))
    if rng.random() < 0.3:
        k = rng.choice([3, 5])
        img = cv2.GaussianBlur(img, (k, k), 0)
    if rng.random() < 0.3:
        noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 8), img.shape)
        img = np.clip(img.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(35, 90)])
        if ok:
            img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def _real_framing(tile: np.ndarray, rng: random.Random) -> np.ndarray:
    """A tightly cut real tile, framed like a detector crop: up to ~14 % of table around it."""
    h, w = tile.shape[:2]
    px, py = int(w * rng.uniform(0.0, 0.14)), int(h * rng.uniform(0.0, 0.14))
    colour = [rng.randint(20, 200) for _ in range(3)]
    framed = cv2.copyMakeBorder(tile, py, py, px, px, cv2.BORDER_CONSTANT, value=colour)
    # a detector box is never exact: cut a few % off or on at random sides
    H, W = framed.shape[:2]
    x0, x1 = int(W * rng.uniform(0, 0.04)), W - int(W * rng.uniform(0, 0.04))
    y0, y1 = int(H * rng.uniform(0, 0.04)), H - int(H * rng.uniform(0, 0.04))
    return letterbox(framed[y0:y1, x0:x1], CROP_SIZE)


class TileCrops(Dataset):
    """Items are (path, class); ``real`` items get real-photo framing; all get camera augmentations."""

    def __init__(self, items: list[tuple[Path, int, bool, bool]], train: bool, seed: int = 0) -> None:
        self.items, self.train, self.seed, self.epoch = items, train, seed, 0

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i: int) -> tuple[torch.Tensor, int, float]:
        path, label, real, flip = self.items[i]
        flip = float(flip)
        rng = random.Random((self.seed * 1_000_003 + self.epoch) * 10_000_019 + i) if self.train else None
        if real == "face":
            face = None if label == TILE_CLASSES.index(BACK) else cv2.imread(str(path), cv2.IMREAD_COLOR)
            img = _real_framing(_tile_from_face(face, rng or random.Random(i)), rng or random.Random(i))
            real = False
        else:
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if real == "red" and img is not None:
            img = redden(img, rng or random.Random(i))
            real = True
        if img is None:
            raise RuntimeError(f"unreadable crop {path}")
        if real in ("scene", "grid"):  # already cut from a photo as at run time
            real = True
            if img.shape[0] != CROP_SIZE or img.shape[1] != CROP_SIZE:
                img = letterbox(img, CROP_SIZE)
        elif real:
            img = _real_framing(img, rng) if rng else prepare_tile_image(img, CROP_SIZE)
        elif img.shape[0] != CROP_SIZE or img.shape[1] != CROP_SIZE:
            img = letterbox(img, CROP_SIZE)
        if rng:
            img = _geometry(img, rng, 0.06 if real else 0.04)
            img = _colour(img, rng)
            img = _degrade(img, rng)
            if rng.random() < 0.5:
                img, flip = cv2.rotate(img, cv2.ROTATE_180), (1.0 - flip if flip >= 0 else UNKNOWN)
        x = torch.from_numpy(np.ascontiguousarray(img[:, :, ::-1].transpose(2, 0, 1))).float() / 255.0
        return x, label, flip


# ---------------------------------------------------------------------------------------- training
def build_items(args: argparse.Namespace) -> tuple[list, list]:
    synth: list[tuple[Path, int, float]] = []
    val: list[tuple[Path, int, float]] = []
    for root in map(Path, args.synth):
        if not root.is_dir():
            print(f"warning: no crop set at {root}", flush=True)
            continue
        synth += folder_items(root / "train" if (root / "train").is_dir() else root)
        if (root / "val").is_dir():
            val += folder_items(root / "val")
    real = camerash_items(
        args.camerash, Path(args.camerash_split), Path(args.camerash_root), leave_out=args.leave_out
    )
    # red fives with real-photo texture: the train fold's plain fives repainted (mjsynth.recolour)
    reds = [(p, TILE_CLASSES.index(RED_OF[TILE_CLASSES[c]])) for p, c in real if TILE_CLASSES[c] in RED_OF]
    if args.max_synth and len(synth) > args.max_synth:
        synth = random.Random(0).sample(synth, args.max_synth)
    faces = face_items(Path(args.faces)) if args.faces else []
    boosted = boosted_faces(faces, args.boost)
    scene = real_scene_items(Path(args.real_crops)) if args.real_crops else []
    negatives = none_items(Path(args.real_crops)) if args.real_crops else []
    grids = grid_items(Path(args.grid_crops), args.leave_out) if args.grid_crops else []
    reframed = real_scene_items(Path(args.reframed_crops)) if args.reframed_crops else []
    none = READER_CLASSES.index(NOT_A_TILE)
    train = (
        [(p, c, False, u) for p, c, u in synth]
        + [(p, c, True, False) for p, c in real] * args.real_repeat
        + [(p, c, "face", False) for p, c in faces] * args.face_repeat
        + [(p, c, "face", False) for p, c, n in boosted for _ in range(n)]
        + [(p, c, "red", False) for p, c in reds] * args.red_repeat
        + [(p, c, "scene", u) for p, c, u in scene] * args.scene_repeat
        + [(p, none, "scene", UNKNOWN) for p in negatives] * args.none_repeat
        + [(p, c, "grid", UNKNOWN) for p, c in grids] * args.grid_repeat
        + [(p, c, "scene", u) for p, c, u in reframed] * args.reframed_repeat
    )
    print(
        f"train: {len(synth)} synthetic crops + {len(real)} real camerash crops x{args.real_repeat} + "
        f"{len(faces)} artwork faces x{args.face_repeat} (+ {len(boosted)} boosted) + {len(reds)} real "
        f"fives repainted red x{args.red_repeat} + {len(scene)} real scene crops x{args.scene_repeat} + "
        f"{len(negatives)} not-a-tile crops x{args.none_repeat} + {len(grids)} grid-photo crops "
        f"x{args.grid_repeat}{f' (set {args.leave_out} left out)' if args.leave_out else ''} + "
        f"{len(reframed)} re-framed real crops x{args.reframed_repeat}; "
        f"val: {len(val)} synthetic",
        flush=True,
    )
    return train, [(p, c, False, u) for p, c, u in val]


def class_counts(items: list[tuple]) -> np.ndarray:
    """How many training items each class has, for the loss weights: the grid-photo crops left
    out. They are a few sets' tiles drawn many times over (``--grid-repeat``) to teach those
    faces; counted, they would make the classes they lack (backs, not-a-tile) look rarer and
    weigh more, and the reader would call more dark clutter a face-down tile."""
    return np.bincount([it[1] for it in items if it[2] != "grid"], minlength=len(READER_CLASSES)).astype(
        np.float32
    )


def evaluate(model: nn.Module, loader: DataLoader, device: torch.device | None = None) -> float:
    model.eval()
    right = total = 0
    with torch.no_grad():
        for x, y, _ in loader:
            right += int((model(x.to(device or "cpu"))[0].argmax(1).cpu() == y).sum())
            total += len(y)
    return right / max(1, total)


def export(model: nn.Module, out: Path, info: dict) -> None:
    """ONNX with the class list, input size and heads in the metadata (opset 17)."""
    import onnx

    model.cpu().eval()  # trained on an accelerator or not, exported from the CPU
    dummy = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        ExportedReader(model).eval(),
        dummy,
        str(out),
        input_names=["crops"],
        output_names=["tile_logits", "upside_down_logit", "features"],
        dynamic_axes={
            "crops": {0: "n"},
            "tile_logits": {0: "n"},
            "upside_down_logit": {0: "n"},
            "features": {0: "n"},
        },
        opset_version=17,
        dynamo=False,
    )
    m = onnx.load(str(out))
    meta = {
        "classes": json.dumps(list(READER_CLASSES[: model.tile.out_features])),
        "imgsz": json.dumps([CROP_SIZE, CROP_SIZE]),
        "task": "classify",
        "input": "RGB float32 NCHW in [0,1], crops from mahjong_camera_scorer.vision.crops",
        "outputs": f"tile_logits (N,{model.tile.out_features}) softmax over classes; upside_down_logit (N,1) "
        "sigmoid; features (N,F) the pooled features both heads read",
        "training": json.dumps(info),
    }
    del m.metadata_props[:]
    for k, v in meta.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(out))
    print(f"exported {out} ({out.stat().st_size / 1e6:.1f} MB)", flush=True)


def pick_device(name: str) -> torch.device:
    """``auto``: the accelerator when torch sees one (scripts/device_run.py), else the CPU."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)


def schedule(it: int, steps: int, elapsed: float, max_seconds: float) -> float:
    """How far the run is, 0..1, for the cosine rate and the stop: by steps, or, with a clock
    budget (``--max-seconds``), by the clock when that is further on. The accelerator's run gets a
    time, not a number of epochs, and must still end its schedule (low rate) before it stops."""
    done = it / max(1, steps)
    if max_seconds > 0:
        done = max(done, elapsed / max_seconds)
    return done


def cpu_state(model: nn.Module) -> dict:
    """The weights on the CPU, so a checkpoint made on an accelerator loads anywhere."""
    return {k: v.detach().cpu() for k, v in model.state_dict().items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--synth",
        nargs="*",
        default=[str(ROOT / "data" / "synth" / "cls")],
        help="classify folder set(s): <dir>/[train/]<code>/*.jpg",
    )
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--real-repeat", type=int, default=8, help="oversampling of the real train crops")
    ap.add_argument(
        "--faces",
        default=str(ROOT / "data" / "cache" / "artwork"),
        help="artwork face cache <dir>/<style>/<code>.png ('' for none)",
    )
    ap.add_argument("--red-repeat", type=int, default=20, help="oversampling of the real fives repainted red")
    ap.add_argument(
        "--init", type=Path, help="start from this checkpoint's weights with a fresh schedule (fine-tune)"
    )
    ap.add_argument("--threads", type=int, default=2, help="torch threads")
    ap.add_argument("--pool", default="1x1", help="final pooling grid, rows x columns (1x1 or 3x2)")
    ap.add_argument("--face-repeat", type=int, default=6, help="oversampling of the artwork faces")
    ap.add_argument(
        "--boost",
        action="append",
        default=[],
        metavar="STYLE_PREFIX:CODES=N",
        help="draw these faces N more times (e.g. proc-beast:6z,7z=60; repeatable)",
    )
    ap.add_argument(
        "--real-crops", default="", help="real scene crops of scripts/real_photos.py (e.g. data/real/cls)"
    )
    ap.add_argument("--scene-repeat", type=int, default=2, help="oversampling of the real scene crops")
    ap.add_argument(
        "--reframed-crops",
        default="",
        help="crops of the re-framed real training photos (make_reframed.py --reader-crops: OUT/cls)",
    )
    ap.add_argument("--reframed-repeat", type=int, default=1, help="oversampling of the re-framed crops")
    ap.add_argument("--none-repeat", type=int, default=3, help="oversampling of the not-a-tile crops")
    ap.add_argument("--max-synth", type=int, default=0, help="cap on synthetic crops (0 = all)")
    ap.add_argument(
        "--camerash",
        choices=("train", "all"),
        default="train",
        help="camerash crops of the train fold only, or of every set (then measure leave-one-set-out)",
    )
    ap.add_argument(
        "--grid-crops", default="", help="crops of the sets' grid photos (scripts/cut_grid_crops.py)"
    )
    ap.add_argument("--grid-repeat", type=int, default=30, help="oversampling of the grid-photo crops")
    ap.add_argument(
        "--camerash-root", default=str(CAMERASH), help="folder holding camerash's tiles-resized/ crops"
    )
    ap.add_argument("--camerash-split", default=str(SPLIT), help="the camerash crops' folds (a CSV)")
    ap.add_argument("--device", default="cpu", help="cpu, cuda or auto (the accelerator when there is one)")
    ap.add_argument(
        "--max-seconds",
        type=float,
        default=0.0,
        help="stop training after this many seconds (the rate schedule follows the clock); 0 = no limit",
    )
    ap.add_argument(
        "--leave-out",
        default="",
        metavar="SET",
        help="train without this set's camerash and grid crops (camerash-<n> or pr4): it stays unseen",
    )
    ap.add_argument(
        "--per-epoch",
        type=int,
        default=16000,
        help="crops drawn (without replacement) per epoch; 0 = the whole set",
    )
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--run", type=Path, default=ROOT / "runs" / "reader")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "reader.onnx")
    ap.add_argument("--resume", action="store_true", help="continue from <run>/last.pt")
    ap.add_argument("--export-only", action="store_true", help="export <run>/last.pt and stop")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    args.run.mkdir(parents=True, exist_ok=True)
    ckpt_path = args.run / "last.pt"
    pool = tuple(int(v) for v in args.pool.split("x"))
    model = TileReader(pool=pool)  # type: ignore[arg-type]
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    start, history, seconds = 0, [], 0.0
    if (args.resume or args.export_only) and ckpt_path.is_file():
        ck = torch.load(ckpt_path, weights_only=False, map_location="cpu")
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        start, history, seconds = ck["epoch"], ck["history"], ck.get("seconds", 0.0)
        print(f"resumed from {ckpt_path} at epoch {start}", flush=True)
    if args.init and start == 0:
        state = torch.load(args.init, weights_only=False, map_location="cpu")["model"]
        own = model.state_dict()
        for k in ("tile.weight", "tile.bias"):  # a head with fewer classes (before ``none``): keep its rows
            if (
                k in state
                and k in own
                and state[k].shape[0] < own[k].shape[0]
                and state[k].shape[1:] == own[k].shape[1:]
            ):
                grown = own[k].clone() * 0.1
                grown[: state[k].shape[0]] = state[k]
                state[k] = grown
        kept = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
        model.load_state_dict(kept, strict=False)
        print(
            f"weights from {args.init} (fine-tuning, fresh schedule): {len(kept)}/{len(own)} tensors",
            flush=True,
        )
    info = {"epochs": start, "seconds": round(seconds), "history": history[-1:] if history else []}
    if args.export_only:
        export(model, args.out, {**info, **vars_json(args)})
        return 0
    train_items, val_items = build_items(args)
    if not train_items:
        print("error: no training crops (run the dataset generator, check ../shared)", file=sys.stderr)
        return 2
    device = pick_device(args.device)
    model.to(device)
    opt.load_state_dict(opt.state_dict())  # a resumed optimizer's state follows the weights' device
    ds = TileCrops(train_items, train=True, seed=args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    n_epoch = min(args.per_epoch, len(ds)) if args.per_epoch else len(ds)
    loader = DataLoader(
        ds,
        batch_size=args.batch,
        num_workers=args.workers,
        drop_last=len(ds) >= args.batch,  # a tiny set (a rehearsal) still gives one batch
        pin_memory=device.type == "cuda",
        sampler=RandomSampler(ds, num_samples=n_epoch, generator=gen),
    )
    val_loader = DataLoader(TileCrops(val_items, train=False), batch_size=128) if val_items else None
    steps = args.epochs * len(loader)
    # back class: weight the loss so the rarer classes (red fives, backs) are not drowned out
    counts = class_counts(train_items)
    weights = torch.tensor(np.clip((counts.mean() / np.maximum(counts, 1)) ** 0.5, 0.5, 3.0)).to(device)
    ce = nn.CrossEntropyLoss(weight=weights, label_smoothing=0.05)
    bce = nn.BCEWithLogitsLoss(reduction="none")
    back = TILE_CLASSES.index(BACK)
    none = READER_CLASSES.index(NOT_A_TILE)
    clock, out_of_time = time.time(), False
    for epoch in range(start, args.epochs):
        ds.epoch = epoch
        gen.manual_seed(args.seed * 7919 + epoch)  # a resumed run draws the same subsets
        model.train()
        t0 = time.time()
        tot = right = n = 0
        for step, (x, y, flip) in enumerate(loader):
            it = epoch * len(loader) + step
            done = schedule(it, steps, time.time() - clock, args.max_seconds)
            if done >= 1.0 and n:  # the clock ran out: keep what this epoch learnt so far
                out_of_time = True
                break
            lr = args.lr * (min(1.0, (it + 1) / 200) * 0.5 * (1 + math.cos(math.pi * min(done, 1.0))))
            for g in opt.param_groups:
                g["lr"] = lr
            x, y, flip = x.to(device, non_blocking=True), y.to(device), flip.to(device)
            logits, ud = model(x)
            # a back or a non-tile has no up or down, nor has a real crop of unknown orientation
            mask = ((y != back) & (y != none) & (flip >= 0)).float()
            loss = ce(logits, y) + 0.3 * (bce(ud.squeeze(1), flip.float().clamp(min=0)) * mask).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item() * len(y)
            right += int((logits.argmax(1) == y).sum())
            n += len(y)
            if step % 20 == 0:
                print(
                    f"  epoch {epoch + 1}/{args.epochs} step {step}/{len(loader)} loss {tot / n:.3f} "
                    f"acc {right / n:.3f} lr {lr:.5f} {n / (time.time() - t0):.0f} img/s",
                    flush=True,
                )
        seconds += time.time() - t0
        val_acc = evaluate(model, val_loader, device) if val_loader else float("nan")
        history.append(
            {
                "epoch": epoch + 1,
                "loss": round(tot / n, 4),
                "train_acc": round(right / n, 4),
                "val_synth_acc": round(val_acc, 4),
                "seconds": round(seconds),
                "crops": n,
            }
        )
        print(
            f"epoch {epoch + 1}/{args.epochs}: loss {tot / n:.3f} train acc {right / n:.3f} "
            f"synthetic val acc {val_acc:.3f} ({time.time() - t0:.0f} s)",
            flush=True,
        )
        torch.save(
            {
                "model": cpu_state(model),
                "opt": opt.state_dict(),
                "epoch": epoch + 1,
                "history": history,
                "seconds": seconds,
            },
            ckpt_path,
        )
        if out_of_time:
            print(f"time is up ({args.max_seconds:.0f} s): stopped in epoch {epoch + 1}", flush=True)
            break
    (args.run / "history.json").write_text(json.dumps(history, indent=1))
    info = {"epochs": len(history), "seconds": round(seconds), "history": history[-1:]}
    export(model, args.out, {**info, **vars_json(args)})
    return 0


def vars_json(args: argparse.Namespace) -> dict:
    return {
        k: (str(v) if isinstance(v, Path) else v)
        for k, v in vars(args).items()
        if k
        in (
            "synth",
            "faces",
            "epochs",
            "batch",
            "lr",
            "real_repeat",
            "face_repeat",
            "boost",
            "max_synth",
            "per_epoch",
            "seed",
            "red_repeat",
            "init",
            "pool",
            "camerash",
            "grid_crops",
            "grid_repeat",
            "leave_out",
        )
    }


if __name__ == "__main__":
    sys.exit(main())
