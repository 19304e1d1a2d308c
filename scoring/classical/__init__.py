"""Classical Italian mah jong, Seipalle club (Florence): seed ``004_80320291acc091bf.txt``.

Every player scores base points (*punti di stecca*) × 2^doubles (*raddoppi*): the fundamental
doubles count for all, the closing doubles for the winner only; the house may demand a minimum
of doubles to go out; the hand is capped at the limit (1000). Then the winner collects from all,
the losers settle their differences, East pays and receives double, each payment is rounded to 10.

Modules: :mod:`.points` (B1–B14), :mod:`.doubles` (F1–F20, C1–C17), :mod:`.arrange` (every
arrangement of a winner's or a loser's tiles), :mod:`.limits` (the pluggable, empty table of
*grandi giochi*), :mod:`.hands` (one player's score), :mod:`.settle` and :mod:`.table` (the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.classical import hands, table
from mahjong_camera_scorer.scoring.classical.limits import (
    LIMIT_HANDS,
    SEED_GRANDI_GIOCHI,
    LimitHand,
    LimitHandTable,
)
from mahjong_camera_scorer.scoring.classical.options import NAME, OPTIONS
from mahjong_camera_scorer.scoring.classical.settle import (
    Settlement,
    pairwise_differences,
    round_half_up,
    settle,
)
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.options import resolve
from mahjong_camera_scorer.scoring.payments import Payment
from mahjong_camera_scorer.scoring.result import Score

__all__ = [
    "LIMIT_HANDS",
    "NAME",
    "OPTIONS",
    "SEED_GRANDI_GIOCHI",
    "LimitHand",
    "LimitHandTable",
    "Payment",
    "Settlement",
    "pairwise_differences",
    "round_half_up",
    "score",
    "score_table",
    "settle",
]


def score(hand: Hand, options: Mapping[str, str], limit_hands: LimitHandTable | None = None) -> Score:
    """Score one hand (role from ``hand.context.role``, default winner). Never raises.

    ``limit_hands`` replaces the module's :data:`LIMIT_HANDS` table (empty by default).
    """
    try:
        opts = resolve(OPTIONS, hand.context.options, options)
    except HandError as exc:
        return Score.invalid(NAME, str(exc))
    return hands.score(hand, opts, limit_hands)


def score_table(
    data: Mapping[str, Any], options: Mapping[str, str], limit_hands: LimitHandTable | None = None
) -> Score:
    """Score the four hands of a table (or take their scores) and settle the payments."""
    return table.score_table(data, options, lambda h, o: score(h, o, limit_hands))
