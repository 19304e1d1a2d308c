#!/usr/bin/env python3
"""Rebuild a trainable checkpoint from a shipped ONNX model, so that training resumes from it.

Earlier runs' ``.pt`` files did not survive into later checkouts (``*.pt`` was git-ignored), only
the ONNX models. Both exports fold each BatchNorm into the convolution before it, so the ONNX holds
one weight and one bias per convolution. To get a model that computes the same function *and*
trains like the original, each folded layer goes back as ``conv(W) -> BN`` where the BN's affine
and running statistics are set from a calibration pass: with ``m``, ``s`` the per-channel mean and
standard deviation of ``W * x`` over calibration batches, ``running_mean = m``, ``running_var = s²``,
``gamma = s``, ``beta = b + m``. Then BN in eval mode gives ``W x + b`` exactly, and in train mode
(batch statistics close to ``m``, ``s``) nearly so. Checked by comparing the rebuilt model with
the ONNX on real crops/photos (printed).

    PY=.venv-train/bin/python
    $PY scripts/recover_checkpoint.py detector models/detector.onnx runs/recovered/detector.pt
    $PY scripts/recover_checkpoint.py reader models/reader.onnx runs/recovered/reader.pt
"""

from __future__ import annotations

import argparse
import glob
import sys
from pathlib import Path

import _offline_torch  # noqa: F401 - must come before ultralytics
import cv2
import numpy as np
import onnx
import onnxruntime as ort
import torch
from onnx import numpy_helper
from torch import nn

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], list[tuple[str, str]]]:
    """Initializers by name, and each Conv node's (weight, bias) initializer names in graph order."""
    m = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    convs = [
        (n.input[1], n.input[2] if len(n.input) > 2 else "") for n in m.graph.node if n.op_type == "Conv"
    ]
    return inits, convs


def calibrate_bn(
    pairs: list[tuple[nn.Conv2d, nn.BatchNorm2d, np.ndarray]], model: nn.Module, batches
) -> None:  # type: ignore[no-untyped-def]
    """Set each BN from the statistics of its conv's output on calibration batches (see module doc).

    Layers are calibrated in the order they run (found with hooks: a module's definition order is
    not always its call order), each with every layer before it already exact."""
    order: list[nn.Conv2d] = []
    hooks = [c.register_forward_hook(lambda m, _i, _o: order.append(m)) for c, _, _ in pairs]
    model.eval()
    with torch.no_grad():
        model(batches[0][:1])
    for h in hooks:
        h.remove()
    rank = {id(m): i for i, m in reversed(list(enumerate(order)))}
    pairs = sorted(pairs, key=lambda p: rank.get(id(p[0]), len(order)))
    for conv, bn, bias in pairs:
        stats: list[torch.Tensor] = []

        def hook(_m, _i, out, stats=stats):  # type: ignore[no-untyped-def]
            stats.append(out.detach().transpose(0, 1).reshape(out.shape[1], -1))

        h = conv.register_forward_hook(hook)
        model.eval()
        with torch.no_grad():
            for x in batches:
                model(x)
        h.remove()
        y = torch.cat(stats, 1)
        mean, std = y.mean(1), y.std(1).clamp(min=1e-3)
        with torch.no_grad():
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(std**2 - bn.eps)
            bn.weight.copy_(std)
            bn.bias.copy_(torch.from_numpy(bias) + mean)


def recover_detector(onnx_path: Path, out: Path, images: list[str]) -> None:
    from ultralytics import YOLO
    from ultralytics.nn.modules.conv import Conv

    inits, _ = onnx_weights(onnx_path)
    yolo = YOLO("yolo11n.yaml")
    meta = {p.key: p.value for p in onnx.load(str(onnx_path)).metadata_props}
    import ast

    names = ast.literal_eval(meta["names"])
    from ultralytics.nn.tasks import DetectionModel

    model = DetectionModel(yolo.model.yaml, nc=len(names), verbose=False)
    model.names = names
    pairs = []
    done = 0
    for name, mod in model.named_modules():
        if isinstance(mod, Conv):
            w, b = inits.get(f"{name}.conv.weight"), inits.get(f"{name}.conv.bias")
            if w is None or b is None:
                raise SystemExit(f"error: {name} not in the ONNX")
            with torch.no_grad():
                mod.conv.weight.copy_(torch.from_numpy(w))
            pairs.append((mod.conv, mod.bn, b))
            done += 1
        elif isinstance(mod, nn.Conv2d) and mod.bias is not None and f"{name}.weight" in inits:
            with torch.no_grad():
                mod.weight.copy_(torch.from_numpy(inits[f"{name}.weight"]))
                mod.bias.copy_(torch.from_numpy(inits[f"{name}.bias"]))
            done += 1
    imgsz = 480
    batches = []
    for f in images[:32]:
        im = cv2.resize(cv2.imread(f), (imgsz, imgsz))[:, :, ::-1]
        batches.append(torch.from_numpy(np.ascontiguousarray(im.transpose(2, 0, 1))).float()[None] / 255)
    batches = [torch.cat(batches[i : i + 8]) for i in range(0, len(batches), 8)]
    calibrate_bn(pairs, model, batches)
    print(f"detector: {done} layers from {onnx_path}", flush=True)
    # check: same output as the ONNX
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    x = batches[0][:2]
    ref = sess.run(None, {sess.get_inputs()[0].name: x.numpy()})[0]
    model.eval()
    with torch.no_grad():
        got = model(x)[0].numpy()
    print(
        f"max |torch - onnx| on two photos: {np.abs(got - ref).max():.4f} (scores, boxes in px)", flush=True
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    model.args = {"imgsz": imgsz}
    torch.save(
        {"model": model.float(), "train_args": {}, "epoch": -1, "date": None, "version": "recovered"}, out
    )
    print(f"wrote {out}", flush=True)


def recover_reader(onnx_path: Path, out: Path, crops: list[str]) -> None:
    from train_reader import TileReader

    inits, convs = onnx_weights(onnx_path)
    # readers exported with their features as a third output wrap the model: ``reader.tile.weight``
    pre = "reader." if "reader.tile.weight" in inits else ""
    n_classes = inits[f"{pre}tile.weight"].shape[0]
    feat = inits[f"{pre}tile.weight"].shape[1]
    pool = (3, 2) if feat == 768 else (1, 1)
    model = TileReader(n_classes=n_classes, pool=pool)
    conv_mods = [m for m in model.features.modules() if isinstance(m, nn.Conv2d)]
    bns = [m for m in model.features.modules() if isinstance(m, nn.BatchNorm2d)]
    if len(conv_mods) != len(convs):
        raise SystemExit(f"error: {len(convs)} convolutions in the ONNX, {len(conv_mods)} in TileReader")
    pairs = []
    for conv, bn, (wn, bname) in zip(conv_mods, bns, convs, strict=True):
        with torch.no_grad():
            conv.weight.copy_(torch.from_numpy(inits[wn]))
        pairs.append((conv, bn, inits[bname]))
    with torch.no_grad():
        for head in ("tile", "upside_down"):
            getattr(model, head).weight.copy_(torch.from_numpy(inits[f"{pre}{head}.weight"]))
            getattr(model, head).bias.copy_(torch.from_numpy(inits[f"{pre}{head}.bias"]))
    xs = []
    for f in crops[:512]:
        im = cv2.resize(cv2.imread(f), (96, 96))[:, :, ::-1]
        xs.append(torch.from_numpy(np.ascontiguousarray(im.transpose(2, 0, 1))).float() / 255)
    batches = [torch.stack(xs[i : i + 128]) for i in range(0, len(xs), 128)]
    calibrate_bn(pairs, model, batches)
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    x = batches[0]
    ref = sess.run(None, {sess.get_inputs()[0].name: x.numpy()})[0]
    model.eval()
    with torch.no_grad():
        got = model(x)[0].numpy()
    agree = float((got.argmax(1) == ref.argmax(1)).mean())
    print(f"reader: max |torch - onnx| logits {np.abs(got - ref).max():.4f}, same top-1 on {agree:.1%}")
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "pool": list(pool), "epoch": 0, "history": []}, out)
    print(f"wrote {out}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["detector", "reader"])
    ap.add_argument("onnx", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--calib", default=str(ROOT / "data" / "real" / "det" / "images" / "train" / "*.jpg"))
    args = ap.parse_args(argv)
    files = sorted(glob.glob(args.calib))
    if args.kind == "detector":
        recover_detector(args.onnx, args.out, files)
    else:
        crops = sorted(glob.glob(str(ROOT / "data" / "real" / "cls" / "train" / "*" / "*.jpg")))
        crops += sorted(glob.glob(str(ROOT / "data" / "synth" / "cls" / "train" / "*" / "*.jpg")))[::20]
        recover_reader(args.onnx, args.out, crops)
    return 0


if __name__ == "__main__":
    sys.exit(main())
