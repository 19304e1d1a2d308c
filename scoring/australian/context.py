"""What a scorer needs to know besides the tiles: winds, flags, bonus tiles, options, limits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import FIRST_BONUS, wind_index

#: Named values of §2.7 as fractions of the limit ('mezzo limite', 'limite', 'doppio limite').
VALUES: dict[str, Fraction] = {
    "half limit": Fraction(1, 2),
    "limit": Fraction(1),
    "double limit": Fraction(2),
}
ALL_CHIPS = "all chips"


@dataclass(frozen=True)
class AustralianContext:
    """The table facts of one hand (role-independent) and the resolved options."""

    seat: int
    round: int
    flags: frozenset[str]
    bonus: tuple[int, ...]
    opts: Mapping[str, str]
    win_by: str = "discard"

    @classmethod
    def of(cls, hand: Hand, opts: Mapping[str, str]) -> AustralianContext:
        ctx = hand.context
        return cls(
            wind_index(ctx.seat_wind),
            wind_index(ctx.round_wind),
            ctx.flags,
            tuple(t.index for t in hand.bonus_tiles),
            opts,
            ctx.win_by,
        )

    @property
    def seat_number(self) -> int:
        """0 for East … 3 for North: bonus tiles n and n+4 belong to seat n (§0.1)."""
        return self.seat - 27

    @property
    def own_bonus(self) -> tuple[int, int]:
        return FIRST_BONUS + self.seat_number, FIRST_BONUS + 4 + self.seat_number

    @property
    def limit(self) -> int:
        return int(self.opts["limit"])

    def value(self, name: str) -> int:
        """A named value in points: 'limit' → 1,000 by default."""
        return int(VALUES[name] * self.limit)

    def on(self, option: str) -> bool:
        return self.opts[option] == "true"

    @property
    def goulash(self) -> bool:
        return "goulash" in self.flags

    @property
    def jokers(self) -> bool:
        """L69: 'i quattro 2 di Bambù possono essere considerati dei jolly' (Goulash, by agreement)."""
        return "jokers" in self.flags

    @property
    def self_drawn(self) -> bool:
        return self.win_by == "self_draw"
