"""Mend a misread tile with the rules of the game.

A finished hand is a tight pattern: the concealed tiles and the winning tile make sets and a pair
(or seven pairs, or thirteen orphans), every declared set is a chow, pung or kong, and no kind
appears more than four times. One misread tile almost always breaks that, and the reader's
second or third guess for that tile usually restores it. So when the hand as read is not
complete, the most probable readings that change at most :data:`MAX_CHANGES` uncertain tiles to
one of their candidates are tried, best first, and the first that completes the hand is taken.

This is a guess, so it is never silent: every changed tile keeps its original reading in
``corrected_from`` and is reported as a warning to check. Tiles read with confidence at least
:data:`SURE` are never changed, nor are face-down tiles and flowers.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations
from statistics import median

from mahjong_camera_scorer.scoring.decompose import is_complete
from mahjong_camera_scorer.scoring.tiles import counts34, tile
from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.layout import Layout, kind, lay_out, meld_of_codes
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.table import BESIDE, distance, tile_length

#: At most this many tiles are changed.
MAX_CHANGES = 3
#: A candidate below this probability is not considered.
MIN_CANDIDATE = 0.05
#: Readings at least this confident stay as read.
SURE = 0.9
#: Give up after trying this many combinations.
MAX_TRIES = 2000
#: Detector scores in this range are doubtful: such a box may be left out, or taken in, to
#: complete the hand.
UNSURE_LOW, UNSURE_HIGH = 0.2, 0.6
#: At most this many doubtful boxes are considered, and at most this many toggled at once.
MAX_UNSURE, MAX_BOX_CHANGES = 8, 2
#: Lay out at most this many box variants, and try code mending on the first few of them.
MAX_LAYOUTS, MAX_CODE_MENDS = 37, 3


def _codes_ok(layout: Layout[TileRead], code_of: dict[int, str]) -> bool:
    """Is the laid-out hand, with these codes, a finished hand?"""
    concealed: list[str] = []
    n_melds = 0
    every: Counter[str] = Counter()
    for g in layout.groups:
        codes = [code_of.get(t.index, t.code) for t in g.tiles]
        every.update(kind(c) for c in codes if c != BACK)
        if g.role == "meld":
            if meld_of_codes(codes)[0] is None:
                return False
            n_melds += 1
        else:
            concealed.extend(codes)
    if any(n > 4 for n in every.values()) or BACK in concealed or n_melds > 4:
        return False
    if any(c.endswith("f") for c in concealed):
        return False
    try:
        counts = counts34(tile(c) for c in concealed)
    except ValueError:
        return False
    if sum(counts) != 3 * (4 - n_melds) + 2:
        return False
    return is_complete(counts, 4 - n_melds)


def mend(layout: Layout[TileRead]) -> dict[int, str]:
    """Changes ``{reading index: new code}`` that complete the laid-out hand; ``{}`` when it is
    already complete or no combination within the limits completes it."""
    tiles = [t for g in layout.groups for t in g.tiles]
    if not tiles or _codes_ok(layout, {}):
        return {}
    # per uncertain tile: its other candidates and what each costs in log-probability
    options: list[tuple[TileRead, list[tuple[float, str]]]] = []
    for t in tiles:
        if t.code == BACK or t.code.endswith("f") or t.confidence >= SURE:
            continue
        alts = t.alternatives
        top = max(t.confidence, 1e-6)
        others = [
            (math.log(top) - math.log(max(p, 1e-6)), c)
            for c, p in alts
            if c != t.code and c != BACK and not c.endswith("f") and p >= MIN_CANDIDATE
        ]
        if others:
            options.append((t, sorted(others)))
    # best first over sets of up to MAX_CHANGES changes
    heap: list[tuple[float, tuple[tuple[int, int], ...]]] = []
    for n in range(1, MAX_CHANGES + 1):
        for idx in combinations(range(len(options)), n):
            cost = sum(options[i][1][0][0] for i in idx)
            heapq.heappush(heap, (cost, tuple((i, 0) for i in idx)))
    seen: set[tuple[tuple[int, int], ...]] = set()
    tries = 0
    while heap and tries < MAX_TRIES:
        cost, choice = heapq.heappop(heap)
        if choice in seen:
            continue
        seen.add(choice)
        tries += 1
        change = {options[i][0].index: options[i][1][k][1] for i, k in choice}
        if _codes_ok(layout, change):
            return change
        for pos, (i, k) in enumerate(choice):  # the next candidate of one tile
            if k + 1 < len(options[i][1]):
                nxt = list(choice)
                nxt[pos] = (i, k + 1)
                step = options[i][1][k + 1][0] - options[i][1][k][0]
                heapq.heappush(heap, (cost + step, tuple(nxt)))
    return {}


def apply(readings: Sequence[TileRead], change: dict[int, str]) -> list[TileRead]:
    """The readings with the changes made, each changed one remembering what it was read as."""
    return [
        replace(r, code=change[r.index], corrected_from=r.code) if r.index in change else r for r in readings
    ]


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


#: One way to lay the boxes out: what it costs, the readings used, those left out, those taken in.
Variant = tuple[float, list[TileRead], list[TileRead], list[TileRead]]


def box_variants(
    readings: Sequence[TileRead], keep: float, hand: Sequence[TileRead] | None = None
) -> list[Variant]:
    """The sets of detections to lay out, likeliest first: ``(cost, used, dropped, added)``.

    The first is every detection scored at least ``keep``. The others toggle one or two of the
    :data:`MAX_UNSURE` detections scored nearest ``keep`` within [:data:`UNSURE_LOW`,
    :data:`UNSURE_HIGH`): a faint box taken in, or a weak one left out. A toggle costs how far
    the box's score is from ``keep`` in log-odds, so the cheapest doubts are tried first. Given
    the ``hand`` as first laid out (its tiles), only toggles that can change it are tried: a
    weak box of the hand left out, a faint box taken in within :data:`vision.table.BESIDE` tile
    lengths of a tile of the hand (a box lying apart would be left out of the hand anyway), and
    only when the hand then has a finished hand's 14 to 18 tiles."""
    base = [r for r in readings if r.detector_score >= keep]
    unsure = [r for r in readings if UNSURE_LOW <= r.detector_score < UNSURE_HIGH]
    if hand is not None:
        mine = {r.index for r in hand}
        reach = BESIDE * median([tile_length(t) for t in hand]) if hand else 0.0
        unsure = [
            r
            for r in unsure
            if (r.index in mine if r.detector_score >= keep else distance([r], hand) <= reach)
        ]
    pivot = _logit(keep)
    unsure.sort(key=lambda r: abs(_logit(r.detector_score) - pivot))
    unsure = unsure[:MAX_UNSURE]
    out: list[Variant] = [(0.0, base, [], [])]
    for n in range(1, MAX_BOX_CHANGES + 1):
        for combo in combinations(unsure, n):
            ids = {r.index for r in combo}
            dropped = [r for r in combo if r.detector_score >= keep]
            added = [r for r in combo if r.detector_score < keep]
            if hand is not None and not 14 <= len(hand) - len(dropped) + len(added) <= 18:
                continue
            used = [r for r in base if r.index not in ids] + added
            cost = sum(abs(_logit(r.detector_score) - pivot) for r in combo)
            out.append((cost, used, dropped, added))
    out.sort(key=lambda v: v[0])
    return out


def hand_region(layout: Layout[TileRead]) -> tuple[float, float, float, float] | None:
    """Where the laid-out hand lies in the photo (its groups' boxes), grown by
    :data:`vision.table.BESIDE` tile lengths on each side: a box outside it cannot become part
    of the hand (it would lie apart from the hand's rows), so the mending does not try it."""
    tiles = [t for g in layout.groups for t in g.tiles]
    if not tiles:
        return None
    grow = BESIDE * median([tile_length(t) for t in tiles])
    return (
        min(t.box[0] for t in tiles) - grow,
        min(t.box[1] for t in tiles) - grow,
        max(t.box[2] for t in tiles) + grow,
        max(t.box[3] for t in tiles) + grow,
    )


def _inside(r: TileRead, region: tuple[float, float, float, float]) -> bool:
    cx, cy = (r.box[0] + r.box[2]) / 2, (r.box[1] + r.box[3]) / 2
    return bool(region[0] <= cx <= region[2] and region[1] <= cy <= region[3])


def _count_ok(layout: Layout[TileRead]) -> bool:
    """Can the laid-out hand be finished by changing codes alone (its tile count is right)?"""
    melds = sum(g.role == "meld" for g in layout.groups)
    concealed = sum(len(g.tiles) for g in layout.groups if g.role != "meld")
    return melds <= 4 and concealed == 3 * (4 - melds) + 2


def lay_out_mended(
    readings: list[TileRead], keep: float | None = None, first: Layout[TileRead] | None = None
) -> tuple[list[TileRead], Layout[TileRead]]:
    """Lay the readings out; if the hand is not complete, mend it and lay it out again.

    Mending tries, in this order, the likeliest changes that complete the hand: (1) take in a
    faint detection or leave out a weak one (see :func:`box_variants`; ``keep`` is the detector
    score a box needs to count without the rules' help; ``None`` = every reading counts and no box
    is changed, as in live camera frames); (2) change
    the codes of uncertain tiles (see :func:`mend`); (3) both. What was changed is recorded:
    ``corrected_from`` on each re-coded reading, ``Layout.dropped`` and ``Layout.added`` for
    boxes. When nothing completes the hand, the plain reading of the boxes scored ``keep`` or
    more is returned (and reported as incomplete by the layout).

    A photo with hundreds of boxes (a whole table, a cluttered desk) is pruned first: only the
    boxes in the hand's region (:func:`hand_region` of the plain reading) are laid out again
    for each change; the others stay as they are (left out of the hand), and the hand found is
    laid out once more with them, to list them. ``first``: the plain reading's layout when the
    caller has it already (it is not laid out again)."""
    plain = readings if keep is None else [r for r in readings if r.detector_score >= keep]
    first = lay_out(plain) if first is None else first
    if _codes_ok(first, {}):
        return plain, first
    region = hand_region(first)
    near = [r for r in readings if region is None or _inside(r, region)]
    far = [r for r in plain if region is not None and not _inside(r, region)]
    hand = [t for g in first.groups for t in g.tiles]
    variants: list[Variant] = [(0.0, near, [], [])] if keep is None else box_variants(near, keep, hand)
    layouts = []
    for _cost, used, dropped, added in variants:
        layout = lay_out(used) if far else (first if not dropped and not added else lay_out(used))
        if _codes_ok(layout, {}):
            return _with_far(used, far, dropped, added, plain, first)
        layouts.append((used, layout, dropped, added))
        if len(layouts) >= MAX_LAYOUTS:
            break
    for used, layout, dropped, added in layouts[:MAX_CODE_MENDS]:
        change = mend(layout) if _count_ok(layout) else {}
        if change:
            return _with_far(apply(used, change), far, dropped, added, plain, first)
    return plain, first


def _with_far(
    used: list[TileRead],
    far: list[TileRead],
    dropped: list[TileRead],
    added: list[TileRead],
    plain: list[TileRead],
    first: Layout[TileRead],
) -> tuple[list[TileRead], Layout[TileRead]]:
    """The mended hand laid out with the boxes the pruning set aside; the plain reading if the
    whole photo lays the hand out otherwise (it never should: they lie apart from it)."""
    every = used + far
    layout = lay_out(every)
    if not _codes_ok(layout, {}):
        return plain, first
    return every, replace(layout, dropped=list(dropped), added=list(added))
