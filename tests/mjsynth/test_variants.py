"""The scene variants real photos need: eye-level rows, loose and edge tiles, close-ups, far rows,
depth of field, blank white dragons, back colours, and a game table whose player's hand is known."""

import random

import cv2
import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.artwork import IVORY
from mahjong_camera_scorer.mjsynth.hands import kind_of, random_hand
from mahjong_camera_scorer.mjsynth.scene import PARTS, SceneOptions, render_scene
from mahjong_camera_scorer.mjsynth.tilebody import BACK_COLOURS
from mahjong_camera_scorer.vision.crops import rectify_quad
from tests.mjsynth.mjsynth_testutil import FAST_STYLES


def _opts(**kw) -> SceneOptions:
    return SceneOptions(img_size=480, styles=FAST_STYLES, clutter_fraction=0.0, **kw)


@pytest.mark.slow
def test_eye_level_rows_stand_and_face_the_camera(art):
    for seed in range(3):
        _, man = render_scene(seed, art, _opts(force_kind="hand", eyelevel_fraction=1.0))
        assert man["eyelevel"] and man["standing"] and man["camera"]["elevation"] <= 14
        row = [t for t in man["tiles"] if t["role"] == "concealed" and t["labelled"]]
        assert len(row) >= 2 and all(t["pose"] == "standing" and not t["face_down"] for t in row)


@pytest.mark.slow
def test_loose_tiles_turn_any_way_and_some_rest_on_an_edge(art):
    angles, poses = [], set()
    for seed in range(6):
        _, man = render_scene(seed, art, _opts(force_kind="loose", p_edge_tiles=0.5))
        assert man["hands"] == [] and "hand" not in man
        labelled = [t for t in man["tiles"] if t["labelled"]]
        assert labelled and all(t["part"] == "loose" for t in man["tiles"])
        angles += [t["rotation_deg"] for t in labelled if t["pose"] == "flat" and not t["face_down"]]
        poses |= {t["pose"] for t in labelled}
    assert "edge" in poses and "flat" in poses
    assert np.histogram(angles, bins=4, range=(-180, 180))[0].min() > 0  # every quarter of the circle


def _hand_at_640(art, seed: int, **kw) -> tuple[np.ndarray, dict]:
    return render_scene(seed, art, SceneOptions(img_size=640, styles=FAST_STYLES, force_kind="hand", **kw))


@pytest.mark.slow
def test_close_ups_reach_half_the_frame_and_far_rows_are_tiny(art):
    biggest = 0.0
    for seed in range(8):
        img, man = _hand_at_640(art, seed, closeup_fraction=1.0, clutter_fraction=0.0)
        biggest = max(biggest, max(t["tile_px"] for t in man["tiles"] if t["labelled"]) / min(img.shape[:2]))
    assert biggest >= 0.45
    for seed in range(4):
        _, man = _hand_at_640(art, seed, far_fraction=1.0, closeup_fraction=0.0, eyelevel_fraction=0.0)
        sizes = [t["tile_px"] for t in man["tiles"] if t["part"] == "player_hand"]
        assert man["far"] and 10 <= np.median(sizes) <= 18  # about 12 px at the detector's 480 px


def _sharpness(img: np.ndarray) -> float:
    return float(np.abs(cv2.Laplacian(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.CV_32F)).mean())


def test_depth_of_field_blurs_the_photo(art):
    photo = dict(p_lens_blur=0.0, p_motion_blur=0.0, noise_sigma=(0.0, 0.0), jpeg_quality=(95, 95))
    from mahjong_camera_scorer.mjsynth.camera import PhotoOptions

    sharp, _ = render_scene(4, art, _opts(force_kind="hand", p_dof=0.0, photo=PhotoOptions(**photo)))
    soft, man = render_scene(4, art, _opts(force_kind="hand", p_dof=1.0, photo=PhotoOptions(**photo)))
    assert "depth_of_field" in man["photo"] and _sharpness(soft) < 0.9 * _sharpness(sharp)


def _white_faces(man: dict, img: np.ndarray) -> list[float]:
    out = []
    for t in man["tiles"]:
        if t["code"] == "5z" and t["labelled"] and not t["face_down"] and t["tile_px"] > 25:
            face = cv2.cvtColor(rectify_quad(img, t["quad"], size=96, pad=0.0), cv2.COLOR_BGR2GRAY)
            out.append(float(face[20:76, 25:60].std()))  # inside the face, clear of the bevel
    return out


@pytest.mark.slow
def test_white_dragons_can_be_blank_without_a_frame(art):
    kw = dict(
        force_kind="hand",
        force_standing=False,
        p_white_boost=1.0,
        closeup_fraction=0.0,
        far_fraction=0.0,
        styles=("proc-classic",),
    )  # proc-classic frames its 5z in blue
    framed, blank = [], []
    for seed in range(6):
        img, man = render_scene(seed, art, SceneOptions(img_size=640, p_blank_white=0.0, **kw))
        assert any(kind_of(t["code"]) == "5z" for t in man["tiles"])
        framed += _white_faces(man, img)
        img, man = render_scene(seed, art, SceneOptions(img_size=640, p_blank_white=1.0, **kw))
        assert man["blank_white"]
        blank += _white_faces(man, img)
    assert framed and blank and np.median(blank) < 0.7 * np.median(framed)


def test_back_colours_include_real_sets_and_ivory_differs_from_a_face():
    assert {"yellow", "orange", "green", "blue", "ivory"} <= set(BACK_COLOURS)
    assert np.linalg.norm(np.subtract(BACK_COLOURS["ivory"], IVORY)) > 40


def test_a_hand_can_be_required_to_hold_a_kind():
    for seed in range(20):
        h = random_hand(random.Random(seed), require="5z")
        assert "5z" in {kind_of(t) for t in h.all_tiles()}


@pytest.mark.slow
@pytest.mark.parametrize("game", [True, False])
def test_table_photos_say_which_tiles_are_the_players_hand(art, game):
    for seed in range(3):
        _, man = render_scene(seed, art, _opts(force_kind="table", p_game_table=float(game)))
        assert man["game"] == game and len(man["hands"]) == 4
        seat = man["player_seat"]
        assert {t["part"] for t in man["tiles"]} <= set(PARTS)
        mine = [t for t in man["tiles"] if t["part"] == "player_hand"]
        assert all(t["seat"] == seat for t in mine)
        h = man["hands"][seat]
        n_kongs = sum(m["type"] == "kong" for m in h["melds"])
        assert len(mine) == 14 + n_kongs + len(h["bonus_tiles"])

        # the player's hand is the one nearest the camera: its tiles look biggest
        hand_px = {s: [] for s in range(4)}
        for t in man["tiles"]:
            if t["part"] in ("player_hand", "other_hand"):
                hand_px[t["seat"]].append(t["tile_px"])
        others = max(np.median(hand_px[s]) for s in range(4) if s != seat)
        assert np.median(hand_px[seat]) >= 0.9 * others
        if game:
            assert sum(t["part"] == "wall" for t in man["tiles"]) >= 40
            across = [
                t
                for t in man["tiles"]
                if t["seat"] == (seat + 2) % 4 and t["role"] == "concealed" and t["labelled"]
            ]
            assert all(t["face_down"] for t in across)  # the opposite player's tiles show their backs
