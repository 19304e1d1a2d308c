"""What the element table looks at: facts of the whole hand, and of one reading of it.

:class:`HandFacts` holds what is the same for every reading (the tiles, the melds, the way the hand
was won, the wait); :class:`ReadingFacts` what one reading decides (its sets, its pair, where the
winning tile sits, which pungs stay concealed). Both are computed once and read by the predicates
of :mod:`scoring.mcr.elements`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scoring.decompose import CHOW, KONG, PUNG, Group
from scoring.hand import Hand
from scoring.mcr.forms import McrReading
from scoring.tiles import DRAGONS, FIRST_HONOUR, WINDS, counts34, wind_index

#: Spec §3.3: the 13 concealed tiles of Nine Gates, 1112345678999 of one suit.
NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Facts of the hand that no reading changes."""

    counts: tuple[int, ...]          # every tile of the hand (concealed + melds), by kind
    present: frozenset[int]          # the kinds present
    suits: frozenset[int]            # suits present (0 m, 1 p, 2 s)
    has_winds: bool
    has_dragons: bool
    open_hand: bool                  # a claimed (open) meld exists
    self_drawn: bool
    flags: frozenset[str]
    seat: int                        # kind index of the seat wind
    prevalent: int                   # kind index of the round wind
    kongs_melded: int
    kongs_concealed: int
    kong_kinds: frozenset[int]
    nine_gates: bool                 # concealed 1112345678999 of one suit before the win, no melds
    unique_wait: bool                # exactly one kind completes the hand (spec §2.6, A16)
    last_tile: bool                  # element 27's condition (flag, or three copies in own open melds)
    options: Mapping[str, str]

    @property
    def has_honours(self) -> bool:
        return self.has_winds or self.has_dragons

    @property
    def kongs(self) -> int:
        return self.kongs_melded + self.kongs_concealed


def hand_facts(hand: Hand, options: Mapping[str, str], unique_wait: bool) -> HandFacts:
    """``unique_wait`` comes from :func:`scoring.mcr.forms.unique_wait` (only needed, and so only
    computed, when some reading puts the winning tile where a wait element could apply)."""
    counts = counts34(hand.all_tiles())
    present = frozenset(k for k, n in enumerate(counts) if n)
    concealed = counts34(hand.concealed)
    win = hand.winning_tile.index
    before = list(concealed)
    before[win] -= 1
    nine_gates = not hand.melds and any(
        tuple(before[s * 9:s * 9 + 9]) == NINE_GATES for s in range(3)
    )
    in_open_melds = sum(1 for m in hand.melds if m.open for t in m.tiles if t.index == win)
    return HandFacts(
        counts=tuple(counts),
        present=present,
        suits=frozenset(k // 9 for k in present if k < FIRST_HONOUR),
        has_winds=any(k in present for k in WINDS),
        has_dragons=any(k in present for k in DRAGONS),
        open_hand=any(m.open for m in hand.melds),
        self_drawn=hand.self_drawn,
        flags=hand.flags,
        seat=wind_index(hand.seat_wind),
        prevalent=wind_index(hand.round_wind),
        kongs_melded=sum(1 for m in hand.melds if m.kind == KONG and m.open),
        kongs_concealed=sum(1 for m in hand.melds if m.kind == KONG and not m.open),
        kong_kinds=frozenset(m.first for m in hand.melds if m.kind == KONG),
        nine_gates=nine_gates,
        unique_wait=unique_wait,
        last_tile="last_of_kind" in hand.flags or in_open_melds == 3,
        options=options,
    )


@dataclass(frozen=True, slots=True)
class ReadingFacts:
    """One reading, with the first tiles of its chows and of its pungs (kongs included), sorted.

    The multi-set elements see the sets in this order: chows first, then pungs.
    """

    reading: McrReading
    chow_firsts: tuple[int, ...]
    pung_firsts: tuple[int, ...]
    concealed_pungs: int             # concealed pungs and concealed kongs (Appendix C's C)

    @property
    def form(self) -> str:
        return self.reading.form

    @property
    def sets(self) -> tuple[Group, ...]:
        return self.reading.sets

    @property
    def pair(self) -> Group | None:
        return self.reading.pair


def reading_facts(reading: McrReading) -> ReadingFacts:
    sets = reading.sets
    return ReadingFacts(
        reading=reading,
        chow_firsts=tuple(sorted(g.first for g in sets if g.kind == CHOW)),
        pung_firsts=tuple(sorted(g.first for g in sets if g.kind in (PUNG, KONG))),
        concealed_pungs=sum(1 for g in sets if g.kind in (PUNG, KONG) and g.concealed),
    )
