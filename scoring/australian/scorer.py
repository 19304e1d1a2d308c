"""``score(hand, options)`` for one hand of any role: winner, fishing player or loser.

The role comes from ``hand.context.role`` (default winner). A fishing player and a loser are
scored the same way: whether a non-winner is fishing is read off the tiles (§2.5), not taken on
trust, so a 'fishing' hand that is not one tile from a legal mah jong scores as a loser (and says
so in the notes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.australian.context import AustralianContext
from mahjong_camera_scorer.scoring.australian.jokers import JOKER, joker_melds, substitutions, tiles_error
from mahjong_camera_scorer.scoring.australian.nonwinner import best_non_winner_value
from mahjong_camera_scorer.scoring.australian.options import resolved
from mahjong_camera_scorer.scoring.australian.parts import Part, code
from mahjong_camera_scorer.scoring.australian.points import Valued
from mahjong_camera_scorer.scoring.australian.settlement import round_hundred
from mahjong_camera_scorer.scoring.australian.shape import Shape
from mahjong_camera_scorer.scoring.australian.winner import best_winner_value
from mahjong_camera_scorer.scoring.decompose import shape_error
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import msg, term_msg
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.tiles import counts34

NAME = "australian"
ROLES = ("winner", "fishing", "loser")


def shape_of(hand: Hand, ctx: AustralianContext) -> Shape:
    jokers = joker_melds(hand)
    melds = []
    for i, m in enumerate(hand.melds):
        n, shown = jokers.get(i, (0, ""))
        melds.append(Part(m.kind, m.first, declared=True, exposed=m.open, jokers=n, shown=shown))
    colour = frozenset({JOKER}) if jokers and ctx.jokers and not ctx.on("jokers_keep_colour") else frozenset()
    return Shape(tuple(counts34(hand.concealed)), tuple(melds), colour)


def _score(v: Valued, role: str, ctx: AustralianContext, details: dict[str, Any], notes: list[str]) -> Score:
    out: dict[str, Any] = {"role": role}
    if v.special_hand:
        out["special_hand"] = v.special_hand
    if v.value:
        out["value"] = v.value
    points_valued = v.value is None
    if points_valued:
        out.update(
            base_points=v.base,
            base_total=sum(v.base.values()),
            doubles=v.doubles,
            doubles_total=sum(v.doubles.values()),
        )
    out["total"] = v.total
    if isinstance(v.total, int):
        out["rounded_total"] = round_hundred(v.total, ctx.opts["rounding_half"])
    out.update(v.extra)
    out.update(details)
    if points_valued:
        elements = {**v.base, **v.doubles}
        capped = msg(", capped at the limit {limit}", limit=ctx.limit) if v.total == ctx.limit else ""
        lines: list[str] = [
            msg(
                "  {base} points × 2^{doubles} = {raw}{capped}",
                base=out["base_total"],
                doubles=out["doubles_total"],
                raw=out["base_total"] * 2 ** out["doubles_total"],
                capped=capped,
            )
        ]
    else:
        elements = {v.special_hand: v.total} if isinstance(v.total, int) and v.special_hand else {}
        lines = [msg("  {hand}: {value}", hand=term_msg(NAME, str(v.special_hand)), value=msg(str(v.value)))]
    if v.special_hand and points_valued:
        lines.insert(0, msg("  Special hand: {hand}", hand=term_msg(NAME, v.special_hand)))
    if "rounded_total" in out:
        lines.append(msg("  Rounded to the nearest 100: {total}", total=out["rounded_total"]))
    return Score(NAME, True, None, elements, v.total, "points", out, lines + notes)


def score(hand: Hand, options: Mapping[str, str]) -> Score:
    """Score one hand; never raises for a bad or non-winning hand (the reason is in ``error``)."""
    try:
        opts = resolved(options)
    except HandError as exc:
        return Score.invalid(NAME, str(exc))
    role = hand.context.role
    if role not in ROLES:
        return Score.invalid(NAME, f"role must be one of {', '.join(ROLES)}, not {role!r}")
    error = tiles_error(hand)
    if error:
        return Score.invalid(NAME, error, role=role)
    ctx = AustralianContext.of(hand, opts)
    shape = shape_of(hand, ctx)
    n_tiles = len(hand.concealed) + 3 * len(hand.melds)
    if role == "winner":
        if hand.context.winning_tile is None:
            return Score.invalid(NAME, "a winning hand needs its winning tile", role=role, legal=False)
        if n_tiles != 14:
            return Score.invalid(NAME, shape_error(hand), role=role, legal=False)
        v = _best_winner(shape, ctx, hand.context.winning_tile.index)
        if isinstance(v, str):
            return Score.invalid(NAME, v, role=role, legal=False, total=0)
        return _score(v, role, ctx, {"legal": True}, [])
    return _score_non_winner(hand, shape, ctx, role, n_tiles)


def _best_winner(shape: Shape, ctx: AustralianContext, win: int) -> Valued | str:
    """The best winner value, every reading of concealed Goulash jokers tried (L69)."""
    v = best_winner_value(shape, ctx, win)
    if not (ctx.jokers and shape.concealed[JOKER]):
        return v
    for s, combo in substitutions(shape, winner=True, keep_colour=ctx.on("jokers_keep_colour")):
        for w in sorted(set(combo)) if win == JOKER else (win,):
            alt = best_winner_value(s, ctx, w)
            if isinstance(alt, Valued) and (isinstance(v, str) or alt.sort_key > v.sort_key):
                v = alt
                v.extra["jokers_stand_for"] = [code(k) for k in combo]
    return v


def _best_non_winner(shape: Shape, ctx: AustralianContext, fishing_allowed: bool) -> tuple[Valued, list[int]]:
    """The best non-winner value, concealed Goulash jokers read as each kind held (L69)."""
    best = best_non_winner_value(shape, ctx, fishing_allowed=fishing_allowed)
    if not (ctx.jokers and shape.concealed[JOKER]):
        return best
    for s, combo in substitutions(shape, winner=False, keep_colour=ctx.on("jokers_keep_colour")):
        alt = best_non_winner_value(s, ctx, fishing_allowed=fishing_allowed)
        if alt[0].sort_key > best[0].sort_key:
            best = alt
            best[0].extra["jokers_stand_for"] = [code(k) for k in combo]
    return best


def _score_non_winner(hand: Hand, shape: Shape, ctx: AustralianContext, role: str, n_tiles: int) -> Score:
    if n_tiles > 13 or "long_hand" in hand.context.flags:
        # L334: 'non può chiudere la sua mano né tantomeno conteggiare il proprio punteggio'
        v = Valued(0)
        return _score(
            v,
            role,
            ctx,
            {"fishing": False, "waits": []},
            [msg("  Long hand ({n} tiles in play, 13 expected): scores 0 (L334)", n=n_tiles)],
        )
    short = n_tiles < 13 or "short_hand" in hand.context.flags
    # L332: a short hand keeps playing and cannot go out (so is not fishing), but its points count
    v, waits = _best_non_winner(shape, ctx, not short)
    notes: list[str] = []
    if waits:
        notes.append(msg("  Fishing, waiting on {tiles}", tiles=" ".join(code(k) for k in waits)))
    elif role == "fishing":
        notes.append(msg("  Not fishing: no tile would give a legal mah jong (§2.5), scored as a loser"))
    if short:
        notes.append(
            msg("  Short hand ({n} tiles, 13 expected): cannot go out, points count (L332)", n=n_tiles)
        )
    return _score(v, role, ctx, {"fishing": bool(waits), "waits": [code(k) for k in waits]}, notes)
