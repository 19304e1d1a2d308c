import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.artwork import Artwork, isolate_svg_element
from mahjong_camera_scorer.mjsynth.faces import FACE_CODES, FACE_H, FACE_W, recolour_ink
from mahjong_camera_scorer.vision.classes import BACK, TILE_CLASSES
from tests.mjsynth.mjsynth_testutil import HAS_SHARED, SHARED, needs_debian, needs_fonts, needs_shared

MIN_STYLES = 5


def test_face_codes_are_the_reader_classes_minus_back():
    assert set(FACE_CODES) | {BACK} == set(TILE_CLASSES)


@needs_fonts
def test_procedural_alone_covers_every_face_class(tmp_path):
    art = Artwork(shared_dir=None, cache_dir=tmp_path, sources=["procedural"])
    for code in FACE_CODES:
        assert len(art.styles_for(code)) >= 5, code
    f = art.face("proc-western", "0p")
    assert f.shape == (FACE_H, FACE_W, 3) and f.dtype == np.uint8
    # a red five is red: more red than blue ink
    assert f[..., 2].astype(int).sum() > f[..., 0].astype(int).sum()


@needs_fonts
@needs_debian
@needs_shared
def test_coverage_every_class_has_at_least_five_styles(art):
    for code in FACE_CODES:
        assert len(art.styles_for(code)) >= MIN_STYLES, (code, art.styles_for(code))
    # the face-down class is drawn by the tile body with these back colours
    from mahjong_camera_scorer.mjsynth.tilebody import BACK_COLOURS

    assert len(BACK_COLOURS) >= MIN_STYLES


@pytest.mark.slow
@needs_debian
def test_every_debian_style_renders_a_face(tmp_path):
    art = Artwork(shared_dir=None, cache_dir=tmp_path, sources=["kde", "gnome", "xmahjongg"])
    assert {"kde-default", "gnome-smooth", "xmj-real"} <= set(art.styles)
    for style in art.styles:
        f = art.face(style, "7z")
        assert f.shape == (FACE_H, FACE_W, 3)
        assert f.std() > 10, style  # not blank
    # cached on disk, and read back identical
    again = Artwork(shared_dir=None, cache_dir=tmp_path, sources=["kde"])
    assert np.array_equal(again.face("kde-default", "7z"), art.face("kde-default", "7z"))


@needs_shared
def test_fluffystuff_read_from_shared(tmp_path):
    art = Artwork(shared_dir=SHARED, cache_dir=tmp_path, sources=["fluffystuff"])
    assert {"fluffy-regular", "fluffy-black"} <= set(art.styles)
    assert "1f" not in art.styles["fluffy-regular"].codes  # riichi sets have no flowers
    f = art.face("fluffy-regular", "0m")
    assert f.shape == (FACE_H, FACE_W, 3)


def test_missing_shared_is_skipped_not_fatal(tmp_path):
    art = Artwork(shared_dir=tmp_path / "nowhere", cache_dir=tmp_path, sources=["fluffystuff"])
    assert "fluffystuff" not in art.sources
    with pytest.raises(Exception, match="fluffystuff"):
        art.require("fluffystuff")


def test_isolate_svg_element_keeps_only_the_target():
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        '<g id="A"><rect id="CHARACTER_1"/></g>'
        '<rect id="CHARACTER_2"/></svg>'
    )
    out = isolate_svg_element(svg, "CHARACTER_1")
    body = out.split("<defs>")[0] if "<defs>" in out else out
    assert "CHARACTER_1" in body
    assert "CHARACTER_2" in out.split("CHARACTER_1")[1]  # moved after the target, into defs


def test_recolour_ink_turns_ink_red():
    face = np.full((40, 30, 3), 230, np.uint8)
    face[10:30, 10:20] = (20, 20, 20)
    red = recolour_ink(face, (30, 30, 200))
    assert red[20, 15, 2] > red[20, 15, 0] + 40
    assert abs(int(red[2, 2, 0]) - 230) < 3


def test_shared_flag_reflects_folder():
    assert (SHARED / "artwork" / "fluffystuff").is_dir() == HAS_SHARED or not HAS_SHARED
