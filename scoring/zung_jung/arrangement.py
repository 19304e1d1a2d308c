"""One arrangement of a winning hand, with the facts the pattern table reads.

Seed, LIBERTÀ DI CONTEGGIO: "Se ci sono più modi di arrangiare le tessere per comporre la mano
vincente, il giocatore vincente può scegliere liberamente l'arrangiamento che più gli aggrada".
An arrangement here is one :class:`~scoring.decompose.Decomposition` of the shared decomposition: the
split into sets and a pair (or seven pairs, or thirteen terminals) *and* the group the winning tile
completes, which decides whether a pung finished by a discard is exposed (seed, TRIS COPERTI).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from mahjong_camera_scorer.scoring.decompose import (
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    Component,
    Decomposition,
)
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import DRAGONS, FIRST_HONOUR, WIND_LETTERS, WINDS, counts34

#: Seat numbers of the seed's category-11 table ("1 EST … 4 NORD").
SEAT_NUMBER = {wind: i + 1 for i, wind in enumerate(WIND_LETTERS)}


def is_terminal(kind: int) -> bool:
    return kind < FIRST_HONOUR and kind % 9 in (0, 8)


def is_honour(kind: int) -> bool:
    return kind >= FIRST_HONOUR


def is_simple(kind: int) -> bool:
    return kind < FIRST_HONOUR and kind % 9 not in (0, 8)


def group_has_terminal(g: Component) -> bool:
    """A 1 or a 9 in the group (for 8.1.2 'contengono un estremo')."""
    return any(is_terminal(k) for k in g.kinds)


@dataclass(frozen=True)
class Arrangement:
    """A hand read one way: the reading plus the hand's context (seat, flags, bonus tiles, options)."""

    hand: Hand
    reading: Decomposition
    options: Mapping[str, str]

    # -- the form -------------------------------------------------------------------------------
    @property
    def regular(self) -> bool:
        """4 sets + 1 pair (categories 1–9 are 'le combinazioni delle mani regolari')."""
        return self.reading.form == STANDARD

    @property
    def seven_pairs(self) -> bool:
        return self.reading.form == SEVEN_PAIRS

    @property
    def thirteen(self) -> bool:
        return self.reading.form == THIRTEEN_ORPHANS

    # -- tiles ----------------------------------------------------------------------------------
    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """Every tile kind of the hand (concealed + melds), with repeats; bonus tiles excluded."""
        return tuple(sorted(t.index for t in self.hand.all_tiles()))

    @cached_property
    def suits(self) -> frozenset[int]:
        """The suits (0 m, 1 p, 2 s) present among the number tiles."""
        return frozenset(k // 9 for k in self.kinds if k < FIRST_HONOUR)

    @cached_property
    def has_honour(self) -> bool:
        return any(is_honour(k) for k in self.kinds)

    # -- groups ---------------------------------------------------------------------------------
    @property
    def pair(self) -> Component | None:
        return self.reading.pair

    @property
    def chows(self) -> tuple[Component, ...]:
        return self.reading.chows

    @property
    def pungs(self) -> tuple[Component, ...]:
        """Pungs and kongs: "pung/kong" in every pattern of the seed."""
        return self.reading.pungs

    @property
    def kongs(self) -> tuple[Component, ...]:
        """Declared kongs only (four undeclared identical tiles are not a kong)."""
        return self.reading.kongs

    @cached_property
    def concealed_pungs(self) -> int:
        """Seed TRIS COPERTI: all three tiles drawn from the wall, including a self-drawn winner."""
        return sum(1 for g in self.pungs if g.concealed)

    @cached_property
    def chow_counts(self) -> Counter[int]:
        """How many chows start at each kind (identical chows share a key)."""
        return Counter(g.first for g in self.chows)

    @cached_property
    def pung_kinds(self) -> frozenset[int]:
        return frozenset(g.first for g in self.pungs)

    @property
    def pair_kind(self) -> int | None:
        return self.pair.first if self.pair is not None else None

    # -- seat -----------------------------------------------------------------------------------
    @property
    def seat_wind_kind(self) -> int:
        return WINDS[WIND_LETTERS.index(self.hand.context.seat_wind)]

    def value_honour_sets(self) -> int:
        """Pungs/kongs of a dragon or the seat wind (seed 3.1; the round wind is not considered)."""
        return sum(1 for g in self.pungs if g.first in DRAGONS or g.first == self.seat_wind_kind)

    def describe(self) -> str:
        """The arrangement in words: ``[…]`` open meld, ``(…)`` concealed kong, ``*`` took the winning
        tile, ``(exposed)`` a pung that a winning discard completed."""
        parts = []
        for g in self.reading.groups:
            text = _group_code(g)
            if g.declared:
                text = f"({text})" if g.kind == "kong" and g.concealed else f"[{text}]"
            elif g.winning:
                text += "*(exposed)" if g.is_pung_like and not g.concealed else "*"
            parts.append(text)
        return " ".join(parts)


def _group_code(g: Component) -> str:
    kinds = g.kinds
    suit = "mpsz"[min(kinds[0] // 9, 3)]
    numbers = "".join(str(k - 9 * min(k // 9, 3) + 1) for k in kinds)
    return numbers + suit


NINE_GATES_WAIT = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def nine_gates(hand: Hand, *, on_wait: bool) -> bool:
    """Seed 2.2: fully concealed (no declared set at all) and 1112345678999 of one suit.

    ``on_wait`` (the default reading, A8) asks for exactly that shape *before* the winning tile,
    "essere a punto su nove tessere"; otherwise the final 14 tiles need only contain it.
    """
    if hand.melds or len(hand.concealed) != 14:
        return False
    counts = counts34(hand.concealed)
    if on_wait:
        if hand.context.winning_tile is None:
            return False
        counts[hand.context.winning_tile.index] -= 1
    for suit in range(3):
        row = counts[9 * suit : 9 * suit + 9]
        if sum(row) != sum(counts):
            continue
        if on_wait:
            return tuple(row) == NINE_GATES_WAIT
        return all(have >= need for have, need in zip(row, NINE_GATES_WAIT, strict=True))
    return False
