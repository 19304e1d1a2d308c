"""What makes a hand no win whatever tile won, as the front ends show it: the count problem of
:mod:`scoring.tile_counts` (the one check of the tiles' count and copies, issue 37's), a hand one
tile short (ready: its waits are worth showing), or fourteen tiles that no tile completes.

Every front end (``hand``, ``hands``, ``photo``, ``photos``, the camera, the page) names these
problems itself rather than the rules' first refusal ("give the winning tile"): the text front ends
print the :attr:`Problem.message`, the page words the :attr:`Problem.kind` with its facts
(``vision/render/notices.py``). :data:`HAND_TILES` is the one place the fourteen is written for them.
"""

from __future__ import annotations

from dataclasses import dataclass

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.tile_counts import (
    FIFTH_COPY,
    LONG,
    SHORT,
    TOO_MANY_SETS,
    counted,
    with_sets,
)

#: a finished hand's tiles, each declared set counting three (a kong's fourth tile is its extra)
HAND_TILES = 14
#: the page's kind for a fifth copy (:data:`scoring.tile_counts.FIFTH_COPY`), and for fourteen
#: tiles that no tile completes
COPIES_KIND, NO_COMPLETING_TILE = FIFTH_COPY, "not_winning_shape"


@dataclass(frozen=True)
class Problem:
    """Why the hand cannot be a win: ``kind`` (one of the kinds above), the sentence the text
    front ends print, and the facts a page words itself (``have`` and ``need`` tiles, the
    ``tile`` and its ``copies``)."""

    kind: str
    message: str
    have: int = 0
    need: int = HAND_TILES
    tile: str | None = None
    copies: int = 0

    def facts(self) -> dict[str, object]:
        """The facts of the problem's kind, for a client to word (vision.render.notices)."""
        if self.kind == COPIES_KIND:
            return {"tile": self.tile, "copies": self.copies}
        return {"have": self.have, "need": self.need}


def tile_count(hand: Hand) -> int:
    """The hand's tiles as a finished hand counts them: the concealed tiles (with the winning
    tile, which joined them) and three for each declared set, a kong's fourth tile aside."""
    return len(hand.concealed) + 3 * len(hand.melds)


def loser(hand: Hand) -> bool:
    """A hand scored as a loser's or a fishing player's (Australian, Classical): it need not be
    finished, so its count is no problem."""
    return hand.context.role != "winner"


def ready(hand: Hand) -> bool:
    """Thirteen tiles (each declared set counting three) and no winning tile: a hand waiting on
    one tile, whose waits the front ends list."""
    return hand.context.winning_tile is None and tile_count(hand) == HAND_TILES - 1 and not loser(hand)


def hand_problem(hand: Hand) -> Problem | None:
    """Why the tiles themselves rule out a win, whatever the rules and whatever tile won
    (:func:`scoring.tile_counts.counted`: a fifth copy, then the count; a loser's count is never
    one), or a ready hand one tile short (:func:`ready`); None when the tiles could be a win."""
    have = tile_count(hand)
    found = counted(hand)
    if found is not None and (found.kind == FIFTH_COPY or not loser(hand)):
        kind = LONG if found.kind == TOO_MANY_SETS else found.kind
        return Problem(kind, found.message, have=have, tile=found.tile, copies=found.copies)
    if ready(hand):
        short = f"{len(hand.concealed)} concealed tiles {with_sets(hand)}: one tile short of a won hand"
        return Problem(SHORT, short, have=have)
    return None


def no_completing_tile() -> Problem:
    """Fourteen tiles that no tile completes: no winning shape whichever tile won."""
    return Problem(
        NO_COMPLETING_TILE,
        f"{HAND_TILES} tiles, but no tile completes them: they make no winning hand whichever tile won",
        have=HAND_TILES,
    )


def named(score: Score, hand: Hand | None) -> Score:
    """``score`` as it is, or, when it refuses a hand whose tiles are no win whatever tile won,
    an invalid score that says why (:func:`hand_problem`) instead of the rules' first refusal:
    for the front ends that score a hand as given, without looking for candidates (``hands``)."""
    if score.valid or hand is None or (problem := hand_problem(hand)) is None:
        return score
    return Score.invalid(score.rules, problem.message)
