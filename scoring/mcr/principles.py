"""The counting principles (seed §4) applied to one reading, and the choice of the best reading.

* **Non-separation** ("Una combinazione non può essere cambiata per ottenere ulteriori punti"): each
  reading is scored on its own; elements of two readings never meet. :func:`best_score` keeps the
  highest (take-the-higher, spec §4.4).
* **Non-repeat** ("Ogni mano che è implicita in un'altra mano non viene contata"): an element that
  another counted element includes is dropped (the table's ``excludes``, closed transitively).
* **Exclusion / account-once** ("i restanti elementi della mano possono essere combinati al massimo
  con uno degli elementi già utilizzati"): multi-set elements are counted one after another and each
  may hold at most one set already used. Every order is tried (:func:`_combination_choices`).
* **Non-identical** (spec §4.3 step 4, the standard rule the seed's Figure 6 relies on): a set that
  formed an element with one set cannot form the same element again with another set.

Chicken Hand (38) is given only when no reading scores anything (A25); flowers stay outside all this.

Sets of elements are bitmasks (bit ``no`` for element ``no``), so the principles are integer
operations; a reading with no multi-set element to assign is counted in one step.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, cast

from mahjong_camera_scorer.scoring.mcr.elements import (
    BY_NO,
    CHICKEN_HAND,
    COMBINATIONS,
    ELEMENTS,
    Combination,
    Element,
    closure,
    option_excludes,
)
from mahjong_camera_scorer.scoring.mcr.facts import HandFacts
from mahjong_camera_scorer.scoring.mcr.forms import WAIT_LABEL_PRIORITY, McrReading

HAND_WIDE = tuple(row for row in ELEMENTS if row.hand_wide)
PER_READING = tuple(row for row in ELEMENTS if not row.hand_wide)
POINTS = {row.no: row.points for row in BY_NO.values()}
_ROWS: dict[tuple[str | None, int], tuple[Element, ...]] = {}


def rows_for(form: str | None, features: int) -> tuple[Element, ...]:
    """The rows that can apply to a reading of ``form`` (None: the hand-wide rows) with these
    features: the table's ``forms`` and ``needs`` columns, settled once per combination."""
    rows = _ROWS.get((form, features))
    if rows is None:
        pool = HAND_WIDE if form is None else tuple(row for row in PER_READING if form in row.forms)
        rows = _ROWS[form, features] = tuple(row for row in pool if not row.needs & ~features)
    return rows


#: A18's alternative: with Nine Gates, only Pure Straight (the one the seed names) and the elements
#: of how the hand was won are added.
NINE_GATES_KEEPS = frozenset((78, 49, 12, 25, 27, 39, 40, 41, 42))
_WAIT_ELEMENTS = frozenset((9, 10, 11))


@dataclass(frozen=True, slots=True)
class Instance:
    """One multi-set element formed by some of the reading's sets (a bitmask of set positions)."""

    row: Combination
    sets: int

    @property
    def no(self) -> int:
        return self.row.no


@dataclass(frozen=True, slots=True)
class ReadingScore:
    """The elements one reading scores (element number → times) and their points."""

    reading: McrReading
    counts: dict[int, int]
    points: int

    @property
    def key(self) -> tuple[Any, ...]:
        """What take-the-higher compares: the points, then the wait element's label (A16), then
        the elements themselves (so that equal keys mean equal counts)."""
        waits = not _WAIT_ELEMENTS.isdisjoint(self.counts)
        return (
            self.points,
            WAIT_LABEL_PRIORITY.get(self.reading.wait or "", 0) if waits else 0,
            tuple(sorted(self.counts.items(), reverse=True)),
        )

    def beats(self, other: ReadingScore) -> bool:
        return self.points > other.points or (self.points == other.points and self.key > other.key)


_BY_SHAPE: dict[tuple[str, int], tuple[Combination, ...]] = {}
for _row in COMBINATIONS:
    _BY_SHAPE[_row.of, _row.size] = (*_BY_SHAPE.get((_row.of, _row.size), ()), _row)


@lru_cache(maxsize=1 << 14)
def _matching(of: str, firsts: tuple[int, ...]) -> tuple[Combination, ...]:
    """The multi-set rows these sets (their sorted first kinds) form."""
    return tuple(c for c in _BY_SHAPE.get((of, len(firsts)), ()) if c.test(firsts))


@lru_cache(maxsize=1 << 14)
def _instances(chows: tuple[int, ...], pungs: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Every multi-set element any 2, 3 or 4 of the reading's chows or pungs form, as (element
    number, bitmask of the set positions: chows first, then pungs)."""
    out: list[tuple[int, int]] = []
    for of, firsts, offset in (("chow", chows, 0), ("pung", pungs, len(chows))):
        for size in range(2, len(firsts) + 1):
            for idx in combinations(range(len(firsts)), size):
                rows = _matching(of, tuple(firsts[i] for i in idx))
                if rows:
                    mask = sum(1 << (i + offset) for i in idx)
                    out.extend((row.no, mask) for row in rows)
    return tuple(out)


def instances(r: McrReading, barred: int = 0) -> list[Instance]:
    """Every multi-set element the reading's sets form, but those in the bitmask ``barred``."""
    return [
        Instance(cast(Combination, BY_NO[no]), sets)  # multi-set elements are combinations
        for no, sets in _instances(r.chow_firsts, r.pung_firsts)
        if not barred >> no & 1
    ]


@lru_cache(maxsize=16)
def _masks(extra: tuple[tuple[int, int], ...]) -> dict[int, int]:
    return {no: sum(1 << x for x in excluded) for no, excluded in closure(extra).items()}


@lru_cache(maxsize=1 << 12)
def _combination_choices(
    found: tuple[tuple[int, int], ...], extra: tuple[tuple[int, int], ...]
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every set of instances the principles allow together: (their points, their element
    numbers), the ones worth most first. ``found`` are the instances (element number, set bitmask).

    Grown one instance at a time in every order: the next may share at most one set with those
    already used (exclusion), may not repeat an element on a set that already formed it
    (non-identical), and may not include or be included in a counted element (non-repeat).
    """
    masks = _masks(extra)
    conflict = [0] * len(found)
    for i, (a, sa) in enumerate(found):
        for j, (b, sb) in enumerate(found):
            if i != j and ((a == b and sa & sb) or masks[a] >> b & 1 or masks[b] >> a & 1):
                conflict[i] |= 1 << j
    reached = {0}
    frontier = [(0, 0)]
    while frontier:
        chosen, used = frontier.pop()
        for i, (_, sets) in enumerate(found):
            bit = 1 << i
            if chosen & (bit | conflict[i]):
                continue
            if chosen and (sets & used).bit_count() > 1:
                continue
            if chosen | bit not in reached:
                reached.add(chosen | bit)
                frontier.append((chosen | bit, used | sets))
    choices = []
    for chosen in reached:
        nos = tuple(no for i, (no, _) in enumerate(found) if chosen >> i & 1)
        choices.append((sum(POINTS[no] for no in nos), nos))
    choices.sort(key=lambda c: -c[0])
    return tuple(choices)


def hand_wide_counts(h: HandFacts, r: McrReading) -> dict[int, int]:
    """The hand-wide elements (the same for every reading; ``r`` is any reading)."""
    return {row.no: n for row in rows_for(None, h.features) if (n := row.count(h, r))}


def _count(
    counts: dict[int, int], masks: dict[int, int], pure_nine_gates: bool
) -> tuple[dict[int, int], int]:
    """Non-repeat over the counted elements, A18, and the points."""
    out = 0
    for no in counts:
        out |= masks[no]
    if out:
        counts = {no: n for no, n in counts.items() if not out >> no & 1}
    if pure_nine_gates and 78 in counts:
        counts = {no: n for no, n in counts.items() if no in NINE_GATES_KEEPS}
    points = 0
    for no, n in counts.items():
        points += POINTS[no] * n
    return counts, points


@lru_cache(maxsize=1 << 14)
def _resolve(
    base: tuple[tuple[int, int], ...],
    inst: tuple[tuple[int, int], ...],
    extra: tuple[tuple[int, int], ...],
    pure_nine_gates: bool,
) -> tuple[tuple[tuple[int, int], ...], int]:
    """The principles over a reading's single elements ``base`` (element number, times) and its
    multi-set instances ``inst``: the best count (as items) and its points. It depends on nothing
    else, so equal inputs (frequent: few element combinations recur across many hands) are
    resolved once."""
    masks = _masks(extra)
    counted = dict(base)
    dropped = 0
    for no in counted:
        dropped |= masks[no]
    barred = 0
    for no in counted:
        if not dropped >> no & 1:
            barred |= masks[no]
    found = tuple((no, sets) for no, sets in inst if not barred >> no & 1)
    if not found:
        counts, points = _count(counted, masks, pure_nine_gates)
        return tuple(counts.items()), points
    total = sum(POINTS[no] * n for no, n in counted.items())
    best: tuple[dict[int, int], int] | None = None
    best_key: tuple[Any, ...] = ()
    for worth, added in _combination_choices(found, extra):
        if best is not None and total + worth < best[1]:
            break  # choices come worth-first: no later one can reach the best
        counts = dict(counted)
        for no in added:
            counts[no] = counts.get(no, 0) + 1
        counts, points = _count(counts, masks, pure_nine_gates)
        # equal points: as ReadingScore.key (a wait element 9-11 is only counted on a reading whose
        # wait has a label priority, the same for every choice of the reading), then the elements
        key = (points, not _WAIT_ELEMENTS.isdisjoint(counts), tuple(sorted(counts.items(), reverse=True)))
        if best is None or key > best_key:
            best, best_key = (counts, points), key
    assert best is not None  # the empty choice is always allowed
    return tuple(best[0].items()), best[1]


def score_reading(h: HandFacts, r: McrReading, hand_wide: dict[int, int]) -> ReadingScore:
    """The best count of one reading under the principles, given the hand-wide elements."""
    base = dict(hand_wide)
    for row in rows_for(r.form, h.features | r.features):
        n = row.count(h, r)
        if n:
            base[row.no] = n
    options = h.options
    counts, points = _resolve(
        tuple(base.items()),
        _instances(r.chow_firsts, r.pung_firsts),
        option_excludes(options),
        options["nine_gates_extras"] == "pure_straight",
    )
    return ReadingScore(r, dict(counts), points)


def best_score(scores: list[ReadingScore]) -> ReadingScore | None:
    """Take-the-higher over the readings (spec §4.4), then Chicken Hand.

    Chicken Hand (38) "non realizza alcun punto": only a hand none of whose readings scores any
    element gets it (A25); dropping an element to reach its 8 points is no choice the seed gives.
    """
    best: ReadingScore | None = None
    for s in scores:
        if best is None or s.beats(best):
            best = s
    if best is None or best.counts:
        return best
    return ReadingScore(best.reading, {CHICKEN_HAND: 1}, POINTS[CHICKEN_HAND])
