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
import shutil
import sys
import time
from pathlib import Path

import _offline_torch  # noqa: F401 - must come before ultralytics

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.classes import DETECTOR_CLASSES  # noqa: E402


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


def _two_workers(trainer) -> None:  # type: ignore[no-untyped-def]
    trainer.args.workers = 2


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


def export(weights: Path, out: Path, imgsz: int, info: dict) -> None:
    from ultralytics import YOLO

    model = YOLO(str(weights))
    names = [model.names[i] for i in sorted(model.names)]
    if tuple(names) != DETECTOR_CLASSES:
        raise SystemExit(f"error: model classes {names} != {DETECTOR_CLASSES}")
    path = Path(
        model.export(format="onnx", imgsz=imgsz, opset=17, simplify=True, dynamic=False, device="cpu")
    )
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
    args = ap.parse_args(argv)

    from ultralytics import YOLO

    run_dir = args.project / args.name
    last = run_dir / "weights" / "last.pt"
    t0 = time.time()
    if not args.export_only:
        if args.resume and last.is_file():
            model = YOLO(str(last))
            model.add_callback("on_pretrain_routine_start", _two_workers)
            model.train(resume=True)
        else:
            if not args.data.is_file():
                print(f"error: no dataset at {args.data} (run scripts/make_dataset.py)", file=sys.stderr)
                return 2
            if args.snapshot:
                args.data = snapshot(args.data, args.snapshot)
            model = YOLO(str(args.weights) if args.weights else "yolo11n.yaml")
            model.add_callback("on_pretrain_routine_start", _two_workers)
            model.train(
                data=str(args.data),
                imgsz=args.imgsz,
                epochs=args.epochs,
                batch=args.batch,
                optimizer="AdamW",
                lr0=args.lr0,
                cos_lr=True,
                warmup_epochs=1,
                pretrained=False,
                amp=False,
                device="cpu",
                workers=2,
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
                degrees=3.0,
                patience=100,
                verbose=True,
            )
    weights = run_dir / "weights" / ("best.pt" if (run_dir / "weights" / "best.pt").is_file() else "last.pt")
    info = {
        "data": str(args.data),
        "weights": str(args.weights or "yolo11n.yaml"),
        "imgsz": args.imgsz,
        "epochs": args.epochs,
        "lr0": args.lr0,
        "fraction": args.fraction,
        "seconds_this_call": round(time.time() - t0),
    }
    export(weights, args.out, args.imgsz, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
