"""A tiny stand-in for the inputs of ``scripts/device_pack.py``: a few drawn photos of tile rows
laid out like ``../shared/data/real`` with their split, a few reader crops of each kind, a few
generated scenes and a wheel of a made-up package. Built in a temporary folder in a second, so
the pack and the accelerator run are tested where ``../shared`` is absent (CI)."""

from __future__ import annotations

import base64
import csv
import hashlib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

CHINESE = "chinese-mahjong-detection"
#: the made-up package the fake wheel installs (the run must import it from its --site folder)
FAKE_PACKAGE = "devrun_fake_pkg"


@dataclass
class Inputs:
    real: Path
    split: Path
    real_crops: Path
    synth_crops: Path
    scenes: Path
    wheels: Path

    def argv(self, out: Path, *extra: str) -> list[str]:
        """``device_pack.py``'s arguments for these inputs (no camerash: its folder is absent)."""
        return [
            "--out", str(out), "--real", str(self.real), "--real-split", str(self.split),
            "--audit", str(self.real / "no-audit.csv"), "--scenes", str(self.scenes),
            "--crops", str(self.synth_crops), "--real-crops", str(self.real_crops),
            "--camerash", str(self.real / "no-camerash"), "--wheels", str(self.wheels), *extra,
        ]  # fmt: skip


def row_photo(
    rng: np.random.Generator, tiles: int = 5, size: tuple[int, int] = (240, 320)
) -> tuple[np.ndarray, str]:
    """A green table with one row of ivory tiles (a dark mark on each): the photo and its YOLO labels."""
    h, w = size
    image = np.zeros((h, w, 3), np.uint8)
    image[:] = (40, 120, 40)
    image = np.clip(image + rng.normal(0, 4, image.shape), 0, 255).astype(np.uint8)
    tw, th = 36, 48
    x0, y0 = int(rng.integers(5, w - tiles * tw - 5)), int(rng.integers(5, h - th - 5))
    lines = []
    for k in range(tiles):
        x = x0 + k * tw
        cv2.rectangle(image, (x + 1, y0), (x + tw - 2, y0 + th), (220, 235, 240), -1)
        cv2.circle(image, (x + tw // 2, y0 + th // 2), 8, (30, 30, 160), -1)
        lines.append(f"0 {(x + tw / 2) / w:.6f} {(y0 + th / 2) / h:.6f} {(tw - 2) / w:.6f} {th / h:.6f}\n")
    return image, "".join(lines)


def crop(rng: np.random.Generator, size: int = 96) -> np.ndarray:
    image = np.full((size, size, 3), 114, np.uint8)
    cv2.rectangle(image, (20, 10), (76, 86), tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    return image


def fake_wheel(folder: Path, pad: int = 0) -> Path:
    """A valid wheel of :data:`FAKE_PACKAGE` (``pad`` bytes of filler make it as big as asked)."""
    folder.mkdir(parents=True, exist_ok=True)
    dist = f"{FAKE_PACKAGE}-0.1.dist-info"
    files = {
        f"{FAKE_PACKAGE}/__init__.py": b"VERSION = '0.1'\n" + b"#" * pad + b"\n",
        f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {FAKE_PACKAGE}\nVersion: 0.1\n".encode(),
        f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = ""
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record += f"{name},sha256={digest},{len(data)}\n"
    record += f"{dist}/RECORD,,\n"
    path = folder / f"{FAKE_PACKAGE}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
        z.writestr(f"{dist}/RECORD", record)
    return path


def _csv(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def _picture(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def make_inputs(root: Path, photos: int = 4, crops_per_kind: int = 6, seed: int = 0) -> Inputs:
    rng = np.random.default_rng(seed)
    real = root / "real"
    split_rows = []
    for k in range(photos + 1):
        split = "val" if k == photos else "train"
        name = f"photo{k}_jpg.rf.{k:032x}.jpg"
        image, labels = row_photo(rng)
        img_dir = real / CHINESE / "train" / "images"
        _picture(img_dir / name, image)
        (img_dir.parent / "labels").mkdir(exist_ok=True)
        (img_dir.parent / "labels" / f"{Path(name).stem}.txt").write_text(labels)
        split_rows.append(
            {"dataset": CHINESE, "published": "train", "file": name, "source": f"p{k}", "split": split}
        )
    split_csv = root / "real-split.csv"
    _csv(split_csv, split_rows)

    real_crops = root / "realcls"
    rows = []
    for k in range(crops_per_kind):
        code = ("1m", "5z", "9s")[k % 3]
        _picture(real_crops / "train" / code / f"c{k}.jpg", crop(rng))
        rows.append({"file": f"train/{code}/c{k}.jpg", "code": code, "split": "train", "dataset": CHINESE})
        rows[-1]["upside_down"] = ("0", "1", "")[k % 3]
        _picture(real_crops / "train" / "none" / f"n{k}.jpg", crop(rng))
    _csv(real_crops / "crops.csv", rows)

    synth = root / "syn" / "cls"
    srows = []
    for k in range(crops_per_kind):
        code = ("back", "2p", "5z")[k % 3]
        _picture(synth / "train" / code / f"s{k}.jpg", crop(rng))
        srows.append({"file": f"train/{code}/s{k}.jpg", "upright_in_crop": ("", "1", "0")[k % 3]})
    _csv(synth / "crops.csv", srows)

    scenes = root / "syn" / "det"
    for k in range(3):
        image, labels = row_photo(rng, tiles=3)
        _picture(scenes / "images" / "train" / f"{k:06d}.jpg", image)
        (scenes / "labels" / "train").mkdir(parents=True, exist_ok=True)
        (scenes / "labels" / "train" / f"{k:06d}.txt").write_text(labels)

    wheels = root / "wheels"
    fake_wheel(wheels)
    return Inputs(real, split_csv, real_crops, synth, scenes, wheels)
