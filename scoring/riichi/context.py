"""What a riichi pattern needs to know about a hand besides one reading of its tiles.

Built once per hand (the readings vary, these facts do not): whether the hand is concealed in the
seed's sense (§2.3: no set from a claimed discard; concealed kongs keep it concealed), how it was
won, the winds, the win flags, the options, and the tile kinds over the whole hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scoring.hand import Hand
from scoring.tiles import FIRST_HONOUR, N_KINDS, counts34, wind_index


@dataclass(frozen=True, slots=True)
class Context:
    concealed: bool
    self_drawn: bool
    dealer: bool
    seat: int
    round: int
    flags: frozenset[str]
    options: Mapping[str, str]
    #: every tile of the hand, melds included (a kong counts 4)
    counts: tuple[int, ...]
    kinds: frozenset[int]
    #: suits used (0 m, 1 p, 2 s); honours are not a suit
    suits: frozenset[int]
    has_honours: bool

    @property
    def value_winds(self) -> tuple[int, int]:
        return (self.seat, self.round)


def context(hand: Hand, flags: frozenset[str], options: Mapping[str, str]) -> Context:
    counts = counts34(hand.all_tiles())
    kinds = frozenset(k for k in range(N_KINDS) if counts[k])
    return Context(
        concealed=hand.is_concealed,
        self_drawn=hand.self_drawn,
        dealer=hand.is_dealer,
        seat=wind_index(hand.seat_wind),
        round=wind_index(hand.round_wind),
        flags=flags,
        options=options,
        counts=tuple(counts),
        kinds=kinds,
        suits=frozenset(k // 9 for k in kinds if k < FIRST_HONOUR),
        has_honours=any(k >= FIRST_HONOUR for k in kinds),
    )
