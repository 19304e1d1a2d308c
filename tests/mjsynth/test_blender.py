"""The 3-D renderer: the plan's camera as Blender takes it, and (where ``bpy`` is installed: the
``.venv-render`` of ``make_models.sh`` stage ``render``) a small scene rendered and labelled."""

from __future__ import annotations

import importlib.util
import random

import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.artwork import Artwork
from mahjong_camera_scorer.mjsynth.blender import camera_setup, expose, project_with, tile_geometry
from mahjong_camera_scorer.mjsynth.camera import Camera
from mahjong_camera_scorer.mjsynth.scene import SceneOptions, plan_scene, render_scene
from tests.mjsynth.mjsynth_testutil import FAST_STYLES

HAS_BPY = importlib.util.find_spec("bpy") is not None


def _opts(**kw: object) -> SceneOptions:
    return SceneOptions(img_size=320, styles=FAST_STYLES, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("width", "height", "shift"), [(640, 480, (0.0, 0.0)), (360, 640, (0.0, 0.0)), (640, 360, (37.0, -21.0))]
)
def test_blender_camera_projects_as_the_plans_camera(
    width: int, height: int, shift: tuple[float, float]
) -> None:
    cam = Camera.look_at(np.array([30.0, -40.0, 0.0]), 38.0, 14.0, 7.0, 650.0, 62.0, width, height)
    cam.shift(*shift)  # a close-up's crop of a larger sensor moves the principal point
    pts = np.random.default_rng(0).uniform([-300, -300, 0], [300, 300, 60], (50, 3))
    assert np.allclose(project_with(camera_setup(cam), pts), cam.project(pts), atol=1e-6)


def test_blender_camera_is_a_rotation_looking_at_the_target() -> None:
    target = np.array([0.0, 0.0, 0.0])
    setup = camera_setup(Camera.look_at(target, 45.0, 0.0, 0.0, 500.0, 60.0, 640, 480))
    rot = np.array(setup.rotation)
    assert np.allclose(rot @ rot.T, np.eye(3), atol=1e-9) and np.isclose(np.linalg.det(rot), 1.0)
    backward = rot[:, 2]  # Blender's camera looks down its -z
    to_target = target * 0.001 - np.array(setup.location)
    assert np.allclose(-backward, to_target / np.linalg.norm(to_target))


@pytest.mark.parametrize("scale", [0.02, 1.0, 40.0])
def test_a_render_is_exposed_as_a_phone_meters_it(scale: float) -> None:
    """A white table under a near lamp and a black one in a dim room come out alike: the scene's
    mean metered to mid-grey (within the stops drawn), not blank or black."""
    rng = np.random.default_rng(1)
    linear = (rng.uniform(0.05, 0.6, (60, 80, 3)) * scale).astype(np.float32)
    linear[:10, :10] = 1e3 * scale  # a lamp's highlight clips, it does not set the exposure
    photo = expose(linear, random.Random(0))
    assert photo.dtype == np.uint8 and photo.shape == (60, 80, 3)
    assert 60 < float(photo[10:, 10:].mean()) < 170
    assert (photo[:10, :10] == 255).all()


def test_the_plan_is_what_the_painter_paints(art: Artwork) -> None:
    """A seed's plan is the first half of its 2-D photo: the same tiles, the same camera."""
    opts = _opts(force_kind="automatic")
    plan = plan_scene(21, art, opts)
    _, manifest = render_scene(21, art, opts)
    assert [t.code for t in plan.tiles] == [t["code"] for t in manifest["tiles"]]
    assert manifest["camera"]["elevation"] == round(plan.shot.elevation, 1)
    geo = tile_geometry(plan)
    drawn = [t for t in manifest["tiles"] if t["box"] is not None]
    assert drawn and len(geo) == len(plan.tiles)
    for i, t in enumerate(manifest["tiles"]):  # the quads the labels are read from
        assert np.allclose(np.array(t["quad"]), np.round(geo[i]["quad"], 1), atol=0.06)


@pytest.mark.slow
@pytest.mark.skipif(not HAS_BPY, reason="no bpy (Blender as a module): STAGE=render scripts/make_models.sh")
def test_a_rendered_table_is_labelled_where_its_tiles_are(art: Artwork) -> None:
    from mahjong_camera_scorer.mjsynth.blender import render_plan

    plan = plan_scene(5, art, _opts(force_kind="automatic"))
    made = render_plan(plan, art, samples=2, threads=2)
    assert made.image.shape == (plan.shot.height, plan.shot.width, 3)
    shown = set(np.unique(made.ids)) - {-1}
    assert len(shown) > 20  # an automatic table: walls, ponds, four hands
    geo = tile_geometry(plan)
    inside = 0
    for i in shown:  # Blender's camera sees each tile where the plan's camera projects it
        ys, xs = np.nonzero(made.ids == i)
        sil = geo[int(i)]["silhouette"]
        lo, hi = sil.min(axis=0) - 2, sil.max(axis=0) + 2
        inside += bool(lo[0] <= xs.mean() <= hi[0] and lo[1] <= ys.mean() <= hi[1])
    assert inside == len(shown)
