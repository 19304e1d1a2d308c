"""What a riichi pattern needs to know about a hand besides one reading of its tiles.

Built once per hand (the readings vary, these facts do not): whether the hand is concealed in the
seed's sense (§2.3: no set from a claimed discard; concealed kongs keep it concealed), how it was
won, the winds, the win flags, the options, and the tile kinds over the whole hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import compress, product

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import EAST, FIRST_HONOUR, N_KINDS, NORTH, SOUTH, WEST, counts34


@dataclass(slots=True)
class RiichiContext:
    """Built once per hand, then only read."""

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


WIND_KIND = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
KINDS = range(N_KINDS)
#: (m used, p used, s used) → the suits used
SUIT_SETS = {used: frozenset(compress((0, 1, 2), used)) for used in product((False, True), repeat=3)}


def context(
    hand: Hand, flags: frozenset[str], options: Mapping[str, str], counts: list[int] | None = None
) -> RiichiContext:
    """``counts`` (of ``hand.all_tiles()``) may be passed when the caller has them already."""
    if counts is None:
        counts = counts34(hand.all_tiles())
    concealed = True
    for m in hand.melds:
        if m.open:
            concealed = False
            break
    situation = hand.context
    return RiichiContext(
        concealed,
        situation.win_by == "self_draw",
        situation.seat_wind == "E",
        WIND_KIND[situation.seat_wind],
        WIND_KIND[situation.round_wind],
        flags,
        options,
        tuple(counts),
        frozenset(compress(KINDS, counts)),
        SUIT_SETS[(any(counts[0:9]), any(counts[9:18]), any(counts[18:27]))],
        any(counts[FIRST_HONOUR:]),
    )
