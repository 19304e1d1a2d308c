#!/usr/bin/env python3
"""Train the detector and the reader on the lent accelerator from the pack, within a wall-clock budget.

The ``run`` tool's call (``models/README.md``, "Training on the accelerator"), after
``scripts/device_pack.py`` has written ``.devpack/`` here:

    command:   PYTHONUNBUFFERED=1 python3 scripts/device_run.py --pack .devpack --out "$OUT"
    carry:     [".devpack"]
    timeout_s: 600

One process, nine minutes by its own clock (``--budget 540``) and every step bounded by it:

1. installs the pack's wheels under ``/tmp`` (``pip install --no-index --target``) and puts them
   on the path; the environment offline (``YOLO_OFFLINE``, a config folder with a font, no
   requirement checks, no telemetry);
2. unpacks: the detector's set, plus each real training photo re-framed as users frame theirs
   (``scripts/pack_reframe.py``: issue 33's scene variants, row crops, far views, seat views,
   turns) on every core; the
   reader's crops into the folders ``train_reader.py`` reads;
3. fine-tunes the detector from ``models/checkpoints/detector.pt`` (``train_detector.py
   --max-seconds``: ultralytics fits its epochs to the time, a callback stops it at the deadline;
   it saves every epoch), then the reader from ``models/checkpoints/reader.pt``
   (``train_reader.py --max-seconds``: the rate schedule follows the clock), each as its own
   process that is killed if it overruns (a killed detector is still exported from its last save);
4. writes to ``--out`` (``$OUT``): ``detector.onnx``, ``detector.pt``, ``reader.onnx``,
   ``reader.pt``, ``detector-results.csv``, ``metrics.json`` and ``run.log``, seven files, each
   checked under 16 MiB. The ONNX files carry the metadata the shipped models carry.

CUDA when torch sees it, the CPU otherwise: the same command is rehearsed on the CPU by
``tests/scripts/test_device_run.py`` with a tiny pack and a few seconds a stage.
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
for _p in (ROOT, SCRIPTS):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))
import _checkout  # noqa: E402, F401 - the checkout's packages by their installed names

#: what the run tool brings back: at most 8 files of at most 16 MiB, 64 MiB together; the
#: models' share of that leaves room for the log (cut at 15 MiB) and the metrics
MAX_FILES, MAX_FILE, MAX_MODELS = 8, 16 << 20, 48 << 20
#: what a stage needs after its training stops: the detector's last validation and ONNX export
#: (onnxslim included), the reader's export; the run's own collection at the end
DETECTOR_RESERVE, READER_RESERVE, FINAL_RESERVE = 60.0, 20.0, 10.0
#: the file that marks a scratch folder as this script's own (it empties only such a folder)
WORK_MARK = ".device_run"
#: the data set whose scene crops train_reader.real_scene_items takes
SCENE_DATASET = "chinese-mahjong-detection"


class Log:
    """Everything said, on stdout and in ``run.log`` (cut at 15 MiB: it must come back)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file: TextIO = path.open("w", encoding="utf-8", errors="replace")
        self.size, self.lock, self.t0 = 0, threading.Lock(), time.time()

    def write(self, text: str) -> None:
        with self.lock:
            sys.stdout.write(text)
            sys.stdout.flush()
            if self.size < 15 << 20:
                self.file.write(text)
                self.file.flush()
                self.size += len(text)

    def say(self, text: str) -> None:
        self.write(f"[device_run {time.time() - self.t0:6.1f}s] {text}\n")


# ------------------------------------------------------------------------------------------- setup
def install_wheels(wheels: list[Path], site: Path, log: Log) -> list[str]:
    """The pack's wheels into ``site`` (no index, no dependencies: the pack pins each one)."""
    if not wheels:
        log.say("no wheels in the pack: using what this Python has")
        return []
    site.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile"]
    cmd += ["--no-cache-dir", "--upgrade", "--target", str(site), *map(str, wheels)]
    run = subprocess.run(cmd, capture_output=True, text=True)
    log.write(run.stdout + run.stderr)
    if run.returncode:
        raise SystemExit(f"error: pip could not install the pack's wheels (exit {run.returncode})")
    sys.path.insert(0, str(site))
    return [w.name for w in wheels]


def environment(site: Path, work: Path) -> dict[str, str]:
    """The stages' environment: the wheels first on the path, everything offline."""
    env = dict(os.environ)
    # the checkout is not installed there: its packages (vision, scoring, mjsynth) from the tree
    paths = [str(site), str(ROOT), str(ROOT / "datasets"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(paths).rstrip(os.pathsep)
    env.update(
        {
            "PYTHONUNBUFFERED": "1",
            "YOLO_OFFLINE": "1",
            "YOLO_AUTOINSTALL": "0",
            "ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS": "1",
            "YOLO_CONFIG_DIR": str(work / "yolo-config"),  # scripts/_offline_torch.py puts a font there
            "ORT_DISABLE_TELEMETRY": "1",
            "HF_HUB_OFFLINE": "1",
            "MPLBACKEND": "Agg",
        }
    )
    return env


# ------------------------------------------------------------------------------------------ unpack
def _reframe(job: tuple[str, str, str, dict, int]) -> dict[str, int]:
    """One real photo's re-framings, written beside it (a worker of :func:`unpack_detector`)."""
    import cv2
    from pack_reframe import loose_labels, read_yolo, variants, yolo_text

    image_path, label_path, out_dir, recipe, seed = job
    image = cv2.imread(image_path, cv2.IMREAD_COLOR)
    if image is None:
        return {}
    h, w = image.shape[:2]
    labels = read_yolo(Path(label_path).read_text(), w, h)
    if loose_labels([b[1:] for b in labels]):
        return {"none: loose labels": 1}
    made: dict[str, int] = {}
    stem = Path(image_path).stem
    for k, (kind, img, labs) in enumerate(variants(image, labels, random.Random(seed), recipe, stem)):
        name = f"{stem}_{kind}{k}"
        cv2.imwrite(str(Path(out_dir) / "images" / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (Path(out_dir) / "labels" / f"{name}.txt").write_text(yolo_text(labs, img.shape[1], img.shape[0]))
        made[kind] = made.get(kind, 0) + 1
    return made


def unpack_detector(pack: Path, work: Path, recipe: dict, workers: int, seed: int) -> dict[str, Any]:
    """The detector's set in ``work/det``: the pack's pictures (linked) plus the re-framed real
    photos; ``data.yaml`` with a train and a val list."""
    det = work / "det"
    lists: dict[str, list[str]] = {}
    for split in ("train", "val"):
        img_dir, lab_dir = det / "images" / split, det / "labels" / split
        img_dir.mkdir(parents=True, exist_ok=True)
        lab_dir.mkdir(parents=True, exist_ok=True)
        lists[split] = []
        for img in sorted((pack / "det" / "images" / split).iterdir()):
            lab = pack / "det" / "labels" / split / f"{img.stem}.txt"
            if not lab.is_file():
                continue
            shutil.copyfile(img, img_dir / img.name)
            shutil.copyfile(lab, lab_dir / lab.name)
            lists[split].append(str(img_dir / img.name))
    reframed = det / "reframed"
    (reframed / "images").mkdir(parents=True, exist_ok=True)
    (reframed / "labels").mkdir(parents=True, exist_ok=True)
    real = [p for p in lists["train"] if Path(p).name.startswith("real_")]
    jobs = [
        (p, str(det / "labels" / "train" / f"{Path(p).stem}.txt"), str(reframed), recipe, seed * 100_003 + i)
        for i, p in enumerate(real)
    ]
    made: dict[str, int] = {}
    import pack_reframe  # noqa: F401 - once here, not in each forked worker (it loads the pipeline)

    if jobs:
        with multiprocessing.get_context("fork").Pool(max(1, workers)) as pool:
            for counts in pool.imap_unordered(_reframe, jobs, chunksize=8):
                for k, v in counts.items():
                    made[k] = made.get(k, 0) + v
    lists["train"] += sorted(str(p) for p in (reframed / "images").glob("*.jpg"))
    loose = made.pop("none: loose labels", 0)
    for split, files in lists.items():
        (det / f"{split}.txt").write_text("".join(f"{f}\n" for f in files))
    (det / "data.yaml").write_text(
        f"path: {det}\ntrain: train.txt\nval: val.txt\nnames:\n  0: tile\n  1: back\n"
    )
    return {
        "train images": len(lists["train"]),
        "val images": len(lists["val"]),
        "from the pack": len(lists["train"]) - sum(made.values()),
        "re-framed from real photos": made,
        "real photos not re-framed (loose labels)": loose,
    }


def unpack_reader(pack: Path, work: Path) -> dict[str, int]:
    """The pack's crops as files in the layouts ``train_reader.py`` reads: camerash crops and
    their fold list, real scene and not-a-tile crops with ``crops.csv``, generator crops with
    theirs (which way up each lies)."""
    import numpy as np

    from mahjong_camera_scorer.vision.classes import NOT_A_TILE, READER_CLASSES

    data = np.load(pack / "reader" / "crops.npz")
    if tuple(data["classes"]) != READER_CLASSES:
        raise SystemExit("error: the pack's reader classes are not this checkout's (make the pack again)")
    ext = str(data["format"])
    blob, offsets = data["encoded"], data["offsets"]
    kinds = [str(k) for k in data["kinds"]]
    root = work / "reader"
    cam_dir = root / "camerash" / "tiles-resized"
    scene_dir = root / "real" / "cls"
    synth_dir = root / "synth"
    rows: dict[str, list[dict]] = {"camerash": [], "scene": [], "synthetic": []}
    counts: dict[str, int] = {}
    for i, (label, up, kind_i) in enumerate(zip(data["label"], data["upside"], data["kind"], strict=True)):
        kind, code = kinds[int(kind_i)], READER_CLASSES[int(label)]
        raw = blob[offsets[i] : offsets[i + 1]].tobytes()
        if kind == "camerash":
            f = cam_dir / f"{i}{ext}"
            rows["camerash"].append({"crop": f.name, "code": code, "set": "pack", "fold": "train"})
        elif kind in ("scene", "none"):
            f = scene_dir / "train" / (NOT_A_TILE if kind == "none" else code) / f"{i}{ext}"
            if kind == "scene":
                way = "" if up < 0 else str(int(up))
                rows["scene"].append(
                    {"file": str(f.relative_to(scene_dir)), "code": code, "split": "train"}
                    | {"dataset": SCENE_DATASET, "upside_down": way}
                )
        else:
            f = synth_dir / "train" / code / f"{i}{ext}"
            way = "" if up < 0 else ("0" if up > 0.5 else "1")
            rows["synthetic"].append({"file": str(f.relative_to(synth_dir)), "upright_in_crop": way})
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(raw)
        counts[kind] = counts.get(kind, 0) + 1
    for name, path in (
        ("camerash", root / "camerash-split.csv"),
        ("scene", scene_dir / "crops.csv"),
        ("synthetic", synth_dir / "crops.csv"),
    ):
        path.parent.mkdir(parents=True, exist_ok=True)
        fields = list(rows[name][0]) if rows[name] else ["file"]
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=fields)
            w.writeheader()
            w.writerows(rows[name])
    return counts


# ------------------------------------------------------------------------------------------ stages
def stage(name: str, cmd: list[str], env: dict[str, str], timeout: float, log: Log) -> dict[str, Any]:
    """Run one stage as its own process group, its output into the log; killed past ``timeout``."""
    log.say(f"{name}: {' '.join(cmd)} (at most {timeout:.0f} s)")
    t = time.time()
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    assert proc.stdout is not None
    out = proc.stdout

    def pump() -> None:
        for line in out:
            log.write(line)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    killed = False
    try:
        rc = proc.wait(timeout=max(1.0, timeout))
    except subprocess.TimeoutExpired:
        killed = True
        log.say(f"{name}: over its time, stopped")
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=10)
                break
            except subprocess.TimeoutExpired:
                continue
        rc = proc.returncode if proc.returncode is not None else -9
    reader.join(timeout=5)
    seconds = round(time.time() - t, 1)
    log.say(f"{name}: exit {rc} after {seconds} s")
    return {"exit": rc, "seconds": seconds, "killed": killed}


def results_summary(csv_path: Path) -> dict[str, Any]:
    """The detector run's epochs and its real-val mAP50 (last and best) from ``results.csv``."""
    if not csv_path.is_file():
        return {}
    rows = list(csv.DictReader(csv_path.read_text().splitlines()))
    rows = [{k.strip(): v.strip() for k, v in r.items() if k} for r in rows]
    if not rows:
        return {}

    def num(r: dict, k: str) -> float:
        try:
            return round(float(r.get(k, "nan")), 4)
        except ValueError:
            return float("nan")

    best = max(rows, key=lambda r: num(r, "metrics/mAP50(B)"))
    last = rows[-1]
    return {
        "epochs": len(rows),
        "val_map50_last": num(last, "metrics/mAP50(B)"),
        "val_recall_last": num(last, "metrics/recall(B)"),
        "val_map50_best": num(best, "metrics/mAP50(B)"),
        "best_epoch": int(num(best, "epoch")),
    }


def strip_weights(path: Path, log: Log) -> None:
    """A checkpoint that still holds its optimizer (a killed run's last save) is too big to bring
    back: ultralytics' own stripping keeps the weights (half precision), as ``best.pt`` has them."""
    if path.stat().st_size <= MAX_FILE:
        return
    try:
        from ultralytics.utils.torch_utils import strip_optimizer

        strip_optimizer(str(path))
    except Exception as exc:
        log.say(f"could not strip {path}: {exc}")


#: what may stay behind when the files would be too many, first first: each can be made again
#: here from what does come back (the ONNX files from the checkpoints, ``--export-only``)
DROPPABLE = ("detector.onnx", "reader.onnx", "detector-results.csv")


def collect(
    files: dict[str, Path],
    out: Path,
    log: Log,
    reserved: int = 2,
    max_file: int = MAX_FILE,
    max_files: int = MAX_FILES,
    max_total: int = MAX_MODELS,
) -> dict[str, int]:
    """Copy what was made into ``out`` as the run tool can bring it back: a file over ``max_file``
    in parts (``NAME.part0``, ``NAME.part1``, ...: ``cat NAME.part* > NAME`` joins them), and when
    that makes more than ``max_files`` with the ``reserved`` ones (metrics, log) or more than
    ``max_total`` bytes, the files of
    :data:`DROPPABLE` left behind first (a larger detector's 38 MB ONNX: export it here from its
    checkpoint). Returns each name brought back with its size; a missing file is said."""
    made = {name: src for name, src in files.items() if src.is_file()}
    for name in files.keys() - made.keys():
        log.say(f"not made: {name}")

    def parts(src: Path) -> int:
        return max(1, -(-src.stat().st_size // max_file))

    for name in DROPPABLE:
        count = sum(parts(src) for src in made.values()) + reserved
        if count <= max_files and sum(src.stat().st_size for src in made.values()) <= max_total:
            break
        if name in made:
            log.say(f"left behind: {name} (too many files or bytes for what a run brings back)")
            del made[name]
    kept: dict[str, int] = {}
    for name, src in made.items():
        kept[name] = src.stat().st_size
        n = parts(src)
        if n == 1:
            shutil.copyfile(src, out / name)
            continue
        log.say(f"{name}: {kept[name] >> 20} MiB, brought back in {n} parts (cat {name}.part* > {name})")
        with src.open("rb") as fh:
            for k in range(n):
                (out / f"{name}.part{k}").write_bytes(fh.read(max_file))
    return kept


def device_name() -> str:
    try:
        import torch

        if torch.cuda.is_available():
            return f"cuda: {torch.cuda.get_device_name(0)} (torch {torch.__version__})"
        return f"cpu: {os.cpu_count()} cores (torch {torch.__version__})"
    except ImportError:
        return "no torch"


# -------------------------------------------------------------------------------------------- main
def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", type=Path, default=ROOT / ".devpack")
    ap.add_argument("--out", type=Path, default=Path(os.environ.get("OUT", ROOT / "runs" / "device-out")))
    ap.add_argument("--budget", type=float, default=540.0, help="seconds for everything, start to last file")
    ap.add_argument(
        "--detector-share", type=float, default=0.7, help="the detector's share of the training time"
    )
    ap.add_argument(
        "--detector-seconds", type=float, help="the detector's training seconds (instead of a share)"
    )
    ap.add_argument(
        "--reader-seconds", type=float, help="the reader's training seconds (instead of the rest)"
    )
    ap.add_argument(
        "--detector-reserve",
        type=float,
        default=DETECTOR_RESERVE,
        help="seconds the detector stage may run past its training time (last validation, export)",
    )
    ap.add_argument("--reader-reserve", type=float, default=READER_RESERVE, help="the same for the reader")
    ap.add_argument("--skip", choices=("detector", "reader"), action="append", default=[])
    ap.add_argument("--det-weights", type=Path, default=ROOT / "models" / "checkpoints" / "detector.pt")
    ap.add_argument("--det-model", help="train this architecture from scratch instead (e.g. yolo11s.yaml)")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--det-batch", type=int, help="default 64 on the accelerator, 8 on the CPU")
    ap.add_argument("--det-lr", type=float, default=0.0005, help="rounds D-E fine-tuned at 0.0005")
    ap.add_argument("--reader-init", type=Path, default=ROOT / "models" / "checkpoints" / "reader.pt")
    ap.add_argument("--reader-batch", type=int, help="default 256 on the accelerator, 32 on the CPU")
    ap.add_argument("--reader-lr", type=float, default=0.0005)
    ap.add_argument("--per-epoch", type=int, help="reader crops an epoch (default 50,000; 64 on the CPU)")
    ap.add_argument("--workers", type=int, help="loader processes (default: the cores less two)")
    ap.add_argument("--recipe", type=json.loads, help="re-framings per real photo, e.g. '{\"rows\": 1}'")
    ap.add_argument("--work", type=Path, default=Path("/tmp/devrun"), help="scratch folder (emptied first)")
    ap.add_argument("--site", type=Path, default=Path("/tmp/devsite"), help="where the wheels are installed")
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    t0 = time.time()
    deadline = t0 + args.budget
    manifest_path = args.pack / "manifest.json"
    problem = (
        f"no pack at {args.pack} (run scripts/device_pack.py first)"
        if not manifest_path.is_file()
        else "no torch in this Python (the accelerator's python3 has it)"
        if importlib.util.find_spec("torch") is None
        else f"{args.work} holds files this run did not write: choose another --work"
        if args.work.is_dir() and any(args.work.iterdir()) and not (args.work / WORK_MARK).is_file()
        else ""
    )
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    manifest = json.loads(manifest_path.read_text())
    shutil.rmtree(args.work, ignore_errors=True)  # an earlier run's scratch (it has the mark)
    args.work.mkdir(parents=True)
    (args.work / WORK_MARK).write_text("scratch of scripts/device_run.py: emptied by each run\n")
    args.out.mkdir(parents=True, exist_ok=True)
    log = Log(args.out / "run.log")
    wheels = install_wheels(sorted((args.pack / "wheels").glob("*.whl")), args.site, log)
    env = environment(args.site, args.work)
    os.environ.update(env)  # this process too is offline (it may strip a checkpoint with ultralytics)
    cores = os.cpu_count() or 2
    workers = args.workers if args.workers is not None else max(1, cores - 2)
    metrics: dict[str, Any] = {
        "budget_s": args.budget,
        "pack": {k: manifest.get(k) for k in ("made", "commit", "detector", "reader", "left_out")},
        "wheels": wheels,
    }
    # unpacked before torch is imported here: the re-framing workers are forked
    recipe = args.recipe or manifest["detector"].get(
        "reframed on the accelerator, per real training photo", {}
    )
    metrics["detector_data"] = unpack_detector(args.pack, args.work, recipe, workers, args.seed)
    metrics["reader_data"] = unpack_reader(args.pack, args.work)
    log.say(f"unpacked: {metrics['detector_data']}, reader crops {metrics['reader_data']}")
    import torch

    cuda = torch.cuda.is_available()
    metrics["device"] = device_name()
    log.say(f"on {metrics['device']}, {cores} cores; budget {args.budget:.0f} s")

    py = [sys.executable]
    runs = args.work / "runs"
    left = deadline - time.time() - FINAL_RESERVE
    det_total = left * (args.detector_share if "reader" not in args.skip else 1.0)
    det_seconds = args.detector_seconds or max(5.0, det_total - args.detector_reserve)
    if "detector" not in args.skip:
        cmd = [*py, str(SCRIPTS / "train_detector.py"), "--data", str(args.work / "det" / "data.yaml")]
        cmd += ["--model", args.det_model] if args.det_model else ["--weights", str(args.det_weights)]
        cmd += ["--imgsz", str(args.imgsz), "--epochs", "1000", "--lr0", str(args.det_lr), "--degrees", "10"]
        cmd += ["--batch", str(args.det_batch or (64 if cuda else 8)), "--device", "auto"]
        cmd += ["--workers", str(workers), "--max-seconds", str(det_seconds)]
        cmd += ["--project", str(runs), "--name", "detector", "--out", str(args.work / "detector.onnx")]
        cmd += ["--cache"] if cuda else []
        metrics["detector"] = stage("detector", cmd, env, det_seconds + args.detector_reserve, log)
        weights = runs / "detector" / "weights"
        if not (args.work / "detector.onnx").is_file() and (weights / "last.pt").is_file():
            export = [*cmd[:2], "--export-only", "--project", str(runs), "--name", "detector"]
            export += ["--imgsz", str(args.imgsz), "--out", str(args.work / "detector.onnx")]
            room = max(30.0, min(args.detector_reserve, deadline - time.time() - FINAL_RESERVE))
            metrics["detector"]["export"] = stage("detector export", export, env, room, log)
        clock = runs / "detector" / "clock.json"
        metrics["detector"] |= json.loads(clock.read_text()) if clock.is_file() else {}
        metrics["detector"] |= results_summary(runs / "detector" / "results.csv")
        best = weights / ("best.pt" if (weights / "best.pt").is_file() else "last.pt")
        if best.is_file():
            strip_weights(best, log)
            shutil.copyfile(best, args.work / "detector.pt")
    if "reader" not in args.skip:
        left = deadline - time.time() - FINAL_RESERVE
        rd_seconds = args.reader_seconds or max(5.0, left - args.reader_reserve)
        reader = args.work / "reader"
        cmd = [*py, str(SCRIPTS / "train_reader.py"), "--synth", str(reader / "synth")]
        cmd += ["--real-crops", str(reader / "real" / "cls"), "--camerash-root", str(reader / "camerash")]
        cmd += ["--camerash-split", str(reader / "camerash-split.csv"), "--faces", ""]
        cmd += [
            "--init",
            str(args.reader_init),
            "--pool",
            "3x2",
            "--epochs",
            "1000",
            "--lr",
            str(args.reader_lr),
        ]
        cmd += ["--per-epoch", str(args.per_epoch or (50_000 if cuda else 64))]
        cmd += ["--batch", str(args.reader_batch or (256 if cuda else 32)), "--device", "auto"]
        cmd += ["--real-repeat", "30", "--red-repeat", "25", "--scene-repeat", "2", "--none-repeat", "3"]
        cmd += ["--workers", str(workers), "--threads", str(max(1, min(cores, 8)))]
        cmd += ["--max-seconds", str(rd_seconds), "--seed", str(args.seed)]
        cmd += ["--run", str(runs / "reader"), "--out", str(args.work / "reader.onnx")]
        metrics["reader"] = stage("reader", cmd, env, rd_seconds + args.reader_reserve, log)
        hist = runs / "reader" / "history.json"
        history = json.loads(hist.read_text()) if hist.is_file() else []
        metrics["reader"] |= {
            "epochs": len(history),
            "crops_seen": sum(h.get("crops", 0) for h in history),
            "last": history[-1] if history else None,
        }
        if (runs / "reader" / "last.pt").is_file():
            shutil.copyfile(runs / "reader" / "last.pt", args.work / "reader.pt")
    metrics["seconds"] = round(time.time() - t0, 1)
    kept = collect(
        {
            "detector.onnx": args.work / "detector.onnx",
            "detector.pt": args.work / "detector.pt",
            "detector-results.csv": runs / "detector" / "results.csv",
            "reader.onnx": args.work / "reader.onnx",
            "reader.pt": args.work / "reader.pt",
        },
        args.out,
        log,
    )
    metrics["files"] = kept
    (args.out / "metrics.json").write_text(json.dumps(metrics, indent=1, default=str) + "\n")
    log.say(f"done in {time.time() - t0:.0f} s: {sorted(kept)} + metrics.json, run.log")
    files = [p for p in args.out.iterdir() if p.is_file()]
    if len(files) > MAX_FILES:
        log.say(f"{len(files)} files in {args.out}: the run tool brings back only {MAX_FILES}")
        return 1
    # a stage succeeded when its model came back (its ONNX, or a checkpoint to export it from)
    ok = all(f"{s}.onnx" in kept or f"{s}.pt" in kept for s in ("detector", "reader") if s not in args.skip)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
