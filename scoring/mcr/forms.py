"""MCR's winning forms and the hand's wait.

The shared decomposition gives the standard form (4 sets + pair), Seven Pairs (four identical
tiles may be two pairs: seed el. 55, "Tutte Coppie" with "Tutte e Quattro") and Thirteen Orphans.
MCR adds the knitted forms, built here on the same partition functions:

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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from scoring.decompose import (
    CHOW,
    CLOSED,
    DUAL_PUNG,
    EDGE,
    PAIR,
    PAIR_WAIT,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    Group,
    chow_wait,
    is_complete,
    readings,
    standard_partitions,
)
from scoring.hand import Hand
from scoring.tiles import FIRST_HONOUR, N_KINDS, TERMINALS_AND_HONOURS, Tile, counts34, format_tiles

KNITTED_STRAIGHT, HONOURS_KNITTED = "knitted_straight", "honours_knitted"

#: The six knitted families: 1-4-7 of one suit, 2-5-8 of another, 3-6-9 of the third.
KNITTED_FAMILIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(suit * 9 + offset + step for offset, suit in enumerate(perm) for step in (0, 3, 6)))
    for perm in permutations(range(3))
)


@dataclass(frozen=True, slots=True)
class McrReading:
    """One reading of a winning hand under MCR.

    ``sets`` are the chows, pungs and kongs (declared melds included; a knitted straight's nine
    tiles are not among them), ``pair`` the pair of a 4-sets or knitted-straight hand, ``pairs``
    the seven pairs, ``knitted`` the knitted tiles (knitted straight: nine; honours-and-knitted:
    the suited tiles). ``wait`` says where the winning tile sits: a :mod:`scoring.decompose` wait
    kind, ``knitted_edge``/``knitted_closed``/``knitted`` inside a knitted straight, or None.
    """

    form: str
    sets: tuple[Group, ...] = ()
    pair: Group | None = None
    pairs: tuple[Group, ...] = ()
    knitted: tuple[int, ...] = ()
    wait: str | None = None


KNITTED_EDGE, KNITTED_CLOSED, KNITTED_OTHER = "knitted_edge", "knitted_closed", "knitted"


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


def mcr_readings(hand: Hand) -> list[McrReading]:
    """Every reading of the hand in every MCR form, one per place of the winning tile."""
    out: list[McrReading] = []
    for r in readings(hand, seven_pairs=True, thirteen_orphans=True, seven_pairs_quads=True):
        if r.form == STANDARD:
            out.append(McrReading(STANDARD, r.sets, r.pair, wait=r.wait))
        elif r.form == SEVEN_PAIRS:
            out.append(McrReading(SEVEN_PAIRS, pairs=r.pairs, wait=r.wait))
        else:
            out.append(McrReading(THIRTEEN_ORPHANS, wait=r.wait))
    counts = counts34(hand.concealed)
    win = hand.winning_tile.index if hand.winning_tile is not None else -1
    out.extend(_knitted_straight_readings(hand, counts, win))
    if not hand.melds and _is_honours_knitted(tuple(counts)):
        suited = tuple(i for i in range(FIRST_HONOUR) if counts[i])
        out.append(McrReading(HONOURS_KNITTED, knitted=suited))
    return out


def _knitted_straight_readings(hand: Hand, counts: list[int], win: int) -> list[McrReading]:
    n_sets = 1 - len(hand.melds)
    if n_sets < 0:
        return []
    by_discard = hand.win_by == "discard"
    melds = [Group(m.kind, m.first, concealed=not m.open, declared=True) for m in hand.melds]
    out: list[McrReading] = []
    for family in KNITTED_FAMILIES:
        if any(counts[i] == 0 for i in family):
            continue
        rest = list(counts)
        for i in family:
            rest[i] -= 1
        for part in standard_partitions(rest, n_sets):
            groups = melds + [Group(kind, first) for kind, first in part]
            sets = tuple(g for g in groups if g.kind != PAIR)
            pair = next(g for g in groups if g.kind == PAIR)
            if win in family:
                out.append(McrReading(KNITTED_STRAIGHT, sets, pair, knitted=family, wait=knitted_wait(win)))
            seen: set[tuple[str, int]] = set()
            for gi, g in enumerate(groups):
                if g.declared or win not in g.kinds or (g.kind, g.first) in seen:
                    continue
                seen.add((g.kind, g.first))
                placed = Group(g.kind, g.first, concealed=not by_discard, winning=True)
                new = [placed if j == gi else h for j, h in enumerate(groups)]
                wait = (chow_wait(g.first, win) if g.kind == CHOW
                        else PAIR_WAIT if g.kind == PAIR else DUAL_PUNG)
                out.append(McrReading(
                    KNITTED_STRAIGHT, tuple(h for h in new if h.kind != PAIR),
                    next(h for h in new if h.kind == PAIR), knitted=family, wait=wait,
                ))
    return out


def _is_honours_knitted(counts: tuple[int, ...]) -> bool:
    """Fourteen different tiles: 5–7 honours, the rest from one knitted family (seed el. 44, 56)."""
    if max(counts) > 1 or sum(counts) != 14:
        return False
    if sum(counts[FIRST_HONOUR:]) < 5:
        return False
    suited = {i for i in range(FIRST_HONOUR) if counts[i]}
    return any(suited <= set(family) for family in KNITTED_FAMILIES)


@lru_cache(maxsize=1 << 16)
def _complete(counts: tuple[int, ...], n_sets: int) -> bool:
    """Whether concealed counts finish a hand with ``4 - n_sets`` declared sets in any MCR form."""
    if is_complete(counts, n_sets, special_forms=n_sets == 4, seven_pairs_quads=True):
        return True
    if n_sets == 4 and _is_honours_knitted(counts):
        return True
    if n_sets < 3 or sum(1 for c in counts[:FIRST_HONOUR] if c) < 9:
        return False  # the knitted straight: nine different suited tiles standing for three sets
    for family in KNITTED_FAMILIES:
        if all(counts[i] for i in family):
            rest = list(counts)
            for i in family:
                rest[i] -= 1
            if standard_partitions(rest, n_sets - 3):
                return True
    return False


def _candidates(counts13: list[int], win: int, n_sets: int) -> list[int]:
    """Kinds other than ``win`` that could complete the hand: a necessary condition per form.

    A standard hand or Seven Pairs only completes on a kind held or within two of a held tile of
    its suit; Thirteen Orphans only when all 13 tiles are terminals or honours; the knitted forms
    only near them (13 different tiles with four honours; eight tiles of a knitted family).
    """
    held = [k for k in range(N_KINDS) if counts13[k]]
    near: set[int] = set(held)
    for k in held:
        if k < FIRST_HONOUR:
            base = k - k % 9
            near.update(j for j in range(max(base, k - 2), min(base + 8, k + 2) + 1))
    if n_sets == 4:
        if all(k in TERMINALS_AND_HONOURS for k in held):
            near.update(TERMINALS_AND_HONOURS)
        if all(c <= 1 for c in counts13) and sum(counts13[FIRST_HONOUR:]) >= 4:
            near.update(range(N_KINDS))
    if n_sets >= 3:
        for family in KNITTED_FAMILIES:
            if sum(1 for i in family if counts13[i]) >= 8:
                near.update(family)
    near.discard(win)
    return sorted(near, key=lambda k: abs(k - win))


def unique_wait(hand: Hand, *, drop_fully_held: bool = True) -> bool:
    """Whether the winning tile's kind is the only one that completed the hand (spec §2.6).

    Any MCR form counts. The wait is a matter of shape (A16); with ``drop_fully_held`` (A16's
    default) a kind whose four copies the player already holds (concealed or in his own melds) is
    no wait: no fifth copy exists.
    """
    win = hand.winning_tile.index
    counts = counts34(hand.concealed)
    counts[win] -= 1
    held = list(counts)
    for m in hand.melds:
        for t in m.tiles:
            held[t.index] += 1
    n_sets = 4 - len(hand.melds)
    for k in _candidates(counts, win, n_sets):
        if drop_fully_held and held[k] >= 4:
            continue
        counts[k] += 1
        done = _complete(tuple(counts), n_sets)
        counts[k] -= 1
        if done:
            return False
    return True


#: wait kinds that give a wait element when the wait is unique, best label first (spec A16:
#: "Label priority, cosmetic only: Edge > Closed > Single").
WAIT_LABEL_PRIORITY = {EDGE: 3, KNITTED_EDGE: 3, CLOSED: 2, KNITTED_CLOSED: 2, PAIR_WAIT: 1}


def describe(reading: McrReading) -> str:
    """The reading as text: sets (claimed ones in [ ], concealed kongs in ( )), knitted tiles, pair."""

    def text(g: Group) -> str:
        code = "".join(str(k % 9 + 1) for k in g.kinds) + "mpsz"[g.suit]
        if g.declared:
            return f"[{code}]" if not g.concealed else f"({code})"
        return code

    parts = [text(g) for g in reading.sets]
    if reading.knitted:
        parts.append("knitted " + format_tiles(Tile(k) for k in reading.knitted))
    parts.extend(text(g) for g in reading.pairs)
    if reading.pair is not None:
        parts.append(text(reading.pair))
    if reading.form == THIRTEEN_ORPHANS:
        parts.append("thirteen orphans")
    if reading.form == HONOURS_KNITTED:
        parts.append("+ honours")
    return " ".join(parts)
