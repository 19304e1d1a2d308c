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
from dataclasses import replace
from itertools import combinations
from typing import Any

from scoring.decompose import is_complete
from scoring.tiles import counts34, tile
from vision.classes import BACK
from vision.layout import Layout, kind, lay_out, meld_of

#: At most this many tiles are changed.
MAX_CHANGES = 3
#: A candidate below this probability is not considered.
MIN_CANDIDATE = 0.05
#: Readings at least this confident stay as read.
SURE = 0.9
#: Give up after trying this many combinations.
MAX_TRIES = 2000


def _codes_ok(layout: Layout, code_of: dict[int, str]) -> bool:
    """Is the laid-out hand, with these codes, a finished hand?"""
    concealed: list[str] = []
    n_melds = 0
    every: Counter[str] = Counter()
    for g in layout.groups:
        codes = [code_of.get(id(t), t.code) for t in g.tiles]
        every.update(kind(c) for c in codes if c != BACK)
        if g.role == "meld":
            probe = type(g)([_Code(c) for c in codes], g.row)
            if meld_of(probe)[0] is None:
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


class _Code:
    """A stand-in tile for :func:`vision.layout.meld_of`, which only reads ``code``."""

    def __init__(self, code: str) -> None:
        self.code = code


def mend(layout: Layout) -> dict[int, str]:
    """Changes ``{id(reading): new code}`` that complete the laid-out hand; ``{}`` when it is
    already complete or no combination within the limits completes it."""
    tiles = [t for g in layout.groups for t in g.tiles]
    if not tiles or _codes_ok(layout, {}):
        return {}
    # per uncertain tile: its other candidates and what each costs in log-probability
    options: list[tuple[Any, list[tuple[float, str]]]] = []
    for t in tiles:
        if t.code == BACK or t.code.endswith("f") or getattr(t, "confidence", 1.0) >= SURE:
            continue
        alts = getattr(t, "alternatives", ()) or ()
        top = max(getattr(t, "confidence", 1.0), 1e-6)
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
        change = {id(options[i][0]): options[i][1][k][1] for i, k in choice}
        if _codes_ok(layout, change):
            return change
        for pos, (i, k) in enumerate(choice):  # the next candidate of one tile
            if k + 1 < len(options[i][1]):
                nxt = list(choice)
                nxt[pos] = (i, k + 1)
                step = options[i][1][k + 1][0] - options[i][1][k][0]
                heapq.heappush(heap, (cost + step, tuple(nxt)))
    return {}


def apply(readings: list[Any], change: dict[int, str]) -> list[Any]:
    """The readings with the changes made, each changed one remembering what it was read as."""
    return [replace(r, code=change[id(r)], corrected_from=r.code) if id(r) in change else r for r in readings]


def lay_out_mended(readings: list[Any]) -> tuple[list[Any], Layout]:
    """Lay the readings out; if the hand is not complete, mend it (see :func:`mend`) and lay the
    mended readings out again."""
    layout = lay_out(readings)
    change = mend(layout)
    if not change:
        return readings, layout
    readings = apply(readings, change)
    return readings, lay_out(readings)
