"""A scene plan rendered in 3-D with Blender's Cycles: light on a blank face, a tile's side, a back.

The 2-D generator (:func:`mjsynth.scene.render_scene`) paints each tile as flat shaded polygons: it
cannot show how an overhead lamp lights a blank white dragon, the sheen on a back, the shadow a
standing row casts on its own faces, or a kong's two backs among three faces in the player's view of
an automatic table (issue 33, item 4). This renders the **same plan** (:func:`mjsynth.scene.plan_scene`:
the hands, walls, ponds, dice and the camera, in table millimetres) with a path tracer: each tile a
bevelled two-layer body (the face-coloured front, the coloured back) carrying its face image, the
table a textured surface (an automatic table's felt, its raised frame and its centre panel), lit by
an area lamp and the room. The labels come from the renderer's own object-index pass (what each
pixel shows), read by the same rules as the 2-D photos (:func:`mjsynth.scene.label_tiles`), so
the datasets mix.

``bpy`` (Blender as a Python module, ``bpy==4.2.0`` for Python 3.11, ~0.5 GB) is not a project
dependency: it lives in its own venv (``make_models.sh`` stage ``render``), and this module imports
it only when a scene is rendered. Cycles on 2 CPU cores: about 9 s a 640 px photo at 24 samples
with the denoiser (``scripts/render_scenes.py`` renders in the background, resuming where it stopped).
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth import backgrounds
from mahjong_camera_scorer.mjsynth.camera import Camera, photograph
from mahjong_camera_scorer.mjsynth.scene import (
    OBJECT_ID_BASE,
    SceneOptions,
    ScenePlan,
    face_image,
    label_tiles,
    plan_scene,
    scene_manifest,
)
from mahjong_camera_scorer.mjsynth.tilebody import TileDims, TileInstance, draw_tile

if TYPE_CHECKING:
    from mahjong_camera_scorer.mjsynth.artwork import Artwork
    from mahjong_camera_scorer.mjsynth.camera import PhotoLog
    from mahjong_camera_scorer.mjsynth.manifest import Manifest
    from mahjong_camera_scorer.mjsynth.tilebody import TileGeometry

#: Blender works in metres, the plan in millimetres.
MM = 0.001
#: The sensor width the lens is given against (any width works: the lens is scaled to it).
SENSOR_MM = 36.0
#: How far a tile's edges are rounded (mm), and in how many segments.
BEVEL_MM, BEVEL_SEGMENTS = 1.1, 2
#: The face image lies this far in front of the front layer (mm): over it, never inside it.
FACE_LIFT_MM = 0.06
#: Felt colours of automatic tables (sRGB, 0-255): green, blue, grey, wine, black.
FELT = ((38, 110, 70), (30, 80, 140), (60, 70, 80), (110, 35, 45), (30, 32, 36), (20, 95, 110))
#: Frames of automatic tables and of plain ones (sRGB): black, dark grey, wood, white.
FRAMES = ((18, 18, 20), (45, 47, 52), (120, 80, 45), (215, 215, 210))


@dataclass(frozen=True)
class CameraSetup:
    """A plan's pinhole camera as Blender takes it: where it stands (m), how it is turned (columns:
    the camera's right, up and backward axes in the world), its lens against :data:`SENSOR_MM`, and
    the principal point's shift (in units of the frame's long side)."""

    location: tuple[float, ...]  # x, y, z
    rotation: tuple[tuple[float, ...], ...]  # 3 x 3, world from camera
    lens_mm: float
    shift_x: float
    shift_y: float
    width: int
    height: int


def camera_setup(cam: Camera) -> CameraSetup:
    """The Blender camera that sees what ``cam`` projects (:meth:`Camera.project`): Blender's camera
    looks down its local -z with +y up, the plan's camera down its ``R`` row 2 with row 1 down."""
    right, down, forward = cam.R[0], cam.R[1], cam.R[2]
    rot = np.column_stack([right, -down, -forward])
    fpx = float(cam.K[0, 0])
    long_side = max(cam.width, cam.height)
    # Blender's sensor width spans the long side of the frame (sensor_fit AUTO)
    lens = fpx * SENSOR_MM / long_side
    shift_x = -(float(cam.K[0, 2]) - cam.width / 2) / long_side
    shift_y = (float(cam.K[1, 2]) - cam.height / 2) / long_side
    return CameraSetup(
        tuple(float(v) * MM for v in cam.C),
        tuple(tuple(float(v) for v in row) for row in rot),
        lens,
        shift_x,
        shift_y,
        cam.width,
        cam.height,
    )


def project_with(setup: CameraSetup, pts_mm: np.ndarray) -> np.ndarray:
    """Pixels (N, 2) of world points (N, 3, mm) as Blender's camera ``setup`` sees them: the pinhole
    model Blender uses (lens over sensor width, the frame's long side; shift in long sides), for
    checking :func:`camera_setup` without Blender."""
    rot = np.array(setup.rotation)
    local = (pts_mm * MM - np.array(setup.location)) @ rot  # camera coordinates: x right, y up, z back
    depth = -local[:, 2]
    long_side = max(setup.width, setup.height)
    f = setup.lens_mm / SENSOR_MM * long_side
    u = setup.width / 2 + f * local[:, 0] / depth - setup.shift_x * long_side
    v = setup.height / 2 - f * local[:, 1] / depth + setup.shift_y * long_side
    return np.column_stack([u, v])


def tile_geometry(plan: ScenePlan) -> dict[int, TileGeometry]:
    """Each tile's projected geometry (corners, the face as read, silhouette, which broad side
    shows), as the 2-D painter computes it, on a scratch canvas: the labels' quads and outlines."""
    shot = plan.shot
    canvas = np.zeros((shot.height, shot.width, 3), np.uint8)
    ids = np.full((shot.height, shot.width), -1, np.int32)
    light, geo = np.array([0.0, 0.0, 1.0]), {}
    for i, t in enumerate(plan.tiles):
        geo[i] = draw_tile(canvas, ids, i, t, plan.look.dims, None, shot.cam.project, shot.cam.C, light, 0.6)
    return geo


def _linear(bgr: tuple[float, ...]) -> tuple[float, float, float, float]:
    """An sRGB colour (BGR, 0-255) as Blender's linear RGBA."""
    out = []
    for c in (bgr[2], bgr[1], bgr[0]):
        s = min(max(c / 255.0, 0.0), 1.0)
        out.append(s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4)
    return (out[0], out[1], out[2], 1.0)


@dataclass
class Render3D:
    """What the path tracer made of a plan: the photo as rendered (BGR, before the phone's
    degradations) and, per pixel, the index of the tile it shows (-1: none)."""

    image: np.ndarray
    ids: np.ndarray
    look: dict[str, Any]


class _Builder:
    """Builds one plan's Blender scene (factory settings first: nothing of the last scene stays)."""

    def __init__(self, plan: ScenePlan, art: Artwork, rng: random.Random, samples: int, threads: int) -> None:
        import bpy

        self.bpy = bpy
        self.plan, self.art, self.rng = plan, art, rng
        bpy.ops.wm.read_factory_settings(use_empty=True)
        self.scene = bpy.context.scene
        self._settings(samples, threads)
        self.looked: dict[str, Any] = {}
        self._materials: dict[str, Any] = {}

    # -- render settings -------------------------------------------------------------------------
    def _settings(self, samples: int, threads: int) -> None:
        sc, shot = self.scene, self.plan.shot
        sc.render.engine = "CYCLES"
        sc.cycles.device = "CPU"
        sc.cycles.samples = samples
        sc.cycles.use_denoising = True
        sc.cycles.max_bounces = 4
        sc.cycles.use_adaptive_sampling = True
        sc.render.threads_mode = "FIXED"
        sc.render.threads = threads
        sc.render.resolution_x, sc.render.resolution_y = shot.width, shot.height
        sc.render.resolution_percentage = 100
        sc.view_settings.view_transform = "Standard"
        sc.view_layers[0].use_pass_object_index = True

    # -- materials -------------------------------------------------------------------------------
    def material(
        self, name: str, colour: tuple[float, ...], roughness: float, image: np.ndarray | None = None
    ) -> Any:
        """A plastic-like material: a flat linear colour, or an image (BGR) as its base colour."""
        if name in self._materials:
            return self._materials[name]
        bpy = self.bpy
        mat = bpy.data.materials.new(name)
        mat.use_nodes = True
        bsdf = mat.node_tree.nodes["Principled BSDF"]
        bsdf.inputs["Roughness"].default_value = roughness
        if image is None:
            bsdf.inputs["Base Color"].default_value = colour
        else:
            tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
            tex.image = self._image(name, image)
            tex.interpolation = "Cubic"
            mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
        self._materials[name] = mat
        return mat

    def _image(self, name: str, bgr: np.ndarray) -> Any:
        h, w = bgr.shape[:2]
        img = self.bpy.data.images.new(name, width=w, height=h, alpha=True)
        rgba = np.ones((h, w, 4), np.float32)
        rgba[..., :3] = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)[::-1].astype(np.float32) / 255.0
        img.pixels.foreach_set(rgba.ravel())
        img.pack()
        return img

    # -- meshes ----------------------------------------------------------------------------------
    def box_mesh(self, name: str, lo: tuple[float, float, float], hi: tuple[float, float, float]) -> Any:
        """A box between two corners (metres), its edges rounded by :data:`BEVEL_MM`."""
        import bmesh

        bm = bmesh.new()
        bmesh.ops.create_cube(bm, size=1.0)
        for v in bm.verts:
            v.co = [lo[k] + (hi[k] - lo[k]) * (v.co[k] + 0.5) for k in range(3)]
        width = min(BEVEL_MM * MM, 0.3 * min(hi[k] - lo[k] for k in range(3)))
        bmesh.ops.bevel(
            bm, geom=list(bm.edges), offset=width, segments=BEVEL_SEGMENTS, affect="EDGES", profile=0.5
        )
        me = self.bpy.data.meshes.new(name)
        bm.to_mesh(me)
        bm.free()
        for p in me.polygons:
            p.use_smooth = True
        return me

    def plane_mesh(self, name: str, half_w: float, half_h: float, z: float) -> Any:
        """A rectangle in the local u-v plane at height ``z`` (metres), mapped 0-1 for a face image."""
        me = self.bpy.data.meshes.new(name)
        me.from_pydata(
            [(-half_w, -half_h, z), (half_w, -half_h, z), (half_w, half_h, z), (-half_w, half_h, z)],
            [],
            [(0, 1, 2, 3)],
        )
        uv = me.uv_layers.new(name="UVMap")
        for loop, (s, t) in zip(uv.data, ((0, 0), (1, 0), (1, 1), (0, 1)), strict=True):
            loop.uv = (s, t)
        return me

    def place(self, name: str, mesh: Any, material: Any, t: TileInstance, pass_index: int) -> Any:
        """An object of ``mesh`` in the tile's pose (local u, v, n axes), with its own material."""
        import mathutils

        obj = self.bpy.data.objects.new(name, mesh)
        m = mathutils.Matrix.Identity(4)
        for row in range(3):
            m[row][0], m[row][1], m[row][2] = t.pose.u[row], t.pose.v[row], t.pose.n[row]
            m[row][3] = t.pose.center[row] * MM
        obj.matrix_world = m
        if not mesh.materials:  # one slot on the shared mesh, filled per object
            mesh.materials.append(None)
        self.scene.collection.objects.link(obj)
        obj.material_slots[0].link = "OBJECT"
        obj.material_slots[0].material = material
        obj.pass_index = pass_index
        return obj

    # -- the scene -------------------------------------------------------------------------------
    def tiles(self) -> None:
        """Every tile (pass index = its index + 1) and every dice and stick (not labelled)."""
        look, rng = self.plan.look, self.rng
        d = look.dims
        meshes = self._tile_meshes("tile", d)
        rough = rng.uniform(0.12, 0.4)
        back = self.material("back", _linear(look.back_colour), rng.uniform(0.15, 0.4))
        faces: dict[str, tuple[np.ndarray, tuple[int, ...]]] = {}  # each code's face, made once
        for i, t in enumerate(self.plan.tiles):
            code = "1m" if t.face_down else t.code  # a back's body takes the set's face colour
            if code not in faces:
                faces[code] = face_image(look, self.art, code)
            face, colour = faces[code]
            body = self.material(f"body-{colour}", _linear(colour), rough)
            self.place(f"front-{i}", meshes[0], body, t, i + 1)
            self.place(f"back-{i}", meshes[1], back, t, i + 1)
            if not t.face_down:
                self.place(
                    f"face-{i}", meshes[2], self.material(f"face-{t.code}", colour, rough, face), t, i + 1
                )
        for j, (obj, od, texture) in enumerate(self.plan.objects):
            meshes = self._tile_meshes(f"object-{j}", od)
            mean = tuple(float(c) for c in texture.reshape(-1, 3).mean(axis=0))
            body = self.material(f"object-body-{j}", _linear(mean), 0.35)
            self.place(f"object-{j}", meshes[0], body, obj, OBJECT_ID_BASE + j)
            self.place(
                f"object-face-{j}", meshes[2], self.material(f"object-face-{j}", mean, 0.35, texture), obj, 0
            )

    def _tile_meshes(self, name: str, d: TileDims) -> tuple[Any, Any, Any]:
        """The front layer, the back layer and the face plane of a tile of size ``d`` in its local
        frame (u across the face, v up it, n out of it; the face at n = 0)."""
        w, h, t = d.w * MM / 2, d.h * MM / 2, d.t * MM
        split = -t * min(max(d.front, 0.05), 1.0)
        front = self.box_mesh(f"{name}-front", (-w, -h, split), (w, h, 0.0))
        back = self.box_mesh(f"{name}-back", (-w, -h, -t), (w, h, split)) if d.front < 1.0 else front
        inset = BEVEL_MM * MM
        face = self.plane_mesh(f"{name}-face", w - inset, h - inset, FACE_LIFT_MM * MM)
        return front, back, face

    def table(self) -> None:
        """The table: a textured surface under everything (an automatic table's felt most often);
        for an automatic table, its raised frame beyond the hands and the centre panel."""
        bpy, rng, plan = self.bpy, self.rng, self.plan
        automatic = plan.look.kind == "automatic"
        size_mm = 3000.0
        if automatic or rng.random() < 0.5:
            felt = rng.choice(FELT)
            base = tuple(float(np.clip(c + rng.gauss(0, 10), 0, 255)) for c in felt[::-1])
            texture = backgrounds.table_texture("felt", (512, 512), 2.0, plan.nrng)
            texture = np.clip(
                texture.astype(np.float32) * (np.array(base) / texture.reshape(-1, 3).mean(0)), 0, 255
            )
            kind = "felt"
        else:
            kinds = [k for k in backgrounds.available_kinds() if k not in backgrounds.PHOTO_KINDS] or ["felt"]
            kind = rng.choice(kinds)
            texture = backgrounds.table_texture(kind, (512, 512), 2.0, plan.nrng)
        self.looked["table"] = kind
        tile_mm = 1024.0  # the texture repeats every metre (2 mm a pixel)
        me = self.plane_mesh("table", size_mm * MM / 2, size_mm * MM / 2, 0.0)
        for loop in me.uv_layers[0].data:
            loop.uv = (loop.uv[0] * size_mm / tile_mm, loop.uv[1] * size_mm / tile_mm)
        obj = bpy.data.objects.new("table", me)
        self.scene.collection.objects.link(obj)
        obj.data.materials.append(
            self.material("table", (1, 1, 1, 1), rng.uniform(0.75, 0.95), texture.astype(np.uint8))
        )
        if automatic:
            self._automatic_frame()

    def _automatic_frame(self) -> None:
        """The raised frame round an automatic table's playing field (the table's top from there
        on) and its centre panel."""
        rng, bpy = self.rng, self.bpy
        pts = np.array([t.pose.center for t in self.plan.tiles])
        half = float(np.abs(pts[:, :2]).max()) + rng.uniform(40, 90)  # beyond the hands
        # the frame is the table's top out to its edge and beyond (no felt past the playing field)
        width, height = rng.uniform(900, 1300), rng.uniform(8, 25)
        frame = self.material("frame", _linear(rng.choice(FRAMES)[::-1]), rng.uniform(0.25, 0.6))
        for k, (cx, cy, sx, sy) in enumerate(
            [
                (0, -half - width / 2, 2 * half + 2 * width, width),
                (0, half + width / 2, 2 * half + 2 * width, width),
                (-half - width / 2, 0, width, 2 * half),
                (half + width / 2, 0, width, 2 * half),
            ]
        ):
            me = self.box_mesh(
                f"frame-{k}",
                ((cx - sx / 2) * MM, (cy - sy / 2) * MM, 0.0),
                ((cx + sx / 2) * MM, (cy + sy / 2) * MM, height * MM),
            )
            obj = bpy.data.objects.new(f"frame-{k}", me)
            obj.data.materials.append(frame)
            self.scene.collection.objects.link(obj)
        side = rng.uniform(110, 170)  # the centre panel (dice, the display of the winds)
        me = self.box_mesh(
            "panel", (-side / 2 * MM, -side / 2 * MM, 0.0), (side / 2 * MM, side / 2 * MM, 4 * MM)
        )
        obj = bpy.data.objects.new("panel", me)
        obj.data.materials.append(self.material("panel", _linear((25, 22, 22)), 0.2))
        self.scene.collection.objects.link(obj)

    def lights(self) -> None:
        """An area lamp over the table (warm or cool, to one side or overhead), sometimes a second
        one, and the room's dim light all round."""
        bpy, rng = self.bpy, self.rng
        for k in range(1 if rng.random() < 0.6 else 2):
            lamp = bpy.data.lights.new(f"lamp-{k}", type="AREA")
            lamp.size = rng.uniform(0.3, 1.4)
            lamp.energy = rng.uniform(25, 90) / (k + 1)
            warm = rng.uniform(-0.15, 0.15)  # > 0 a warm bulb, < 0 a cool one
            lamp.color = (1.0 - max(-warm, 0.0), 1.0 - 0.4 * abs(warm), 1.0 - max(warm, 0.0))
            obj = bpy.data.objects.new(f"lamp-{k}", lamp)
            obj.location = (rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7), rng.uniform(1.0, 1.9))
            self.scene.collection.objects.link(obj)
        world = bpy.data.worlds.new("room")
        world.use_nodes = True
        bg = world.node_tree.nodes["Background"]
        grey = rng.uniform(0.05, 0.35)
        bg.inputs["Color"].default_value = (
            grey * rng.uniform(0.9, 1.1),
            grey,
            grey * rng.uniform(0.85, 1.1),
            1,
        )
        bg.inputs["Strength"].default_value = rng.uniform(0.3, 0.9)
        self.scene.world = world

    def camera(self) -> None:
        """The plan's camera (:func:`camera_setup`)."""
        import mathutils

        setup = camera_setup(self.plan.shot.cam)
        cam = self.bpy.data.cameras.new("phone")
        cam.sensor_fit = "AUTO"
        cam.sensor_width = SENSOR_MM
        cam.lens = setup.lens_mm
        cam.shift_x, cam.shift_y = setup.shift_x, setup.shift_y
        cam.clip_start, cam.clip_end = 0.01, 50.0
        obj = self.bpy.data.objects.new("phone", cam)
        m = mathutils.Matrix.Identity(4)
        for row in range(3):
            for col in range(3):
                m[row][col] = setup.rotation[row][col]
            m[row][3] = setup.location[row]
        obj.matrix_world = m
        self.scene.collection.objects.link(obj)
        self.scene.camera = obj

    def render(self) -> tuple[np.ndarray, np.ndarray]:
        """The rendered photo (BGR, exposed as a phone's camera does: :func:`expose`) and the
        object-index pass as tile indices (-1: no tile). Both passes are read as the renderer's
        linear floats (OpenEXR), before any view transform."""
        bpy, sc = self.bpy, self.scene
        sc.use_nodes = True
        tree = sc.node_tree
        tree.nodes.clear()
        layers = tree.nodes.new("CompositorNodeRLayers")
        composite = tree.nodes.new("CompositorNodeComposite")
        tree.links.new(layers.outputs["Image"], composite.inputs["Image"])
        out = tree.nodes.new("CompositorNodeOutputFile")
        with tempfile.TemporaryDirectory() as tmp:
            out.base_path = tmp
            out.format.file_format = "OPEN_EXR"
            out.format.color_depth = "32"
            out.file_slots[0].path = "index"
            out.file_slots.new("photo")
            tree.links.new(layers.outputs["IndexOB"], out.inputs[0])
            tree.links.new(layers.outputs["Image"], out.inputs[1])
            bpy.ops.render.render(write_still=False)
            index = self._exr(Path(tmp), "index")[..., 0]
            linear = self._exr(Path(tmp), "photo")[..., :3]
        ids = np.rint(index).astype(np.int32)
        ids = np.where((ids >= 1) & (ids < OBJECT_ID_BASE), ids - 1, -1).astype(np.int32)
        return expose(linear, self.rng), ids

    def _exr(self, folder: Path, name: str) -> np.ndarray:
        """A pass the compositor wrote (``<name><frame>.exr``) as float RGBA, top row first."""
        found = sorted(folder.glob(f"{name}*.exr"))
        if not found:
            raise RuntimeError(f"Blender wrote no {name} pass in {folder}")
        loaded = self.bpy.data.images.load(str(found[0]))
        w, h = loaded.size
        px = np.empty(w * h * 4, np.float32)
        loaded.pixels.foreach_get(px)
        self.bpy.data.images.remove(loaded)
        return px.reshape(h, w, 4)[::-1]


#: A phone meters a scene to this mean (geometric, linear luminance) ...
EXPOSURE_KEY = 0.18
#: ... give or take this many stops (a scene metered darker or brighter than the mean).
EXPOSURE_STOPS = (-0.7, 0.4)


def expose(linear_rgb: np.ndarray, rng: random.Random) -> np.ndarray:
    """A render's linear RGB as an 8-bit BGR photo: exposed as a phone's auto-exposure meters it
    (the scene's geometric-mean luminance to :data:`EXPOSURE_KEY`, within :data:`EXPOSURE_STOPS`),
    highlights clipped, sRGB-encoded. Without it a white table under a near lamp came out blank
    and a black one nearly black."""
    lum = linear_rgb @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    mean = float(np.exp(np.mean(np.log(np.maximum(lum, 0.0) + 1e-4))))
    gain = EXPOSURE_KEY * 2.0 ** rng.uniform(*EXPOSURE_STOPS) / max(mean, 1e-4)
    x = np.clip(linear_rgb * gain, 0.0, 1.0)
    srgb = np.where(x <= 0.0031308, 12.92 * x, 1.055 * np.power(x, 1 / 2.4) - 0.055)
    bgr: np.ndarray = cv2.cvtColor((srgb * 255.0 + 0.5).astype(np.uint8), cv2.COLOR_RGB2BGR)
    return bgr


def render_plan(plan: ScenePlan, art: Artwork, samples: int = 24, threads: int = 2) -> Render3D:
    """Render ``plan`` with Cycles: the photo before the phone's degradations and the id map."""
    rng = random.Random(plan.seed * 7919 + 3)  # the 3-D look's own stream: the plan's stays as it was
    b = _Builder(plan, art, rng, samples, threads)
    b.table()
    b.tiles()
    b.lights()
    b.camera()
    image, ids = b.render()
    return Render3D(image, ids, b.looked)


def render_scene_3d(
    seed: int, art: Artwork, opts: SceneOptions | None = None, samples: int = 24, threads: int = 2
) -> tuple[np.ndarray, Manifest]:
    """One photo of ``seed``'s plan rendered in 3-D, through the phone (noise, white balance, JPEG:
    :func:`mjsynth.camera.photograph`), and its manifest, as :func:`mjsynth.scene.render_scene`
    returns them."""
    plan = plan_scene(seed, art, opts)
    made = render_plan(plan, art, samples, threads)
    labels = label_tiles(plan, tile_geometry(plan), made.ids)
    applied: PhotoLog = {}
    image = photograph(made.image, plan.nrng, plan.opts.photo, applied)
    manifest = scene_manifest(plan, labels, applied, f"3d-{made.look.get('table', 'felt')}", [], None)
    return image, manifest


__all__ = [
    "CameraSetup",
    "Render3D",
    "camera_setup",
    "expose",
    "project_with",
    "render_plan",
    "render_scene_3d",
    "tile_geometry",
]
