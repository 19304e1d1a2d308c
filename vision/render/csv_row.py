"""The photos CSV's cells a read photo fills (after ``file``, and a manifest's table and hand).

A CSV is for a spreadsheet or a program: the cells are codes, counts and the score's identifiers
(``valid``, ``total``, ``unit``), the same in every language.
"""

from __future__ import annotations

from typing import Any

from mahjong_camera_scorer.vision.render.verdict import to_check_cell
from mahjong_camera_scorer.vision.result import HandResult

#: the photos CSV's cells a read photo fills, after ``file`` (and a manifest's table and hand)
CSV_COLUMNS = (
    # the verdict first: sure, or check, and the tiles to check as ROW.POSITION:code
    "verdict",
    "to_check",
    "tiles",
    "hand",
    "melds",
    "winning_tile",
    # no winning tile set apart: the one the score assumes and how many could have won (for the
    # referee to check which did); empty when the photo or the context gave the winning tile
    "best_candidate",
    "candidates",
    "bonus_tiles",
    "valid",
    "total",
    "unit",
    "flagged",
    # the changes the mending made to complete the hand (vision.mend), each one to check
    "mended",
)


def csv_cells(result: HandResult | None) -> list[Any]:
    """The photos CSV's cells for :data:`CSV_COLUMNS` (None: a photo not read: empty cells)."""
    if result is None:
        return ["", "", "", "", "", "", "", "", "", False, "", "", 0, 0]
    hand = result.hand_json()
    score = result.score.to_json() if result.score is not None else {}
    return [
        "sure" if result.verdict.sure else "check",
        to_check_cell(result.verdict),
        " ".join(t.code for t in result.tiles),
        hand.get("hand", ""),
        " ".join(m["tiles"] for m in hand.get("melds", [])),
        hand.get("winning_tile") or "",
        (result.scored_winning_tile or "") if result.winning_from == "candidate" else "",
        len(result.candidates) or "",
        " ".join(hand.get("bonus_tiles", [])),
        score.get("valid", False),
        score.get("total", ""),
        score.get("unit", ""),
        len(result.flagged),
        result.mended,
    ]
