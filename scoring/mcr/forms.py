"""MCR's winning forms and the hand's wait.

The shared decomposition gives the standard form's partitions (4 sets + pair), Seven Pairs (four
identical tiles may be two pairs: seed el. 55, "Tutte Coppie" with "Tutte e Quattro") and Thirteen
Orphans. MCR adds the knitted forms, built here on the same partition functions:

* **Knitted Straight** (seed el. 45, "Serpente Legato"): the nine tiles of one knitted family
  (1-4-7 in one suit, 2-5-8 in a second, 3-6-9 in the third), concealed, + one set + a pair.
  "Non si possono prendere pedine scartate per completare il serpente legato, ad eccezione della
  pedina vincente": the fourth set may be a claimed meld (spec §2.2, [std]).
* **Honours and Knitted Tiles** (el. 44 "Piccolo Raduno degli Onori", el. 56 "Grande Raduno"):
  fourteen different tiles, five to seven honours and the rest from one knitted family.

Nine Gates is a standard-form hand with a required concealed shape; it is recognised in
:mod:`scoring.mcr.elements`. The wait (spec §2.6) is every tile that completes *any* of these
forms, which is what decides the wait elements 9–11 ("non vale se si è a punto su due distinte
pedine").

Each reading carries the facts the element table reads (sorted chow and pung firsts, the pair,
concealed pungs), computed while the reading is built: every hand is read once and counted at
once, so nothing is derived twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from operator import itemgetter
from typing import Any

from mahjong_camera_scorer.scoring.decompose import (
    CHOW,
    CLOSED,
    DUAL_PUNG,
    EDGE,
    KONG,
    ORPHAN_WAIT,
    PAIR,
    PAIR_WAIT,
    PUNG,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    Component,
    chow_wait,
    is_seven_pairs,
    is_thirteen_orphans,
    standard_partitions,
)
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import (
    FIRST_HONOUR,
    N_KINDS,
    TERMINALS_AND_HONOURS,
    Tile,
    format_tiles,
)

KNITTED_STRAIGHT, HONOURS_KNITTED = "knitted_straight", "honours_knitted"

#: The six knitted families: 1-4-7 of one suit, 2-5-8 of another, 3-6-9 of the third.
KNITTED_FAMILIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(suit * 9 + offset + step for offset, suit in enumerate(perm) for step in (0, 3, 6)))
    for perm in permutations(range(3))
)
_FAMILY_MASKS = tuple(sum(1 << k for k in family) for family in KNITTED_FAMILIES)
_ORPHANS_MASK = sum(1 << k for k in TERMINALS_AND_HONOURS)

#: Decomposition features: necessary conditions the element table's ``needs`` column names, so a row
#: whose condition a reading lacks is skipped with one integer test (hand features: facts.py).
PUNGS, CHOWS, CONCEALED_PUNGS, FOUR_CLAIMED = (1 << i for i in range(16, 20))

KNITTED_EDGE, KNITTED_CLOSED, KNITTED_OTHER = "knitted_edge", "knitted_closed", "knitted"


@dataclass(slots=True, eq=False)
class McrReading:
    """One reading of a winning hand under MCR, with the facts the element table reads.

    ``sets`` are the chows, pungs and kongs (declared melds first, then concealed sets by tile; a
    knitted straight's nine tiles are not among them), ``pair`` the pair of a 4-sets or
    knitted-straight hand, ``pairs`` the seven pairs, ``knitted`` the knitted tiles (knitted
    straight: nine; honours-and-knitted: the suited tiles). ``wait`` says where the winning tile
    sits: a :mod:`scoring.decompose` wait kind, ``knitted_edge``/``knitted_closed``/``knitted``
    inside a knitted straight, or None.

    The facts: ``chow_firsts`` and ``pung_firsts`` (kongs included) are the sets' first kinds,
    sorted — the multi-set elements see the sets in this order, chows first, then pungs;
    ``pair_kind`` is the pair's kind (-1: none); ``concealed_pungs`` counts concealed pungs and
    concealed kongs (Appendix C's C); ``claimed`` the claimed (open) melds; ``features`` the
    reading features above. Built once, never changed.
    """

    form: str
    sets: tuple[Component, ...]
    pair: Component | None
    pairs: tuple[Component, ...]
    knitted: tuple[int, ...]
    wait: str | None
    chow_firsts: tuple[int, ...]
    pung_firsts: tuple[int, ...]
    pair_kind: int
    concealed_pungs: int
    claimed: int
    features: int


def _reading(
    form: str,
    sets: tuple[Component, ...] = (),
    pair: Component | None = None,
    pairs: tuple[Component, ...] = (),
    knitted: tuple[int, ...] = (),
    wait: str | None = None,
) -> McrReading:
    """A reading and its facts, derived from its groups."""
    chows = tuple(sorted(g.first for g in sets if g.kind == CHOW))
    pungs = tuple(sorted(g.first for g in sets if g.kind != CHOW))
    hidden = sum(1 for g in sets if g.kind != CHOW and g.concealed)
    claimed = sum(1 for g in sets if g.declared and not g.concealed)
    return McrReading(
        form,
        sets,
        pair,
        pairs,
        knitted,
        wait,
        chows,
        pungs,
        pair.first if pair is not None else -1,
        hidden,
        claimed,
        reading_features(chows, pungs, hidden, claimed),
    )


def reading_features(chows: tuple[int, ...], pungs: tuple[int, ...], hidden: int, claimed: int) -> int:
    return (
        (PUNGS if pungs else 0)
        | (CHOWS if chows else 0)
        | (CONCEALED_PUNGS if hidden >= 2 else 0)
        | (FOUR_CLAIMED if claimed == 4 else 0)
    )


@lru_cache(maxsize=4096)
def _group(
    kind: str, first: int, concealed: bool = True, declared: bool = False, winning: bool = False
) -> Component:
    """Groups are immutable values: each distinct one is built once and shared."""
    return Component(kind, first, concealed, declared, winning)


def knitted_wait(win: int) -> str:
    """Where a winning tile sits in its knitted triple (spec A17's mapping).

    The triple of a suit is x, x+3, x+6 (x = 1, 2, 3): the middle tile is like a closed wait,
    7 completing 1-4 or 3 completing 6-9 like an edge wait; 1, 2, 8, 9 are neither.
    """
    n = win % 9 + 1
    if n in (4, 5, 6):
        return KNITTED_CLOSED
    if n in (3, 7):
        return KNITTED_EDGE
    return KNITTED_OTHER


def _place_wait(kind: str, first: int, win: int) -> str:
    if kind == CHOW:
        return chow_wait(first, win)
    return PAIR_WAIT if kind == PAIR else DUAL_PUNG


@dataclass(slots=True, eq=False)
class Tiles:
    """The concealed tiles by kind (``counts``), and as bitmasks: the kinds present, the kinds
    held an odd number of times. Every form's gate is a test on these."""

    counts: list[int]
    present: int
    odd: int


def hand_tiles(hand: Hand) -> Tiles:
    counts = [0] * N_KINDS
    present = odd = 0
    for t in hand.concealed:
        k = t.index
        counts[k] += 1
        present |= 1 << k
        odd ^= 1 << k
    return Tiles(counts, present, odd)


def mcr_readings(hand: Hand, tiles: Tiles | None = None) -> list[McrReading]:
    """Every reading of the hand in every MCR form, one per place of the winning tile.

    The same readings, in the same order, as :func:`scoring.decompose.readings` (standard, seven
    pairs with four identical tiles as two pairs, thirteen orphans), then the knitted forms.
    ``tiles`` are :func:`hand_tiles`, when the caller has them already.
    """
    if tiles is None:
        tiles = hand_tiles(hand)
    counts, present = tiles.counts, tiles.present
    melds = hand.melds
    n_sets = 4 - len(melds)
    win = hand.context.winning_tile.index if hand.context.winning_tile is not None else -1
    by_discard = hand.context.win_by == "discard"
    out: list[McrReading] = []
    if n_sets >= 0:
        parts = standard_partitions(counts, n_sets)
        if parts:
            out = _standard_readings(hand, parts, win, by_discard)
    if not melds:
        if not tiles.odd and is_seven_pairs(counts, allow_quads=True):
            out.append(_seven_pairs_reading(counts, win, by_discard))
        if not present & ~_ORPHANS_MASK and is_thirteen_orphans(counts):
            paired = next(i for i in TERMINALS_AND_HONOURS if counts[i] == 2)
            out.append(_reading(THIRTEEN_ORPHANS, wait=PAIR_WAIT if win == paired else ORPHAN_WAIT))
    if len(melds) <= 1 and any(not mask & ~present for mask in _FAMILY_MASKS):
        out.extend(_knitted_straight_readings(hand, counts, win))
    if not melds and present.bit_count() == 14 and _is_honours_knitted(tuple(counts)):
        suited = tuple(i for i in range(FIRST_HONOUR) if counts[i])
        out.append(_reading(HONOURS_KNITTED, knitted=suited))
    return out


def _standard_readings(hand: Hand, parts: tuple[Any, ...], win: int, by_discard: bool) -> list[McrReading]:
    """The standard readings: each partition × each place of the winning tile (never a meld).

    Groups in :func:`scoring.decompose.readings`' order: declared melds in the hand's order, then
    the concealed sets by tile, the pair last.
    """
    declared: list[Component] = []
    meld_chows: list[int] = []
    meld_pungs: list[int] = []
    concealed_kongs = claimed = 0
    for m in hand.melds:
        first = m.tiles[0].index
        declared.append(_group(m.kind, first, not m.open, True))
        if m.kind == CHOW:
            meld_chows.append(first)
        else:
            meld_pungs.append(first)
        if m.open:
            claimed += 1
        else:
            concealed_kongs += 1
    out: list[McrReading] = []
    by_first = itemgetter(1)
    n_declared = len(declared)
    for part in parts:
        own = sorted([x for x in part if x[0] != PAIR], key=by_first)
        pair_kind = next(x[1] for x in part if x[0] == PAIR)
        chows = meld_chows + [f for kind, f in own if kind == CHOW]
        pungs = meld_pungs + [f for kind, f in own if kind != CHOW]
        chows.sort()
        pungs.sort()
        chow_firsts, pung_firsts = tuple(chows), tuple(pungs)
        base = [*declared, *(_group(kind, f) for kind, f in own)]
        hidden = concealed_kongs + len(pungs) - len(meld_pungs)
        features = reading_features(chow_firsts, pung_firsts, hidden, claimed)
        seen: set[tuple[str, int]] = set()
        for gi, (kind, first) in enumerate((*own, (PAIR, pair_kind))):
            if not ((first <= win <= first + 2) if kind == CHOW else first == win) or (kind, first) in seen:
                continue
            seen.add((kind, first))
            placed = _group(kind, first, not by_discard, False, True)
            if kind == PAIR:
                sets, pair = tuple(base), placed
            else:
                groups = base.copy()
                groups[n_declared + gi] = placed
                sets, pair = tuple(groups), _group(PAIR, pair_kind)
            if by_discard and kind == PUNG:
                out.append(
                    McrReading(
                        STANDARD,
                        sets,
                        pair,
                        (),
                        (),
                        DUAL_PUNG,
                        chow_firsts,
                        pung_firsts,
                        pair_kind,
                        hidden - 1,
                        claimed,
                        reading_features(chow_firsts, pung_firsts, hidden - 1, claimed),
                    )
                )
            else:
                out.append(
                    McrReading(
                        STANDARD,
                        sets,
                        pair,
                        (),
                        (),
                        _place_wait(kind, first, win),
                        chow_firsts,
                        pung_firsts,
                        pair_kind,
                        hidden,
                        claimed,
                        features,
                    )
                )
    return out


def _seven_pairs_reading(counts: list[int], win: int, by_discard: bool) -> McrReading:
    pairs = []
    placed = False
    for k in range(N_KINDS):
        for _ in range(counts[k] // 2):
            if k == win and not placed:
                placed = True
                pairs.append(_group(PAIR, k, not by_discard, False, True))
            else:
                pairs.append(_group(PAIR, k))
    return _reading(SEVEN_PAIRS, pairs=tuple(pairs), wait=PAIR_WAIT)


def _knitted_straight_readings(hand: Hand, counts: list[int], win: int) -> list[McrReading]:
    n_sets = 1 - len(hand.melds)
    by_discard = hand.context.win_by == "discard"
    melds = [Component(m.kind, m.first, concealed=not m.open, declared=True) for m in hand.melds]
    out: list[McrReading] = []
    for family in KNITTED_FAMILIES:
        if any(counts[i] == 0 for i in family):
            continue
        rest = list(counts)
        for i in family:
            rest[i] -= 1
        for part in standard_partitions(rest, n_sets):
            groups = melds + [Component(kind, first) for kind, first in part]
            sets = tuple(g for g in groups if g.kind != PAIR)
            pair = next(g for g in groups if g.kind == PAIR)
            if win in family:
                out.append(_reading(KNITTED_STRAIGHT, sets, pair, knitted=family, wait=knitted_wait(win)))
            seen: set[tuple[str, int]] = set()
            for gi, g in enumerate(groups):
                if g.declared or win not in g.kinds or (g.kind, g.first) in seen:
                    continue
                seen.add((g.kind, g.first))
                placed = Component(g.kind, g.first, concealed=not by_discard, winning=True)
                new = [placed if j == gi else h for j, h in enumerate(groups)]
                out.append(
                    _reading(
                        KNITTED_STRAIGHT,
                        tuple(h for h in new if h.kind != PAIR),
                        next(h for h in new if h.kind == PAIR),
                        knitted=family,
                        wait=_place_wait(g.kind, g.first, win),
                    )
                )
    return out


def _is_honours_knitted(counts: tuple[int, ...]) -> bool:
    """Fourteen different tiles: 5–7 honours, the rest from one knitted family (seed el. 44, 56)."""
    if max(counts) > 1 or sum(counts) != 14:
        return False
    if sum(counts[FIRST_HONOUR:]) < 5:
        return False
    suited = {i for i in range(FIRST_HONOUR) if counts[i]}
    return any(suited <= set(family) for family in KNITTED_FAMILIES)


# -- the wait ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1 << 14)
def _block_ok(honours: bool, block: tuple[int, ...]) -> bool:
    """Whether one suit's (or the honours') tiles form sets only (3n tiles) or sets and the pair
    (3n+2): suits never share a set, so a hand is standard-complete exactly when each block is and
    one block holds the pair. Decided by the shared partitioner on the block alone (with a pair
    placed in another block when the block has none)."""
    total = sum(block)
    if total % 3 == 1:
        return False
    if not total:
        return True
    counts = [0] * N_KINDS
    lo = FIRST_HONOUR if honours else 0
    counts[lo : lo + len(block)] = block
    if total % 3 == 0:
        counts[8 if honours else N_KINDS - 1] = 2
    return bool(standard_partitions(counts, total // 3))


@lru_cache(maxsize=1 << 14)
def _block_waits(honours: bool, block: tuple[int, ...]) -> tuple[int, ...]:
    """The positions in the block where one more tile makes it :func:`_block_ok`."""
    out = []
    for i in range(len(block)):
        grown = list(block)
        grown[i] += 1
        if _block_ok(honours, tuple(grown)):
            out.append(i)
    return tuple(out)


def standard_waits(counts: list[int], n_sets: int) -> list[int]:
    """Every kind k with ``standard_partitions(counts + k, n_sets)`` non-empty, block by block."""
    if sum(counts) != 3 * n_sets + 1:
        return []
    blocks = (tuple(counts[0:9]), tuple(counts[9:18]), tuple(counts[18:27]), tuple(counts[27:]))
    ok = [
        _block_ok(False, blocks[0]),
        _block_ok(False, blocks[1]),
        _block_ok(False, blocks[2]),
        _block_ok(True, blocks[3]),
    ]
    bad = ok.count(False)
    if bad > 1:
        return []
    pairs = [sum(b) % 3 == 2 for b in blocks]
    n_pairs = pairs.count(True)
    out: list[int] = []
    for j in range(4):
        if bad and ok[j]:
            continue  # another block is incomplete, and one tile only changes this one
        block = blocks[j]
        if n_pairs - pairs[j] + ((sum(block) + 1) % 3 == 2) != 1:
            continue
        out.extend(9 * j + i for i in _block_waits(j == 3, block))
    return out


def completing_kinds(counts13: list[int], n_sets: int, present13: int, odd13: int) -> set[int]:
    """Every kind that completes the concealed counts ``counts13`` (with ``4 - n_sets`` declared
    sets) in any MCR form: standard, Seven Pairs (quads as two pairs), Thirteen Orphans, Honours
    and Knitted Tiles, Knitted Straight. ``present13`` and ``odd13`` are the kinds held, and held
    an odd number of times, as bitmasks: each special form is tried only when they allow it."""
    out = set(standard_waits(counts13, n_sets))
    if n_sets == 4:
        if odd13.bit_count() == 1:  # seven pairs: the one odd kind is the only candidate
            k = odd13.bit_length() - 1
            if is_seven_pairs(_plus(counts13, k), allow_quads=True):
                out.add(k)
        if not present13 & ~_ORPHANS_MASK:
            out.update(k for k in TERMINALS_AND_HONOURS if is_thirteen_orphans(_plus(counts13, k)))
        if present13.bit_count() == 13 and (present13 >> FIRST_HONOUR).bit_count() >= 4:
            out.update(k for k in range(N_KINDS) if _is_honours_knitted(tuple(_plus(counts13, k))))
    if n_sets >= 3:
        for family, mask in zip(KNITTED_FAMILIES, _FAMILY_MASKS, strict=True):
            missing = mask & ~present13
            if missing.bit_count() > 1:
                continue
            rest = list(counts13)
            for i in family:
                rest[i] -= 1
            if not missing:
                out.update(standard_waits(rest, n_sets - 3))
            else:
                m = missing.bit_length() - 1
                rest[m] += 1
                if standard_partitions(rest, n_sets - 3):
                    out.add(m)
    return out


def _plus(counts: list[int], k: int) -> list[int]:
    grown = list(counts)
    grown[k] += 1
    return grown


def unique_wait(hand: Hand, *, drop_fully_held: bool = True, tiles: Tiles | None = None) -> bool:
    """Whether the winning tile's kind is the only one that completed the hand (spec §2.6).

    Any MCR form counts. The wait is a matter of shape (A16); with ``drop_fully_held`` (A16's
    default) a kind whose four copies the player already holds (concealed or in his own melds) is
    no wait: no fifth copy exists. ``tiles`` are :func:`hand_tiles`, when the caller has them.
    """
    if tiles is None:
        tiles = hand_tiles(hand)
    assert hand.context.winning_tile is not None  # a won hand: score() turns one without away first
    win = hand.context.winning_tile.index
    counts = list(tiles.counts)
    counts[win] -= 1
    present = tiles.present if counts[win] else tiles.present & ~(1 << win)
    others = completing_kinds(counts, 4 - len(hand.melds), present, tiles.odd ^ 1 << win)
    others.discard(win)
    if not others or not drop_fully_held:
        return not others
    held = counts
    for m in hand.melds:
        for t in m.tiles:
            held[t.index] += 1
    return all(held[k] >= 4 for k in others)


#: wait kinds that give a wait element when the wait is unique, best label first (spec A16:
#: "Label priority, cosmetic only: Edge > Closed > Single").
WAIT_LABEL_PRIORITY = {EDGE: 3, KNITTED_EDGE: 3, CLOSED: 2, KNITTED_CLOSED: 2, PAIR_WAIT: 1}


@lru_cache(maxsize=1024)
def _text(kind: str, first: int, declared: bool, concealed: bool) -> str:
    if kind == CHOW:
        code = f"{first % 9 + 1}{first % 9 + 2}{first % 9 + 3}"
    else:
        code = str(first % 9 + 1) * {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    code += "mpsz"[min(first // 9, 3)]
    if declared:
        return f"[{code}]" if not concealed else f"({code})"
    return code


def describe(reading: McrReading) -> str:
    """The reading as text: sets (claimed ones in [ ], concealed kongs in ( )), knitted tiles, pair."""
    parts = [_text(g.kind, g.first, g.declared, g.concealed) for g in reading.sets]
    if reading.knitted:
        parts.append("knitted " + format_tiles(Tile(k) for k in reading.knitted))
    parts.extend(_text(g.kind, g.first, g.declared, g.concealed) for g in reading.pairs)
    if reading.pair is not None:
        parts.append(
            _text(reading.pair.kind, reading.pair.first, reading.pair.declared, reading.pair.concealed)
        )
    if reading.form == THIRTEEN_ORPHANS:
        parts.append("thirteen orphans")
    if reading.form == HONOURS_KNITTED:
        parts.append("+ honours")
    return " ".join(parts)
