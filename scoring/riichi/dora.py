"""Dora, kan dora, ura dora and red fives (seed §2.7, Appendice 3; riichi.md §6).

They are fan but not yaku (§4.1): they never satisfy the yaku minimum and are ignored under a
yakuman. Each indicator counts on its own (Appendice 3: indicator 4s twice and a pung of 5s is
3 × 2 = 6 fan); every copy in the hand counts, melds and all four tiles of a kong included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from scoring.hand import Hand
from scoring.tiles import EAST, FIRST_HONOUR, NORTH, RED, WHITE, Tile


def dora_of(indicator: Tile) -> int:
    """The kind an indicator points at: the next tile, 9 → 1, N → E, Red → White (§2.7).

    The seed's dragon cycle is "rosso indica il bianco, il bianco il verde, il verde il rosso";
    with White, Green, Red = 5z, 6z, 7z that is the plain 5 → 6 → 7 → 5 cycle.
    """
    k = indicator.index
    if k < FIRST_HONOUR:
        return k - 8 if k % 9 == 8 else k + 1
    if k <= NORTH:
        return EAST if k == NORTH else k + 1
    return WHITE if k == RED else k + 1


def _hits(indicators: Iterable[Tile], tiles: list[Tile]) -> int:
    return sum(1 for ind in indicators for t in tiles if t.index == dora_of(ind))


def dora_elements(hand: Hand, riichi: bool, options: Mapping[str, str]) -> dict[str, int]:
    """``Dora`` (dora + kan dora), ``Ura dora`` (riichi winners only), ``Red five``; zeros left out."""
    tiles = hand.all_tiles()
    reds = sum(1 for t in tiles if t.red) if options["red_fives"] != "0" else 0
    counted = tiles if options["red_five_dora"] == "both" or not reds else [t for t in tiles if not t.red]
    out = {
        "Dora": _hits(hand.dora_indicators, counted),
        "Ura dora": _hits(hand.ura_dora_indicators, counted) if riichi else 0,
        "Red five": reds,
    }
    return {k: v for k, v in out.items() if v}
