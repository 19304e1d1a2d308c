"""The whole table: every player's hand scored, then the settlement (spec §3, §4).

Input (YAML/JSON): ``players`` maps each seat E S W N to either a pre-scored entry
``{role, score}`` or a structured hand with ``role`` (``seat_wind`` defaults to the seat);
top-level ``round_wind`` applies to every hand, ``options`` (and top-level keys named like an
option, e.g. ``limit``) set the rule options. The spec's settlement vectors (``scores`` +
``winners``) are accepted as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from mahjong_camera_scorer.scoring.classical.options import NAME, OPTIONS, limit_of
from mahjong_camera_scorer.scoring.classical.settle import Settlement, round_half_up, settle
from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.fields import check_keys, field_mapping, field_names, show
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import Msg, msg, term_msg
from mahjong_camera_scorer.scoring.options import resolve
from mahjong_camera_scorer.scoring.payments import SEATS, Payment, net_by_seat
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.structured import KNOWN_KEYS, hand_from_dict
from mahjong_camera_scorer.scoring.tiles import Tile

HandScorer = Callable[[Hand, Mapping[str, str]], Score]


#: what a table holds besides its options (each also a key of its own: ``limit: 1000``)
TABLE_KEYS = ("players", "scores", "winners", "round_wind", "options")


def _players(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    check_keys(data, (*TABLE_KEYS, *OPTIONS), "the table")
    if "players" in data:
        players = field_mapping(data["players"], "players (each seat E, S, W, N: a hand or {role, score})")
        return {str(k).upper(): v for k, v in players.items()}
    if "scores" in data:  # the spec's settlement vectors
        winners = set(field_names(data.get("winners"), "winners"))
        return {
            str(s).upper(): {"role": "winner" if s in winners else "loser", "score": v}
            for s, v in field_mapping(data["scores"], "scores").items()
        }
    raise HandError("a table needs 'players' (seat → hand or {role, score}) or 'scores' + 'winners'")


def _options(data: Mapping[str, Any], given: Mapping[str, str]) -> dict[str, str]:
    top = {k: v for k, v in data.items() if k in OPTIONS}
    inner = data.get("options") or {}
    if not isinstance(inner, Mapping):
        raise HandError("options must be an object NAME: value")
    return resolve(OPTIONS, top, inner, given)


def _table_tiles_problem(hands: Mapping[str, Hand]) -> str | None:
    """Four copies of each tile and one of each bonus tile on the whole table."""
    kinds = Counter(t.index for h in hands.values() for t in h.all_tiles())
    for index, n in sorted(kinds.items()):
        if n > 4:
            return f"{n} copies of {Tile(index).code} on the table: a set has only 4"
    bonus = Counter(t for h in hands.values() for t in h.bonus_tiles)
    for t, n in bonus.items():
        if n > 1:
            return f"bonus tile {t.code} shown by {n} players: there is one of each"
    return None


def score_table(data: Mapping[str, Any], options: Mapping[str, str], score_hand: HandScorer) -> Score:
    """Score every hand that is not pre-scored, then settle; never raises for a bad hand. A key
    nobody reads is the input's own form: :class:`UnknownKeyError` (the command's exit 2)."""
    try:
        opts = _options(data, options)
        players = _players(data)
        if sorted(players) != sorted(SEATS):
            got = show(sorted(players)) if players else "none"
            raise HandError(f"a table has the four seats E, S, W, N; got {got}")
        round_wind = data.get("round_wind", "E")
        hands: dict[str, Hand] = {}
        for seat in SEATS:
            entry = players[seat]
            if not isinstance(entry, Mapping):
                raise HandError(f"{seat}: expected a hand or {{role, score}}, got {show(entry)}")
            if entry.get("role") not in ("winner", "loser"):
                raise HandError(f"{seat}: role must be winner or loser, not {show(entry.get('role'))}")
            check_keys(entry, (*KNOWN_KEYS, "score"), f"players.{seat}")
            score = entry.get("score")
            if "score" in entry and (type(score) is not int or score < 0):
                raise HandError(f"{seat}: a pre-scored entry needs a whole score ≥ 0, not {show(score)}")
            if "score" not in entry:
                hands[seat] = hand_from_dict({"seat_wind": seat, "round_wind": round_wind, **entry})
    except UnknownKeyError:
        raise
    except HandError as exc:
        return Score.invalid(NAME, str(exc))
    problem = _table_tiles_problem(hands)
    if problem:
        return Score.invalid(NAME, problem)
    roles: dict[str, str] = {}
    scores: dict[str, int] = {}
    hand_json: dict[str, Any] = {}
    for seat in SEATS:
        entry = players[seat]
        roles[seat] = entry["role"]
        if seat in hands:
            result = score_hand(hands[seat], opts)
            hand_json[seat] = result.to_json()
            if not result.valid:
                return Score.invalid(NAME, f"{seat}: {result.error}", hands=hand_json)
            scores[seat] = int(result.details["raw_total"])
        else:
            scores[seat] = entry["score"]
    winners = [s for s in SEATS if roles[s] == "winner"]
    settled = settle(
        scores,
        winners,
        limit=limit_of(opts),
        round_scores_first=opts["round_scores_first"] == "yes",
        non_winners_settle=opts["non_winners_settle"] == "yes",
        no_winner=opts["no_winner_settlement"],
    )
    return _render(scores, roles, settled, hand_json, opts)


def _matrix(payments: list[Payment]) -> dict[str, dict[str, int]]:
    out = {payer: dict.fromkeys(SEATS, 0) for payer in SEATS}
    for p in payments:
        out[p.payer][p.payee] += p.amount
    return out


def _render(
    scores: dict[str, int],
    roles: dict[str, str],
    result: Settlement,
    hand_json: dict[str, Any],
    opts: Mapping[str, str],
) -> Score:
    net = net_by_seat(result.payments)
    matrix = _matrix(result.payments)
    details: dict[str, Any] = {
        "winners": [s for s in SEATS if roles[s] == "winner"],
        "scores": scores,
        "capped_scores": result.capped,
        "rounded": {s: round_half_up(v) for s, v in result.capped.items()},  # D-8's other reading
        "payments_raw": [p.as_dict() for p in result.raw],  # before rounding (D-8): not what is paid
        "net": net,
        "net_raw": net_by_seat(result.raw),
        "hands": hand_json,
    }
    capped = limit_of(opts) is not None
    notes: list[str] = [msg("Scores (capped at the limit):") if capped else msg("Scores:")]
    for s in SEATS:
        how: str = ""
        if s in hand_json:
            h = hand_json[s]
            limit_hand = msg(" ({hand})", hand=term_msg(NAME, h["limit_hand"])) if h.get("limit_hand") else ""
            how = msg(
                "   {base} base × 2^{doubles}{limit_hand}",
                base=h["base_total"],
                doubles=h["doubles_total"],
                limit_hand=limit_hand,
            )
        notes.append(
            msg(
                "  {seat} {role:<6} {score:>6}{how}",
                seat=msg(s),
                role=msg(roles[s]),
                score=result.capped[s],
                how=how,
            )
        )
    notes.append(msg("Payments (East doubled, rounded to 10):"))
    notes += [msg("  {payment}", payment=p.words()) for p in result.payments] or [msg("  none")]
    seats = tuple(msg("{seat:>6}", seat=msg(s)) for s in SEATS)
    notes.append(Msg("  payer\\payee {seats}", {"seats": seats}, sep=" "))
    notes += [
        msg(
            "  {payer:<11} {cells}", payer=msg(payer), cells=" ".join(f"{matrix[payer][s]:>6}" for s in SEATS)
        )
        for payer in SEATS
    ]
    notes.append(
        Msg(
            "Net: {net}",
            {"net": tuple(msg("{seat} {points}", seat=msg(s), points=f"{net[s]:+d}") for s in SEATS)},
            sep="  ",
        )
    )
    winners = details["winners"]
    total = max((result.capped[s] for s in winners), default=0)
    return Score(NAME, True, None, {}, total, "points", details, notes, result.payments)
