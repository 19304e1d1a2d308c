"""What a hand's tiles say before any rule system is asked: a fifth copy of a tile, or a number of
tiles that no winning tile can complete. One function for every front end (the command line,
the page, the photo commands, sessions) and for the sentences that word it, so that a hand of
12 tiles is not told to "say which tile completed the hand" (no single tile completes 12), and
five copies of 5m are told about the fifth copy before anything else. :func:`counted` gives the
problem's kind and facts too (the page words each kind itself: :mod:`scoring.incomplete`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.tiles import Tile

#: copies of each tile in a set
COPIES = 4

#: the kinds of :class:`Counted`: a tile more often than a set holds it, more than four declared
#: sets, fewer tiles than a hand waiting on one holds, more than a won hand holds
FIFTH_COPY, TOO_MANY_SETS, SHORT, LONG = "too_many_copies", "too_many_sets", "incomplete", "too_many"


@dataclass(frozen=True)
class Counted:
    """A count problem: its kind, its sentence, and for a fifth copy the tile and its copies."""

    kind: str
    message: str
    tile: str | None = None
    copies: int = 0


def concealed_needed(hand: Hand) -> int:
    """Concealed tiles a won hand has with its declared sets: 14 less 3 for each (a kong's fourth
    tile is its own, so it counts as a set of 3 here)."""
    return 3 * (4 - len(hand.melds)) + 2


def with_sets(hand: Hand) -> str:
    """``with 1 declared set``: how the sentences name the hand's declared sets."""
    return f"with {len(hand.melds)} declared set{'' if len(hand.melds) == 1 else 's'}"


def counted(hand: Hand) -> Counted | None:
    """Why these tiles cannot be a won hand whatever tile is named as the winning one, or None:

    - a tile more often than a set holds it ("5 copies of 5m: a set has only 4");
    - more than four declared sets;
    - with no winning tile named: fewer concealed tiles than a hand waiting on one tile holds (a
      hand of 12 is two tiles short, not one) or more than a won hand holds;
    - with a winning tile named: not the count a won hand holds.

    Counts only: whether the tiles make sets is the rule system's to say."""
    kinds = Counter(t.index for t in hand.all_tiles() if not (t.is_bonus or t.is_back))
    for index, n in sorted(kinds.items()):
        if n > COPIES:
            code = Tile(index).code
            return Counted(FIFTH_COPY, f"{n} copies of {code}: a set has only {COPIES}", code, n)
    if len(hand.melds) > 4:
        return Counted(TOO_MANY_SETS, f"{len(hand.melds)} declared sets: a hand has at most 4")
    need, have = concealed_needed(hand), len(hand.concealed)
    sets = with_sets(hand)
    kind = SHORT if have < need else LONG
    if hand.context.winning_tile is None and not need - 1 <= have <= need:
        short = "short" if have < need else "too many"
        return Counted(
            kind,
            f"{have} concealed tiles {sets}: a hand has {need - 1} before its winning tile and {need} "
            f"with it ({short}: check the tiles)",
        )
    if hand.context.winning_tile is not None and have != need:
        won = f"{have} concealed tiles {sets}: a won hand has {need}, the winning tile among them"
        return Counted(kind, won)
    return None


def count_problem(hand: Hand) -> str | None:
    """:func:`counted`'s sentence, or None."""
    found = counted(hand)
    return found.message if found is not None else None
