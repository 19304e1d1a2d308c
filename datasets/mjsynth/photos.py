"""Real photographs for clutter: desktop wallpapers and photographed patterns from Debian packages.

Real phone photos of tiles lie on desks, bedsheets and window sills, beside keyboards and plants; a
detector trained only on procedural tables finds "tiles" in whatever texture it never saw. These files
give it real image statistics to learn to ignore: as the table surface, as the room beyond the table in
low shots, and as prints lying on the table. Every file is listed here with its package and licence (the
README's table is made from this list), and only files that are installed are used: without the packages
(``scripts/install_artwork.sh`` installs them) the generator uses its procedural surfaces alone.

Decoding a multi-megapixel JPEG takes 50-150 ms, as long as a whole scene, so each photo is scaled down
once into a disk cache (``data/cache/photos``) and kept decoded in a small per-process LRU.
"""

from __future__ import annotations

import functools
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.artwork import DEFAULT_CACHE

PHOTO_CACHE = DEFAULT_CACHE.parent / "photos"
#: Long side of a cached photo (px): enough for a table surface or a room seen by a 640-1024 px camera.
MAX_SIDE = 1024

LOMIRI = Path("/usr/share/backgrounds")
MATE = Path("/usr/share/backgrounds/mate/nature")
GIMP = Path("/usr/share/gimp/2.0/patterns")


@dataclass(frozen=True)
class PhotoFile:
    """One installed (or installable) picture: ``kind`` is ``photo`` (a whole photograph) or ``pattern``
    (a small seamless photographed texture, tiled)."""

    path: Path
    package: str
    licence: str
    credit: str
    kind: str = "photo"


def _lomiri(name: str, licence: str, credit: str) -> PhotoFile:
    return PhotoFile(LOMIRI / name, "lomiri-wallpapers-16.04", licence, credit)


def _mate(name: str, credit: str) -> PhotoFile:
    return PhotoFile(MATE / name, "mate-backgrounds", "GPL-2+", credit)


def _gimp(rel: str) -> PhotoFile:
    return PhotoFile(GIMP / rel, "gimp-data", "GPL-3+", "the GIMP authors", "pattern")


#: The pictures used, with their licences from each package's ``/usr/share/doc/<package>/copyright``.
#: Left out on purpose: abstract or computer-drawn wallpapers (lomiri's ``umang``, MATE's abstract/desktop
#: sets, GIMP's drawn "Legacy"/sky/lightning patterns) — not photographs of anything a table shows.
CATALOGUE: tuple[PhotoFile, ...] = (
    _lomiri("Bridge_by_Sander_Klootwijk.jpg", "CC-BY-SA-4.0", "Sander Klootwijk"),
    _lomiri("Dragonfly_by_Bolly.jpg", "CC-BY-SA-4.0", "Bolly"),
    _lomiri("Picture_0B_by_freespace.jpg", "CC-BY-4.0", 'Trevor "Freespace"'),
    _lomiri("Picture_1A_by_freespace.jpg", "CC-BY-4.0", 'Trevor "Freespace"'),
    _lomiri("Wine_by_Jakkub_Mede.jpg", "CC-BY-4.0", "Jakub Mede"),
    _lomiri("aitzgorri_by_Aitzol_Berasategi.jpg", "CC-BY-4.0", "Aitzol Berasategi"),
    _lomiri("analogpattern_by_Peter_Nerlich.jpg", "CC-BY-SA-4.0", "Peter Nerlich"),
    _lomiri("free_by_Peter_Nerlich.jpg", "CC-BY-SA-4.0", "Peter Nerlich"),
    _lomiri("friends_by_Aitzol_Berasategi.jpg", "CC-BY-4.0", "Aitzol Berasategi"),
    _lomiri("greentock_by_Peter_Nerlich.jpg", "CC-BY-SA-4.0", "Peter Nerlich"),
    _lomiri("life_by_Aitzol_Berasategi.jpg", "CC-BY-4.0", "Aitzol Berasategi"),
    _lomiri("picosdeeuropa_by_Aitzol_Berasategi.jpg", "CC-BY-4.0", "Aitzol Berasategi"),
    _lomiri("seeding_by_Clements_Engelhardt.jpg", "CC0-1.0", "Clemens Engelhardt"),
    _lomiri("sunset_by_Aitzol_Berasategi.jpg", "CC-BY-4.0", "Aitzol Berasategi"),
    _mate("Aqua.jpg", "Charles Barbin"),
    _mate("Blinds.jpg", "Lennart Poettering, Andrea Cimitan"),
    _mate("Dune.jpg", "Marco Cogoni, Hylke Bons"),
    _mate("FreshFlower.jpg", "Jens Ansorg"),
    _mate("Garden.jpg", "Charles Barbin"),
    _mate("GreenMeadow.jpg", "Timothy Schellhase, Lapo Calamandrei"),
    _mate("LadyBird.jpg", "Charles Barbin"),
    _mate("RainDrops.jpg", "blackcombwhistler07"),
    _mate("Storm.jpg", "Sergey Nazarov"),
    _mate("TwoWings.jpg", "Charles Barbin, Hylke Bons"),
    _mate("Wood.jpg", "Jean-François Fortin Tam"),
    _mate("YellowFlower.jpg", "Charles Barbin"),
    *(
        _gimp(p)
        for p in (
            "Animal/leather.pat", "Fabric/burlap.pat", "Food/java.pat", "Paper/crinklepaper.pat",
            "Paper/paper.pat", "Plant/leaves.pat", "Stone/granite1.pat", "Stone/marble1.pat",
            "Stone/marble3.pat", "Stone/pink_marble.pat", "Stone/slate.pat", "Stone/stone33.pat",
            "Stone/ground1.pat", "Wood/bark.pat", "Wood/burlwood.pat", "Wood/corkboard.pat",
            "Wood/parque1.pat", "Wood/parque2.pat", "Wood/parque3.pat", "Wood/walnut.pat",
            "Wood/wood1.pat", "Wood/wood2.pat", "Wood/wood3.pat", "Wood/wood4.pat", "Wood/wood5.pat",
        )
    ),
)  # fmt: skip


@functools.lru_cache(maxsize=4)
def installed(kind: str) -> tuple[PhotoFile, ...]:
    """The catalogue's files of ``kind`` that are present on this machine (sorted, so seeds are stable)."""
    return tuple(sorted((p for p in CATALOGUE if p.kind == kind and p.path.is_file()), key=lambda p: p.path))


def read_pattern(path: Path) -> np.ndarray:
    """Decode a GIMP ``.pat`` pattern (a big-endian header, then raw grey/RGB/RGBA rows) as BGR."""
    data = path.read_bytes()
    header, _version, w, h, depth = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT" or depth not in (1, 2, 3, 4) or len(data) < header + w * h * depth:
        raise ValueError(f"{path}: not a GIMP pattern")
    px = np.frombuffer(data, np.uint8, w * h * depth, header).reshape(h, w, depth)
    if depth <= 2:
        return cv2.cvtColor(np.ascontiguousarray(px[..., 0]), cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(np.ascontiguousarray(px[..., :3]), cv2.COLOR_RGB2BGR)


@functools.lru_cache(maxsize=32)
def load(photo: PhotoFile, cache_dir: Path | None = PHOTO_CACHE) -> np.ndarray:
    """The picture as BGR, long side at most :data:`MAX_SIDE` (read-only array: copy before drawing)."""
    if photo.kind == "pattern":
        pattern = read_pattern(photo.path)
        pattern.flags.writeable = False
        return pattern
    cached = cache_dir / f"{photo.path.stem}.jpg" if cache_dir is not None else None
    img = cv2.imread(str(cached)) if cached is not None and cached.is_file() else None
    if img is None:
        img = cv2.imread(str(photo.path), cv2.IMREAD_REDUCED_COLOR_2)
        if img is None:
            raise ValueError(f"{photo.path}: cannot decode")
        s = MAX_SIDE / max(img.shape[:2])
        if s < 1:
            img = cv2.resize(
                img, (round(img.shape[1] * s), round(img.shape[0] * s)), interpolation=cv2.INTER_AREA
            )
        if cached is not None:
            # use the JPEG as cached, not the picture before encoding: the first run (cache cold) must
            # draw the same pixels as every later one (cache warm), or a seed gives two photos
            ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 93])
            if not ok:
                raise ValueError(f"{photo.path}: cannot encode for the cache")
            img = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            if img is None:
                raise ValueError(f"{photo.path}: cannot decode its own cache JPEG")
            try:
                cached.parent.mkdir(parents=True, exist_ok=True)
                tmp = cached.with_suffix(f".{os.getpid()}.tmp.jpg")
                tmp.write_bytes(jpeg.tobytes())
                os.replace(tmp, cached)
            except OSError:  # a read-only cache: decode from the package next time
                pass
    img.flags.writeable = False
    return img


def warm(cache_dir: Path | None = PHOTO_CACHE) -> int:
    """Scale every installed photo into the disk cache once (before worker processes start)."""
    n = 0
    for p in installed("photo"):
        load(p, cache_dir)
        n += 1
    load.cache_clear()
    return n


def photo_region(
    rng: np.random.Generator,
    size: tuple[int, int],
    kind: str = "photo",
    tile_px: float = 96.0,
    cache_dir: Path | None = PHOTO_CACHE,
) -> tuple[np.ndarray, PhotoFile] | None:
    """A ``size`` (h, w) BGR picture cut from a random installed photo (random crop, scale, mirror, 90°
    turn and colour balance), or a pattern tiled with one repetition ``tile_px`` wide; None when no file
    of ``kind`` is installed."""
    files = installed(kind)
    if not files:
        return None
    photo = files[int(rng.integers(len(files)))]
    src = load(photo, cache_dir)
    h, w = size
    if kind == "pattern":
        k = max(4.0, tile_px) / src.shape[1]
        src = cv2.resize(src, (max(4, round(src.shape[1] * k)), max(4, round(src.shape[0] * k))))
        reps = (h // src.shape[0] + 2, w // src.shape[1] + 2)
        big = np.tile(src, (reps[0], reps[1], 1))
        y0, x0 = int(rng.integers(src.shape[0])), int(rng.integers(src.shape[1]))
        out = big[y0 : y0 + h, x0 : x0 + w]
    else:
        if rng.random() < 0.5:
            src = np.ascontiguousarray(np.rot90(src))
        sh, sw = src.shape[:2]
        # a window of 35-100 % of the photo's short side, of the requested aspect
        frac = rng.uniform(0.35, 1.0)
        ch = min(sh, int(min(sh, sw * h / w) * frac))
        cw = min(sw, max(2, int(ch * w / h)))
        ch = max(2, min(sh, int(cw * h / w)))
        y0, x0 = int(rng.integers(0, sh - ch + 1)), int(rng.integers(0, sw - cw + 1))
        out = cv2.resize(src[y0 : y0 + ch, x0 : x0 + cw], (w, h), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        out = out[:, ::-1]
    gains = rng.uniform(0.8, 1.15) * (1 + rng.normal(0, 0.05, 3))
    return np.clip(out.astype(np.float32) * gains, 0, 255).astype(np.uint8), photo


def credits_table() -> str:
    """Markdown table of every catalogued picture: file, package, licence, author (for datasets/README.md)."""
    lines = ["| file | package | licence | author |", "|---|---|---|---|"]
    for p in CATALOGUE:
        lines.append(f"| `{p.path}` | `{p.package}` | {p.licence} | {p.credit} |")
    return "\n".join(lines)
