"""What every pattern of the classical tables looks at: one player's hand read one way.

A :class:`ClassicalContext` joins the hand (context, bonus tiles, flags), one arrangement of its tiles (a
:class:`scoring.decompose.Decomposition`: a winner's complete reading, or a loser's partial grouping with
form ``partial``), the player's role and the resolved options. Patterns are small functions of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.decompose import CHOW, KONG, PAIR, PUNG, Component, Decomposition
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import (
    DRAGONS,
    FIRST_BONUS,
    FIRST_HONOUR,
    Tile,
    format_tiles,
    wind_index,
)

#: Form of a loser's reading: disjoint sets and pairs found among the concealed tiles, rest unused.
PARTIAL = "partial"


def group_code(g: Component) -> str:
    """The group as tile codes ('777z', '123m'), for element names a referee can check."""
    return format_tiles(Tile(k) for k in g.kinds)


def is_head(kind: int) -> bool:
    """*Tegola di testa*: a terminal (1 or 9) or an honour (glossary, spec §1.2)."""
    return kind >= FIRST_HONOUR or kind % 9 in (0, 8)


@dataclass(frozen=True, slots=True)
class ClassicalContext:
    hand: Hand
    reading: Decomposition
    winner: bool
    opts: Mapping[str, str]

    # -- seats and winds -----------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """Kind index of the player's own wind (*proprio vento*)."""
        return wind_index(self.hand.context.seat_wind)

    @property
    def round(self) -> int:
        """Kind index of the prevailing wind (*vento di giro*)."""
        return wind_index(self.hand.context.round_wind)

    @property
    def seat_number(self) -> int:
        """0 for East … 3 for North: own flower is ``1f + n``, own season ``5f + n`` (§1.3)."""
        return self.seat - FIRST_HONOUR

    # -- groups ----------------------------------------------------------------------------------
    @property
    def groups(self) -> tuple[Component, ...]:
        return self.reading.groups

    @property
    def sets(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind in (CHOW, PUNG, KONG))

    @property
    def pungs(self) -> tuple[Component, ...]:
        """Pungs and kongs: the seed's 'tris (o poker)'."""
        return tuple(g for g in self.groups if g.kind in (PUNG, KONG))

    @property
    def chows(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind == CHOW)

    @property
    def pairs(self) -> tuple[Component, ...]:
        return tuple(g for g in self.groups if g.kind == PAIR)

    # -- tiles -----------------------------------------------------------------------------------
    @property
    def kinds(self) -> list[int]:
        """Every tile kind of the hand proper (bonus tiles never belong to a combination)."""
        return [t.index for t in self.hand.all_tiles()]

    @property
    def bonus(self) -> frozenset[int]:
        """Exposed flowers and seasons, as indices 34–41."""
        return frozenset(t.index for t in self.hand.bonus_tiles)

    @property
    def bonus_as_honours(self) -> bool:
        """D-14 variant: flowers and seasons count as honour tiles for the composition doubles."""
        return self.opts["bonus_tiles_as_honours"] == "yes" and bool(self.hand.bonus_tiles)

    def own_bonus(self) -> tuple[int, int]:
        """Indices of the player's own flower and own season."""
        return FIRST_BONUS + self.seat_number, FIRST_BONUS + 4 + self.seat_number

    def flag(self, name: str) -> bool:
        return name in self.hand.context.flags


def is_dragon(kind: int) -> bool:
    return kind in DRAGONS
