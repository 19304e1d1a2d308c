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
    Combination,
    exclusions,
)
from scoring.mcr.facts import HandFacts, ReadingFacts
from scoring.mcr.forms import WAIT_LABEL_PRIORITY

HAND_WIDE = tuple(row for row in ELEMENTS if row.hand_wide)
PER_READING = tuple(row for row in ELEMENTS if not row.hand_wide)

#: A18's alternative: with Nine Gates, only Pure Straight (the one the seed names) and the elements
#: of how the hand was won are added.
NINE_GATES_KEEPS = frozenset((78, 49, 12, 25, 27, 39, 40, 41, 42))


@dataclass(frozen=True, slots=True)
class Instance:
    """One multi-set element formed by some of the reading's sets (a bitmask of set positions)."""

    row: Combination
    sets: int


@dataclass(frozen=True, slots=True)
class ReadingScore:
    """The elements one reading scores (element number → times), their points, and a tie key."""

    facts: ReadingFacts
    counts: dict[int, int]
    points: int
    key: tuple


def instances(r: ReadingFacts, barred: frozenset[int]) -> list[Instance]:
    """Every multi-set element any 2, 3 or 4 of the reading's chows or pungs form."""
    return [x for x in _instances(r.chow_firsts, r.pung_firsts) if x.row.no not in barred]


@lru_cache(maxsize=1 << 14)
def _instances(chows: tuple[int, ...], pungs: tuple[int, ...]) -> tuple[Instance, ...]:
    out: list[Instance] = []
    for of, firsts, offset in (("chow", chows, 0), ("pung", pungs, len(chows))):
        for size in range(2, len(firsts) + 1):
            rows = [c for c in COMBINATIONS if c.size == size and c.of == of]
            for idx in combinations(range(len(firsts)), size):
                group = tuple(firsts[i] for i in idx)
                mask = sum(1 << (i + offset) for i in idx)
                out.extend(Instance(row, mask) for row in rows if row.test(group))
    return tuple(out)


def _combination_choices(found: list[Instance], closure: Mapping[int, frozenset[int]]) -> list[int]:
    """Every set of instances the principles allow together, as bitmasks over ``found``.

    Grown one instance at a time in every order: the next may share at most one set with those
    already used (exclusion), may not repeat an element on a set that already formed it
    (non-identical), and may not include or be included in a counted element (non-repeat).
    """
    reached = {0}
    frontier = [(0, 0)]
    while frontier:
        chosen, used = frontier.pop()
        for i, x in enumerate(found):
            bit = 1 << i
            if chosen & bit:
                continue
            if chosen and bin(x.sets & used).count("1") > 1:
                continue
            ok = True
            for j, y in enumerate(found):
                if not chosen & (1 << j):
                    continue
                if (y.row.no == x.row.no and y.sets & x.sets) or x.row.no in closure[y.row.no] \
                        or y.row.no in closure[x.row.no]:
                    ok = False
                    break
            if ok and chosen | bit not in reached:
                reached.add(chosen | bit)
                frontier.append((chosen | bit, used | x.sets))
    return sorted(reached)


def hand_wide_counts(h: HandFacts, r: ReadingFacts) -> dict[int, int]:
    """The hand-wide elements (the same for every reading; ``r`` is any reading)."""
    return {row.no: n for row in HAND_WIDE if (n := row.count(h, r))}


def score_reading(h: HandFacts, r: ReadingFacts, hand_wide: dict[int, int]) -> ReadingScore:
    """The best count of one reading under the principles, given the hand-wide elements."""
    closure = exclusions(h.options)
    base = dict(hand_wide)
    for row in PER_READING:
        n = row.count(h, r)
        if n:
            base[row.no] = n
    dropped = frozenset().union(*(closure[no] for no in base))
    barred = frozenset().union(*(closure[no] for no in base if no not in dropped))
    found = instances(r, barred)
    best: ReadingScore | None = None
    for choice in _combination_choices(found, closure):
        counts = dict(base)
        for i, x in enumerate(found):
            if choice >> i & 1:
                counts[x.row.no] = counts.get(x.row.no, 0) + 1
        out = frozenset().union(*(closure[no] for no in counts))
        counts = {no: n for no, n in counts.items() if no not in out}
        if 78 in counts and h.options["nine_gates_extras"] == "pure_straight":
            counts = {no: n for no, n in counts.items() if no in NINE_GATES_KEEPS}
        points = sum(BY_NO[no].points * n for no, n in counts.items())
        key = (points, WAIT_LABEL_PRIORITY.get(r.reading.wait, 0) if counts.keys() & {9, 10, 11} else 0,
               tuple(sorted(counts.items(), reverse=True)))
        if best is None or key > best.key:
            best = ReadingScore(r, counts, points, key)
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
    return ReadingScore(best.facts, {CHICKEN_HAND: 1}, BY_NO[CHICKEN_HAND].points, best.key)
