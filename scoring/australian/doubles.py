"""The doubles of the seed's 'Raddoppi' list (L104-119) as a table, with who receives each.

"Raddoppi (valgono per tutti i giocatori, salvo ove diversamente indicato)" (L104): D1-D6 and the
bouquets go to every player; D8-D10 are marked "solo per chi chiude la mano"; D7, the clean-call
double, goes to the winner and to a fishing player with an ordinary hand (L84, L112) and is
handled by the scorers, since special hands replace it (A-02).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.australian.context import AustralianContext
from mahjong_camera_scorer.scoring.australian.parts import DRAGONS, PAIR, SINGLE, code
from mahjong_camera_scorer.scoring.australian.shape import Grouping, Shape

FLOWERS = (34, 35, 36, 37)
SEASONS = (38, 39, 40, 41)

Award = Callable[[Grouping, Shape, AustralianContext, bool], dict[str, int]]


@dataclass(frozen=True)
class Double:
    code: str
    name: str
    who: str  # 'all' or 'winner'
    seed: str
    award: Award


def _set_doubles(which: str) -> Award:
    def award(grouping: Grouping, shape: Shape, ctx: AustralianContext, winner: bool) -> dict[str, int]:
        out: dict[str, int] = {}
        for p in grouping:
            if not p.is_set:
                continue
            hit = {
                "dragons": p.first in DRAGONS,
                "seat wind": p.first == ctx.seat,
                "round wind": p.first == ctx.round,
            }[which]
            if hit:
                name, n = f"Pung of {which} {code(p.first, p.size)}", 2
                while name in out:  # a second pung of one tile (Goulash jokers, L69)
                    name, n = f"Pung of {which} {code(p.first, p.size)} #{n}", n + 1
                out[name] = 1
        return out

    return award


def all_pungs_shape(grouping: Grouping, winner: bool, ctx: AustralianContext) -> bool:
    """'tutti tris oppure tris e poker (nessuna serie)' (L109).

    A winner: four pungs/kongs and the pair. Anyone else (A-12, switch
    ``all_pungs_for_non_winners``): no chow, and four pungs + a single or three pungs + two pairs.
    """
    if any(p.is_sequence for p in grouping):
        return False
    sets = sum(p.is_set for p in grouping)
    pairs = sum(p.kind == PAIR for p in grouping)
    singles = sum(p.kind == SINGLE for p in grouping)
    if winner:
        return (sets, pairs, singles) == (4, 1, 0)
    if ctx.opts["all_pungs_for_non_winners"] == "never":
        return False
    return (sets, pairs, singles) in ((4, 0, 1), (3, 2, 0))


def _all_pungs(grouping: Grouping, shape: Shape, ctx: AustralianContext, winner: bool) -> dict[str, int]:
    return {"All pungs": 1} if all_pungs_shape(grouping, winner, ctx) else {}


def one_suit_with_honours(shape: Shape, ctx: AustralianContext) -> bool:
    """'tutti pezzi di uno stesso seme più Onori' (L110); A-03: at least one honour by default."""
    if len(shape.suits) != 1:
        return False
    return shape.honours > 0 or not ctx.on("one_suit_double_requires_honour")


def _one_suit(grouping: Grouping, shape: Shape, ctx: AustralianContext, winner: bool) -> dict[str, int]:
    return {"One suit with honours": 1} if one_suit_with_honours(shape, ctx) else {}


def _bonus_doubles(grouping: Grouping, shape: Shape, ctx: AustralianContext, winner: bool) -> dict[str, int]:
    """Own flower/season (L111) and the bouquets (L117-119), with A-04 and A-13."""
    out: dict[str, int] = {}
    own = [b for b in ctx.own_bonus if b in ctx.bonus]
    for name, group in (("Bouquet of flowers", FLOWERS), ("Bouquet of seasons", SEASONS)):
        if all(b in ctx.bonus for b in group):
            out[name] = 3
            if ctx.on("bouquet_includes_own_double"):
                own = [b for b in own if b not in group]
    if ctx.opts["own_bonus_doubles"] == "once":
        own = own[:1]
    for b in own:
        out[f"Own {'flower' if b in FLOWERS else 'season'} {code(b)}"] = 1
    return out


def _flag(flag: str, name: str, *also: str) -> Award:
    def award(grouping: Grouping, shape: Shape, ctx: AustralianContext, winner: bool) -> dict[str, int]:
        return {name: 1} if flag in ctx.flags and all(a in ctx.flags or a == ctx.win_by for a in also) else {}

    return award


def _loose_tile(grouping: Grouping, shape: Shape, ctx: AustralianContext, winner: bool) -> dict[str, int]:
    hit = ctx.self_drawn and ({"kong_replacement", "bonus_replacement"} & ctx.flags)
    return {"Win on a loose tile": 1} if hit else {}


REGULAR: tuple[Double, ...] = (
    Double(
        "D1", "Pung/kong of dragons", "all", "L106 'ogni tris o poker di Draghi'", _set_doubles("dragons")
    ),
    Double(
        "D2",
        "Pung/kong of seat wind",
        "all",
        "L107 'tris o poker del Vento del giocatore'",
        _set_doubles("seat wind"),
    ),
    Double(
        "D3",
        "Pung/kong of round wind",
        "all",
        "L108 'tris o poker del Vento del giro'",
        _set_doubles("round wind"),
    ),
    Double("D4", "All pungs", "all", "L109 'tutti tris oppure tris e poker (nessuna serie)'", _all_pungs),
    Double(
        "D5", "One suit with honours", "all", "L110 'tutti pezzi di uno stesso seme più Onori'", _one_suit
    ),
    Double(
        "D6/D11/D12",
        "Own flower or season; bouquets",
        "all",
        "L111 'Stagione o Fiore del giocatore'; L117-119 'bouquet' (3 doubles)",
        _bonus_doubles,
    ),
)

WINNER_ONLY: tuple[Double, ...] = (
    Double("D8", "Win on a loose tile", "winner", "L113 'vincere pescando una tessera libera'", _loose_tile),
    Double(
        "D9",
        "Robbing the kong",
        "winner",
        "L114 'mediante il furto del poker'",
        _flag("robbing_kong", "Robbing the kong"),
    ),
    Double(
        "D10",
        "Last tile of the wall",
        "winner",
        "L115 'pescando l'ultima tessera del muro'",
        _flag("last_tile", "Last tile of the wall", "self_draw"),
    ),
)


def regular_doubles(
    grouping: Grouping, shape: Shape, ctx: AustralianContext, *, winner: bool, special: bool
) -> dict[str, int]:
    """D1-D6, D11, D12 for any player; A-28 decides whether D4 rides on a special hand."""
    out: dict[str, int] = {}
    for d in REGULAR:
        if d.code == "D4" and special and not ctx.on("all_pungs_double_on_special_hands"):
            continue
        out.update(d.award(grouping, shape, ctx, winner))
    return out


def winner_doubles(grouping: Grouping, shape: Shape, ctx: AustralianContext) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in WINNER_ONLY:
        out.update(d.award(grouping, shape, ctx, True))
    return out
