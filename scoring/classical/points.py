"""Base points (*punti di stecca*, spec §3.1, B1–B14).

Seed, "I punti di stecca": *"I punti di stecca sono dati da tris, poker, alcune coppie e
dall'eventuale mah jong."* Nothing else scores: chows, self-draw, a concealed hand, waits and
terminal pairs are all worth 0 here.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.classical.context import ClassicalContext, group_code, is_dragon, is_head
from mahjong_camera_scorer.scoring.decompose import KONG, PUNG, SEVEN_PAIRS, Component
from mahjong_camera_scorer.scoring.tiles import FIRST_BONUS

Item = tuple[str, int]

#: "Il premio per il mah jong è di 20 punti." Winner only.
MAH_JONG: Item = ("B1 Mah jong", 20)

#: (set kind, of head tiles, concealed) → (id and name, points). "Tris non di testa 2 punti ...
#: I poker valgono il quadruplo del tris da cui derivano ... Punteggi raddoppiati se sono
#: combinazioni coperte." Concealed = every tile drawn by its owner (§2.5): a pung completed by
#: the winning discard is exposed; a concealed kong laid folded is concealed.
SET_POINTS: dict[tuple[str, bool, bool], Item] = {
    (PUNG, False, False): ("B2 Exposed pung of simples", 2),
    (PUNG, False, True): ("B3 Concealed pung of simples", 4),
    (PUNG, True, False): ("B4 Exposed pung of terminals/honours", 4),
    (PUNG, True, True): ("B5 Concealed pung of terminals/honours", 8),
    (KONG, False, False): ("B6 Exposed kong of simples", 8),
    (KONG, False, True): ("B7 Concealed kong of simples", 16),
    (KONG, True, False): ("B8 Exposed kong of terminals/honours", 16),
    (KONG, True, True): ("B9 Concealed kong of terminals/honours", 32),
}

#: "Gli onori supremi (fiori e stagioni) valgono 4 punti ciascuno." Exposed bonus tiles only (D-4).
BONUS_POINTS = 4


def set_item(g: Component) -> Item:
    name, points = SET_POINTS[(g.kind, is_head(g.first), g.concealed)]
    return f"{name} {group_code(g)}", points


def pair_item(ctx: ClassicalContext, g: Component) -> Item | None:
    """B10–B13: "Le coppie valgono 2 punti solo se sono di draghi, del proprio vento e/o del vento
    di giro." A double-wind pair is 2 by default ('e/o' lists the cases, D-1), 4 as a variant."""
    code = group_code(g)
    if is_dragon(g.first):
        return f"B10 Pair of dragons {code}", 2
    seat, rnd = g.first == ctx.seat, g.first == ctx.round
    if seat and rnd:
        return f"B13 Pair of double wind {code}", int(ctx.opts["double_wind_pair"])
    if seat:
        return f"B11 Pair of seat wind {code}", 2
    if rnd:
        return f"B12 Pair of round wind {code}", 2
    return None


def pair_scores(ctx: ClassicalContext, g: Component) -> bool:
    """Whether the pair 'dà punti' (C4 Tutte scale is lost when it does)."""
    return pair_item(ctx, g) is not None


def bonus_items(ctx: ClassicalContext) -> list[Item]:
    out = []
    for t in ctx.hand.bonus_tiles:
        kind = "Flower" if t.index < FIRST_BONUS + 4 else "Season"
        out.append((f"B14 {kind} {t.code}", BONUS_POINTS))
    return out


def base_items(ctx: ClassicalContext) -> list[Item]:
    """Every base-point item of the arrangement, in the spec's table order per group."""
    items: list[Item] = [MAH_JONG] if ctx.winner else []
    items.extend(set_item(g) for g in ctx.pungs)
    pair_points = [p for p in (pair_item(ctx, g) for g in ctx.pairs) if p is not None]
    if ctx.reading.form == SEVEN_PAIRS and ctx.opts["seven_pairs_pair_points"] == "no":
        pair_points = []  # D-6 variant: a seven-pairs hand scores the 20 (and its flowers) only
    if not ctx.winner:
        # D-5: a loser's valuable pairs held in hand; 'one' keeps the best, 'none' drops them all
        keep = {"all": len(pair_points), "one": 1, "none": 0}[ctx.opts["loser_pairs"]]
        pair_points = sorted(pair_points, key=lambda item: -item[1])[:keep]
    items.extend(pair_points)
    items.extend(bonus_items(ctx))
    return items
