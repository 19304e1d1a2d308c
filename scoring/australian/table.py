"""``score_table``: every hand at the table scored and the hand settled (§4 of the spec).

Input: ``players`` seat → a structured hand with its ``role`` (``seat_wind`` defaults to the seat),
or a pre-scored ``{role, score}`` (unrounded, after doubling and the limit), or for Heavenly
Paradise ``{role, chips}``; top-level ``round_wind``, ``flags`` (added to every hand, e.g.
``goulash``), ``goulash_stake_each`` and ``options``.

Settlement: scores rounded to the nearest 100 (L326, A-06); the winner collects from everyone,
East paying and receiving double (L81); the others settle their differences (A-08); a Goulash pot
goes to the winner on top (L64, A-16); Heavenly Paradise takes every other player's chips and
nothing else is settled (L310, L322, §4.5); a false mah jong (top-level ``false_mah_jong``) pays
half the limit to each opponent (L330).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.australian.options import OPTIONS
from mahjong_camera_scorer.scoring.australian.scorer import NAME, score
from mahjong_camera_scorer.scoring.australian.settlement import (
    east_factor,
    matrix,
    round_hundred,
    settle_by_differences,
)
from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.fields import check_keys, field_names, field_number
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.options import resolve
from mahjong_camera_scorer.scoring.payments import (
    FOR_FALSE_MAH_JONG,
    FOR_HAND,
    FOR_POT,
    POT,
    SEATS,
    Payment,
    net_by_seat,
)
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.structured import KNOWN_KEYS, hand_from_dict

FLAT = "flat fishing value (new rules)"
#: what a table holds, and a seat's entry besides its structured hand (misspelled keys are refused)
TABLE_KEYS = ("players", "round_wind", "flags", "goulash_stake_each", "options", "false_mah_jong")
ENTRY_KEYS = ("score", "chips", "flat")


def _entries(data: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    players = data.get("players")
    if not isinstance(players, Mapping) or len(players) != 4 or set(players) != set(SEATS):
        raise HandError("players must map each of the seats E, S, W, N to a hand or a {role, score} entry")
    check_keys(data, TABLE_KEYS, "the table")
    field_names(data.get("flags"), "flags")
    if "goulash_stake_each" in data:
        field_number(data["goulash_stake_each"], "goulash_stake_each")
    for seat, entry in players.items():
        if not isinstance(entry, Mapping) or entry.get("role") not in ("winner", "fishing", "loser"):
            raise HandError(f"players.{seat}: give a role (winner, fishing or loser)")
        check_keys(entry, (*KNOWN_KEYS, *ENTRY_KEYS), f"players.{seat}")
        for key in ("score", "chips"):
            if key in entry:
                field_number(entry[key], f"players.{seat}.{key}")
        field_names(entry.get("flags"), f"players.{seat}.flags")
    if sum(e["role"] == "winner" for e in players.values()) > 1:
        raise HandError("only one player can go out")
    return {s: players[s] for s in SEATS}


def _score_entry(
    seat: str, entry: Mapping[str, Any], data: Mapping[str, Any], opts: Mapping[str, str]
) -> tuple[int | str, bool, dict[str, Any] | None, str | None]:
    """(score, flat fishing value?, the hand's JSON if it was scored, error)."""
    if "score" in entry:
        return entry["score"], bool(entry.get("flat")), None, None
    if "hand" not in entry:
        if entry["role"] == "winner" and "chips" in entry:
            return "all_chips", False, None, None
        if "chips" in entry:
            return 0, False, None, None
        return 0, False, None, f"players.{seat}: give a score or a hand"
    flags = sorted({*field_names(data.get("flags"), "flags"), *field_names(entry.get("flags"), "flags")})
    hand = {k: v for k, v in entry.items() if k not in ENTRY_KEYS}
    hand_data = {"seat_wind": seat, "round_wind": data.get("round_wind", "E"), **hand, "flags": flags}
    try:
        s = score(hand_from_dict(hand_data), opts)
    except UnknownKeyError:
        raise
    except HandError as exc:
        return 0, False, None, f"players.{seat}: {exc}"
    result = s.to_json()
    if not s.valid:
        return 0, False, result, f"players.{seat}: {s.error}"
    return s.total, result.get("value") == FLAT, result, None


def score_table(data: Mapping[str, Any], options: Mapping[str, str]) -> Score:
    """Score all four hands and settle; never raises for bad hands (the reason is in ``error``). A
    key nobody reads is the input's own form: :class:`UnknownKeyError` (the command's exit 2)."""
    try:
        opts = resolve(OPTIONS, data.get("options") or {}, options or {})
        entries = _entries(data)
        _false_mah_jong(data, opts)
    except UnknownKeyError:
        raise
    except HandError as exc:
        return Score.invalid(NAME, str(exc))
    scores: dict[str, int | str] = {}
    flat: set[str] = set()
    hands: dict[str, Any] = {}
    for seat, entry in entries.items():
        value, is_flat, result, error = _score_entry(seat, entry, data, opts)
        if result is not None:
            hands[seat] = result
        if error:
            return Score.invalid(NAME, error, hands=hands)
        scores[seat] = value
        if is_flat and entry["role"] == "fishing":
            flat.add(seat)
    winner = next((s for s, e in entries.items() if e["role"] == "winner"), None)
    if winner is not None and scores[winner] == "all_chips":
        return _heavenly_paradise(entries, winner, hands)
    half = opts["rounding_half"]
    ints = {s: int(v) for s, v in scores.items()}
    rounded = {s: round_hundred(v, half) for s, v in ints.items()}
    by_payment = opts["round_stage"] == "payment"
    basis = ints if by_payment else rounded
    skip = frozenset(flat) if opts["fishing_flat_paid_by"] == "all_others_flat" else frozenset()
    pot = _goulash_pot(data, entries, winner, opts)
    instead = pot is not None and opts["goulash_pot"] == "instead"
    payments = [] if instead else settle_by_differences(basis, winner, skip=skip)
    for f in sorted(skip, key=SEATS.index):
        payments += [Payment(o, f, basis[f] * east_factor(o, f), FOR_HAND) for o in SEATS if o != f]
    if by_payment:
        payments = [Payment(p.payer, p.payee, round_hundred(p.amount, half), p.reason) for p in payments]
    settled = [p for p in payments if p.amount] + _false_mah_jong(data, opts)
    details: dict[str, Any] = {"scores": scores, "rounded": rounded}
    notes: list[str] = [
        msg(
            "  {seat} {role:<8} {score:>5} → {rounded:>5}",
            seat=msg(s),
            role=msg(entries[s]["role"]),
            score=scores[s],
            rounded=rounded[s],
        )
        for s in SEATS
    ]
    payments = list(settled)
    if pot:
        details["pot"] = pot
        payments += _pot_payments(pot)
        notes.append(msg("  {line}", line=_pot_words(pot)))
    balance = net_by_seat(payments)
    details.update(net=balance, hands=hands)
    notes.append(msg("  {payments}", payments=tuple(p.words() for p in settled)))
    notes += [*_matrix_lines(matrix(settled)), _net_line(balance)]
    total = scores[winner] if winner else 0
    return Score(NAME, True, None, {}, total, "points", details, notes, payments)


def _pot_payments(pot: Mapping[str, Any]) -> list[Payment]:
    """Each player's stake into the pot: to the winner (who keeps their own), or carried on."""
    if pot["to"] is None:
        return [Payment(s, POT, pot["stake_each"], FOR_POT) for s in SEATS]
    return [Payment(s, pot["to"], pot["stake_each"], FOR_POT) for s in SEATS if s != pot["to"]]


def payment_lines(score_: Score) -> list[str]:
    """The payments as 'E→W 800' strings (and the pot line), in settlement order."""
    lines = [str(p) for p in score_.payments if p.reason != FOR_POT]
    if "pot" in score_.details:
        lines.insert(0, score_.details["pot"]["line"])
    return lines


def _goulash_pot(
    data: Mapping[str, Any],
    entries: Mapping[str, Mapping[str, Any]],
    winner: str | None,
    opts: Mapping[str, str],
) -> dict[str, Any] | None:
    """L64: each player stakes 100 or 200 points; 'un montepremi che andrà al vincitore'."""
    flagged = "goulash" in field_names(data.get("flags"), "flags") or any(
        "goulash" in field_names(e.get("flags"), "flags") for e in entries.values()
    )
    if "goulash_stake_each" not in data and not flagged:
        return None
    stake = (
        field_number(data["goulash_stake_each"], "goulash_stake_each")
        if "goulash_stake_each" in data
        else int(opts["goulash_stake"])
    )
    if winner is None:  # a Goulash that also ends dead
        if opts["goulash_dead_pot"] == "return":
            return None
        return {
            "stake_each": stake,
            "total": 4 * stake,
            "to": None,
            "carried": True,
            "line": f"pot: each player {stake} → pot {4 * stake} carried to the next Goulash",
        }
    return {
        "stake_each": stake,
        "total": 4 * stake,
        "to": winner,
        "line": f"pot: each player {stake} → pot {4 * stake} → {winner}",
    }


def _false_mah_jong(data: Mapping[str, Any], opts: Mapping[str, str]) -> list[Payment]:
    """L330: a false mah jong pays half the limit to each opponent, if any opponent has already
    exposed their tiles (``false_mah_jong: {caller: W, opponents_exposed: true}``)."""
    event = data.get("false_mah_jong")
    if not isinstance(event, Mapping) or not event.get("opponents_exposed"):
        return []
    caller = str(event.get("caller", ""))
    if caller not in SEATS:
        raise HandError("false_mah_jong.caller must be one of E, S, W, N")
    half = int(opts["limit"]) // 2
    double = opts["false_mahjong_east_double"] == "true"
    return [
        Payment(caller, s, half * (east_factor(caller, s) if double else 1), FOR_FALSE_MAH_JONG)
        for s in SEATS
        if s != caller
    ]


def _heavenly_paradise(entries: Mapping[str, Mapping[str, Any]], winner: str, hands: dict[str, Any]) -> Score:
    """[5] L322: each other player pays the winner the money of all the chips they hold."""
    missing = [s for s in SEATS if s != winner and "chips" not in entries[s]]
    if missing:
        return Score.invalid(
            NAME,
            "Heavenly Paradise: every other player pays all their chips; give "
            f"'chips' for {', '.join(missing)}",
            hands=hands,
        )
    payments = [Payment(s, winner, int(entries[s]["chips"]), FOR_HAND) for s in SEATS if s != winner]
    balance = net_by_seat(payments)
    details = {
        "scores": {winner: "all_chips"},
        "net": balance,
        "hands": hands,
        "then": "a fresh stake of chips is issued to every player (L322)",
    }
    notes: list[str] = [
        msg("  Heavenly Paradise: {winner} takes every other player's chips", winner=msg(winner)),
        *_matrix_lines(matrix(payments)),
        _net_line(balance),
        msg("  Then a fresh stake of chips is issued to every player (L322)"),
    ]
    return Score(NAME, True, None, {}, "all_chips", "points", details, notes, payments)


def _matrix_lines(m: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Who pays whom, a row per payer, the seats' letters in the reader's language."""
    lines: list[str] = [
        msg("  Payments (payer ↓, payee →):"),
        Msg("         {seats}", {"seats": tuple(msg("{seat:>7}", seat=msg(s)) for s in SEATS)}, sep=""),
    ]
    for a in SEATS:
        cells = "".join(f"{'-' if a == b else m[a][b]:>7}" for b in SEATS)
        lines.append(msg("  {seat:>6} {cells}", seat=msg(a), cells=cells))
    return lines


def _net_line(balance: Mapping[str, int]) -> Msg:
    return msg(
        "  Net: {net}",
        net=tuple(msg("{seat} {points}", seat=msg(s), points=f"{balance[s]:+d}") for s in SEATS),
    )


def _pot_words(pot: Mapping[str, Any]) -> Msg:
    """The pot's line (its English is the JSON's ``line``) for a reader."""
    if pot["to"] is None:
        return msg(
            "pot: each player {stake} → pot {total} carried to the next Goulash",
            stake=pot["stake_each"],
            total=pot["total"],
        )
    return msg(
        "pot: each player {stake} → pot {total} → {winner}",
        stake=pot["stake_each"],
        total=pot["total"],
        winner=msg(pot["to"]),
    )
