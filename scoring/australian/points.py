"""Base points of a grouping and the arithmetic every score shares: base × 2^doubles, capped.

"Il limite di punti è fissato ... a 1.000 punti" (L81); §2.7 caps every computed score, winner,
fishing player or loser alike. A :class:`Valued` is one candidate value of a hand; scorers keep the
best one (the spec's "the most valuable reading is used").
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from mahjong_camera_scorer.scoring.australian.context import AustralianContext
from mahjong_camera_scorer.scoring.australian.doubles import FLOWERS
from mahjong_camera_scorer.scoring.australian.parts import PAIR, code, pair_points, set_name, set_points
from mahjong_camera_scorer.scoring.australian.shape import Grouping

FIRST_DISCARD_FLAG = "first_discard_of_east_claimed"


def _put(out: dict[str, int], name: str, value: int) -> None:
    key, n = name, 2
    while key in out:  # two identical sets only happen with Goulash jokers
        key, n = f"{name} #{n}", n + 1
    out[key] = value


def hand_points(
    grouping: Grouping, ctx: AustralianContext, *, pairs: str = "all", at_exposed_value: bool = False
) -> dict[str, int]:
    """'Punteggio di mano' (§3.3): sets, scoring pairs and the East's-first-discard bonus.

    ``pairs='one'`` keeps only the best pair (A-11 switch ``loser_pairs``); ``at_exposed_value``
    counts concealed pungs as exposed ([3] L320: "conta i tris coperti come se fossero scoperti").
    """
    out: dict[str, int] = {}
    pair_items: list[tuple[str, int]] = []
    for p in grouping:
        if p.is_set:
            if at_exposed_value and not p.exposed:
                _put(out, set_name(replace(p, note="at exposed value")), set_points(replace(p, exposed=True)))
            else:
                _put(out, set_name(p), set_points(p))
        elif p.kind == PAIR:
            item = pair_points(p, ctx.seat, ctx.round, int(ctx.opts["double_wind_pair_points"]))
            if item:
                pair_items.append(item)
    if pairs == "one":
        pair_items = sorted(pair_items, key=lambda kv: -kv[1])[:1]
    for name, value in pair_items:
        _put(out, name, value)
    if FIRST_DISCARD_FLAG in ctx.flags and any(p.is_set and p.declared and p.exposed for p in grouping):
        out["Pung from East's first discard"] = 2  # L96 [*], Australian only
    return out


def bonus_points(ctx: AustralianContext) -> dict[str, int]:
    """4 points a flower or season ([SEED→CLASSIC]; the seed's L317 example: 10 + 4 + 4)."""
    return {f"{'Flower' if b in FLOWERS else 'Season'} {code(b)}": 4 for b in ctx.bonus}


@dataclass
class Valued:
    """One candidate value of a hand, with its breakdown."""

    total: int | str
    special_hand: str | None = None
    value: str | None = None
    base: dict[str, int] = field(default_factory=dict)
    doubles: dict[str, int] = field(default_factory=dict)
    rank: tuple[int, ...] = (0, 0)
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def sort_key(self) -> tuple[float, ...]:
        total = float("inf") if isinstance(self.total, str) else self.total
        return (total, *self.rank)


def computed(
    base: dict[str, int],
    doubles: dict[str, int],
    ctx: AustralianContext,
    special_hand: str | None = None,
    rank: tuple[int, ...] = (0, 0),
) -> Valued:
    """min(limit, base × 2^doubles) (§3.1)."""
    total = min(ctx.limit, sum(base.values()) * 2 ** sum(doubles.values()))
    return Valued(total, special_hand=special_hand, base=base, doubles=doubles, rank=rank)
