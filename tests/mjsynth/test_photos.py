import struct
from pathlib import Path

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth import backgrounds, photos
from mahjong_camera_scorer.mjsynth.scene import SceneOptions, render_scene
from tests.mjsynth.mjsynth_testutil import FAST_STYLES

ROOT = Path(__file__).resolve().parents[2]


def _pat(path: Path, px: np.ndarray) -> Path:
    h, w, depth = px.shape
    name = b"test\x00"
    path.write_bytes(struct.pack(">5I", 24 + len(name), 1, w, h, depth) + b"GPAT" + name + px.tobytes())
    return path


def test_gimp_patterns_are_decoded_as_bgr(tmp_path):
    rgb = np.zeros((3, 5, 3), np.uint8)
    rgb[..., 0] = 200  # red in RGB
    img = photos.read_pattern(_pat(tmp_path / "red.pat", rgb))
    assert img.shape == (3, 5, 3) and (img[..., 2] == 200).all() and (img[..., 0] == 0).all()
    grey = np.full((2, 2, 1), 77, np.uint8)
    assert (photos.read_pattern(_pat(tmp_path / "g.pat", grey)) == 77).all()
    (tmp_path / "bad.pat").write_bytes(b"\x00" * 40)
    with pytest.raises(ValueError, match="not a GIMP pattern"):
        photos.read_pattern(tmp_path / "bad.pat")


def test_every_picture_has_a_licence_and_is_credited_in_the_readme():
    readme = (ROOT / "datasets" / "README.md").read_text(encoding="utf-8")
    for p in photos.CATALOGUE:
        assert p.licence and p.package and p.credit and p.kind in ("photo", "pattern")
        assert str(p.path) in readme, f"{p.path} is not credited in datasets/README.md"
    assert photos.credits_table().count("\n") == len(photos.CATALOGUE) + 1


@pytest.mark.slow
def test_without_the_photo_packages_the_generator_uses_its_own_surfaces(monkeypatch, art, tmp_path):
    gone = tuple(
        photos.PhotoFile(tmp_path / p.path.name, p.package, p.licence, p.credit, p.kind)
        for p in photos.CATALOGUE
    )
    monkeypatch.setattr(photos, "CATALOGUE", gone)
    photos.installed.cache_clear()
    try:
        assert backgrounds.available_kinds() == backgrounds.KINDS + backgrounds.MAT_KINDS
        assert photos.photo_region(np.random.default_rng(0), (10, 10)) is None
        opts = SceneOptions(img_size=256, styles=FAST_STYLES, clutter_fraction=1.0, p_photo_room=1.0)
        for seed in range(4):
            _, man = render_scene(seed, art, opts)
            assert man["background"] not in backgrounds.PHOTO_KINDS and man["room"] != "photo"
            assert any(t["labelled"] for t in man["tiles"])
    finally:
        photos.installed.cache_clear()


def test_a_cold_photo_cache_gives_the_pixels_a_warm_one_does(tmp_path):
    """The first run decodes the package's picture and fills the cache; later runs read the cached JPEG.
    Both must give the same pixels, or a seed renders one photo on a fresh machine and another after."""
    rng = np.random.default_rng(3)
    px = cv2.GaussianBlur(rng.integers(0, 256, (300, 400, 3), dtype=np.uint8), (0, 0), 2)
    cv2.imwrite(str(tmp_path / "room.png"), px)
    picture = photos.PhotoFile(tmp_path / "room.png", "test", "CC0", "test")
    photos.load.cache_clear()
    cold = photos.load(picture, tmp_path / "cache")
    assert (tmp_path / "cache" / "room.jpg").is_file()
    photos.load.cache_clear()
    warm = photos.load(picture, tmp_path / "cache")
    photos.load.cache_clear()
    assert cold.shape == warm.shape == (150, 200, 3) and np.array_equal(cold, warm)  # read at half size


@pytest.mark.slow
@pytest.mark.skipif(
    not photos.installed("photo"), reason="photo packages missing: scripts/install_artwork.sh"
)
def test_installed_photos_give_surfaces_and_rooms(art, tmp_path):
    rng = np.random.default_rng(1)
    img, which = photos.photo_region(rng, (120, 200), "photo", cache_dir=tmp_path)
    assert img.shape == (120, 200, 3) and img.std() > 5 and which in photos.CATALOGUE
    assert "photo" in backgrounds.available_kinds()
    opts = SceneOptions(
        img_size=256,
        styles=FAST_STYLES,
        p_photo_room=1.0,
        backgrounds=("photo", "pattern"),
        elevation=(20, 40),
    )
    surfaces, rooms = set(), set()
    for seed in range(8):
        _, man = render_scene(seed, art, opts)
        surfaces.add(man["background"])
        rooms.add(man["room"])
    assert surfaces == {"photo", "pattern"} and "photo" in rooms
