"""The ways to arrange a player's tiles (spec §3.5, D-16): every one is scored, the best is kept.

A winner's hand is read by the shared :func:`scoring.decompose.readings` (4 sets + a pair, or
seven pairs where four identical tiles count as two pairs: *"Si considerano due coppie anche
quattro tegole uguali (purché non si siano esposte come poker)"*). A loser's hand is incomplete:
its declared melds plus any disjoint pungs, chows and valuable pairs found among the concealed
tiles; leftover tiles score nothing (D-4, D-5).
"""

from __future__ import annotations

from functools import lru_cache

from mahjong_camera_scorer.scoring.classical.context import PARTIAL
from mahjong_camera_scorer.scoring.decompose import CHOW, PAIR, PUNG, Component, Decomposition, readings
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import FIRST_HONOUR, N_KINDS, counts34

Grouping = tuple[tuple[str, int], ...]


def winner_readings(hand: Hand) -> list[Decomposition]:
    return readings(hand, seven_pairs=True, thirteen_orphans=False, seven_pairs_quads=True)


@lru_cache(maxsize=1 << 14)
def partial_groupings(counts: tuple[int, ...], pair_kinds: frozenset[int]) -> tuple[Grouping, ...]:
    """Every way to take disjoint pungs, chows and pairs (pairs only of ``pair_kinds``, the kinds
    whose pair scores) out of ``counts``; the tiles not taken are left over.

    Each step settles every copy of the lowest kind present: some in a pung, some in pairs, some
    starting chows, the rest left over; so no grouping is produced twice.
    """
    i = next((k for k in range(N_KINDS) if counts[k]), N_KINDS)
    if i == N_KINDS:
        return ((),)
    c = counts[i]
    can_chow = i < FIRST_HONOUR and i % 9 <= 6
    out: list[Grouping] = []
    for q in range(c // 3 + 1):
        for p in range((c - 3 * q) // 2 + 1 if i in pair_kinds else 1):
            free = c - 3 * q - 2 * p
            max_k = min(free, counts[i + 1], counts[i + 2]) if can_chow else 0
            for k in range(max_k + 1):
                rest = list(counts)
                rest[i] = 0
                if k:
                    rest[i + 1] -= k
                    rest[i + 2] -= k
                head: Grouping = ((PUNG, i),) * q + ((PAIR, i),) * p + ((CHOW, i),) * k
                out.extend(head + tail for tail in partial_groupings(tuple(rest), pair_kinds))
    return tuple(out)


def loser_readings(hand: Hand, pair_kinds: frozenset[int]) -> list[Decomposition]:
    """Declared melds (exposed, or concealed kongs laid folded) + each grouping of the concealed
    tiles, as concealed groups (a loser's concealed pungs are *coperti*, D-4)."""
    melds = [Component(m.kind, m.first, concealed=not m.open, declared=True) for m in hand.melds]
    out = []
    for grouping in partial_groupings(tuple(counts34(hand.concealed)), pair_kinds):
        groups = melds + [Component(kind, first) for kind, first in grouping]
        out.append(Decomposition(PARTIAL, tuple(groups), None, -1))
    return out
