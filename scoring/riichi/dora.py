"""Dora, kan dora, ura dora and red fives (seed §2.7, Appendice 3; riichi.md §6).

They are fan but not yaku (§4.1): they never satisfy the yaku minimum and are ignored under a
yakuman. Each indicator counts on its own (Appendice 3: indicator 4s twice and a pung of 5s is
3 × 2 = 6 fan); every copy in the hand counts, melds and all four tiles of a kong included.
"""

from __future__ import annotations

from collections.abc import Mapping

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import EAST, FIRST_HONOUR, N_KINDS, NORTH, RED, WHITE, Tile


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


#: kind index of an indicator → the kind it points at
DORA_OF = tuple(dora_of(Tile(k)) for k in range(N_KINDS))


def dora_elements(
    hand: Hand, counts: tuple[int, ...] | list[int], reds: list[int], riichi: bool, options: Mapping[str, str]
) -> dict[str, int]:
    """``Dora`` (dora + kan dora), ``Ura dora`` (riichi winners only), ``Red five``; zeros left out.

    ``counts`` are the 34-kind counts of every tile of the hand, melds included, ``reds`` the
    kinds of its red fives.
    """
    red_kinds = reds if options["red_fives"] != "0" else []
    if red_kinds and options["red_five_dora"] == "red_only":
        counts = tuple(n - red_kinds.count(k) for k, n in enumerate(counts))
    out = {}
    dora = 0
    for t in hand.context.dora_indicators:
        dora += counts[DORA_OF[t.index]]
    if dora:
        out["Dora"] = dora
    if riichi:
        ura = 0
        for t in hand.context.ura_dora_indicators:
            ura += counts[DORA_OF[t.index]]
        if ura:
            out["Ura dora"] = ura
    if red_kinds:
        out["Red five"] = len(red_kinds)
    return out
