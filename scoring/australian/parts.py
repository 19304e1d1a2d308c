"""The pieces a hand is grouped into, and what each scores on the classic European base.

The seed gives no set values: "I punti attribuiti a tris e poker sono gli stessi delle regole
europee classiche" (L84). The spec's §3.2/A-01 takes the classic values (confirmed by seed 004):
pung 2, Teste (1, 9, winds, dragons) double, concealed double, kong four times a pung, chow 0;
"coppia di Draghi / di Venti del giocatore / di Venti del giro" 2 each (L93-95).

A :class:`Part` is one group of a reading: a set, a pair, a single tile, a run of a special hand
(1-9, 2-8, 1-7) or what is left of a set once a fishing player's missing tile is taken away.
This module is generic over the classic base (no Australian-only rule lives here), so it could be
shared with the Classical scorer later.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, Tile

PUNG, KONG, PAIR, SINGLE, CHOW, RUN, PARTIAL = "pung", "kong", "pair", "single", "chow", "run", "partial"
SET_KINDS = (PUNG, KONG)
WHITE, GREEN, RED = 31, 32, 33
DRAGONS = (WHITE, GREEN, RED)


def is_teste(kind: int) -> bool:
    """'Teste (Draghi, Venti, 1 e 9)' (L45): terminals and honours."""
    return kind >= FIRST_HONOUR or kind % 9 in (0, 8)


def code(kind: int, n: int = 1) -> str:
    """'777z' for three red dragons."""
    t = Tile(kind)
    return f"{t.number}" * n + t.suit


@dataclass(frozen=True, slots=True)
class Part:
    """One group of a grouping.

    ``exposed`` is True for an open meld and for a set completed by a claimed winning discard
    (§2.1: "a pung finished by claiming the winning tile from a discard scores as exposed").
    ``length`` is the number of tiles of a run or partial group. ``jokers``/``shown`` describe a
    Goulash meld holding jokers (``shown`` is the real tile part, e.g. '5m').
    """

    kind: str
    first: int
    length: int = 0
    declared: bool = False
    exposed: bool = False
    winning: bool = False
    note: str = ""
    jokers: int = 0
    shown: str = ""

    @property
    def size(self) -> int:
        return {PUNG: 3, KONG: 4, PAIR: 2, SINGLE: 1, CHOW: 3}.get(self.kind, self.length)

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.kind in (CHOW, RUN):
            return tuple(range(self.first, self.first + self.size))
        if self.kind == PARTIAL:
            return ()
        return (self.first,) * self.size

    @property
    def is_set(self) -> bool:
        return self.kind in SET_KINDS

    @property
    def chows(self) -> int:
        """How many chows ('serie') the part holds: a run of 9 is three, a run of 7 two."""
        if self.kind == CHOW:
            return 1
        return self.length // 3 if self.kind == RUN else 0

    @property
    def is_sequence(self) -> bool:
        """A chow, a run, or what is left of one (a fishing hand's broken chow)."""
        return self.kind in (CHOW, RUN, PARTIAL)

    def without(self, kind: int) -> tuple[Part, ...]:
        """The part with one tile ``kind`` taken out (a fishing player's hand before the last tile)."""
        if self.kind == PUNG:
            return (replace(self, kind=PAIR, exposed=False, winning=False),)
        if self.kind == PAIR:
            return (replace(self, kind=SINGLE, exposed=False, winning=False),)
        if self.kind == SINGLE:
            return ()
        return (Part(PARTIAL, self.first, self.size - 1),)


def set_points(part: Part) -> int:
    """Classic set values (§3.2): pung 2/4 (simples/Teste), concealed ×2, kong ×4; chow 0."""
    if not part.is_set:
        return 0
    value = 4 if is_teste(part.first) else 2
    if not part.exposed:
        value *= 2
    if part.kind == KONG:
        value *= 4
    return value


def set_name(part: Part) -> str:
    """'Exposed pung 999p (completed by the winning discard)', 'Concealed kong 8888s', …"""
    state = "Exposed" if part.exposed else "Concealed"
    if part.jokers:
        jokers = f"{part.jokers} joker" + ("s" if part.jokers > 1 else "")
        name = f"{state} {part.kind} {part.shown}+{jokers} (= {code(part.first, part.size)})"
    else:
        name = f"{state} {part.kind} {code(part.first, part.size)}"
    if part.winning and part.exposed and not part.declared:
        name += " (completed by the winning discard)"
    if part.note:
        name += f" {part.note}" if part.note.startswith("at ") else f" ({part.note})"
    return name


def pair_points(part: Part, seat: int, round_: int, double_wind: int) -> tuple[str, int] | None:
    """L93-95: a pair of dragons, of the seat wind or of the round wind scores 2 (A-09: both, 4)."""
    if part.kind != PAIR:
        return None
    k = part.first
    if k in DRAGONS:
        return f"Pair of dragons {code(k, 2)}", 2
    if k == seat and k == round_:
        return f"Pair of seat+round wind {code(k, 2)}", double_wind
    if k == seat:
        return f"Pair of seat wind {code(k, 2)}", 2
    if k == round_:
        return f"Pair of round wind {code(k, 2)}", 2
    return None
