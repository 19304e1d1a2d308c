"""One player's score: base points × 2^doubles, capped at the limit (spec §0.2, §3.6).

Seed: *"Il punteggio del mah jong funziona con due fattori: i punti di stecca e i raddoppi"*;
*"Chi fa mah jong calcola il proprio punteggio ... gli altri giocatori calcolano il proprio
punteggio"*: winners and losers alike score their hand. Every arrangement of the tiles is scored
and the best kept (D-16); for a winner the legal arrangements (house minimum of doubles, riichi
rules) come first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mahjong_camera_scorer.scoring.classical.arrange import loser_readings, winner_readings
from mahjong_camera_scorer.scoring.classical.context import ClassicalContext, group_code
from mahjong_camera_scorer.scoring.classical.doubles import FLAGS, closing_items, fundamental_items
from mahjong_camera_scorer.scoring.classical.limits import (
    LIMIT_HANDS,
    SEED_GRANDI_GIOCHI,
    LimitHandTable,
    possible_limit_hands,
)
from mahjong_camera_scorer.scoring.classical.options import NAME, limit_of
from mahjong_camera_scorer.scoring.classical.points import base_items
from mahjong_camera_scorer.scoring.decompose import PAIR, Decomposition, shape_error, winning_kinds
from mahjong_camera_scorer.scoring.hand import Hand, check_tiles
from mahjong_camera_scorer.scoring.i18n import msg, term_msg
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.tiles import DRAGONS, Tile, counts34, wind_index

ROLES = ("winner", "loser")
Items = list[tuple[str, int]]
#: Flags that only make sense with one way of winning: a roof replacement or the last wall tile is
#: drawn; a robbed kong tile or the last discard is claimed.
FLAG_WIN_BY = {
    "kong_replacement": "self_draw",
    "flower_replacement": "self_draw",
    "last_tile": "self_draw",
    "robbing_kong": "discard",
    "last_discard": "discard",
}


@dataclass(slots=True)
class Evaluation:
    """One arrangement scored: its items, totals and why it could not go out (if so)."""

    reading: Decomposition
    base: Items
    fundamental: Items
    closing: Items
    raw_total: int
    total: int
    limit_hand: str | None = None
    problems: list[str] = field(default_factory=list)

    @property
    def base_total(self) -> int:
        return sum(v for _, v in self.base)

    @property
    def doubles_total(self) -> int:
        return sum(v for _, v in self.fundamental) + sum(v for _, v in self.closing)

    @property
    def legal(self) -> bool:
        return not self.problems

    def rank(self) -> tuple[bool, int, int, int]:
        return (self.legal, self.total, self.raw_total, self.doubles_total)


def _named(items: Items) -> dict[str, int]:
    """Items as a mapping; a repeated name (two pairs of the same dragon) gets a ' #2' suffix."""
    out: dict[str, int] = {}
    for name, value in items:
        key, n = name, 1
        while key in out:
            n += 1
            key = f"{name} #{n}"
        out[key] = value
    return out


def _cap(points: int, limit: int | None) -> int:
    return points if limit is None else min(points, limit)


def _waits(hand: Hand) -> list[int]:
    """Tile kinds the hand waited on before its winning tile (riichi needs exactly one, §2.8)."""
    assert hand.context.winning_tile is not None
    before = counts34(hand.concealed)
    before[hand.context.winning_tile.index] -= 1
    held = counts34(hand.all_tiles())
    held[hand.context.winning_tile.index] -= 1
    return winning_kinds(
        before, 4 - len(hand.melds), special_forms=not hand.melds, seven_pairs_quads=True, held=held
    )


def _win_problems(hand: Hand, ev: Evaluation, opts: Mapping[str, str]) -> list[str]:
    """Why this winning arrangement may not go out under the house rules in force."""
    problems = []
    minimum = int(opts["min_doubles_to_win"])
    counted = ev.doubles_total
    if opts["min_doubles_count"] == "fundamental":
        counted = sum(v for _, v in ev.fundamental)
    if ev.limit_hand is None and counted < minimum:
        which = "doubles" if opts["min_doubles_count"] == "all" else "fundamental doubles"
        problems.append(f"below the house minimum: {counted} {which}, {minimum} needed to go out")
    riichi = "riichi" in hand.context.flags
    if opts["riichi_required"] == "yes" and not riichi:
        problems.append("richi obbligatorio: a player must have declared riichi to go out")
    if riichi and opts["riichi_concealed_only"] == "yes" and any(m.open for m in hand.melds):
        problems.append("riichi with exposed sets is not allowed under riichi_concealed_only=yes")
    return problems


def evaluate(
    hand: Hand, reading: Decomposition, winner: bool, opts: Mapping[str, str], limit_hands: LimitHandTable
) -> Evaluation:
    """Score one arrangement: limit hands first (D-17), then base × 2^doubles capped (§3.6)."""
    ctx = ClassicalContext(hand, reading, winner, opts)
    base = base_items(ctx)
    fundamental = fundamental_items(ctx)
    closing = closing_items(ctx)
    doubles = sum(v for _, v in fundamental) + sum(v for _, v in closing)
    raw = sum(v for _, v in base) * 2**doubles
    limit = limit_of(opts)
    ev = Evaluation(reading, base, fundamental, closing, raw, _cap(raw, limit))
    if winner:
        table = list(limit_hands)
        if opts["seed_limit_hands"] == "limit":
            table.extend(SEED_GRANDI_GIOCHI)
        matched = [e for e in table if e.matches(hand, reading)]
        valued = [(e.value if e.value is not None else limit, e.name) for e in matched]
        known = [(v, name) for v, name in valued if v is not None]
        if known:
            ev.total, ev.limit_hand = max(known)
            ev.raw_total = ev.total
        elif matched:  # D-17: "With limit: none there is no value to fall back on"
            ev.problems.append(
                f"limit hand {matched[0].name!r} has no value with 'limit none': "
                "give a limit or the club's value for it"
            )
        ev.problems.extend(_win_problems(hand, ev, opts))
    return ev


def _pair_kinds(hand: Hand) -> frozenset[int]:
    """Kinds whose pair scores (B10–B13): only those matter in a loser's grouping."""
    return frozenset((*DRAGONS, wind_index(hand.context.seat_wind), wind_index(hand.context.round_wind)))


def _describe(reading: Decomposition) -> list[str]:
    """The chosen arrangement, e.g. ['777z exposed pung', '123m concealed chow', '99s pair']."""
    return [
        f"{group_code(g)} pair"
        if g.kind == PAIR
        else f"{group_code(g)} {'concealed' if g.concealed else 'exposed'} {g.kind}"
        for g in reading.groups
    ]


def _input_problem(hand: Hand, role: str) -> str | None:
    if role not in ROLES:
        return f"role must be winner or loser under classical rules, not {role!r}"
    reason = check_tiles(hand, red_fives_in_set=0)
    if reason:
        return reason
    n = len(hand.concealed) + 3 * len(hand.melds)
    if role == "loser":
        if hand.context.winning_tile is not None:
            return "a loser's hand has no winning tile"
        if n != 13:
            return f"a loser holds 13 tiles plus one per kong; this hand has {n} (counting a kong as 3)"
        return None
    if hand.context.winning_tile is None:
        return "a winner's hand needs its winning tile"
    for flag, needed in FLAG_WIN_BY.items():
        if flag in hand.context.flags and hand.context.win_by != needed:
            return f"flag {flag} needs win_by {needed}, not {hand.context.win_by}"
    if "riichi" in hand.context.flags:
        waits = _waits(hand)
        if len(waits) > 1:
            codes = ", ".join(Tile(k).code for k in waits)
            return (
                "riichi needs a wait on exactly one tile type ('a punto su un'unica tegola'); "
                f"before the win this hand waited on {codes}"
            )
    return None


def score(hand: Hand, opts: Mapping[str, str], limit_hands: LimitHandTable | None = None) -> Score:
    """Score one hand; ``opts`` are resolved options. Never raises for a bad hand."""
    role = hand.context.role
    problem = _input_problem(hand, role)
    if problem:
        return Score.invalid(NAME, problem, role=role)
    table = LIMIT_HANDS if limit_hands is None else limit_hands
    winner = role == "winner"
    options_list = winner_readings(hand) if winner else loser_readings(hand, _pair_kinds(hand))
    if not options_list:
        return Score.invalid(NAME, shape_error(hand), role=role)
    best = max((evaluate(hand, r, winner, opts, table) for r in options_list), key=Evaluation.rank)
    return _result(hand, role, best, opts)


def _result(hand: Hand, role: str, ev: Evaluation, opts: Mapping[str, str]) -> Score:
    limit = limit_of(opts)
    doubles = ev.fundamental + ev.closing
    details: dict[str, Any] = {
        "role": role,
        "base_points": _named(ev.base),
        "doubles": _named(doubles),
        "base_total": ev.base_total,
        "fundamental_doubles": sum(v for _, v in ev.fundamental),
        "closing_doubles": sum(v for _, v in ev.closing),
        "doubles_total": ev.doubles_total,
        "raw_total": ev.raw_total,
        "total": ev.total,
        "limit": limit,
        "limit_hand": ev.limit_hand,
        "arrangement": _describe(ev.reading),
    }
    notes: list[str] = []
    if ev.limit_hand:
        notes.append(msg("Limit hand: {hand} = {total}", hand=term_msg(NAME, ev.limit_hand), total=ev.total))
    else:
        notes.append(
            msg(
                "{base} base points × 2^{doubles} = {raw}",
                base=ev.base_total,
                doubles=ev.doubles_total,
                raw=ev.raw_total,
            )
        )
        if ev.total != ev.raw_total:
            notes.append(msg("capped at the limit: {total}", total=ev.total))
    if role == "winner":
        details["legal_win"] = ev.legal
        details["meets_min_3_doubles"] = ev.doubles_total >= 3
        details["min_doubles_to_win"] = int(opts["min_doubles_to_win"])
        named = [e.name for e in SEED_GRANDI_GIOCHI if e.matches(hand, ev.reading)]
        if named and not ev.limit_hand:
            details["grande_gioco"] = named[0]
            notes.append(
                msg(
                    "The seed calls this a grande gioco ({hand}) but gives no value: scored with "
                    "doubles (option {option} scores it at the limit)",
                    hand=term_msg(NAME, named[0]),
                    option="seed_limit_hands=limit",
                )
            )
        possible = possible_limit_hands(hand, ev.reading)
        if possible:
            details["possible_limit_hand"] = possible
            notes.append(
                msg(
                    "possible limit hand on the club's missing list: {hands}",
                    hands=tuple(msg(p) for p in possible),
                )
            )
    if "bottled" in hand.context.flags and "C11" not in {name.split()[0] for name, _ in ev.closing}:
        notes.append(
            msg(
                "flag {flag} ignored: the hand does not have four sets on the table and one tile in hand",
                flag="bottled",
            )
        )
    unknown = sorted(hand.context.flags - FLAGS)
    if unknown:
        notes.append(
            msg("flags with no meaning under classical rules (ignored): {flags}", flags=", ".join(unknown))
        )
    elements = dict(details["base_points"])
    elements.update({f"{k} (doubles)": v for k, v in details["doubles"].items()})
    if not ev.legal:
        notes.append(
            msg(
                "(the hand itself is worth {total}; it may not go out under the rules in force)",
                total=ev.total,
            )
        )
        return Score(NAME, False, "; ".join(ev.problems), elements, 0, "points", details, notes)
    return Score(NAME, True, None, elements, ev.total, "points", details, notes)
