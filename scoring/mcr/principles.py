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

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from scoring.mcr.elements import (
    BY_NO,
    CHICKEN_HAND,
    COMBINATIONS,
    ELEMENTS,
    FORMS,
    Combination,
    closure,
    option_excludes,
)
from scoring.mcr.facts import HandFacts
from scoring.mcr.forms import WAIT_LABEL_PRIORITY, McrReading

HAND_WIDE = tuple(row for row in ELEMENTS if row.hand_wide)
PER_READING = tuple(row for row in ELEMENTS if not row.hand_wide)
#: the reading rows that can apply to each form (the table's ``forms`` column)
PER_FORM = {form: tuple(row for row in PER_READING if form in row.forms) for form in FORMS}
POINTS = {row.no: row.points for row in BY_NO.values()}

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
    """The elements one reading scores (element number → times), their points, and a tie key."""

    reading: McrReading
    counts: dict[int, int]
    points: int
    key: tuple


@lru_cache(maxsize=1 << 12)
def _matching(of: str, firsts: tuple[int, ...]) -> tuple[Combination, ...]:
    """The multi-set rows these sets (their sorted first kinds) form."""
    return tuple(c for c in COMBINATIONS if c.size == len(firsts) and c.of == of and c.test(firsts))


@lru_cache(maxsize=1 << 14)
def _instances(chows: tuple[int, ...], pungs: tuple[int, ...]) -> tuple[tuple[int, int, Combination], ...]:
    """Every multi-set element any 2, 3 or 4 of the reading's chows or pungs form, as
    (element number, set bitmask, row)."""
    out: list[tuple[int, int, Combination]] = []
    for of, firsts, offset in (("chow", chows, 0), ("pung", pungs, len(chows))):
        for size in range(2, len(firsts) + 1):
            for idx in combinations(range(len(firsts)), size):
                rows = _matching(of, tuple(firsts[i] for i in idx))
                if rows:
                    mask = sum(1 << (i + offset) for i in idx)
                    out.extend((row.no, mask, row) for row in rows)
    return tuple(out)


def instances(r: McrReading, barred: int = 0) -> list[Instance]:
    """Every multi-set element the reading's sets form, but those in the bitmask ``barred``."""
    return [Instance(row, sets) for no, sets, row in _instances(r.chow_firsts, r.pung_firsts)
            if not barred >> no & 1]


@lru_cache(maxsize=16)
def _masks(extra: tuple[tuple[int, int], ...]) -> dict[int, int]:
    return {no: sum(1 << x for x in excluded) for no, excluded in closure(extra).items()}


def exclusion_masks(options: Mapping[str, str]) -> dict[int, int]:
    """Every element each element excludes, transitively (spec §4.1), as bitmasks."""
    return _masks(option_excludes(options))


@lru_cache(maxsize=1 << 12)
def _combination_choices(found: tuple[tuple[int, int], ...], extra: tuple[tuple[int, int], ...]
                         ) -> tuple[int, ...]:
    """Every set of instances the principles allow together, as bitmasks over ``found`` (element
    number, set bitmask), the ones whose instances are worth most first.

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
    worth = [POINTS[no] for no, _ in found]
    return tuple(sorted(reached, key=lambda c: -sum(w for i, w in enumerate(worth) if c >> i & 1)))


def hand_wide_counts(h: HandFacts, r: McrReading) -> dict[int, int]:
    """The hand-wide elements (the same for every reading; ``r`` is any reading)."""
    return {row.no: n for row in HAND_WIDE if (n := row.count(h, r))}


def _count(h: HandFacts, r: McrReading, counts: dict[int, int], masks: dict[int, int]) -> ReadingScore:
    """Non-repeat over the counted elements, A18, the points and the tie key."""
    out = 0
    for no in counts:
        out |= masks[no]
    if out:
        counts = {no: n for no, n in counts.items() if not out >> no & 1}
    if 78 in counts and h.options["nine_gates_extras"] == "pure_straight":
        counts = {no: n for no, n in counts.items() if no in NINE_GATES_KEEPS}
    points = sum(POINTS[no] * n for no, n in counts.items())
    key = (points, WAIT_LABEL_PRIORITY.get(r.wait, 0) if not _WAIT_ELEMENTS.isdisjoint(counts) else 0,
           tuple(sorted(counts.items(), reverse=True)))
    return ReadingScore(r, counts, points, key)


def score_reading(h: HandFacts, r: McrReading, hand_wide: dict[int, int]) -> ReadingScore:
    """The best count of one reading under the principles, given the hand-wide elements."""
    extra = option_excludes(h.options)
    masks = _masks(extra)
    base = dict(hand_wide)
    for row in PER_FORM[r.form]:
        n = row.count(h, r)
        if n:
            base[row.no] = n
    dropped = 0
    for no in base:
        dropped |= masks[no]
    barred = 0
    for no in base:
        if not dropped >> no & 1:
            barred |= masks[no]
    found = tuple((no, sets) for no, sets, _ in _instances(r.chow_firsts, r.pung_firsts)
                  if not barred >> no & 1)
    if not found:
        return _count(h, r, base, masks)
    total = sum(POINTS[no] * n for no, n in base.items())
    best: ReadingScore | None = None
    for choice in _combination_choices(found, extra):
        added = [no for i, (no, _) in enumerate(found) if choice >> i & 1]
        if best is not None and total + sum(POINTS[no] for no in added) < best.points:
            break  # choices come worth-first: no later one can reach the best
        counts = dict(base)
        for no in added:
            counts[no] = counts.get(no, 0) + 1
        s = _count(h, r, counts, masks)
        if best is None or s.key > best.key:
            best = s
    assert best is not None  # the empty choice is always allowed
    return best


def best_score(scores: list[ReadingScore]) -> ReadingScore | None:
    """Take-the-higher over the readings (spec §4.4), then Chicken Hand.

    Chicken Hand (38) "non realizza alcun punto": only a hand none of whose readings scores any
    element gets it (A25); dropping an element to reach its 8 points is no choice the seed gives.
    """
    best = max(scores, key=lambda s: s.key, default=None)
    if best is None or best.counts:
        return best
    return ReadingScore(best.reading, {CHICKEN_HAND: 1}, POINTS[CHICKEN_HAND], best.key)
