"""A hand's tiles as the special-hand table and the legality rules see them, and its groupings.

:class:`Shape` holds the concealed counts and the declared sets; :attr:`Shape.counts` is every
tile with a declared kong counted three times, so a winning hand always has 14 "logical" tiles and
a fishing hand 13. Groupings are tuples of :class:`~scoring.australian.parts.Part`; the special
hands build theirs from :attr:`Shape.counts` and :func:`attach_melds` checks that the declared sets
fit them; ordinary readings come from the shared decomposition (``standard_partitions``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from mahjong_camera_scorer.scoring.australian.parts import CHOW, KONG, PAIR, PUNG, RUN, SINGLE, Part
from mahjong_camera_scorer.scoring.decompose import standard_partitions
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS

Grouping = tuple[Part, ...]


@dataclass(frozen=True)
class Shape:
    """Concealed counts (34 kinds) and declared sets (parts with ``declared=True``)."""

    concealed: tuple[int, ...]
    melds: tuple[Part, ...] = ()
    #: Goulash jokers that keep their own colour (option ``jokers_keep_colour=false``): each is a
    #: 2 of bamboo for the one-suit and colour conditions, whatever tile it stands for.
    colour_kinds: frozenset[int] = frozenset()
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @cached_property
    def counts(self) -> tuple[int, ...]:
        """Every tile, a declared kong counted as three (its fourth tile is the replacement's due)."""
        c = list(self.concealed)
        for m in self.melds:
            for k in m.kinds[:3] if m.kind == KONG else m.kinds:
                c[k] += 1
        return tuple(c)

    @cached_property
    def kongs(self) -> frozenset[int]:
        return frozenset(m.first for m in self.melds if m.kind == KONG)

    @cached_property
    def open_melds(self) -> bool:
        return any(m.exposed for m in self.melds)

    @cached_property
    def suits(self) -> frozenset[int]:
        """Suits (0, 1, 2) present among all tiles."""
        present = {k for k in range(FIRST_HONOUR) if self.counts[k]} | self.colour_kinds
        return frozenset(k // 9 for k in present)

    @cached_property
    def honours(self) -> int:
        return sum(self.counts[FIRST_HONOUR:])

    @cached_property
    def cleared(self) -> bool:
        """'Sgomberata' (L51, L60): every suit tile of one suit, honours optional (§2.3)."""
        return len(self.suits) <= 1

    def kinds_in(self, allowed: Iterable[int]) -> bool:
        allowed = set(allowed)
        return all(k in allowed for k in range(N_KINDS) if self.counts[k]) and self.colour_kinds <= allowed

    def add(self, kind: int) -> Shape:
        c = list(self.concealed)
        c[kind] += 1
        return Shape(tuple(c), self.melds, self.colour_kinds)

    def standard(self) -> tuple[Grouping, ...]:
        """Every ordinary reading: 4 sets + a pair, declared sets first (§2.2)."""
        if "std" not in self._cache:
            n_sets = 4 - len(self.melds)
            # five or more of a kind only happen with Goulash jokers ("due tris dello stesso pezzo",
            # L69): one pung of each such kind is set aside before the shared decomposition
            extra = tuple(Part(PUNG, k) for k, n in enumerate(self.concealed) if n >= 5)
            counts = [n - 3 if n >= 5 else n for n in self.concealed]
            out = []
            if n_sets - len(extra) >= 0:
                for partition in standard_partitions(counts, n_sets - len(extra)):
                    out.append(self.melds + extra + tuple(Part(kind, first) for kind, first in partition))
            self._cache["std"] = tuple(out)
        std: tuple[tuple[Part, ...], ...] = self._cache["std"]
        return std


def attach_melds(parts: Iterable[Part], shape: Shape, may_declare: frozenset[str]) -> Grouping | None:
    """Fit the declared sets into a special hand's grouping, or None if they do not fit.

    A declared pung/kong must be one of the grouping's pungs (a kong where it was declared as one);
    a declared chow must be a chow of the grouping or lie inside one of its runs. ``may_declare``
    lists the part kinds the pattern lets a player expose (its "claims" column in §3.6).
    """
    free = list(parts)
    used_in_run: dict[int, set[int]] = {}
    attached: list[Part] = []
    for m in shape.melds:
        for i, p in enumerate(free):
            if m.kind in (PUNG, KONG) and p.is_set and p.first == m.first:
                if PUNG not in may_declare:
                    return None
                attached.append(m)
                del free[i]
                break
            if m.kind == CHOW and CHOW in may_declare:
                if p.kind == CHOW and p.first == m.first:
                    attached.append(m)
                    del free[i]
                    break
                if p.kind == RUN and p.first <= m.first and m.first + 2 < p.first + p.length:
                    taken = used_in_run.setdefault(i, set())
                    span = {m.first, m.first + 1, m.first + 2}
                    if not taken & span:  # the run stands for the declared chow (both score 0)
                        taken |= span
                        break
        else:
            return None
    return tuple(attached) + tuple(free)


def place_winning_tile(grouping: Grouping, kind: int, by_discard: bool) -> Iterator[Grouping]:
    """Each way the winning tile can sit in an undeclared part of the grouping (§2.1: a set it
    completes from a discard is exposed)."""
    seen: set[tuple[str, int]] = set()
    for i, p in enumerate(grouping):
        if p.declared or kind not in p.kinds or (p.kind, p.first) in seen:
            continue
        seen.add((p.kind, p.first))
        yield (*grouping[:i], replace(p, winning=True, exposed=by_discard), *grouping[i + 1 :])


def held_grouping(shape: Shape) -> Grouping:
    """The best grouping of a non-winner's concealed tiles into pungs, pairs and singles (A-11).

    Every kind held three or four times is a concealed pung (the fourth tile of an undeclared
    kong is an odd tile, §2.1), twice a pair, once a single. This is the highest-scoring split:
    a pung is worth at least as much as a pair (4 ≥ 2, and it may earn a double), and breaking a
    pung or pair never produces the 'all pungs' shapes (4 pungs + 1, or 3 pungs + 2 pairs) that
    the whole pungs did not already have; chows score nothing.
    """
    parts: list[Part] = list(shape.melds)
    for k, n in enumerate(shape.concealed):
        if n >= 3:
            parts.append(Part(PUNG, k, note="4th tile undeclared" if n == 4 else ""))
            if n == 4:
                parts.append(Part(SINGLE, k))
        elif n == 2:
            parts.append(Part(PAIR, k))
        elif n == 1:
            parts.append(Part(SINGLE, k))
    return tuple(parts)
