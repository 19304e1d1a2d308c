"""Tile face artwork: one image per (style, code), whatever the source.

Every source (FluffyStuff SVGs in ``../shared``, the Debian tilesets, the procedural renderer) yields the same
thing, as ``faces`` defines it: the *front face* of a tile as a BGR ``uint8`` image of ``FACE_H x FACE_W``
pixels, edge to edge, with the face's own background colour. The tile body (``tilebody``) adds the bevel,
thickness and lighting, so a face here is flat and unlit.

Rasterising SVGs takes seconds per set, so faces are rendered once into a disk cache (PNG per face) and each
worker keeps decoded faces in memory. Sources whose files are missing are skipped, so the generator runs with
whatever is installed; ``require`` turns that into a clear error where a caller needs a source.
"""

from __future__ import annotations

import gzip
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth.faces import FACE_H, FACE_W, Source, Style, recolour_ink
from mahjong_camera_scorer.mjsynth.procedural import ProceduralSource
from mahjong_camera_scorer.mjsynth.tilebody import BACK_COLOURS
from mahjong_camera_scorer.vision.classes import BACK, TILE_CLASSES

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SHARED = REPO_ROOT.parent / "shared"
DEFAULT_CACHE = Path(os.environ.get("MJSYNTH_CACHE", REPO_ROOT / "data" / "cache" / "artwork"))

KDE_DIR = Path("/usr/share/kmahjongglib/tilesets")
GNOME_DIR = Path("/usr/share/gnome-mahjongg/themes")
XMJ_DIR = Path("/usr/share/games/xmahjongg/tiles")

IVORY = (222, 236, 242)  # BGR


class ArtworkMissing(RuntimeError):
    """An artwork source the caller asked for is not installed / not readable."""


# --------------------------------------------------------------------------------------------- helpers


def rgba_to_bgr(rgba: np.ndarray, bg: tuple[int, int, int]) -> np.ndarray:
    """Composite a BGRA image over a flat colour."""
    a = rgba[..., 3:4].astype(np.float32) / 255.0
    out = rgba[..., :3].astype(np.float32) * a + np.array(bg, np.float32) * (1 - a)
    return out.astype(np.uint8)


def fit_into_face(
    symbol: np.ndarray, bg: tuple[int, int, int], margin: float = 0.08, stretch: bool = False
) -> np.ndarray:
    """Place a BGRA symbol (cropped to its ink) centred on a face of colour ``bg``.

    ``stretch`` maps the symbol box onto the whole inner area (for sets whose element box *is* the face).
    """
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = bg
    if symbol.size == 0 or symbol.shape[0] < 2 or symbol.shape[1] < 2:
        return face
    iw, ih = int(FACE_W * (1 - 2 * margin)), int(FACE_H * (1 - 2 * margin))
    h, w = symbol.shape[:2]
    if stretch:
        nw, nh = iw, ih
    else:
        s = min(iw / w, ih / h)
        nw, nh = max(1, round(w * s)), max(1, round(h * s))
    sym = cv2.resize(symbol, (nw, nh), interpolation=cv2.INTER_AREA if nw < w else cv2.INTER_CUBIC)
    x0, y0 = (FACE_W - nw) // 2, (FACE_H - nh) // 2
    roi = face[y0 : y0 + nh, x0 : x0 + nw].astype(np.float32)
    a = sym[..., 3:4].astype(np.float32) / 255.0
    face[y0 : y0 + nh, x0 : x0 + nw] = (roi * (1 - a) + sym[..., :3] * a).astype(np.uint8)
    return face


def crop_to_alpha(rgba: np.ndarray, thresh: int = 8) -> np.ndarray:
    ys, xs = np.nonzero(rgba[..., 3] > thresh)
    if len(ys) == 0:
        return rgba[:0, :0]
    return rgba[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def decode_png(data: bytes) -> np.ndarray:
    im = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if im is None:
        raise ValueError("could not decode image")
    if im.ndim == 2:
        im = cv2.cvtColor(im, cv2.COLOR_GRAY2BGRA)
    elif im.shape[2] == 3:
        im = cv2.cvtColor(im, cv2.COLOR_BGR2BGRA)
    return im


def render_svg(svg: str | None = None, path: Path | None = None, width: int | None = None) -> np.ndarray:
    """Rasterise an SVG to BGRA with resvg (pip ``resvg-py``: a self-contained wheel, no system library)."""
    try:
        import resvg_py
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ArtworkMissing("resvg-py is not installed: pip install -e '.[synth]'") from e
    size = width or None  # None: the SVG's own size
    if path is not None:
        data = resvg_py.svg_to_bytes(svg_path=str(path), width=size)
    else:
        data = resvg_py.svg_to_bytes(svg_string=svg, width=size)
    return decode_png(bytes(data))


# --------------------------------------------------------------------------------------------- sources


_FLUFFY_NAMES = {
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun",
    "0m": "Man5-Dora", "0p": "Pin5-Dora", "0s": "Sou5-Dora",
}  # fmt: skip


class FluffySource(Source):
    """FluffyStuff's CC0 riichi tiles (``Regular`` ivory and ``Black`` faces), read from ``../shared``."""

    name = "fluffystuff"

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def available(self) -> bool:
        return (self.root / "Regular" / "Man1.svg").is_file()

    def styles(self) -> list[Style]:
        out = []
        for variant in ("Regular", "Black"):
            if (self.root / variant).is_dir():
                out.append(
                    Style(f"fluffy-{variant.lower()}", self.name, set(_FLUFFY_NAMES), "CC0 riichi set")
                )
        return out

    def render(self, style: str, code: str) -> np.ndarray:
        variant = "Regular" if style.endswith("regular") else "Black"
        front = render_svg(path=self.root / variant / "Front.svg", width=300)
        sym = render_svg(path=self.root / variant / f"{_FLUFFY_NAMES[code]}.svg", width=300)
        front_bgr = rgba_to_bgr(front, (128, 128, 128))
        bg = tuple(int(v) for v in np.median(front_bgr[40:-40, 40:-40].reshape(-1, 3), axis=0))
        # the symbol SVG is drawn for a 300x400 face: inset it like the real tile's engraving margin
        sym = cv2.resize(sym, (int(FACE_W * 0.86), int(FACE_H * 0.86)), interpolation=cv2.INTER_AREA)
        face = np.empty((FACE_H, FACE_W, 3), np.uint8)
        face[:] = bg
        y0, x0 = (FACE_H - sym.shape[0]) // 2, (FACE_W - sym.shape[1]) // 2
        roi = face[y0 : y0 + sym.shape[0], x0 : x0 + sym.shape[1]].astype(np.float32)
        a = sym[..., 3:4] / 255.0
        face[y0 : y0 + sym.shape[0], x0 : x0 + sym.shape[1]] = (roi * (1 - a) + sym[..., :3] * a).astype(
            np.uint8
        )
        return face


# KDE element ids per code (checked visually: WIND_1..4 = N S E W, DRAGON_1..3 = white green red).
_KDE_IDS = {
    **{f"{n}m": f"CHARACTER_{n}" for n in range(1, 10)},
    **{f"{n}p": f"ROD_{n}" for n in range(1, 10)},
    **{f"{n}s": f"BAMBOO_{n}" for n in range(1, 10)},
    "1z": "WIND_3", "2z": "WIND_2", "3z": "WIND_4", "4z": "WIND_1",
    "5z": "DRAGON_1", "6z": "DRAGON_2", "7z": "DRAGON_3",
    **{f"{n}f": f"FLOWER_{n}" for n in range(1, 5)},
    **{f"{n + 4}f": f"SEASON_{n}" for n in range(1, 5)},
}  # fmt: skip

#: KDE sets that look like real tiles (``alphabet`` and ``egypt`` draw letters/hieroglyphs: no player owns
#: those, so they would only teach the reader wrong shapes). name -> (face colour BGR, stretch element box)
_KDE_SETS: dict[str, tuple[tuple[int, int, int], bool]] = {
    "default": ((226, 240, 244), True),
    "traditional": ((214, 232, 238), True),
    "classic": ((232, 238, 240), False),
    "jade": ((120, 150, 60), False),
}
_KDE_NAMES = re.compile(r"^(CHARACTER|BAMBOO|ROD|SEASON|WIND|DRAGON|FLOWER)_\d$|^TILE|^SHAD|^SELECT")
_SVG_NS = "{http://www.w3.org/2000/svg}"


def isolate_svg_element(raw: str, target: str) -> str:
    """Return the SVG document with only ``target`` drawn.

    Everything not on the path from the root to the target is moved into a ``<defs>`` so references
    (gradients, ``<use>``) still resolve but nothing else is painted.
    """
    ET.register_namespace("", "http://www.w3.org/2000/svg")
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    root = ET.fromstring(raw)
    parent = {c: p for p in root.iter() for c in p}
    node = next((e for e in root.iter() if e.get("id") == target), None)
    if node is None:
        raise KeyError(target)
    path = [node]
    while path[-1] in parent:
        path.append(parent[path[-1]])
    keep = {id(n) for n in path}
    store = ET.SubElement(root, _SVG_NS + "defs")
    for anc in path[1:]:
        for ch in list(anc):
            tag = ch.tag if isinstance(ch.tag, str) else ""
            if (
                id(ch) in keep
                or ch is store
                or tag in (_SVG_NS + "defs", _SVG_NS + "metadata", _SVG_NS + "style")
            ):
                continue
            if "namedview" in tag:
                continue
            anc.remove(ch)
            store.append(ch)
    return ET.tostring(root, encoding="unicode")


class KdeSource(Source):
    """KDE's kmahjongg SVG tilesets (Debian ``kdegames-mahjongg-data-kf5``)."""

    name = "kde"

    def __init__(self, root: Path = KDE_DIR) -> None:
        self.root = Path(root)
        self._raw: dict[str, str] = {}

    def available(self) -> bool:
        return any((self.root / f"{s}.svgz").is_file() for s in _KDE_SETS)

    def styles(self) -> list[Style]:
        return [
            Style(f"kde-{s}", self.name, set(_KDE_IDS), "kmahjongg SVG set")
            for s in _KDE_SETS
            if (self.root / f"{s}.svgz").is_file()
        ]

    def render(self, style: str, code: str) -> np.ndarray:
        s = style.removeprefix("kde-")
        if s not in self._raw:
            with gzip.open(self.root / f"{s}.svgz") as fh:
                self._raw[s] = fh.read().decode("utf-8")
        bg, stretch = _KDE_SETS[s]
        sym = crop_to_alpha(render_svg(isolate_svg_element(self._raw[s], _KDE_IDS[code]), width=1500))
        if s == "jade":  # white engraving on green jade: lift the glyphs to a pale gold-white
            sym = sym.copy()
            sym[..., :3] = np.maximum(sym[..., :3], 200)
        return fit_into_face(sym, bg, margin=0.05 if stretch else 0.1, stretch=stretch)


# gnome-mahjongg themes: one row of 43 tiles (normal), then the same highlighted. Order of the row:
_GNOME_ORDER = (
    [f"{n}p" for n in range(1, 10)] + ["4z", "3z", "2z", "1z", "7z", "6z"]
    + [f"{n}m" for n in range(1, 10)] + [f"{n}s" for n in range(1, 10)]
    + ["2f", "3f", "1f", "4f", "5z", "5f", "6f", "7f", "8f"]
)  # fmt: skip
# face rectangle inside one cell, as fractions of the cell (the rest is the drawn tile body)
_GNOME_SETS = {
    "smooth": ("smooth.png", (0.105, 0.02, 0.945, 0.865)),
    "postmodern": ("postmodern.svg", (0.1, 0.02, 0.95, 0.87)),
}


class GnomeSource(Source):
    """gnome-mahjongg's tile themes (Debian ``gnome-mahjongg``): the face is cut out of each drawn tile."""

    name = "gnome"

    def __init__(self, root: Path = GNOME_DIR) -> None:
        self.root = Path(root)
        self._sheet: dict[str, np.ndarray] = {}

    def available(self) -> bool:
        return any((self.root / f).is_file() for f, _ in _GNOME_SETS.values())

    def styles(self) -> list[Style]:
        out = []
        for s, (f, _) in _GNOME_SETS.items():
            if (self.root / f).is_file():
                codes = set(_GNOME_ORDER)
                if s == "postmodern":  # its white dragon is the GNOME logo, its bonus tiles abstract pictures
                    codes -= {"5z", "1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"}
                out.append(Style(f"gnome-{s}", self.name, codes, "gnome-mahjongg theme"))
        return out

    def render(self, style: str, code: str) -> np.ndarray:
        s = style.removeprefix("gnome-")
        fname, (fx0, fy0, fx1, fy1) = _GNOME_SETS[s]
        if s not in self._sheet:
            p = self.root / fname
            self._sheet[s] = (
                render_svg(path=p, width=43 * 96) if p.suffix == ".svg" else decode_png(p.read_bytes())
            )
        sheet = self._sheet[s]
        cw, ch = sheet.shape[1] / 43, sheet.shape[0] / 2
        i = _GNOME_ORDER.index(code)
        x0, x1 = round((i + fx0) * cw), round((i + fx1) * cw)
        y0, y1 = round(fy0 * ch), round(fy1 * ch)
        cell = rgba_to_bgr(sheet[y0:y1, x0:x1], IVORY)
        return cv2.resize(cell, (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)


def _xmj_real_grid() -> dict[str, tuple[int, int]]:
    g: dict[str, tuple[int, int]] = {}
    for n in range(1, 10):
        g[f"{n}p"], g[f"{n}s"], g[f"{n}m"] = (0, n - 1), (1, n - 1), (2, n - 1)
    for i, c in enumerate(["5f", "6f", "7f", "8f", "4z", "2z", "1z", "3z"]):
        g[c] = (3, i)
    for i, c in enumerate(["1f", "2f", "3f", "4f", "6z", "5z", "7z"]):
        g[c] = (4, i)
    return g


_DOROTHY_ORDER = (
    [f"{n}p" for n in range(1, 10)] + ["4z", "3z", "2z", "1z", "7z", "6z"] + [f"{n}m" for n in range(1, 7)],
    [f"{n}m" for n in range(7, 10)] + [f"{n}s" for n in range(1, 10)]
    + ["5f", "6f", "7f", "8f", "5z", "4f", "2f", "1f", "3f"],
)  # fmt: skip


class XmahjonggSource(Source):
    """xmahjongg's GIF tilesets (Debian ``xmahjongg``): ``real`` is scanned from a real Chinese set,
    ``dorothys`` is a western set with index numerals and English captions."""

    name = "xmahjongg"

    def __init__(self, root: Path = XMJ_DIR) -> None:
        self.root = Path(root)
        self._sheet: dict[str, np.ndarray] = {}

    def available(self) -> bool:
        return (self.root / "real.gif").is_file() or (self.root / "dorothys.gif").is_file()

    def styles(self) -> list[Style]:
        out = []
        if (self.root / "real.gif").is_file():
            out.append(Style("xmj-real", self.name, set(_xmj_real_grid()), "scan of a real Chinese set"))
        if (self.root / "dorothys.gif").is_file():
            codes = set(_DOROTHY_ORDER[0]) | set(_DOROTHY_ORDER[1])
            out.append(Style("xmj-dorothys", self.name, codes, "western set with index numerals"))
        return out

    def _load(self, name: str) -> np.ndarray:
        if name not in self._sheet:
            from PIL import Image  # GIF decoding: OpenCV has none

            self._sheet[name] = cv2.cvtColor(
                np.asarray(Image.open(self.root / f"{name}.gif").convert("RGB")), cv2.COLOR_RGB2BGR
            )
        return self._sheet[name]

    def render(self, style: str, code: str) -> np.ndarray:
        if style == "xmj-real":
            sheet = self._load("real")
            r, c = _xmj_real_grid()[code]
            cw, ch = 532 / 9, 396 / 5
            cell = sheet[
                round(r * ch) + 4 : round((r + 1) * ch) - 4, round(c * cw) + 4 : round((c + 1) * cw) - 4
            ]
        else:
            sheet = self._load("dorothys")
            r = 0 if code in _DOROTHY_ORDER[0] else 1
            c = _DOROTHY_ORDER[r].index(code)
            cell = sheet[r * 80 + 3 : r * 80 + 66, c * 64 + 3 : c * 64 + 53]
        return cv2.resize(cell, (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)


# --------------------------------------------------------------------------------------------- registry


class Artwork:
    """All tile styles from all installed sources behind one interface: ``face(style, code)``.

    Red fives: a style that has no own red five gets one made from its plain five with ``recolour_ink``
    (riichi sets mark the red five exactly so: the same drawing in red ink).
    """

    def __init__(
        self,
        shared_dir: Path | None = DEFAULT_SHARED,
        cache_dir: Path | None = DEFAULT_CACHE,
        sources: Iterable[str] | None = None,
        include_procedural: bool = True,
    ) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir else None
        cands: list[Source] = []
        if shared_dir is not None:
            cands.append(FluffySource(Path(shared_dir) / "artwork" / "fluffystuff"))
        cands += [KdeSource(), GnomeSource(), XmahjonggSource()]
        self.sources: dict[str, Source] = {}
        for src in cands:
            if (sources is None or src.name in sources) and src.available():
                self.sources[src.name] = src
        self._style: dict[str, Style] = {}
        for src in self.sources.values():
            for st in src.styles():
                self._style[st.name] = st
        if include_procedural and (sources is None or "procedural" in sources):
            proc = ProceduralSource(self)
            self.sources[proc.name] = proc
            for st in proc.styles():
                self._style[st.name] = st
        # derived red fives for every style with plain fives and no red ones
        for st in self._style.values():
            for suit in "mps":
                if f"0{suit}" not in st.codes and f"5{suit}" in st.codes:
                    st.codes.add(f"0{suit}")
                    st.derived[f"0{suit}"] = f"recoloured 5{suit}"
        self._mem: dict[tuple[str, str], np.ndarray] = {}

    # -- queries
    @property
    def styles(self) -> dict[str, Style]:
        return dict(self._style)

    def styles_for(self, code: str) -> list[str]:
        return sorted(s for s, st in self._style.items() if code in st.codes)

    def require(self, *names: str) -> None:
        missing = [n for n in names if n not in self.sources]
        if missing:
            raise ArtworkMissing(
                f"artwork source(s) not available: {', '.join(missing)} "
                "(FluffyStuff is read from ../shared/artwork/fluffystuff; "
                "the Debian sets come from scripts/install_artwork.sh)"
            )

    # -- faces
    def face(self, style: str, code: str) -> np.ndarray:
        """The flat face image (BGR, FACE_H x FACE_W) of ``code`` in ``style``."""
        key = (style, code)
        if key in self._mem:
            return self._mem[key]
        st = self._style[style]
        if code not in st.codes:
            raise KeyError(f"style {style} has no {code}")
        path = self.cache_dir / style / f"{code}.png" if self.cache_dir else None
        img = cv2.imread(str(path), cv2.IMREAD_COLOR) if path is not None and path.is_file() else None
        if img is None or img.shape[:2] != (FACE_H, FACE_W):
            img = self._render(st, code)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp.png")
                cv2.imwrite(str(tmp), img)
                os.replace(tmp, path)
        self._mem[key] = img
        return img

    def _render(self, st: Style, code: str) -> np.ndarray:
        derived = st.derived.get(code, "")
        if derived.startswith("recoloured 5"):
            base = self.face(st.name, "5" + code[1])
            return recolour_ink(base, (30, 30, 200))
        return self.sources[st.source].render(st.name, code)

    def warm(
        self, progress: Callable[[list[tuple[str, str]]], Iterable[tuple[str, str]]] | None = None
    ) -> int:
        """Render every face into the disk cache (done once, before workers start). Returns the count."""
        items = [(s, c) for s, st in self._style.items() for c in sorted(st.codes)]
        it = progress(items) if progress else items
        for s, c in it:
            self.face(s, c)
        return len(items)


def coverage_table(art: Artwork) -> str:
    """Markdown table: for each reader class, how many styles draw it, and which (for datasets/README.md).

    The face-down class is drawn by the tile body, one style per back-layer colour."""
    lines = ["| class | styles | which |", "|---|---|---|"]
    for code in TILE_CLASSES:
        if code == BACK:
            names = [f"back-{c}" for c in sorted(BACK_COLOURS)]
        else:
            names = []
            for s in art.styles_for(code):
                how = art.styles[s].derived.get(code)
                names.append(f"{s} ({how})" if how else s)
        lines.append(f"| `{code}` | {len(names)} | {', '.join(names)} |")
    return "\n".join(lines)
