"""Make torch + torchvision + ultralytics train fully offline on a CPU-only machine.

Import this module *before* torchvision or ultralytics. It does three things (see
``../shared/TRAINING-NOTES.md`` for the measurements behind them):

1. Environment: ``YOLO_OFFLINE=1``, ``YOLO_AUTOINSTALL=0``, ``ORT_DISABLE_TELEMETRY=1`` and a
   ``YOLO_CONFIG_DIR`` inside ``runs/`` so nothing is written to the home folder or fetched.
2. Font: ultralytics looks for ``Arial.ttf`` in its config folder on every run and otherwise
   downloads it; we copy any TTF found on the machine (matplotlib's DejaVuSans first).
3. torchvision: the registry's torchvision 0.28.0 is a CUDA build whose compiled ops fail to load
   next to CPU torch, and ``import torchvision`` then raises "operator torchvision::nms does not
   exist". Only when the real op is missing, we define ``torchvision::nms``/``qnms`` with a plain
   torch greedy NMS and silence torchvision's has-ops assertion. A machine with working ops is
   left untouched.
"""

from __future__ import annotations

import glob
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG_DIR = ROOT / "runs" / "yolo-config"


def _environment() -> None:
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("YOLO_CONFIG_DIR", str(CONFIG_DIR))
    Path(os.environ["YOLO_CONFIG_DIR"]).mkdir(parents=True, exist_ok=True)


def _font() -> None:
    target = Path(os.environ["YOLO_CONFIG_DIR"]) / "Ultralytics" / "Arial.ttf"
    if target.exists():
        return
    candidates: list[str] = []
    try:
        import matplotlib

        candidates += glob.glob(str(Path(matplotlib.__file__).parent / "mpl-data/fonts/ttf/DejaVuSans.ttf"))
    except ImportError:
        pass
    candidates += sorted(glob.glob("/usr/share/fonts/**/*.ttf", recursive=True))
    if candidates:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(candidates[0], target)


def _greedy_nms(boxes, scores, iou_threshold: float):  # type: ignore[no-untyped-def]
    import torch

    if boxes.numel() == 0:
        return torch.empty((0,), dtype=torch.long, device=boxes.device)
    x1, y1, x2, y2 = boxes.unbind(1)
    areas = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
    order = scores.argsort(descending=True)
    keep: list[int] = []
    suppressed = torch.zeros(len(order), dtype=torch.bool)
    boxes_o, areas_o = boxes[order], areas[order]
    for i in range(len(order)):
        if suppressed[i]:
            continue
        keep.append(int(order[i]))
        b = boxes_o[i]
        xx1 = torch.maximum(b[0], boxes_o[i + 1 :, 0])
        yy1 = torch.maximum(b[1], boxes_o[i + 1 :, 1])
        xx2 = torch.minimum(b[2], boxes_o[i + 1 :, 2])
        yy2 = torch.minimum(b[3], boxes_o[i + 1 :, 3])
        inter = (xx2 - xx1).clamp(min=0) * (yy2 - yy1).clamp(min=0)
        iou = inter / (areas_o[i] + areas_o[i + 1 :] - inter).clamp(min=1e-9)
        suppressed[i + 1 :] |= iou > iou_threshold
    return torch.tensor(keep, dtype=torch.long, device=boxes.device)


def _torchvision_ops() -> None:
    import importlib.util

    import torch

    spec = importlib.util.find_spec("torchvision")
    if spec is None or spec.origin is None:
        return
    for so in sorted(Path(spec.origin).parent.glob("_C*.so")):
        try:
            torch.ops.load_library(str(so))  # the compiled ops load: a working build, touch nothing
            return
        except (OSError, RuntimeError):
            break
    lib = torch.library.Library("torchvision", "FRAGMENT")
    lib.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    lib.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    lib.impl("nms", _greedy_nms, "CPU")
    lib.impl("qnms", _greedy_nms, "CPU")
    globals()["_LIB"] = lib  # keep the registration alive
    import torchvision.ops.boxes as tv_boxes

    tv_boxes._assert_has_ops = lambda: None


def setup() -> None:
    """Idempotent: environment, font, torchvision ops.

    Training scripts run in the training venv; run from the runtime venv they would die on
    ``import torch`` with a traceback, so say what to run instead.
    """
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        raise SystemExit(
            "error: torch is not installed in this Python: training runs in .venv-train "
            "(create it with `STAGE=venv bash scripts/make_models.sh`, then use .venv-train/bin/python)"
        )
    _environment()
    _font()
    _torchvision_ops()


setup()
