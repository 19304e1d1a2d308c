"""One synthetic photo: a hand (or a table of four) laid out, lit, photographed, and labelled.

``render_scene(seed, artwork, options)`` is a pure function of its seed: the same seed gives the same image
and labels on any machine (given the same artwork), which makes datasets reproducible and tests exact.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from mahjong_camera_scorer.mjsynth import backgrounds, clutter, negatives, photos
from mahjong_camera_scorer.mjsynth.artwork import Artwork
from mahjong_camera_scorer.mjsynth.camera import Camera, PhotoOptions, defocus, fit_distance, photograph
from mahjong_camera_scorer.mjsynth.faces import FACE_H, FACE_W
from mahjong_camera_scorer.mjsynth.hands import (
    WIND_LETTERS,
    SynthHand,
    TilePool,
    kind_of,
    new_pool,
    random_hand,
)
from mahjong_camera_scorer.mjsynth.layout import (
    POND_ROW,
    WALL_STACKS,
    LayoutOptions,
    automatic_walls,
    centre_of,
    layout_hand,
    loose_tiles,
    pond_rows,
    scatter_tiles,
    transform,
    wall_segment,
    wall_square,
)
from mahjong_camera_scorer.mjsynth.procedural import INK_TARGETS, add_corner_index, swap_inks
from mahjong_camera_scorer.mjsynth.tilebody import (
    BACK_COLOURS,
    TileDims,
    TileInstance,
    TilePose,
    bevel_face,
    draw_tile,
    fill_convex,
    gloss_map,
)
from mahjong_camera_scorer.vision.classes import ORIENTATIONS

if TYPE_CHECKING:
    from mahjong_camera_scorer.mjsynth.camera import Aim, PhotoLog
    from mahjong_camera_scorer.mjsynth.manifest import Manifest, Negative, TableRecord, TileLabel
    from mahjong_camera_scorer.mjsynth.tilebody import TileGeometry

    #: Where a prop was painted: a box prop as a tile is, or a cup (a cable: nothing to note).
    PropGeometry = TileGeometry | clutter.CupGeometry

#: Tile size families (mm): riichi, Chinese/HK, large western/American.
DIMS = (
    TileDims(26, 35, 20),
    TileDims(29, 38, 23),
    TileDims(30, 40, 25, front=0.6),
    TileDims(24, 32, 17, front=0.5),
)
OBJECT_ID_BASE = 10_000
PROP_ID_BASE = 20_000
#: How often each surface is drawn relative to a procedural one (real photos and patterns more often:
#: they are the clutter the detector must learn to ignore).
BACKGROUND_WEIGHTS = {"photo": 3.0, "pattern": 2.0}
#: Back colours as real sets have them: yellow, orange, green, blue and ivory backs more often.
BACK_WEIGHTS = {"yellow": 3.0, "orange": 2.0, "green": 3.0, "blue": 3.0, "ivory": 2.5}
MIN_VISIBLE_FRACTION = 0.4
#: A tile whose face (or back) covers less of its outline than this is seen edge-on: only its sides
#: show, so it is not labelled as a tile (its sides are listed as hard negatives instead).
MIN_FACE_FRACTION = 0.12
MIN_BOX_PX = 4


@dataclass
class SceneOptions:
    """What kinds of photos to make. Fractions are probabilities per image."""

    img_size: int = 640  # long side, pixels
    table_fraction: float = 0.12  # whole table of four hands
    #: a Japanese automatic table from the player's seat: four walls of 17 stacks (dealt from),
    #: ponds in rows of six, three hands standing, the player's hand with up to four declared sets
    #: (kongs often). 0 by default: the datasets made so far keep their photos seed for seed
    automatic_fraction: float = 0.0
    multirow_fraction: float = 0.22  # melds in a second row
    loose_fraction: float = 0.08  # no hand: loose tiles at any angle, some on an edge
    standing_fraction: float = 0.45  # concealed tiles standing (player's view)
    eyelevel_fraction: float = 0.15  # of single-hand photos: the camera at table height, the row standing
    closeup_fraction: float = 0.15  # one tile from 80 px up to about half the frame, cut by the frame
    far_fraction: float = 0.1  # a far row: tiles 11-17 px tall (at 640 px)
    p_game_table: float = 0.6  # of whole tables: a game in progress (walls, hands standing) not a reveal
    p_edge_tiles: float = 0.2  # of loose tiles: resting on an edge
    p_blank_white: float = 0.35  # white dragons drawn blank, without a frame, whatever the style
    p_white_boost: float = 0.2  # the (player's) hand must hold white dragons
    p_dof: float = 0.15  # shallow depth of field: sharp at the hand, blurred before and behind
    p_ink_swap: float = 0.3  # the set's green and blue inks printed in other colours (green is not 發)
    distractor_fraction: float = 0.5  # loose tiles and objects nearby
    clutter_fraction: float = 0.5  # keyboards, laptops, phones, paper, placemats, cups, cables nearby
    p_photo_room: float = 0.6  # the room beyond the table is a real photograph (when installed)
    elevation: tuple[float, float] = (20.0, 90.0)
    p_opposite_view: float = 0.1  # photographed from another side: tiles sideways / upside down
    p_index_overlay: float = 0.12  # add western corner indices to a style that has none
    styles: tuple[str, ...] | None = None  # restrict to these styles
    photo: PhotoOptions = field(default_factory=PhotoOptions)
    backgrounds: tuple[str, ...] | None = None  # None: every surface installed (backgrounds.available_kinds)
    force_kind: str | None = None  # hand | multirow | table | automatic | loose (tests, examples)
    force_standing: bool | None = None


def orientation_of(quad: np.ndarray) -> tuple[str, float]:
    """Orientation label of a tile from its face quad (TL, TR, BR, BL as read) in the image."""
    top = (quad[0] + quad[1]) / 2
    bottom = (quad[3] + quad[2]) / 2
    up = top - bottom
    ang = math.degrees(math.atan2(up[0], -up[1]))  # 0 = reading up the image, +90 = pointing right
    a = abs(ang)
    label = ORIENTATIONS[0] if a <= 45 else (ORIENTATIONS[2] if a >= 135 else ORIENTATIONS[1])
    return label, ang


HAND_ROLES = ("concealed", "winning", "meld", "bonus")
#: The kinds of photo that show a whole table of four hands.
TABLE_KINDS = ("table", "automatic")
#: Of automatic tables: the player's hand laid down face up (shown after the win), not standing.
P_AUTOMATIC_SHOWN = 0.35
#: Of automatic tables: a player's discards hold a riichi tile (lying sideways).
P_RIICHI = 0.35
#: The player's hand at an automatic table: how many declared sets (any number up to four, as
#: often), how many of the sets drawn are kongs, and how often flowers are kept beside it (rare
#: on a Japanese table).
AUTOMATIC_MELDS, AUTOMATIC_P_KONG, AUTOMATIC_P_BONUS = (0, 1, 2, 3, 4), 0.3, 0.08


def _choose_style(rng: random.Random, art: Artwork, opts: SceneOptions) -> str:
    names = sorted(opts.styles or art.styles)
    names = [n for n in names if n in art.styles]
    if not names:
        raise ValueError("no tile style available")
    return rng.choice(names)


def _hand_codes_in_style(hand: SynthHand, art: Artwork, style: str) -> bool:
    have = art.styles[style].codes
    return all(c in have for c in hand.all_tiles())


def _face_colour(face: np.ndarray) -> tuple[int, ...]:
    border = np.concatenate([face[3:7, 10:-10].reshape(-1, 3), face[-7:-3, 10:-10].reshape(-1, 3)])
    return tuple(int(v) for v in np.median(border, axis=0))


def _dice_texture(n: int) -> np.ndarray:
    img = np.full((64, 64, 3), 235, np.uint8)
    spots = {1: [(32, 32)], 2: [(16, 16), (48, 48)], 3: [(16, 16), (32, 32), (48, 48)],
             4: [(16, 16), (48, 16), (16, 48), (48, 48)], 5: [(16, 16), (48, 16), (32, 32), (16, 48), (48, 48)],  # noqa: E501
             6: [(16, 14), (48, 14), (16, 32), (48, 32), (16, 50), (48, 50)]}[n]  # fmt: skip
    for x, y in spots:
        cv2.circle(img, (x, y), 6, (30, 30, 200) if n in (1, 4) else (20, 20, 20), -1, cv2.LINE_AA)
    return img


def _stick_texture(rng: random.Random) -> np.ndarray:
    img = np.full((24, 240, 3), 240, np.uint8)
    k = rng.choice([1, 5, 8])
    for i in range(k):
        x = int(120 + (i - (k - 1) / 2) * 14)
        cv2.circle(img, (x, 12), 4, (30, 30, 200) if k == 1 else (20, 20, 20), -1, cv2.LINE_AA)
    return np.ascontiguousarray(np.rot90(img))


def render_scene(seed: int, art: Artwork, opts: SceneOptions | None = None) -> tuple[np.ndarray, Manifest]:
    """Make one photo. Returns the BGR image and its manifest (ground truth + every tile instance).

    The steps below run in a fixed order and all draw from the same two random streams (``rng`` for
    choices, ``nrng`` for textures and noise): that is what makes a seed mean one photo, and why adding,
    dropping or reordering a draw changes the photo of every seed (datasets made before would not be
    remade). Each step's docstring says what it decides and why it comes where it does.
    """
    plan = plan_scene(seed, art, opts)
    look, tiles, shot, rng, nrng = plan.look, plan.tiles, plan.shot, plan.rng, plan.nrng
    props = _props_in_view(look, plan.opts, tiles, plan.objects, shot, rng, nrng)
    canvas, bg_kind, room = _table_surface(plan.opts, shot, rng, nrng)
    ids, geo, drawn_props = _draw(canvas, look, art, tiles, plan.objects, props, shot, rng, nrng)
    # the labels, from the id map (what each pixel shows), before the photo is blurred and degraded
    labels = label_tiles(plan, geo, ids, negatives.prop_negatives(drawn_props, ids, shot.cam.project))
    image, applied = _develop(canvas, plan.opts, shot, rng, nrng)
    return image, scene_manifest(plan, labels, applied, bg_kind, [p.kind for p in props], room)


@dataclass
class ScenePlan:
    """A photo decided but not yet painted: what lies where on the table (in table millimetres) and
    where the camera stands. :func:`render_scene` paints it in 2-D; :mod:`mjsynth.blender` renders
    the same plan in 3-D (light on a blank face, a tile's side, a back), so a seed's layout and
    labels follow one set of rules whichever renders it. ``rng`` and ``nrng`` carry on the seed's
    two random streams from where the plan left them."""

    seed: int
    opts: SceneOptions
    look: _Look
    hands: list[SynthHand]
    tiles: list[TileInstance]
    table_info: TableRecord | None
    objects: list[tuple[TileInstance, TileDims, np.ndarray]]
    shot: _Shot
    rng: random.Random
    nrng: np.random.Generator


def plan_scene(seed: int, art: Artwork, opts: SceneOptions | None = None) -> ScenePlan:
    """The first half of :func:`render_scene`: the look, the hands laid out, the other tiles, the dice
    and sticks, and the camera (each step's docstring says what it decides)."""
    opts = opts or SceneOptions()
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    look = _choose_look(art, opts, rng, nrng)
    hands, tiles, pool, pond, half = _lay_out_hands(look, art, rng)
    tiles += _other_tiles(look, art, opts, tiles, pool, pond, half, rng, hands)
    table_info = _table_info(look, tiles)
    objects = _dice_and_sticks(look, opts, tiles, rng)
    shot = _aim_camera(look, opts, tiles, rng)
    return ScenePlan(seed, opts, look, hands, tiles, table_info, objects, shot, rng, nrng)


@dataclass
class SceneLabels:
    """What a rendered plan shows, read from its id map: each tile's label, the hard negatives,
    and the seat of the hand nearest the camera."""

    tiles: list[TileLabel]
    negatives: list[Negative]
    player_seat: int | None


def label_tiles(
    plan: ScenePlan,
    geo: dict[int, TileGeometry],
    ids: np.ndarray,
    prop_negatives: list[Negative] | None = None,
) -> SceneLabels:
    """The labels of a plan as rendered: ``ids`` holds, per pixel, the index of the tile it shows
    (-1: none), ``geo`` each tile's projected geometry (:func:`tile_geometry`)."""
    shot = plan.shot
    instances = _instances(plan.tiles, geo, ids, shot.width, shot.height)
    negs = list(prop_negatives or []) + negatives.tile_negatives(instances, geo, ids, plan.rng)
    player_seat = _parts(instances, plan.tiles, plan.hands, shot.cam)
    return SceneLabels(instances, negs, player_seat)


def scene_manifest(
    plan: ScenePlan,
    labels: SceneLabels,
    applied: PhotoLog,
    background: str,
    props: list[str],
    room: str | None,
) -> Manifest:
    """The manifest of a plan rendered and photographed (``applied``: what the phone did)."""
    look, shot, seed = plan.look, plan.shot, plan.seed
    hands, table_info, instances, negs = plan.hands, plan.table_info, labels.tiles, labels.negatives
    player_seat = labels.player_seat
    bg_kind = background
    manifest: Manifest = {
        "seed": seed,
        "image_size": [shot.width, shot.height],
        "kind": look.kind,
        "closeup": shot.closeup,
        "eyelevel": look.eyelevel,
        "far": shot.far,
        "game": look.game,
        "blank_white": look.blank_white,
        "inks": list(look.inks) if look.inks else None,
        "player_seat": player_seat,
        "complete_in_frame": all(
            inst["labelled"] for inst in instances if inst["role"] not in ("other", "discard", "wall")
        ),
        "style": look.style,
        "index_overlay": look.index_overlay,
        "tile_mm": [round(look.dims.w, 1), round(look.dims.h, 1), round(look.dims.t, 1)],
        "back_colour": look.back_name,
        "background": bg_kind,
        "room": room,
        "props": props,
        "standing": look.standing,
        "camera": {
            "elevation": round(shot.elevation, 1),
            "azimuth": round(shot.azimuth, 1),
            "roll": round(shot.roll, 1),
            "hfov": round(shot.hfov, 1),
            "distance_mm": round(float(np.linalg.norm(shot.cam.C - shot.target)), 1),
        },
        "photo": applied,
        "hands": [{**h.to_json(), "seat": i} for i, h in enumerate(hands)],
        "tiles": instances,
        "negatives": [{"what": n["what"], "box": [round(v, 1) for v in n["box"]]} for n in negs],
    }
    if len(hands) == 1:
        manifest["hand"] = manifest["hands"][0]
    if table_info is not None:
        manifest["table"] = table_info
    return manifest


@dataclass
class _Look:
    """What the photo is of and how the set looks, decided before anything is placed: the layout, the
    camera and the drawing all depend on these, and the manifest records them."""

    kind: str  # hand | multirow | table | loose
    dims: TileDims
    style: str
    has_bonus: bool
    back_name: str
    back_colour: tuple[float, ...]
    index_overlay: bool
    eyelevel: bool
    standing: bool
    game: bool
    blank_white: bool
    want_white: str | None
    inks: tuple[str, str] | None


def _choose_look(art: Artwork, opts: SceneOptions, rng: random.Random, nrng: np.random.Generator) -> _Look:
    """Draw the kind of photo, the tile size, the style, the back colour and the design variants
    (corner indices, blank white dragons, swapped inks). A game in progress and an eye-level shot are
    chosen here too: they change how the hands are laid out, not only where the camera stands."""
    kind = opts.force_kind
    if kind is None:
        r = rng.random()
        edges = [
            ("table", opts.table_fraction),
            ("multirow", opts.multirow_fraction),
            ("loose", opts.loose_fraction),
            ("automatic", opts.automatic_fraction),  # last: a fraction of 0 leaves every draw as it was
        ]
        kind, acc = "hand", 0.0
        for name, frac in edges:
            acc += frac
            if r < acc:
                kind = name
                break
    dims = rng.choice(DIMS)
    dims = TileDims(
        dims.w * rng.uniform(0.97, 1.03),
        dims.h * rng.uniform(0.97, 1.03),
        dims.t * rng.uniform(0.9, 1.1),
        front=dims.front * rng.uniform(0.85, 1.15),
    )
    style = _choose_style(rng, art, opts)
    has_bonus = "1f" in art.styles[style].codes
    names = sorted(BACK_COLOURS)
    back_name = rng.choices(names, [BACK_WEIGHTS.get(n, 1.0) for n in names])[0]
    back_colour = tuple(
        float(c) for c in np.clip(np.array(BACK_COLOURS[back_name]) + nrng.normal(0, 8, 3), 0, 255)
    )
    index_overlay = rng.random() < opts.p_index_overlay and not style.startswith(
        ("proc-western", "proc-bold", "proc-wh", "kde-default", "kde-traditional", "xmj-dor")
    )
    eyelevel = kind == "hand" and opts.force_standing is not False and rng.random() < opts.eyelevel_fraction
    standing = eyelevel or (
        opts.force_standing if opts.force_standing is not None else rng.random() < opts.standing_fraction
    )
    # a game in progress: walls, hands standing (an automatic table always)
    game = kind == "automatic" or (kind == "table" and rng.random() < opts.p_game_table)
    blank_white = rng.random() < opts.p_blank_white
    want_white = "5z" if rng.random() < opts.p_white_boost and "5z" in art.styles[style].codes else None
    inks = None
    if rng.random() < opts.p_ink_swap:
        inks = (rng.choice(INK_TARGETS["green"]), rng.choice(INK_TARGETS["blue"]))
    return _Look(
        kind, dims, style, has_bonus, back_name, back_colour, index_overlay, eyelevel, standing, game,
        blank_white, want_white, inks,
    )  # fmt: skip


def _lay_out_hands(
    look: _Look, art: Artwork, rng: random.Random
) -> tuple[list[SynthHand], list[TileInstance], TilePool, float, float]:
    """Deal one legal hand per seat (none for loose tiles, four round a table) from one pool of tiles,
    and lay each out in front of its seat. Returns the hands, their tiles, the pool (what is left feeds
    the discards and loose tiles), and for a table the distances from its centre to the discards
    (``pond``) and to the walls (``half``)."""
    if look.kind == "automatic":
        return _lay_out_automatic(look, art, rng)
    kind, dims, game = look.kind, look.dims, look.game
    pool = new_pool()
    hands: list[SynthHand] = []
    tiles: list[TileInstance] = []
    round_wind = rng.choice(WIND_LETTERS[:2]) if rng.random() < 0.8 else rng.choice(WIND_LETTERS)
    n_seats = {"table": 4, "loose": 0}.get(kind, 1)
    reach = 8.5 * dims.w + rng.uniform(60, 120)
    pond = 1.8 * dims.h if game else 3.2 * dims.h  # where the discards begin, from the centre
    half = pond + 4.1 * dims.h  # a game's walls: centre line of each side, from the centre
    if game:  # each hand stands just behind its wall
        reach = half + 1.0 * dims.h + rng.uniform(20, 60)
    for seat in range(n_seats):
        hand = _deal_hand(look, art, pool, seat, round_wind, rng)
        hands.append(hand)
        lo = LayoutOptions(
            # at a game in progress every player's concealed tiles stand, facing their owner
            standing=(look.standing and kind != "table") or game,
            melds_second_row=kind == "multirow" or (kind == "table" and rng.random() < 0.3),
            gap=rng.choice([0.0, 0.0, 0.3, 0.8, 1.5]),
            set_gap=rng.uniform(4, 25),
            kong_style="outer" if rng.random() < 0.7 else "inner",
        )
        ts = layout_hand(hand, dims, lo, rng, seat=seat)
        c = centre_of(ts)
        transform(ts, 0.0, np.array([-c[0], -c[1], 0.0]))
        if kind == "table":
            yaw = seat * math.pi / 2
            transform(ts, yaw, np.array([-math.sin(yaw) * -reach, math.cos(yaw) * -reach, 0.0]))
        tiles += ts
    return hands, tiles, pool, pond, half


def _deal_hand(
    look: _Look,
    art: Artwork,
    pool: TilePool,
    seat: int,
    round_wind: str,
    rng: random.Random,
    p_bonus: float = 0.35,
    **draw: object,
) -> SynthHand:
    """A legal hand whose every tile the style draws: a style may lack a few faces (a white dragon, the
    bonus tiles), so such hands are put back into the pool and redrawn. ``draw``: more of
    :func:`random_hand`'s choices (how many declared sets, how many kongs)."""
    for _attempt in range(50):
        hand = random_hand(
            rng,
            pool,
            p_bonus=p_bonus if look.has_bonus else 0.0,
            seat_wind=WIND_LETTERS[seat] if look.kind in TABLE_KINDS else None,
            round_wind=round_wind,
            require=look.want_white if seat == 0 else None,
            max_melds=1 if look.eyelevel else 4,  # an eye-level photo is of the standing row
            **draw,  # type: ignore[arg-type]
        )
        if _hand_codes_in_style(hand, art, look.style):
            return hand
        for t in hand.all_tiles():
            if t[1] != "f":
                pool.left[kind_of(t)] += 1
            if t[0] == "0":
                pool.red_used[t[1]] = False
    raise RuntimeError(f"style {look.style} cannot show a legal hand")


def _lay_out_automatic(
    look: _Look, art: Artwork, rng: random.Random
) -> tuple[list[SynthHand], list[TileInstance], TilePool, float, float]:
    """A Japanese automatic table from the player's seat (seat 0, at -y): the walls a pinwheel
    :data:`WALL_STACKS` stacks long on each side, the discards inside it, and each hand standing
    behind its wall, its declared sets at its right. The player's hand (the winner's) holds up to
    four declared sets, kongs often (open, or concealed with two backs), flowers rarely; it stands,
    or lies face up as shown after the win. Returns what :func:`_lay_out_hands` does."""
    dims = look.dims
    pool = new_pool()
    hands: list[SynthHand] = []
    tiles: list[TileInstance] = []
    round_wind = rng.choice(WIND_LETTERS[:2]) if rng.random() < 0.8 else rng.choice(WIND_LETTERS)
    half = WALL_STACKS / 2 * dims.w + rng.uniform(2, 8)  # each wall's end clear of the next wall
    # the ponds begin just clear of the ponds beside them (a riichi tile widens a row)
    pond = POND_ROW / 2 * dims.w + (dims.h - dims.w) + rng.uniform(2, 6)
    reach = half + dims.h / 2 + rng.uniform(60, 110)  # the hands stand behind their walls
    shown = rng.random() < P_AUTOMATIC_SHOWN
    for seat in range(4):
        draw: dict[str, object] = {}
        if seat == 0:
            draw = dict(p_bonus=AUTOMATIC_P_BONUS, p_kong=AUTOMATIC_P_KONG, meld_counts=AUTOMATIC_MELDS)
        hand = _deal_hand(look, art, pool, seat, round_wind, rng, **draw)  # type: ignore[arg-type]
        hands.append(hand)
        lo = LayoutOptions(
            standing=not (seat == 0 and shown),
            gap=rng.choice([0.0, 0.0, 0.3, 0.8]),
            set_gap=rng.uniform(4, 25),
            kong_style="outer" if rng.random() < 0.85 else "inner",
        )
        ts = layout_hand(hand, dims, lo, rng, seat=seat)
        c = centre_of(ts)
        transform(ts, 0.0, np.array([-c[0] + rng.uniform(-20, 20), -c[1], 0.0]))
        yaw = seat * math.pi / 2
        transform(ts, yaw, np.array([math.sin(yaw) * reach, -math.cos(yaw) * reach, 0.0]))
        tiles += ts
    return hands, tiles, pool, pond, half


def _automatic_ponds_and_walls(
    look: _Look,
    leftovers: list[str],
    hands: list[SynthHand],
    pond: float,
    half: float,
    rng: random.Random,
) -> list[TileInstance]:
    """Each seat's discards in rows of six (one riichi tile lying sideways in some), ``pond`` mm from
    the centre, and the walls they were drawn from: as many tiles gone from the walls as were dealt,
    drawn and discarded, one replacement per kong, a dora indicator face up for each kong and one."""
    dims = look.dims
    out: list[TileInstance] = []
    discarded = 0
    for seat in range(4):
        n = min(rng.randint(4, 18), len(leftovers))
        riichi = rng.randrange(n) if n and rng.random() < P_RIICHI else None
        disc = pond_rows(leftovers[:n], dims, rng, riichi_at=riichi)
        leftovers = leftovers[n:]
        discarded += n
        for t in disc:
            t.seat = seat
        width = POND_ROW * (dims.w + 0.9)
        yaw = seat * math.pi / 2
        transform(disc, 0.0, np.array([-width / 2 + rng.gauss(0, 3), 0.0, 0.0]))
        transform(disc, yaw, np.array([math.sin(yaw) * pond, -math.cos(yaw) * pond, 0.0]))
        out += disc
    kongs = sum(m.type == "kong" for h in hands for m in h.melds)
    dora = leftovers[: 1 + min(kongs, 4)]
    taken = 4 * 13 + discarded + 1 + rng.randint(0, 3)  # the deal, a draw per discard, the winning draw
    return out + automatic_walls(dims, rng, half, taken, kongs=kongs, dora=dora)


def _table_info(look: _Look, tiles: list[TileInstance]) -> TableRecord | None:
    """For the manifest of an automatic table: the riichi discards (seat, place in the pond) and the
    dora indicators face up on the wall. None for other photos."""
    if look.kind != "automatic":
        return None
    return {
        "automatic": True,
        "riichi": [[t.seat, t.extra["pond_index"]] for t in tiles if t.extra.get("riichi")],
        "dora_indicators": [t.code for t in tiles if t.role == "wall" and not t.face_down],
    }


def _other_tiles(
    look: _Look,
    art: Artwork,
    opts: SceneOptions,
    tiles: list[TileInstance],
    pool: TilePool,
    pond: float,
    half: float,
    rng: random.Random,
    hands: list[SynthHand] | None = None,
) -> list[TileInstance]:
    """The tiles that belong to no hand, from what the deal left in the pool: on a table each side's
    discards and wall (a game in progress: the square of walls); loose tiles as the subject of a loose
    photo; sometimes a few loose tiles near a single hand, which the detector must find but the layout
    step must leave out of the hand."""
    kind, dims, game = look.kind, look.dims, look.game
    out: list[TileInstance] = []
    have = art.styles[look.style].codes
    leftovers = [k for k, n in pool.left.items() for _ in range(n) if k in have]
    rng.shuffle(leftovers)
    if kind == "automatic":
        return _automatic_ponds_and_walls(look, leftovers, hands or [], pond, half, rng)
    if kind == "table":
        for seat in range(4):
            yaw = seat * math.pi / 2
            n = rng.randint(4, 14) if not game else rng.randint(3, 18)
            disc = scatter_tiles(
                leftovers[:n],
                dims,
                rng,
                (-3 * dims.w, 0, 3 * dims.w, 2.5 * dims.h * 1.2),
                role="discard",
                p_down=0.02,
                rows=True,
            )
            leftovers = leftovers[n:]
            transform(disc, yaw, np.array([math.sin(yaw) * pond, -math.cos(yaw) * pond, 0.0]))
            out += disc
            if not game and rng.random() < 0.7:  # what is left of this side's wall, between hand and pond
                n_st = rng.randint(2, 9)
                wall = wall_segment(n_st, dims, rng, two_high=rng.random() < 0.8)
                x_off = rng.uniform(-4, 4 - n_st) * dims.w
                transform(wall, 0.0, np.array([x_off, 0.0, 0.0]))
                transform(
                    wall, yaw, np.array([math.sin(yaw) * 5.0 * dims.h, -math.cos(yaw) * 5.0 * dims.h, 0.0])
                )
                out += wall
        if game:  # the walls stand between the discards and the players' hands
            out += wall_square(dims, rng, half)
    elif kind == "loose":
        n = rng.randint(5, 24)
        spread = dims.h * rng.uniform(3, 7)
        out += loose_tiles(leftovers[:n], dims, rng, (-spread, -spread * 0.7, spread, spread * 0.7),
                           p_down=0.15, p_edge=opts.p_edge_tiles)  # fmt: skip
    elif rng.random() < opts.distractor_fraction:
        n = rng.randint(1, 6)
        span = max(abs(t.pose.center[0]) for t in tiles) + dims.w * 2
        far = dims.h * rng.uniform(1.8, 3.5)
        area = (
            (-span, far, span, far + dims.h * 3)
            if rng.random() < 0.7
            else (-span, -far - 3 * dims.h, span, -far)
        )
        out += loose_tiles(leftovers[:n], dims, rng, area, p_down=0.35, p_edge=opts.p_edge_tiles / 2)
    return out


def _dice_and_sticks(
    look: _Look, opts: SceneOptions, tiles: list[TileInstance], rng: random.Random
) -> list[tuple[TileInstance, TileDims, np.ndarray]]:
    """Dice and scoring sticks on the table, clear of the tiles: small blocks a detector could take for
    tiles, drawn as tile bodies with their own texture (object, size, texture)."""
    dims = look.dims
    objects: list[tuple[TileInstance, TileDims, np.ndarray]] = []
    if rng.random() < opts.distractor_fraction:
        span = max(abs(t.pose.center[0]) for t in tiles) + dims.w
        for _ in range(rng.randint(1, 3)):
            x, y = rng.uniform(-span, span), rng.choice([-1, 1]) * rng.uniform(dims.h * 1.6, dims.h * 4)
            if any(np.hypot(*(t.pose.center[:2] - [x, y])) < dims.h * 1.3 for t in tiles):
                continue
            ang = rng.uniform(0, 2 * math.pi)
            u = np.array([math.cos(ang), math.sin(ang), 0.0])
            v = np.array([-math.sin(ang), math.cos(ang), 0.0])
            if rng.random() < 0.5:
                s = rng.uniform(12, 17)
                od = TileDims(s, s, s, front=1.0)
                inst = TileInstance(
                    "dice",
                    TilePose(np.array([x, y, s]), u, v, np.array([0, 0, 1.0])),
                    face_colour=(235, 238, 240),
                    back_colour=(235, 238, 240),
                )
                objects.append((inst, od, _dice_texture(rng.randint(1, 6))))
            else:
                od = TileDims(rng.uniform(8, 11), rng.uniform(80, 110), rng.uniform(3, 5), front=1.0)
                inst = TileInstance(
                    "stick",
                    TilePose(np.array([x, y, od.t]), u, v, np.array([0, 0, 1.0])),
                    face_colour=(238, 240, 240),
                    back_colour=(238, 240, 240),
                )
                objects.append((inst, od, _stick_texture(rng)))
    return objects


@dataclass
class _Shot:
    """Where the camera stands and what it is pointed at (the manifest's ``camera`` and frame flags)."""

    cam: Camera
    width: int
    height: int
    elevation: float  # degrees
    azimuth: float
    roll: float
    hfov: float  # the final field of view (a close-up narrows it)
    target: np.ndarray  # the table point the camera looks at (mm)
    framed: list[TileInstance]  # the tiles the photo is of
    closeup: bool
    far: bool


def _aim_camera(look: _Look, opts: SceneOptions, tiles: list[TileInstance], rng: random.Random) -> _Shot:
    """Hold the phone as people do (frame shape, height above the table, turn, tilt, zoom), then point it
    at the subject: the hand, the player's side of a game, the standing row of an eye-level shot, the
    loose tiles."""
    kind, dims, game, eyelevel, standing = look.kind, look.dims, look.game, look.eyelevel, look.standing
    long_side = opts.img_size
    aspect = rng.choice([4 / 3, 4 / 3, 4 / 3, 16 / 9, 3 / 2])
    portrait = rng.random() < (0.25 if kind not in TABLE_KINDS else 0.4)
    if portrait:
        width, height = round(long_side / aspect), long_side
    else:
        width, height = long_side, round(long_side / aspect)
    lo_el, hi_el = opts.elevation
    if eyelevel:  # the camera at the table's height, looking across at the standing row
        el = rng.uniform(1.0, 14.0)
    elif kind == "automatic":  # a player holding the phone up at the seat, behind the hand
        el = rng.uniform(max(lo_el, 22), min(hi_el, 50))
    elif standing and kind != "table":
        el = rng.uniform(max(lo_el, 20), min(hi_el, 60))
    elif game:
        el = rng.uniform(max(lo_el, 30), min(hi_el, 70))
    elif kind == "table":
        el = rng.uniform(max(lo_el, 40), hi_el)
    else:
        el = rng.uniform(max(lo_el, 28), hi_el)
    az = rng.gauss(0, 12)
    if rng.random() < opts.p_opposite_view and not standing and kind not in TABLE_KINDS:
        az += rng.choice([90, 180, -90])
    # people turn the phone so the row runs along the long side; sometimes not, sometimes upside down
    roll = rng.gauss(0, 6)
    if portrait and kind not in TABLE_KINDS and rng.random() < 0.6 and not eyelevel:
        roll += rng.choice([90, -90])
    elif rng.random() < 0.05 and not eyelevel and not game:
        roll += rng.choice([90, -90, 180])
    hfov = rng.uniform(50, 72)
    framed = [t for t in tiles if t.role not in ("other", "discard", "wall")] if kind != "loose" else tiles
    if game:  # the player's own hand in front, the table reaching away from the camera
        framed = [t for t in tiles if t.seat == 0 and t.role not in ("other", "discard", "wall")]
    elif eyelevel:  # the standing row is the subject; flat melds in front are seen edge-on
        framed = [t for t in tiles if t.role in ("concealed", "winning")]
    hand_pts = np.vstack([t.pose.corners(dims) for t in framed])
    target = (hand_pts.min(axis=0) + hand_pts.max(axis=0)) / 2
    target[2] = dims.h / 2 if eyelevel else 0.0
    if game:  # look past the hand towards the table's centre
        target[:2] *= rng.uniform(0.35, 0.75)
        hand_pts = np.vstack([hand_pts, np.array([[0.0, 0.0, 0.0]])])
    cam_args: Aim = dict(
        target=target,
        elevation_deg=el,
        azimuth_deg=az,
        roll_deg=roll,
        hfov_deg=hfov,
        width=width,
        height=height,
    )
    closeup = kind not in ("table", "loose", "automatic") and rng.random() < opts.closeup_fraction
    far = not closeup and not eyelevel and kind != "automatic" and rng.random() < opts.far_fraction
    if closeup:
        cam = _closeup_camera(cam_args, dims, framed, rng)
        hfov = cam_args["hfov_deg"]
    else:
        cam = _framing_camera(cam_args, look, opts, framed, hand_pts, far, rng)
    return _Shot(cam, width, height, el, az, roll, hfov, target, framed, closeup, far)


def _closeup_camera(cam_args: Aim, dims: TileDims, framed: list[TileInstance], rng: random.Random) -> Camera:
    """A phone a hand-span away, zoomed in (a narrow field of view), not a lens at the tiles' surface:
    one tile from a sixth up to half and more of the frame's height, anywhere in the frame. Narrows
    ``cam_args["hfov_deg"]`` to the zoom chosen."""
    width, height = cam_args["width"], cam_args["height"]
    want_px = rng.uniform(80, max(90.0, 0.62 * min(width, height)))
    dist = rng.uniform(160, 320)
    fpx = want_px * dist / dims.h
    cam_args["hfov_deg"] = math.degrees(2 * math.atan(width / 2 / fpx))
    cam = Camera.look_at(distance=dist, **cam_args)
    pick = rng.choice(framed)
    p = cam.project(pick.pose.center[None])[0]
    cam.shift(
        width / 2 - p[0] + rng.uniform(-0.3, 0.3) * width,
        height / 2 - p[1] + rng.uniform(-0.3, 0.3) * height,
    )
    return cam


def _framing_camera(
    cam_args: Aim,
    look: _Look,
    opts: SceneOptions,
    framed: list[TileInstance],
    hand_pts: np.ndarray,
    far: bool,
    rng: random.Random,
) -> Camera:
    """Fit the subject in the frame, then change the distance where tile size matters (a far row: tiles
    11-17 px tall; otherwise at least ~20 px, even if the frame then cuts the row's ends), and shift the
    subject within the slack of the frame (a game: the player's hand along the bottom)."""
    dims, width, height = look.dims, cam_args["width"], cam_args["height"]
    fill = rng.uniform(0.85, 0.97) if look.kind in TABLE_KINDS else rng.uniform(0.7, 0.97)
    dist = fit_distance(cam_args, hand_pts, fill)
    cam = Camera.look_at(distance=dist, **cam_args)
    faces_uv = [cam.project(t.pose.corners(dims)[[2, 0]]) for t in framed]
    tile_px = float(np.median([np.linalg.norm(a - b) for a, b in faces_uv]))
    scale = opts.img_size / 640
    if far:  # a row far away: tiles 11-17 px tall at 640 px (about 8-13 px at the detector's 480)
        want = rng.uniform(11, 17) * scale
        size = [max(np.linalg.norm(q[0] - q[3]), np.linalg.norm(q[0] - q[1]))
                for q in (cam.project(t.pose.corners(dims)[[2, 3, 1, 0]]) for t in framed)]  # fmt: skip
        dist *= float(np.median(size)) / want
        cam = Camera.look_at(distance=dist, **cam_args)
    else:  # keep tiles at least ~20 px tall: move closer (the frame may then cut the row's ends)
        min_px = rng.uniform(20, 26) * scale
        if tile_px < min_px:
            dist *= tile_px / min_px
            if look.kind == "automatic":  # a player photographing the hand keeps all of it in
                hand_only = np.vstack([t.pose.corners(dims) for t in framed])
                dist = max(dist, fit_distance(cam_args, hand_only, 0.95))
            cam = Camera.look_at(distance=dist, **cam_args)
    uv = cam.project(hand_pts)
    c = (uv.min(axis=0) + uv.max(axis=0)) / 2
    slack_x = max(0.0, width - (uv[:, 0].max() - uv[:, 0].min())) / 2
    slack_y = max(0.0, height - (uv[:, 1].max() - uv[:, 1].min())) / 2
    cam.shift(
        width / 2 - c[0] + rng.uniform(-1, 1) * slack_x * 0.9,
        height / 2 - c[1] + rng.uniform(-1, 1) * slack_y * 0.9,
    )
    if look.game:  # the player's hand along the bottom of the photo, the table rising behind it
        uvh = cam.project(np.vstack([t.pose.corners(dims) for t in framed]))
        jitter = rng.uniform(-0.1, 0.1) * width
        if look.kind == "automatic":  # the whole hand in the frame: move it only within the slack
            room = max(0.0, width - float(np.ptp(uvh[:, 0]))) / 2 * 0.9
            jitter = max(-room, min(room, jitter))
        cam.shift(
            width / 2 - (uvh[:, 0].min() + uvh[:, 0].max()) / 2 + jitter,
            height * rng.uniform(0.82, 0.97) - uvh[:, 1].max(),
        )
    return cam


def _props_in_view(
    look: _Look,
    opts: SceneOptions,
    tiles: list[TileInstance],
    objects: list[tuple[TileInstance, TileDims, np.ndarray]],
    shot: _Shot,
    rng: random.Random,
    nrng: np.random.Generator,
) -> list[clutter.Prop]:
    """Everyday things where the camera sees them (keyboards, phones, paper, cups, cables): placed after
    the camera so they land in the picture, clear of the tiles, and never hiding the hand."""
    if rng.random() >= opts.clutter_fraction:
        return []
    xy = np.array([t.pose.center[:2] for t in tiles] + [o.pose.center[:2] for o, _, _ in objects])
    props = clutter.place_props(
        xy, look.dims.h * 0.8, rng, nrng, rng.randint(1, 4), _view_spot(shot.cam, shot.target, rng)
    )
    return _not_in_front(props, shot.cam, shot.framed, look.dims)


def _table_surface(
    opts: SceneOptions, shot: _Shot, rng: random.Random, nrng: np.random.Generator
) -> tuple[np.ndarray, str, str | None]:
    """The canvas: the table's surface as the camera sees it (and the room beyond its edge in low shots).
    Returns the canvas, the surface kind and the room kind (None: no room in view)."""
    kinds = list(opts.backgrounds or backgrounds.available_kinds())
    bg_kind = rng.choices(kinds, [BACKGROUND_WEIGHTS.get(k, 1.0) for k in kinds])[0]
    canvas, room = _table(shot.cam, shot.target, bg_kind, nrng, rng, opts.p_photo_room)
    return canvas, bg_kind, room


def _draw(
    canvas: np.ndarray,
    look: _Look,
    art: Artwork,
    tiles: list[TileInstance],
    objects: list[tuple[TileInstance, TileDims, np.ndarray]],
    props: list[clutter.Prop],
    shot: _Shot,
    rng: random.Random,
    nrng: np.random.Generator,
) -> tuple[np.ndarray, dict[int, TileGeometry], list[tuple[int, clutter.Prop, PropGeometry]]]:
    """Light the scene with one lamp and paint it onto the canvas: flat props first (they lie under
    everything), then the shadows, then tiles, objects and standing props from far to near so nearer
    ones cover farther ones. Each painted pixel records whose it is in the id map, from which the labels
    are read (tiles: their index; objects and props: from ``OBJECT_ID_BASE`` and ``PROP_ID_BASE``).
    Returns the id map, each tile's and object's drawn geometry, and the props as drawn."""
    cam, dims = shot.cam, look.dims
    # light: a lamp above, to one side
    l_el, l_az = math.radians(rng.uniform(35, 80)), rng.uniform(0, 2 * math.pi)
    light = np.array([math.cos(l_el) * math.cos(l_az), math.cos(l_el) * math.sin(l_az), math.sin(l_el)])
    ambient = rng.uniform(0.5, 0.75)
    hard = rng.random() < 0.35
    ids = np.full((shot.height, shot.width), -1, np.int32)
    drawn_props: list[tuple[int, clutter.Prop, PropGeometry]] = []
    for j, p in enumerate(props):  # flat props lie on the table, under tiles and shadows
        if p.flat:
            drawn_props.append(
                (PROP_ID_BASE + j, p, _draw_prop(canvas, ids, PROP_ID_BASE + j, p, cam, light, ambient))
            )
    casters = [(t, dims) for t in tiles] + [(o, od) for o, od, _ in objects]
    casters += [clutter.shadow_box(p) for p in props if not p.flat]
    _shadows(canvas, cam, casters, light, hard, nrng)

    drawables: list[tuple[int, TileInstance | clutter.Prop, TileDims | None, np.ndarray | None]]
    drawables = [(i, t, dims, None) for i, t in enumerate(tiles)]
    drawables += [(OBJECT_ID_BASE + j, o, od, tex) for j, (o, od, tex) in enumerate(objects)]
    drawables += [(PROP_ID_BASE + j, p, None, None) for j, p in enumerate(props) if not p.flat]
    drawables.sort(key=lambda d: -float(np.linalg.norm(_centre(d[1]) - cam.C)))
    geo: dict[int, TileGeometry] = {}
    gloss = gloss_map(FACE_W, FACE_H, nrng, rng.uniform(0.0, 0.25)) if rng.random() < 0.7 else None
    textures: dict[str, tuple[np.ndarray, tuple[int, ...]]] = {}
    for i, t, d, tex in drawables:
        if isinstance(t, clutter.Prop):  # a standing prop (i >= PROP_ID_BASE)
            drawn_props.append((i, t, _draw_prop(canvas, ids, i, t, cam, light, ambient)))
            continue
        assert d is not None  # a tile, a dice or a stick has its size
        if i < OBJECT_ID_BASE:
            t.style = look.style
            t.back_colour = look.back_colour
            if t.face_down:
                texture = None
                t.face_colour = _face_colour(art.face(look.style, "1m"))
            else:
                if t.code not in textures:
                    textures[t.code] = _face_texture(look, art, t.code, gloss)
                texture, t.face_colour = textures[t.code]
        else:
            texture = tex
        geo[i] = draw_tile(canvas, ids, i, t, d, texture, cam.project, cam.C, light, ambient)
    return ids, geo, drawn_props


def _face_texture(
    look: _Look, art: Artwork, code: str, gloss: np.ndarray | None
) -> tuple[np.ndarray, tuple[int, ...]]:
    """The texture of one face as this photo shows it, and its face colour: :func:`face_image`
    bevelled and glossed (made once per code and photo: every copy of a tile looks the same)."""
    face, fc = face_image(look, art, code)
    return bevel_face(face, fc, look.dims.corner, gloss), fc


def face_image(look: _Look, art: Artwork, code: str) -> tuple[np.ndarray, tuple[int, ...]]:
    """One face flat, as this photo's set prints it, and its face colour: the style's face with the
    photo's design variants (a frameless blank white dragon, swapped inks, a corner index)."""
    face = art.face(look.style, code)
    if look.blank_white and code == "5z":  # a frameless blank white dragon
        face = np.empty_like(face)
        face[:] = _face_colour(art.face(look.style, "5z"))
    elif look.inks is not None:
        face = swap_inks(face, *look.inks)
    if look.index_overlay:
        face = add_corner_index(face, code, (40, 40, 170))
    return face, _face_colour(face)


def _develop(
    canvas: np.ndarray, opts: SceneOptions, shot: _Shot, rng: random.Random, nrng: np.random.Generator
) -> tuple[np.ndarray, PhotoLog]:
    """Turn the painted canvas into a phone's photo: sometimes a shallow depth of field (sharp at the
    hand, blurred before and behind), then the lens and sensor (``camera.photograph``). Comes after the
    labels, which are read from the sharp id map. Returns the image and what was applied."""
    applied: PhotoLog = {}
    if rng.random() < opts.p_dof:  # sharp at the hand, blurred in front of it and behind it
        focus = float((shot.target - shot.cam.C) @ shot.cam.R[2])
        strength = rng.uniform(1.5, 4.0) * opts.img_size / 640
        canvas = defocus(canvas, _depth_map(shot.cam), focus, strength)
        applied["depth_of_field"] = round(strength, 2)
    return photograph(canvas, nrng, opts.photo, applied), applied


def _not_in_front(
    props: list[clutter.Prop], cam: Camera, framed: list[TileInstance], dims: TileDims
) -> list[clutter.Prop]:
    """Drop the standing props (cups, books, screens) that would hide the hand: in the picture over a
    tile of the hand that lies farther from the camera (a real photographer moves the cup). A laptop's
    base and screen go or stay together."""
    boxes, depths = [], []
    for t in framed:
        c3 = t.pose.corners(dims)
        uv = cam.project(c3)
        boxes.append((*uv.min(axis=0), *uv.max(axis=0)))
        depths.append(float(np.max((c3 - cam.C) @ cam.R[2])))

    def hides(p: clutter.Prop) -> bool:
        if p.flat:
            return False
        inst, d = clutter.shadow_box(p)
        c3 = inst.pose.corners(d)
        near = float(np.min((c3 - cam.C) @ cam.R[2]))
        if near < 1.0:  # reaching behind the lens: right in front of everything
            return True
        q = cam.project(c3)
        x0, y0 = q.min(axis=0)
        x1, y1 = q.max(axis=0)
        return any(
            bx1 > x0 and bx0 < x1 and by1 > y0 and by0 < y1 and near < depth
            for (bx0, by0, bx1, by1), depth in zip(boxes, depths, strict=True)
        )

    kept: list[clutter.Prop] = []
    k = 0
    while k < len(props):
        group = props[k : k + 2] if props[k].kind == "laptop" else props[k : k + 1]
        if not any(hides(p) for p in group):
            kept += group
        k += len(group)
    return kept


def _view_spot(
    cam: Camera, target: np.ndarray, rng: random.Random
) -> Callable[[], tuple[float, float] | None]:
    """A sampler of table points (mm) that the camera sees (a little beyond the frame too), within
    1.2 m of what it looks at."""
    Hinv = np.linalg.inv(cam.plane_homography())

    def spot() -> tuple[float, float] | None:
        u, v = rng.uniform(-0.1, 1.1) * cam.width, rng.uniform(-0.1, 1.1) * cam.height
        p = Hinv @ np.array([u, v, 1.0])
        if abs(p[2]) < 1e-9:
            return None
        x, y = p[0] / p[2], p[1] / p[2]
        if (np.array([x, y, 0.0]) - cam.C) @ cam.R[2] <= 0 or math.hypot(x - target[0], y - target[1]) > 1200:
            return None
        return float(x), float(y)

    return spot


#: Which part of a table photo a tile is: the hand of the player nearest the camera, the others' hands,
#: discards, walls, loose tiles (what a layout step must keep, and what it must leave out).
PARTS = ("player_hand", "other_hand", "discard", "wall", "loose")


def _parts(
    instances: list[TileLabel], tiles: list[TileInstance], hands: list[SynthHand], cam: Camera
) -> int | None:
    """Set each instance's ``part``; return the seat of the hand nearest the camera (None: no hand)."""
    player = None
    if hands:
        dist: dict[int, float] = {}
        for seat in range(len(hands)):
            pts = [t.pose.center for t in tiles if t.seat == seat and t.role in HAND_ROLES]
            dist[seat] = float(np.linalg.norm((np.mean(pts, axis=0) - cam.C)[:2]))
        player = min(dist, key=dist.__getitem__)
    for inst, t in zip(instances, tiles, strict=True):
        if t.role in HAND_ROLES:
            inst["part"] = "player_hand" if t.seat == player else "other_hand"
        else:
            inst["part"] = {"discard": "discard", "wall": "wall"}.get(t.role, "loose")
    return player


def _depth_map(cam: Camera) -> np.ndarray:
    """Distance along the view axis of the table point seen at each pixel (far where no table is)."""
    w, h = cam.width, cam.height
    Hinv = np.linalg.inv(cam.plane_homography())
    gx, gy = np.meshgrid(np.linspace(0, w, 17), np.linspace(0, h, 13))
    wp = Hinv @ np.stack([gx.ravel(), gy.ravel(), np.ones(gx.size)])
    z = np.where(np.abs(wp[2]) < 1e-9, 1e-9, wp[2])
    world = np.column_stack([(wp[:2] / z).T, np.zeros(gx.size)])
    depth = (world - cam.C) @ cam.R[2]
    depth = np.where(depth > 0, np.minimum(depth, 1e5), 1e5).reshape(gx.shape).astype(np.float32)
    return cv2.resize(depth, (w, h), interpolation=cv2.INTER_LINEAR)


def _centre(obj: TileInstance | clutter.Prop) -> np.ndarray:
    if isinstance(obj, clutter.Prop):
        if obj.inst is not None:
            return obj.inst.pose.center
        assert obj.centre is not None  # a cup or a cable
        middle: np.ndarray = obj.centre + np.array([0.0, 0.0, obj.height / 2])
        return middle
    return obj.pose.center


def _draw_prop(
    canvas: np.ndarray,
    ids: np.ndarray,
    obj_id: int,
    p: clutter.Prop,
    cam: Camera,
    light: np.ndarray,
    ambient: float,
) -> PropGeometry:
    if p.kind == "cup":
        return clutter.draw_cup(canvas, ids, obj_id, p, cam.project, cam.C, light, ambient)
    if p.kind == "cable":
        clutter.draw_cable(canvas, ids, obj_id, p, cam.project, light, ambient)
        return {}
    assert p.inst is not None and p.dims is not None  # a box prop
    return draw_tile(canvas, ids, obj_id, p.inst, p.dims, p.texture, cam.project, cam.C, light, ambient)


def _room(
    h: int, w: int, nrng: np.random.Generator, rng: random.Random, p_photo: float
) -> tuple[np.ndarray, str]:
    """What is seen beyond the table's edge: a real photograph (out of focus), cabinet doors, or a wall."""
    if rng.random() < p_photo:
        got = photos.photo_region(nrng, (h, w), "photo")
        if got is not None:
            img = cv2.GaussianBlur(got[0], (0, 0), rng.uniform(0.6, 2.5)).astype(np.float32)
            return img * rng.uniform(0.55, 1.0), "photo"
    if rng.random() < 0.4:
        return clutter.cabinet_backdrop(h, w, rng, nrng).astype(np.float32), "cabinet"
    wall = backgrounds.wall_colour(nrng)
    yy = np.linspace(0.7, 1.1, h, dtype=np.float32)[:, None, None]
    room = np.broadcast_to(wall * yy, (h, w, 3)).astype(np.float32)
    return room * (1 + 0.15 * backgrounds.fbm((h, w), 60, nrng, 2))[..., None], "wall"


def _table(
    cam: Camera,
    target: np.ndarray,
    kind: str,
    nrng: np.random.Generator,
    rng: random.Random,
    p_photo_room: float = 0.0,
) -> tuple[np.ndarray, str | None]:
    """The table surface seen by the camera, and the room beyond the table's edge in low shots (a real
    photograph, cabinet doors or a dim wall; its kind is returned, None when no room is in view)."""
    w, h = cam.width, cam.height
    Hm = cam.plane_homography()
    Hinv = np.linalg.inv(Hm)
    gx, gy = np.meshgrid(np.linspace(0, w, 17), np.linspace(0, h, 13))
    pts = np.stack([gx.ravel(), gy.ravel(), np.ones(gx.size)])
    wp = Hinv @ pts
    wz = wp[2]
    xy = (wp[:2] / np.where(np.abs(wz) < 1e-9, 1e-9, wz)).T
    world = np.column_stack([xy, np.zeros(len(xy))])
    depth = (world - cam.C) @ cam.R[2]
    r_max = 2500.0
    ok = (depth > 0) & (np.linalg.norm(world[:, :2] - target[:2], axis=1) < r_max)
    edge = rng.uniform(900, 2500)  # the table's far edge, if in view
    if ok.any():
        lo = np.maximum(world[ok, :2].min(axis=0), target[:2] - r_max)
        hi = np.minimum(world[ok, :2].max(axis=0), target[:2] + r_max)
    else:
        lo, hi = target[:2] - 500, target[:2] + 500
    ext = hi - lo
    mm_per_px = max(float(ext.max()) / 560.0, 0.2)
    tw, th = max(8, int(ext[0] / mm_per_px)), max(8, int(ext[1] / mm_per_px))
    tex = backgrounds.table_texture(kind, (th, tw), mm_per_px, nrng)
    # texture pixel -> world -> image
    T = np.array([[mm_per_px, 0, lo[0]], [0, mm_per_px, lo[1]], [0, 0, 1.0]])
    img = cv2.warpPerspective(tex, Hm @ T, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    # pixels that see no table (above the horizon, or past the far edge): a blurred dim room
    dist = np.linalg.norm(world[:, :2] - target[:2], axis=1)
    valid = ((depth > 0) & (dist < edge)).astype(np.float32).reshape(gy.shape)
    room_kind = None
    if valid.min() < 1:
        m = cv2.resize(valid, (w, h), interpolation=cv2.INTER_LINEAR)[..., None]
        room, room_kind = _room(h, w, nrng, rng, p_photo_room)
        img = (img.astype(np.float32) * m + room * (1 - m)).clip(0, 255).astype(np.uint8)
    return img, room_kind


def _shadows(
    canvas: np.ndarray,
    cam: Camera,
    items: list[tuple[TileInstance, TileDims]],
    light: np.ndarray,
    hard: bool,
    nrng: np.random.Generator,
) -> None:
    """Darken the table where tiles cast their shadows (along the light) and right under them (contact)."""
    h, w = canvas.shape[:2]
    m: np.ndarray = np.zeros((h, w), np.float32)
    contact: np.ndarray = np.zeros((h, w), np.float32)
    for t, d in items:
        c3 = t.pose.corners(d)
        sh = c3 - light[None, :] * (c3[:, 2:3] / max(light[2], 0.15))
        sh[:, 2] = 0
        uv = cam.project(np.vstack([sh, c3 * [1, 1, 0]]))
        fill_convex(m, cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2), 1.0)
        foot = cam.project(c3 * [1, 1, 0])
        fill_convex(contact, cv2.convexHull(foot.astype(np.float32)).reshape(-1, 2), 1.0, aa=False)
    px_scale = max(2.0, 0.004 * max(w, h))
    m = cv2.GaussianBlur(m, (0, 0), px_scale * (0.4 if hard else 2.5))
    contact = cv2.GaussianBlur(contact, (0, 0), px_scale * 0.8)
    strength = nrng.uniform(0.35, 0.6) if hard else nrng.uniform(0.2, 0.45)
    total = np.clip(strength * m + 0.35 * contact, 0, 0.8)
    canvas[:] = (canvas.astype(np.float32) * (1 - total[..., None])).astype(np.uint8)


def _instances(
    tiles: list[TileInstance], geo: dict[int, TileGeometry], ids: np.ndarray, width: int, height: int
) -> list[TileLabel]:
    """Per tile: its visible box (from the id map, so occlusion and frame cuts count), quad, orientation."""
    counts = (
        np.bincount((ids[ids >= 0]).ravel(), minlength=len(tiles))
        if (ids >= 0).any()
        else np.zeros(len(tiles))
    )
    out: list[TileLabel] = []
    for i, t in enumerate(tiles):
        g = geo[i]
        sil = g["silhouette"]
        full_area = float(cv2.contourArea(sil.astype(np.float32)))
        x0, y0 = np.floor(sil.min(axis=0)).astype(int)
        x1, y1 = np.ceil(sil.max(axis=0)).astype(int)
        vis = int(counts[i]) if i < len(counts) else 0
        box = None
        if vis > 0:
            cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1 + 1, width), min(y1 + 1, height)
            sub = ids[cy0:cy1, cx0:cx1] == i
            ys, xs = np.nonzero(sub)
            if len(ys):
                box = [
                    float(cx0 + xs.min()),
                    float(cy0 + ys.min()),
                    float(cx0 + xs.max() + 1),
                    float(cy0 + ys.max() + 1),
                ]
        frac = vis / max(full_area, 1.0)
        labelled = (
            box is not None
            and frac >= MIN_VISIBLE_FRACTION
            and box[2] - box[0] >= MIN_BOX_PX
            and box[3] - box[1] >= MIN_BOX_PX
        )
        shows = g.get("shows")
        face_down = t.face_down if shows is None else shows == "back"
        if g.get("shown_area", full_area) < MIN_FACE_FRACTION * max(full_area, 1.0):
            labelled = False  # seen edge-on: neither face nor back shows
        orient, ang = orientation_of(g["quad"])
        quad = g["quad"]
        out.append(
            {
                "code": t.code,
                "kind": kind_of(t.code),
                "face_down": face_down,
                "pose": "flat"
                if abs(t.pose.n[2]) > 0.7
                else ("edge" if t.extra.get("on_edge") else "standing"),
                "role": t.role,
                "group": t.group,
                "seat": t.seat,
                "box": [round(v, 1) for v in box] if box else None,
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad],
                "orientation": orient,
                "rotation_deg": round(ang, 1),
                "tile_px": round(
                    float(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[0] - quad[1]))), 1
                ),
                "visible_fraction": round(min(frac, 1.0), 3),
                "labelled": bool(labelled),
            }
        )
    return out
