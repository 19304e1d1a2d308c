"""The winner's score: every legal declaration valued, the best one kept.

A points-valued reading earns "20 punti bonus a chi chiude la mano" and the 2-point bonuses of L92-98
("unico pezzo possibile", "tessera pescata dal muro"), 10 for four chows and a valueless pair (L101),
the regular and winner-only doubles, and either the clean-call double (L112) or, for the Pure Hand,
Buried Treasure and All Honours, their 3 doubles instead (A-02, [1] L314). A fixed-value special
hand is worth exactly its value (§3.6).
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.australian.context import ALL_CHIPS, AustralianContext
from mahjong_camera_scorer.scoring.australian.doubles import regular_doubles, winner_doubles
from mahjong_camera_scorer.scoring.australian.evaluate import Candidate, candidates, chow_count, is_legal_win
from mahjong_camera_scorer.scoring.australian.parts import CHOW, PAIR, pair_points
from mahjong_camera_scorer.scoring.australian.points import Valued, bonus_points, computed, hand_points
from mahjong_camera_scorer.scoring.australian.shape import Shape
from mahjong_camera_scorer.scoring.australian.special import SpecialHand


def only_possible_tile(shape: Shape, ctx: AustralianContext, win: int) -> bool:
    """'chiudere con l'unico pezzo possibile' (L97), A-10: exactly one kind completes a legal hand.

    While Goulash jokers are live any 2 of bamboo could also complete the hand (A-35): never.
    """
    if ctx.jokers:
        return False
    c = list(shape.concealed)
    c[win] -= 1
    pre = Shape(tuple(c), shape.melds, shape.colour_kinds)
    held = [n + (1 if k in shape.kongs else 0) for k, n in enumerate(pre.counts)]
    dead_ok = ctx.on("only_tile_counts_dead_waits")
    waits = [
        k for k in range(34) if (dead_ok or held[k] < 4) and is_legal_win(pre.add(k), ctx, k, ctx.self_drawn)
    ]
    return waits == [win]


def value_candidate(c: Candidate, shape: Shape, ctx: AustralianContext, only_tile: bool) -> Valued:
    h = c.hand
    if h is not None and not (isinstance(h, SpecialHand) and h.doubles_valued):
        name = h.name
        if h.winner == ALL_CHIPS:
            return Valued("all_chips", name, ALL_CHIPS, rank=(1, h.number))
        return Valued(ctx.value(str(h.winner)), name, str(h.winner), rank=(1, h.number))
    base = {"Mah jong": 20, **hand_points(c.grouping, ctx)}
    if only_tile:
        base["Only possible tile"] = 2
    if ctx.self_drawn:
        base["Self-drawn winning tile"] = 2
    pair = next(p for p in c.grouping if p.kind == PAIR)
    pair_value = pair_points(pair, ctx.seat, ctx.round, int(ctx.opts["double_wind_pair_points"]))
    if sum(p.kind == CHOW for p in c.grouping) == 4 and pair_value is None:
        base["Four chows and a valueless pair"] = 10  # L101
    base.update(bonus_points(ctx))
    specials = c.specials if ctx.on("stack_special_doubles") else c.specials[:1]
    doubles = regular_doubles(c.grouping, shape, ctx, winner=True, special=bool(specials))
    doubles.update(winner_doubles(c.grouping, shape, ctx))
    if any(s.number == 1 for s in specials) and not ctx.on("one_suit_double_requires_honour"):
        doubles.pop("One suit with honours", None)  # A-03 switch: the Pure Hand replaces D5
    for s in specials:
        doubles[s.name] = int(s.winner)
    if not specials or (ctx.on("clean_call_double_on_special_hands") and shape.cleared):
        doubles["Clean call"] = 1
    special = " + ".join(s.name for s in specials) or None
    rank = (0, max((s.number for s in specials), default=0))
    return computed(base, doubles, ctx, special_hand=special, rank=rank)


def illegal_reason(shape: Shape, ctx: AustralianContext) -> str:
    """Why a complete-looking hand cannot be declared (the precise condition of §2.4 it breaks)."""
    readings = shape.standard()
    if not readings:
        return (
            "not a winning hand: the tiles form neither 4 sets and a pair nor any special hand "
            "of the Australian rules"
        )
    if not shape.cleared:
        return (
            "not a legal mah jong: the hand is not cleared (it mixes suits); L51 'che la propria mano "
            "sia sgomberata, cioè contenga combinazioni di un unico seme più eventuali Onori'"
        )
    fewest = min(chow_count(g) for g in readings)
    if fewest > 1:
        return (
            f"not a legal mah jong: every reading holds {fewest} chows; L52 'che la propria mano non "
            "contenga più di una sola serie'"
        )
    if ctx.goulash:
        return "not a legal Goulash mah jong: L67 'non figuri neppure una serie' (no chow in a Goulash)"
    return "not a legal mah jong under the Australian conditions"


def best_winner_value(shape: Shape, ctx: AustralianContext, win: int) -> Valued | str:
    """The best value of a winning hand, or the reason it is not a legal mah jong."""
    found = list(candidates(shape, ctx, win, ctx.self_drawn))
    if not found:
        return illegal_reason(shape, ctx)
    needs_only = any(
        c.hand is None or (isinstance(c.hand, SpecialHand) and c.hand.doubles_valued) for c in found
    )
    only_tile = needs_only and only_possible_tile(shape, ctx, win)
    best = max((value_candidate(c, shape, ctx, only_tile) for c in found), key=lambda v: v.sort_key)
    if best.value is None:
        best.extra["only_possible_tile"] = only_tile
    return best
