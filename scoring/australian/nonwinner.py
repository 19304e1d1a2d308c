"""Scores of the players who did not go out: fishing players and other losers.

"Quando a un giocatore manca un solo pezzo per chiudere, si dice che sta pescando" (L60): a player
is fishing when some 14th tile would give a legal winning hand (§2.5, every kind tried, the chow
limit included). An ordinary fishing hand earns the clean-call double (L84); a player fishing for a
special hand earns its fishing value, under the old rules (points on the hand grouped as the target
groups it, zero → 10, L316-317, plus the hand's doubles) or the new rules (a flat 400/200/500,
L87-89). Whoever holds the three dragon or four wind pungs scores the limit, fishing or not
(L223, L228). Anyone else "pur conteggiando i suoi punti, non ha diritto a tale raddoppio" (L84).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from mahjong_camera_scorer.scoring.australian.context import AustralianContext
from mahjong_camera_scorer.scoring.australian.doubles import regular_doubles
from mahjong_camera_scorer.scoring.australian.evaluate import Candidate, candidates
from mahjong_camera_scorer.scoring.australian.parts import CHOW, DRAGONS
from mahjong_camera_scorer.scoring.australian.points import Valued, bonus_points, computed, hand_points
from mahjong_camera_scorer.scoring.australian.shape import Grouping, Shape, held_grouping
from mahjong_camera_scorer.scoring.australian.special import SpecialHand
from mahjong_camera_scorer.scoring.tiles import WINDS

HELD_LIMITS = ((DRAGONS, "Three Great Scholars", 20), (WINDS, "Four Blessings Hovering over the Door", 21))


def fishing_targets(shape: Shape, ctx: AustralianContext) -> Iterator[tuple[int, Candidate]]:
    """Each (14th tile, legal declaration) the hand is one tile from.

    [2] L319: fishing for Buried Treasure "è addirittura obbligatorio possedere almeno due serie";
    without them the hand is only an ordinary target, if it is one.
    """
    held = [n + (1 if k in shape.kongs else 0) for k, n in enumerate(shape.counts)]
    for k in range(34):
        if held[k] >= 4:
            continue
        for c in candidates(shape.add(k), ctx, k, True, situational=False):
            if (
                any(s.number == 3 for s in c.specials)
                and sum(p.kind == CHOW for p in without_tile(c.grouping, k)) < 2
            ):
                c = replace(c, specials=tuple(s for s in c.specials if s.number != 3))
                if not c.specials and not c.legal:
                    continue
            yield k, c


def without_tile(grouping: Grouping, kind: int) -> Grouping:
    """The target grouping less the tile still missing (it sits in the part marked winning)."""
    out: list[Any] = []
    for p in grouping:
        out.extend(p.without(kind) if p.winning else (p,))
    return tuple(out)


def _special_fishing(c: Candidate, k: int, shape: Shape, ctx: AustralianContext) -> Valued:
    """A special target: old-rules points and doubles, or the new-rules flat value (§3.7)."""
    specials = (c.hand,) if isinstance(c.hand, SpecialHand) else c.specials
    main = max(specials, key=lambda s: s.number)
    rank = (1 if not main.doubles_valued else 0, main.number)
    if main.fishing_old == "limit":
        return Valued(ctx.limit, main.fished_as, "limit", rank=rank)
    if ctx.opts["fishing_rules"] == "new" and main.fishing_new is not None:
        return Valued(
            int(main.fishing_new * ctx.limit), main.fished_as, "flat fishing value (new rules)", rank=rank
        )
    grouping = without_tile(c.grouping, k)
    points = hand_points(grouping, ctx, at_exposed_value=main.fishing_pungs_at_exposed_value)
    where_printed = ctx.opts["fishing_ten_rule"] == "add_where_printed"
    if where_printed and main.ten == "printed":
        base = {"Fishing base (10 points)": 10, **points}
    elif not sum(points.values()) and (not where_printed or main.ten == "if_zero"):
        base = {"Fishing base (hand points 0 → 10)": 10}
    else:
        base = points
    base.update(bonus_points(ctx))
    shown = specials if ctx.on("stack_special_doubles") else (main,)
    doubles = {s.label: int(s.fishing_old) for s in shown}  # type: ignore[arg-type]  # "limit" returned above
    doubles.update(regular_doubles(grouping, shape, ctx, winner=False, special=True))
    if any(s.number == 1 for s in shown) and not ctx.on("one_suit_double_requires_honour"):
        doubles.pop("One suit with honours", None)
    if ctx.on("clean_call_double_on_special_hands") and shape.cleared:
        doubles["Clean call (fishing)"] = 1
    name = " + ".join(s.fished_as for s in shown)
    return computed(base, doubles, ctx, special_hand=name, rank=rank)


def _plain(shape: Shape, ctx: AustralianContext, *, fishing: bool) -> Valued:
    """Points on the tiles as held (A-11) and the regular doubles; + the clean call if fishing."""
    grouping = held_grouping(shape)
    base = {**hand_points(grouping, ctx, pairs=ctx.opts["loser_pairs"]), **bonus_points(ctx)}
    doubles = regular_doubles(grouping, shape, ctx, winner=False, special=False)
    if fishing:
        doubles["Clean call (fishing)"] = 1
    return computed(base, doubles, ctx, rank=(0, 0))


def best_non_winner_value(
    shape: Shape, ctx: AustralianContext, *, fishing_allowed: bool = True
) -> tuple[Valued, list[int]]:
    """The score of a non-winner and the tiles it was waiting on (empty when not fishing)."""
    held_limit = [
        Valued(ctx.limit, name, "limit", rank=(1, number))
        for kinds, name, number in HELD_LIMITS
        if all(shape.counts[k] >= 3 for k in kinds)
    ]
    targets = list(fishing_targets(shape, ctx)) if fishing_allowed else []
    waits = sorted({k for k, _ in targets})
    if not targets:
        return max([_plain(shape, ctx, fishing=False), *held_limit], key=lambda v: v.sort_key), []
    values = list(held_limit)
    if any(c.hand is None and not c.specials for _, c in targets):
        values.append(_plain(shape, ctx, fishing=True))
    values.extend(_special_fishing(c, k, shape, ctx) for k, c in targets if c.hand is not None or c.specials)
    return max(values, key=lambda v: v.sort_key), waits
