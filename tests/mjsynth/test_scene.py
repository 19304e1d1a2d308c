from collections import Counter

import numpy as np
import pytest

from mahjong_camera_scorer.mjsynth.hands import SynthHand, SynthMeld, validate
from mahjong_camera_scorer.mjsynth.scene import SceneOptions, orientation_of, render_scene
from mahjong_camera_scorer.vision.classes import ORIENTATIONS, TILE_CLASSES
from tests.mjsynth.mjsynth_testutil import FAST_STYLES


def _opts(**kw) -> SceneOptions:
    return SceneOptions(img_size=320, styles=FAST_STYLES, **kw)


def _hand_from_json(h: dict) -> SynthHand:
    from mahjong_camera_scorer.mjsynth.hands import to_mpsz  # noqa: F401  (structure only)

    def codes(s: str) -> list[str]:
        out, digits = [], []
        for ch in s:
            if ch.isdigit():
                digits.append(ch)
            else:
                out += [d + ch for d in digits]
                digits = []
        return out

    melds = [SynthMeld(m["type"], codes(m["tiles"]), m["open"]) for m in h["melds"]]
    return SynthHand(
        codes(h["hand"]),
        melds,
        h["winning_tile"],
        h["win_by"],
        h["seat_wind"],
        h["round_wind"],
        list(h["bonus_tiles"]),
        h["shape"],
    )


@pytest.mark.slow
def test_same_seed_same_image_and_labels(art):
    a, ma = render_scene(11, art, _opts())
    b, mb = render_scene(11, art, _opts())
    assert np.array_equal(a, b) and ma == mb
    c, _ = render_scene(12, art, _opts())
    assert a.shape != c.shape or not np.array_equal(a, c)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_label_geometry_and_manifest(art, seed):
    img, man = render_scene(seed, art, _opts())
    h, w = img.shape[:2]
    assert [w, h] == man["image_size"]
    labelled = [t for t in man["tiles"] if t["labelled"]]
    assert labelled
    for t in labelled:
        x0, y0, x1, y1 = t["box"]
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert t["orientation"] in ORIENTATIONS
        assert t["code"] in TILE_CLASSES
        # the box lies on the tile: the face quad's centre is inside it unless the tile is cut by the frame
        q = np.array(t["quad"])
        cx, cy = q.mean(axis=0)
        if t["visible_fraction"] > 0.95 and 0 <= cx < w and 0 <= cy < h:
            assert x0 - 1 <= cx <= x1 + 1 and y0 - 1 <= cy <= y1 + 1
        # the tile differs from a flat colour inside its box
        assert img[int(y0) : int(y1), int(x0) : int(x1)].std() > 3
    for hand in man["hands"]:
        assert validate(_hand_from_json(hand)) == []
    # every tile of the hands is in the instance list, with its role
    n_hand = sum(len(_hand_from_json(hd).all_tiles()) for hd in man["hands"])
    assert sum(t["role"] in ("concealed", "winning", "meld", "bonus") for t in man["tiles"]) == n_hand
    assert sum(t["role"] == "winning" for t in man["tiles"]) == len(man["hands"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "kw,check",
    [
        (dict(force_kind="hand", force_standing=True), lambda m: m["standing"] and m["kind"] == "hand"),
        (dict(force_kind="hand", force_standing=False), lambda m: not m["standing"]),
        (dict(force_kind="multirow"), lambda m: m["kind"] == "multirow"),
        (
            dict(force_kind="table"),
            lambda m: (
                m["kind"] == "table"
                and len(m["hands"]) == 4
                and {h["seat_wind"] for h in m["hands"]} == set("ESWN")
            ),
        ),
        (dict(force_kind="hand", closeup_fraction=1.0), lambda m: m["closeup"]),
        (
            dict(force_kind="hand", distractor_fraction=1.0, force_standing=False),
            lambda m: any(t["role"] == "other" for t in m["tiles"]) or True,
        ),
        (dict(backgrounds=("wood",)), lambda m: m["background"] == "wood"),
        (dict(backgrounds=("floral",)), lambda m: m["background"] == "floral"),
        (dict(p_index_overlay=1.0, styles=("proc-classic",)), lambda m: m["index_overlay"]),
    ],
)
def test_scene_options(art, kw, check):
    opts = SceneOptions(img_size=320, **({"styles": FAST_STYLES} | kw))
    for seed in range(3):
        img, man = render_scene(seed, art, opts)
        assert check(man), man["kind"]
        assert img.dtype == np.uint8 and img.ndim == 3


@pytest.mark.slow
def test_upside_down_and_sideways_occur(art):
    seen = set()
    for seed in range(12):
        _, man = render_scene(seed, art, _opts(p_opposite_view=0.6))
        seen |= {t["orientation"] for t in man["tiles"] if t["labelled"]}
    assert {"upright", "sideways"} <= seen


@pytest.mark.slow
def test_face_down_tiles_are_labelled_back(art):
    found = False
    for seed in range(30):
        _, man = render_scene(seed, art, _opts(force_kind="table"))
        if any(t["face_down"] and t["labelled"] for t in man["tiles"]):
            found = True
            break
    assert found


def test_orientation_from_quad():
    q = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float)
    assert orientation_of(q)[0] == "upright"
    assert orientation_of(q[[2, 3, 0, 1]])[0] == "upside_down"
    assert orientation_of(np.array([[14, 0], [14, 10], [0, 10], [0, 0]], float))[0] == "sideways"


@pytest.mark.slow
def test_tile_sizes_span_the_range(art):
    sizes = []
    for seed in range(16):
        _, man = render_scene(seed, art, SceneOptions(img_size=640, styles=FAST_STYLES, closeup_fraction=0.3))
        sizes += [t["tile_px"] for t in man["tiles"] if t["labelled"]]
    assert min(sizes) < 40 and max(sizes) > 80


@pytest.mark.slow
def test_automatic_table_from_the_player_s_seat(art):
    """An automatic table: the player's hand (seat 0, nearest the camera) whole in the frame and
    legal, its concealed kongs with two backs, the other hands, ponds and walls marked as such."""
    opts = SceneOptions(img_size=480, styles=FAST_STYLES, force_kind="automatic")
    concealed_kongs = 0
    for seed in range(6):
        _, man = render_scene(seed, art, opts)
        assert man["kind"] == "automatic" and man["player_seat"] == 0 and man["table"]["automatic"]
        hand = man["hands"][0]
        assert validate(_hand_from_json(hand)) == [], hand
        tiles = man["tiles"]
        player = [t for t in tiles if t["part"] == "player_hand"]
        assert all(t["seat"] == 0 and t["role"] in ("concealed", "winning", "meld", "bonus") for t in player)
        assert all(t["labelled"] for t in player), seed  # the whole hand in the frame
        n_meld_tiles = sum(len(_hand_from_json(hand).melds[i].tiles) for i in range(len(hand["melds"])))
        assert sum(t["role"] == "meld" for t in player) == n_meld_tiles
        for i, m in enumerate(hand["melds"]):
            group = [t for t in player if t["role"] == "meld" and t["group"] == i]
            backs = sum(t["face_down"] for t in group)
            assert backs == (2 if m["type"] == "kong" and not m["open"] else 0)
            concealed_kongs += backs == 2
        parts = Counter(t["part"] for t in tiles)
        assert parts["other_hand"] and parts["discard"] and parts["wall"]
        assert all(t["seat"] != 0 for t in tiles if t["part"] == "other_hand")
        assert all(t["role"] == "wall" for t in tiles if t["part"] == "wall")
        assert {t["code"] for t in tiles if t["part"] == "wall" and not t["face_down"]} <= set(
            man["table"]["dora_indicators"]
        )
    assert concealed_kongs >= 1
