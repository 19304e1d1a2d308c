"""Make a whole dataset: many scenes in parallel worker processes, written by ``writers``.

Each image ``i`` is rendered from seed ``image_seed(seed, i)``, so the output does not depend on the number
of workers or on the order they finish in.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from mahjong_camera_scorer.mjsynth import photos, writers
from mahjong_camera_scorer.mjsynth.artwork import DEFAULT_CACHE, DEFAULT_SHARED, Artwork
from mahjong_camera_scorer.mjsynth.scene import SceneOptions, render_scene

if TYPE_CHECKING:
    import numpy as np

    from mahjong_camera_scorer.mjsynth.manifest import Manifest


@dataclass
class GenerateConfig:
    out: Path
    count: int = 1000
    seed: int = 0
    workers: int = 2
    det: bool = True
    cls: bool = True
    manifests: bool = True
    val_fraction: float = 0.1
    crop_jitter: float = 0.04
    shared_dir: Path | None = DEFAULT_SHARED
    cache_dir: Path = DEFAULT_CACHE
    scene: SceneOptions = field(default_factory=SceneOptions)
    progress: bool = True
    #: render only the images of this split ("train" or "val"; None: all). A split depends only on
    #: the image's index and the seed, so ``only="val"`` writes exactly the validation photos of
    #: the full run, in a tenth of the time: enough for tuning thresholds.
    only: str | None = None


def image_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 12_345) % (2**31 - 1)


_ART: Artwork | None = None
_CFG: GenerateConfig | None = None


def _init(cfg: GenerateConfig) -> None:
    global _ART, _CFG
    import cv2

    cv2.setNumThreads(1)  # one process per core: OpenCV's own threads would only contend
    _CFG = cfg
    _ART = Artwork(shared_dir=cfg.shared_dir, cache_dir=cfg.cache_dir)


def _one(index: int) -> tuple[int, int, int, list[str]]:
    assert _ART is not None and _CFG is not None
    cfg = _CFG
    s = image_seed(cfg.seed, index)
    image, manifest = render_scene(s, _ART, cfg.scene)
    stem = f"{index:06d}"
    split = writers.split_of(index, cfg.val_fraction, cfg.seed)
    if cfg.det:
        writers.write_det(cfg.out, split, stem, image, manifest)
    rows: list[str] = []
    if cfg.cls:
        rows = writers.write_cls(cfg.out, split, stem, image, manifest, seed=s, jitter=cfg.crop_jitter)
    if cfg.manifests:
        writers.write_manifest(cfg.out, stem, manifest, split)
    return index, sum(t["labelled"] for t in manifest["tiles"]), len(rows), rows


class Summary(TypedDict):
    """What :func:`generate` wrote and how long it took (``make_dataset.py`` prints it)."""

    images: int
    labels: int
    crops: int
    seconds_scenes: float
    seconds_artwork: float
    out: str


def generate(cfg: GenerateConfig) -> Summary:
    """Render ``cfg.count`` scenes into ``cfg.out``; returns a summary (counts, seconds)."""
    from tqdm import tqdm

    cfg.out = Path(cfg.out)
    cfg.out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    # render every face into the disk cache once, so workers only read PNGs
    art = Artwork(shared_dir=cfg.shared_dir, cache_dir=cfg.cache_dir)
    if cfg.scene.styles:
        unknown = [s for s in cfg.scene.styles if s not in art.styles]
        if unknown:
            raise ValueError(
                f"unknown style(s): {', '.join(unknown)}; available: {', '.join(sorted(art.styles))}"
            )
    art.warm(lambda it: tqdm(it, desc="artwork cache", disable=not cfg.progress, leave=False))
    photos.warm()  # scale the installed photographs once, before workers read them
    t_art = time.time() - t0
    if cfg.det:
        writers.write_data_yaml(cfg.out)
    rows_all: list[tuple[int, list[str]]] = []
    n_labels = n_crops = 0
    t1 = time.time()
    indices = [
        i
        for i in range(cfg.count)
        if cfg.only is None or writers.split_of(i, cfg.val_fraction, cfg.seed) == cfg.only
    ]
    bar = tqdm(total=len(indices), desc="scenes", disable=not cfg.progress, unit="img")
    if cfg.workers <= 1:
        _init(cfg)
        results = map(_one, indices)
        for idx, nl, nc, rows in results:
            n_labels, n_crops = n_labels + nl, n_crops + nc
            rows_all.append((idx, rows))
            bar.update(1)
    else:
        # "spawn", not "fork": warming the cache renders SVGs with resvg, whose thread pool does not
        # survive a fork; forked workers then wait on it forever (seen on every fresh cache)
        ctx = mp.get_context("spawn")
        with ctx.Pool(cfg.workers, initializer=_init, initargs=(cfg,)) as pool:
            for idx, nl, nc, rows in pool.imap_unordered(_one, indices, chunksize=4):
                n_labels, n_crops = n_labels + nl, n_crops + nc
                rows_all.append((idx, rows))
                bar.update(1)
    bar.close()
    if cfg.cls:
        rows_all.sort()
        (cfg.out / "cls").mkdir(parents=True, exist_ok=True)
        with open(cfg.out / "cls" / "crops.csv", "w") as f:
            f.write(writers.CSV_HEADER)
            for _, rows in rows_all:
                f.writelines(rows)
    secs = time.time() - t1
    return {
        "images": len(indices),
        "labels": n_labels,
        "crops": n_crops,
        "seconds_scenes": round(secs, 1),
        "seconds_artwork": round(t_art, 1),
        "out": str(cfg.out),
    }


def make_example(art: Artwork, seed: int = 0, img_size: int = 1024) -> tuple[np.ndarray, Manifest]:
    """One clean example photo for the CLI: a single riichi hand, standing tiles, modest perspective,
    the whole hand in frame and readable (the first seed from ``seed`` on that satisfies all that)."""
    from mahjong_camera_scorer.mjsynth.camera import PhotoOptions

    style = "fluffy-regular" if "fluffy-regular" in art.styles else sorted(art.styles)[0]
    photo = PhotoOptions(
        p_motion_blur=0.0,
        p_hard_shadow=0.0,
        p_glare=0.0,
        max_lens_sigma=0.6,
        noise_sigma=(1.0, 2.5),
        jpeg_quality=(90, 90),
        wb_strength=0.4,
    )
    opts = SceneOptions(
        img_size=img_size,
        force_kind="hand",
        force_standing=True,
        styles=(style,),
        closeup_fraction=0.0,
        distractor_fraction=0.0,
        clutter_fraction=0.0,
        eyelevel_fraction=0.0,
        far_fraction=0.0,
        p_dof=0.0,
        p_ink_swap=0.0,
        p_white_boost=0.0,
        elevation=(30.0, 42.0),
        p_opposite_view=0.0,
        p_index_overlay=0.0,
        photo=photo,
        backgrounds=("felt", "wood", "mat"),
    )
    for s in range(seed, seed + 500):
        image, man = render_scene(s, art, opts)
        cam = man["camera"]
        if (
            man["complete_in_frame"]
            and abs(cam["roll"]) < 8
            and man["image_size"][0] > man["image_size"][1]
            and min(t["tile_px"] for t in man["tiles"]) > 40
        ):
            return image, man
    raise RuntimeError("no example found")
