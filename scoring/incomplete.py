"""What makes a hand no win whatever tile won: the wrong number of tiles, a fifth copy of a tile.

A scorer asked about such a hand answers with the first rule it meets, which is often the
winning tile ("give the winning tile"): true, and no help to a player whose photo lost a tile or
whose typed hand has thirteen. So every front end (``hand``, ``hands``, ``photo``, ``photos``,
the camera, the page) and the parsers ask this module first, and name the problem itself: the
count against the fourteen a finished hand holds, or the tile with more than four copies. A hand
of the right size that no tile completes is the candidates' finding
(:func:`scoring.candidates.score_or_best`), worded here too, so that the three problems read
alike everywhere.

Pure: no rules, no vision; :data:`HAND_TILES` is the one place the fourteen is written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from scoring.hand import Hand
from scoring.result import Score
from scoring.tiles import Tile

#: a finished hand's tiles, each declared set counting three (a kong's fourth tile is its extra)
HAND_TILES = 14
#: the copies of each tile a set holds
COPIES = 4

#: the problems' kinds, as the page's notices name them (vision/web/notices.py)
COPIES_KIND, SHORT, LONG = "too_many_copies", "incomplete", "too_many"
NO_COMPLETING_TILE = "not_winning_shape"


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
        """The facts of the problem's kind, for a client to word (vision.web.notices)."""
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
    return hand.extra.get("role") not in (None, "winner")


def hand_problem(hand: Hand) -> Problem | None:
    """The first reason the tiles themselves rule out a win, whatever the rules and whatever tile
    won: a tile with more than four copies, then a count other than fourteen. None when the
    tiles could be a win (a loser's hand is never counted)."""
    if not hand.extra.get("jokers"):  # Goulash jokers stand for copies the table does not hold
        kinds = Counter(t.index for t in hand.all_tiles() if not (t.is_back or t.is_bonus))
        for index, n in sorted(kinds.items()):
            if n > COPIES:
                code = Tile(index).code
                message = f"{n} copies of {code}: a set has only {COPIES}"
                return Problem(COPIES_KIND, message, tile=code, copies=n)
    have = tile_count(hand)
    if have == HAND_TILES or loser(hand):
        return None
    counted = f"{have} tile{'s' if have != 1 else ''}"
    if hand.melds:
        counted += " (each declared set counted as 3)"
    if have < HAND_TILES:
        missing = HAND_TILES - have
        words = "one is missing" if missing == 1 else f"{missing} are missing"
        return Problem(SHORT, f"{counted}: a finished hand has {HAND_TILES}, {words}", have=have)
    extra = have - HAND_TILES
    return Problem(LONG, f"{counted}: a finished hand has {HAND_TILES}, {extra} too many", have=have)


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
