#!/usr/bin/env python3
"""Train the tile detector (YOLO11n from its YAML, classes ``tile`` and ``back``) and export ONNX.

Recipe measured in ``../shared/TRAINING-NOTES.md``: built from ``yolo11n.yaml`` (no pretrained
weights exist offline), ``amp=False``, CPU, ``optimizer=AdamW, lr0=0.002`` (``auto`` picks a rate
that barely learns on short runs), two dataloader workers via a callback (ultralytics forces 0 on
CPU). Fully offline through :mod:`_offline_torch`. Resumable: ``--resume`` continues
``runs/detector/<name>/weights/last.pt``. The ONNX gets ``classes`` and ``imgsz`` metadata keys on
top of ultralytics' own (``names``, ``imgsz``), so the runtime reads both the same way as the reader.

    .venv-train/bin/python scripts/train_detector.py --data data/synth/det/data.yaml \
        --imgsz 480 --epochs 20
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path

import _offline_torch  # noqa: F401 - must come before ultralytics
import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

from mahjong_camera_scorer.vision.classes import DETECTOR_CLASSES  # noqa: E402


def snapshot(data_yaml: Path, dest: Path) -> Path:
    """Freeze the image/label pairs present now (a generator may still be writing) into ``dest``
    as symlinks, with its own ``data.yaml``; training then sees a fixed list."""
    import yaml

    cfg = yaml.safe_load(data_yaml.read_text())
    base = Path(cfg.get("path") or data_yaml.parent)
    if not base.is_absolute():
        base = data_yaml.parent / base
    n = {}
    for split in ("train", "val"):
        img_dir, lab_dir = base / cfg[split], base / cfg[split].replace("images", "labels")
        out_img, out_lab = dest / "images" / split, dest / "labels" / split
        out_img.mkdir(parents=True, exist_ok=True)
        out_lab.mkdir(parents=True, exist_ok=True)
        n[split] = 0
        for img in sorted(img_dir.glob("*.jpg")):
            lab = lab_dir / f"{img.stem}.txt"
            if not lab.is_file() or img.stat().st_size == 0:
                continue
            for src, dst in ((img, out_img / img.name), (lab, out_lab / lab.name)):
                if not dst.exists():
                    dst.symlink_to(src.resolve())
            n[split] += 1
    out = dest / "data.yaml"
    val = "images/val" if n["val"] else "images/train"  # a tiny smoke set may have no val images yet
    out.write_text(
        yaml.safe_dump(
            {"path": str(dest.resolve()), "train": "images/train", "val": val, "names": cfg["names"]}
        )
    )
    print(f"snapshot of {data_yaml}: {n['train']} train, {n['val']} val images → {out}", flush=True)
    return out


IVORY = (222, 236, 242)
BACKS = (
    (60, 120, 30),
    (40, 80, 20),
    (150, 80, 20),
    (200, 150, 80),
    (40, 180, 220),
    (30, 110, 225),
    (30, 28, 28),
    (40, 40, 170),
)


def _grid_image(
    faces: list[list[Path]], rng: random.Random
) -> tuple[np.ndarray, list[tuple[int, float, float, float, float]]]:
    """One top-down photo of tiles packed in a grid (a set laid out, a hand seen from above):
    the layout of product photos and close-ups that the 3D scenes rarely show."""
    W, H = (640, rng.randint(360, 640)) if rng.random() < 0.5 else (rng.randint(360, 640), 640)
    bg = np.array([rng.randint(0, 255) for _ in range(3)], np.float32)
    if rng.random() < 0.4:
        bg = np.array([rng.randint(200, 255)] * 3, np.float32)
    canvas = np.clip(bg + np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, (H, W, 3)), 0, 255)
    canvas = canvas.astype(np.uint8)
    style = rng.choice(faces)
    aspect = rng.uniform(1.2, 1.45)
    gap = rng.uniform(0.0, 0.06)
    cols = rng.randint(2, 18)
    tw = W * rng.uniform(0.8, 1.1) / (cols * (1 + gap))
    if rng.random() < 0.7:  # a set laid out: the grid fills the frame
        rows = max(1, min(14, int(H * rng.uniform(0.85, 1.1) / (tw * aspect * (1 + gap)))))
    else:  # a hand or two seen from above
        rows = rng.randint(1, 3)
    tw = max(12.0, min(tw, W / 2.5, H / (aspect * 1.05)))
    th = tw * aspect
    x_start = rng.uniform(-0.3 * tw, max(0.0, W - cols * tw * (1 + gap)))
    y_start = rng.uniform(-0.3 * th, max(0.0, H - rows * th * (1 + gap)))
    labels = []
    back_colour = rng.choice(BACKS)
    body = max(0, int(th * rng.uniform(0.0, 0.12)))
    for r in range(rows):
        for c in range(cols):
            x0 = x_start + c * tw * (1 + gap)
            y0 = y_start + r * th * (1 + gap)
            w, h = int(tw), int(th)
            down = rng.random() < 0.05
            if down:
                tile = np.full((h, w, 3), back_colour, np.uint8)
            else:
                face = cv2.imread(str(rng.choice(style)))
                rim = max(1, int(w * rng.uniform(0.04, 0.1)))
                tile = np.full((h, w, 3), [int(v * rng.uniform(0.9, 1.0)) for v in IVORY], np.uint8)
                fh, fw = max(2, h - 2 * rim - body), max(2, w - 2 * rim)
                tile[rim : rim + fh, rim : rim + fw] = cv2.resize(
                    face, (fw, fh), interpolation=cv2.INTER_AREA
                )
                if body:
                    tile[h - body :] = (
                        back_colour if rng.random() < 0.5 else tuple(int(v * 0.8) for v in IVORY)
                    )
                if rng.random() < 0.15:
                    tile = cv2.rotate(tile, cv2.ROTATE_180)
            tile = tile.astype(np.float32) * np.linspace(1.05, 0.85, h, dtype=np.float32)[:, None, None]
            tile = np.clip(tile, 0, 255).astype(np.uint8)
            xi, yi = round(x0), round(y0)
            cx0, cy0, cx1, cy1 = max(0, xi), max(0, yi), min(W, xi + w), min(H, yi + h)
            if cx1 <= cx0 or cy1 <= cy0:
                continue
            canvas[cy0:cy1, cx0:cx1] = tile[cy0 - yi : cy1 - yi, cx0 - xi : cx1 - xi]
            if (cx1 - cx0) * (cy1 - cy0) >= 0.5 * w * h:
                labels.append((1 if down else 0, cx0, cy0, cx1, cy1))
    # camera: small perspective, light falloff, blur, noise, JPEG
    d = 0.04 * min(W, H)
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    dst = src + np.float32([[rng.uniform(-d, d), rng.uniform(-d, d)] for _ in range(4)])
    m = cv2.getPerspectiveTransform(src, dst)
    canvas = cv2.warpPerspective(canvas, m, (W, H), borderMode=cv2.BORDER_REPLICATE)
    out = []
    for cls, x0, y0, x1, y1 in labels:
        pts = cv2.perspectiveTransform(np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]]), m)[0]
        bx0, by0 = np.clip(pts.min(0), 0, [W, H])
        bx1, by1 = np.clip(pts.max(0), 0, [W, H])
        if bx1 - bx0 > 4 and by1 - by0 > 4:
            out.append((cls, (bx0 + bx1) / 2 / W, (by0 + by1) / 2 / H, (bx1 - bx0) / W, (by1 - by0) / H))
    if rng.random() < 0.5:
        canvas = cv2.GaussianBlur(canvas, (3, 3), rng.uniform(0.3, 1.2))
    gain = rng.uniform(0.75, 1.15)
    canvas = np.clip(canvas.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 95)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), out


def make_grid_set(faces_dir: Path, dest: Path, n: int, seed: int = 0) -> None:
    """Add ``n`` grid photos (images + YOLO labels) to a snapshot dataset's train split."""
    styles = [sorted(p.glob("*.png")) for p in sorted(faces_dir.iterdir()) if p.is_dir()]
    styles = [s for s in styles if len(s) >= 20]
    if not styles:
        print(f"warning: no artwork faces in {faces_dir}; no grid photos", flush=True)
        return
    rng = random.Random(seed)
    img_dir, lab_dir = dest / "images" / "train", dest / "labels" / "train"
    img_dir.mkdir(parents=True, exist_ok=True)
    lab_dir.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        image, labels = _grid_image(styles, rng)
        cv2.imwrite(str(img_dir / f"grid{i:05d}.jpg"), image)
        (lab_dir / f"grid{i:05d}.txt").write_text(
            "".join(f"{c} {x:.6f} {y:.6f} {w:.6f} {h:.6f}\n" for c, x, y, w, h in labels)
        )
    print(f"added {n} grid photos to {dest}", flush=True)


def _workers(n: int):  # type: ignore[no-untyped-def]
    """A callback giving the dataloader ``n`` workers, and every core to torch: on the CPU
    ultralytics forces ``workers=0`` and sets ``torch.set_num_threads(cpu_count - 1)``, which is
    ONE thread on a 2-core machine (measured: 1 busy core, 5.4 s per batch of 16 at 480 px)."""

    def callback(trainer) -> None:  # type: ignore[no-untyped-def]
        import os

        import torch

        trainer.args.workers = n
        torch.set_num_threads(os.cpu_count() or 1)

    return callback


def results_without_polars() -> None:
    """Where polars is not installed (the accelerator machine: its wheel is ~40 MB, most of the
    64 MiB a run can carry), ultralytics' trainer reads its own ``results.csv`` with the csv
    module instead. That is the one place training imports polars (with ``plots=False``); it
    only fills the ``train_results`` entry of each checkpoint."""
    try:
        import polars  # noqa: F401
    except ImportError:
        pass
    else:
        return
    import csv

    from ultralytics.engine.trainer import BaseTrainer

    def read_results_csv(self) -> dict:  # type: ignore[no-untyped-def]
        try:
            rows = list(csv.DictReader(self.csv.read_text().splitlines()))
        except OSError:
            return {}
        out: dict = {}
        for row in rows:
            for key, value in row.items():
                try:
                    out.setdefault(key.strip(), []).append(float(value))
                except (TypeError, ValueError):
                    out.setdefault(key.strip(), []).append(value)
        return out

    BaseTrainer.read_results_csv = read_results_csv


class Clock:
    """A hard stop by the wall clock, and a count of the images the run trained on.

    ultralytics' own ``time=`` argument fits the epochs (and the rate schedule) to a budget but
    checks it only after an optimizer step and counts from the start of training, not from the
    start of the process; this callback stops between batches once ``deadline`` (a
    ``time.time()``) has passed, so that the run can still validate, save and export in time.
    ``clock.json`` in the run folder records what happened (scripts/device_run.py reads it)."""

    def __init__(self, deadline: float, run_dir: Path) -> None:
        self.deadline, self.run_dir = deadline, run_dir
        self.images, self.batches, self.stopped = 0, 0, False

    def on_train_start(self, trainer) -> None:  # type: ignore[no-untyped-def]
        """What is left once the data is loaded becomes ultralytics' ``time``, so that its fitted
        schedule ends at the deadline rather than setup-time later."""
        trainer.args.time = max(1.0, self.deadline - time.time()) / 3600

    def on_train_batch_end(self, trainer) -> None:  # type: ignore[no-untyped-def]
        self.batches += 1
        self.images += int(trainer.batch_size)
        if time.time() >= self.deadline and not trainer.stop:
            trainer.stop = self.stopped = True
            print(f"time is up: stopping after {self.batches} batches", flush=True)

    def on_train_epoch_end(self, trainer) -> None:  # type: ignore[no-untyped-def]
        self.save(trainer)

    def save(self, trainer) -> None:  # type: ignore[no-untyped-def]
        done = {"images_seen": self.images, "batches": self.batches, "stopped_by_clock": self.stopped}
        self.run_dir.mkdir(parents=True, exist_ok=True)
        (self.run_dir / "clock.json").write_text(json.dumps({**done, "epoch": int(trainer.epoch) + 1}))

    def attach(self, model) -> None:  # type: ignore[no-untyped-def]
        model.add_callback("on_train_start", self.on_train_start)
        model.add_callback("on_train_batch_end", self.on_train_batch_end)
        model.add_callback("on_train_epoch_end", self.on_train_epoch_end)
        model.add_callback("on_train_end", self.save)


def add_metadata(onnx_path: Path, imgsz: int, info: dict) -> None:
    """Add the runtime's own metadata keys (``classes``, ``imgsz`` as JSON) to an exported model."""
    import onnx

    m = onnx.load(str(onnx_path))
    props = {p.key: p.value for p in m.metadata_props}
    names = props.get("names", "")
    props.update(
        {
            "classes": json.dumps(list(DETECTOR_CLASSES)),
            "imgsz": json.dumps([imgsz, imgsz]),
            "training": json.dumps(info),
            "ultralytics_names": names,
        }
    )
    del m.metadata_props[:]
    for k, v in props.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(onnx_path))


def run_info(run_dir: Path) -> dict | None:
    """What the run really was (its ``args.yaml`` and ``results.csv``), for the ONNX metadata.

    Read from the run rather than this call's arguments, so that ``--export-only`` and
    ``--resume`` record the training that made the weights, not the command-line defaults."""
    args_file, results = run_dir / "args.yaml", run_dir / "results.csv"
    if not args_file.is_file():
        return None
    import yaml

    run_args = yaml.safe_load(args_file.read_text())
    info = {k: run_args.get(k) for k in ("model", "data", "imgsz", "epochs", "lr0", "fraction")}
    if results.is_file():
        rows = [r.split(",") for r in results.read_text().splitlines()[1:] if r.strip()]
        if rows:
            head = [h.strip() for h in results.read_text().splitlines()[0].split(",")]
            last = dict(zip(head, rows[-1], strict=False))
            info["epochs_done"] = int(float(last.get("epoch", len(rows))))
            info["seconds"] = round(float(last.get("time", 0)))
            info["val_map50"] = round(float(last.get("metrics/mAP50(B)", "nan")), 3)
    return info


def export(weights: Path, out: Path, imgsz: int, info: dict) -> None:
    from ultralytics import YOLO

    model = YOLO(str(weights))
    names = [model.names[i] for i in sorted(model.names)]
    if tuple(names) != DETECTOR_CLASSES:
        raise SystemExit(f"error: model classes {names} != {DETECTOR_CLASSES}")
    # dynamic axes: photos run at ``imgsz`` (the metadata), the live camera at a smaller size
    path = Path(model.export(format="onnx", imgsz=imgsz, opset=17, simplify=True, dynamic=True, device="cpu"))
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, out)
    add_metadata(out, imgsz, info)
    print(f"exported {out} ({out.stat().st_size / 1e6:.1f} MB)", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=ROOT / "data" / "synth" / "det" / "data.yaml")
    ap.add_argument("--imgsz", type=int, default=480)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--lr0", type=float, default=0.002)
    ap.add_argument("--fraction", type=float, default=1.0, help="fraction of the training images to use")
    ap.add_argument("--name", default="train")
    ap.add_argument("--project", type=Path, default=ROOT / "runs" / "detector")
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "detector.onnx")
    ap.add_argument("--resume", action="store_true", help="continue <project>/<name>/weights/last.pt")
    ap.add_argument("--export-only", action="store_true", help="export <project>/<name>/weights/best.pt")
    ap.add_argument("--snapshot", type=Path, help="freeze the dataset's current files into this folder first")
    ap.add_argument("--weights", type=Path, help="start from these weights (fine-tune) instead of the YAML")
    ap.add_argument(
        "--model", default="yolo11n.yaml", help="the architecture without --weights (yolo11s.yaml: larger)"
    )
    ap.add_argument("--grids", type=int, default=0, help="add this many top-down grid photos to the snapshot")
    ap.add_argument(
        "--faces", type=Path, default=ROOT / "data" / "cache" / "artwork", help="artwork face cache"
    )
    ap.add_argument("--device", default="cpu", help="cpu, 0 (the first GPU) or auto")
    ap.add_argument("--workers", type=int, default=2, help="dataloader workers")
    ap.add_argument("--cache", action="store_true", help="keep the decoded images in memory (ultralytics)")
    ap.add_argument(
        "--max-seconds",
        type=float,
        default=0.0,
        help="train for this long by the clock (ultralytics fits its epochs to it), then stop; 0 = --epochs",
    )
    ap.add_argument(
        "--degrees",
        type=float,
        default=3.0,
        help="random rotation (ultralytics augmentation): loose tiles on real tables lie at any angle",
    )
    args = ap.parse_args(argv)

    from ultralytics import YOLO

    results_without_polars()
    run_dir = args.project / args.name
    last = run_dir / "weights" / "last.pt"
    if args.device == "auto":
        import torch

        args.device = "0" if torch.cuda.is_available() else "cpu"
    clock = Clock(time.time() + args.max_seconds, run_dir) if args.max_seconds > 0 else None
    if not args.export_only:
        if args.resume and last.is_file():
            model = YOLO(str(last))
            model.add_callback("on_pretrain_routine_start", _workers(args.workers))
            if clock:
                clock.attach(model)
            model.train(resume=True)
        else:
            if not args.data.is_file():
                print(f"error: no dataset at {args.data} (run scripts/make_dataset.py)", file=sys.stderr)
                return 2
            if args.snapshot:
                args.data = snapshot(args.data, args.snapshot)
                if args.grids:
                    make_grid_set(args.faces, args.snapshot, args.grids)
            model = YOLO(str(args.weights) if args.weights else args.model)
            model.add_callback("on_pretrain_routine_start", _workers(args.workers))
            if clock:
                clock.attach(model)
            model.train(
                data=str(args.data),
                imgsz=args.imgsz,
                epochs=args.epochs,
                batch=args.batch,
                optimizer="AdamW",
                lr0=args.lr0,
                cos_lr=True,
                # Fine-tuning starts without warm-up: its bias rate (warmup_bias_lr=0.1) undoes
                # trained weights in the first batches (box loss 2.0 -> 5.3 measured).
                warmup_epochs=0 if args.weights else 1,
                # ultralytics drops the loaded weights when pretrained=False (engine/model.py:
                # ``weights = None if pretrained is False else self.model``): fine-tuning needs True.
                pretrained=bool(args.weights),
                amp=False,
                device=args.device,
                workers=args.workers,
                cache="ram" if args.cache else False,
                # ultralytics fits the epochs to the hours given, the rate schedule with them;
                # the Clock callback is the hard stop
                time=args.max_seconds / 3600 if args.max_seconds > 0 else None,
                project=str(args.project),
                name=args.name,
                exist_ok=True,
                plots=False,
                fraction=args.fraction,
                seed=0,
                deterministic=False,
                fliplr=0.5,
                flipud=0.0,
                mosaic=1.0,
                close_mosaic=3,
                hsv_h=0.01,
                degrees=args.degrees,
                patience=100,
                verbose=True,
            )
    weights = run_dir / "weights" / ("best.pt" if (run_dir / "weights" / "best.pt").is_file() else "last.pt")
    info = run_info(run_dir) or {
        "data": str(args.data),
        "weights": str(args.weights or args.model),
        "imgsz": args.imgsz,
        "epochs": args.epochs,
        "lr0": args.lr0,
    }
    export(weights, args.out, args.imgsz, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
