"""Which ways a complete hand may be declared mah jong: every legal reading and special hand.

§2.4 (L50-53): an ordinary hand must be "sgomberata" (one suit plus honours) and hold at most one
chow; the special hands follow their own pattern (the spec's [DEFAULT]: conditions 1 and 2 apply
only where a pattern leaves them open, i.e. All Kongs, Three Great Scholars, Four Blessings and the
Pure Hand). In a Goulash (L67) no chow at all is allowed, "tranne che in due casi particolari:
mano di Giada Imperiale e mano interamente nascosta" (A-17).

:func:`candidates` is shared by the winner (its real winning tile), by the only-possible-tile test
(every other tile in its place) and by fishing (every 14th tile a non-winner could receive).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.australian.context import AustralianContext
from mahjong_camera_scorer.scoring.australian.shape import Grouping, Shape, attach_melds, place_winning_tile
from mahjong_camera_scorer.scoring.australian.special import (
    SITUATIONAL_HANDS,
    SPECIAL_HANDS,
    SituationalHand,
    SpecialHand,
)

READING_HANDS = tuple(h for h in SPECIAL_HANDS if hasattr(h.pattern, "test"))
COUNT_HANDS = tuple(h for h in SPECIAL_HANDS if not hasattr(h.pattern, "test"))


@dataclass(frozen=True)
class Candidate:
    """One way to declare the hand: a placed grouping and the fixed-value hand it is (None for a
    points-valued reading, which may also be one or more doubles-valued special hands)."""

    grouping: Grouping
    hand: SpecialHand | SituationalHand | None = None
    specials: tuple[SpecialHand, ...] = ()
    legal: bool = False  # the reading is also a legal ordinary hand (§2.4)


def chow_count(grouping: Grouping) -> int:
    return sum(p.chows for p in grouping)


def legal_ordinary(grouping: Grouping, shape: Shape) -> bool:
    """§2.4: cleared ('sgomberata', L51) and 'non più di una sola serie' (L52)."""
    return shape.cleared and chow_count(grouping) <= 1


def goulash_ok(
    grouping: Grouping, shape: Shape, ctx: AustralianContext, hand: SpecialHand | None, self_drawn: bool
) -> bool:
    """L67: in a Goulash no chow, except Imperial Jade and the wholly concealed hand (A-17)."""
    n = chow_count(grouping)
    if not ctx.goulash or n == 0 or (hand is not None and n <= hand.goulash_chows):
        return True
    if shape.open_melds:
        return False
    if ctx.opts["goulash_concealed_exception"] == "buried_treasure":
        return self_drawn and "robbing_kong" not in ctx.flags
    return n <= 1


def candidates(
    shape: Shape, ctx: AustralianContext, win: int, self_drawn: bool, *, situational: bool = True
) -> Iterator[Candidate]:
    """Every legal declaration of a complete hand whose winning tile is ``win``."""
    by_discard = not self_drawn
    found = False
    for g in shape.standard():
        legal = legal_ordinary(g, shape)
        hands = [
            h
            for h in READING_HANDS
            if h.claims_ok(shape, ctx, self_drawn)
            and (legal or not h.legal_ordinary)
            and h.pattern.test(g, shape, ctx)  # type: ignore[attr-defined]  # set by patterns.reading()
        ]
        specials = tuple(h for h in hands if h.doubles_valued)
        for placed in place_winning_tile(g, win, by_discard):
            if (legal or specials) and goulash_ok(placed, shape, ctx, None, self_drawn):
                found = True
                yield Candidate(placed, None, specials, legal)
            for h in hands:
                if (
                    not h.doubles_valued
                    and h.condition(placed, ctx)
                    and goulash_ok(placed, shape, ctx, h, self_drawn)
                ):
                    found = True
                    yield Candidate(placed, h)
    for h in COUNT_HANDS:
        if not h.claims_ok(shape, ctx, self_drawn):
            continue
        for g in h.pattern(shape, ctx):
            attached = attach_melds(g, shape, h.may_declare_for(ctx))
            if attached is None:
                continue
            for placed in place_winning_tile(attached, win, by_discard):
                if h.condition(placed, ctx) and goulash_ok(placed, shape, ctx, h, self_drawn):
                    found = True
                    yield Candidate(placed, h)
    if situational:
        yield from _situational(shape, ctx, win, found)


def _situational(shape: Shape, ctx: AustralianContext, win: int, legal: bool) -> Iterator[Candidate]:
    """Heaven's and Earth's Grace, Plum Blossom, Moon: 'mano qualsiasi' won in that way (A-15)."""
    hands = [h for h in SITUATIONAL_HANDS if h.when(ctx, win)]
    if not hands:
        return
    if not legal and ctx.on("grace_hands_require_legal_shape"):
        return
    shapes = list(shape.standard()) or [g for h in COUNT_HANDS for g in h.pattern(shape, ctx)]
    for h in hands:
        for g in shapes[:1]:
            yield Candidate(g, h)


def is_legal_win(shape: Shape, ctx: AustralianContext, win: int, self_drawn: bool) -> bool:
    return any(True for _ in candidates(shape, ctx, win, self_drawn, situational=False))
