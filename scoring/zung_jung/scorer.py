"""Score one Zung Jung winning hand: check the input, value every arrangement, keep the best, pay.

Seed LIBERTÀ DI CONTEGGIO: the winner picks the arrangement, and "combinazioni di diversi
arrangiamenti non possono essere conteggiate"; so every reading of the shared decomposition (with
every place of the winning tile, which decides what a discard exposes) is valued on its own and the
highest final value, after the limit, is kept. Seed REGOLE DI BASE 1: "Solo la mano vincente viene
conteggiata" — losers' hands are not scored.
"""

from __future__ import annotations

from collections.abc import Mapping

from mahjong_camera_scorer.scoring.decompose import Decomposition, readings, shape_error
from mahjong_camera_scorer.scoring.hand import Hand, HandError, check_tiles
from mahjong_camera_scorer.scoring.i18n import msg
from mahjong_camera_scorer.scoring.options import resolve
from mahjong_camera_scorer.scoring.payments import Payment, paid_by
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.situation_words import NOBODY
from mahjong_camera_scorer.scoring.zung_jung.arrangement import Arrangement
from mahjong_camera_scorer.scoring.zung_jung.combine import Valuation, value_arrangement
from mahjong_camera_scorer.scoring.zung_jung.options import NAME, OPTIONS
from mahjong_camera_scorer.scoring.zung_jung.payment import PAR, responsible_player, settle

#: Category 9 comes from the table's events; each flag names one of them and the way it wins.
FLAG_WIN_BY = {
    "last_tile": "self_draw",  # 9.1.1 seabed
    "last_discard": "discard",  # 9.1.2 riverbed
    "kong_replacement": "self_draw",  # 9.2 "è considerato una vincita pescata"
    "robbing_kong": "discard",  # 9.3 "considerata vincita su scarto" (input form; see A1)
    "heavenly": "self_draw",  # 9.4.1 East's initial 14 tiles
    "earthly": "discard",  # 9.4.2 East's very first discard
}


def score(hand: Hand, options: Mapping[str, str]) -> Score:
    """The winning hand's Zung Jung value (never raises: a bad hand gives ``Score.invalid``)."""
    try:
        opts = resolve(OPTIONS, options)
    except HandError as exc:
        return Score.invalid(NAME, str(exc))
    reason = input_error(hand, opts)
    if reason:
        return Score.invalid(NAME, reason)
    notes: list[str] = []
    if "heavenly" in hand.context.flags and hand.melds:
        hand = hand.with_context(flags=hand.context.flags - {"heavenly"})
        notes.append(msg("Blessing of Heaven void: East declared a concealed kong (seed 9.4.1)"))
    arrangements = [Arrangement(hand, r, opts) for r in _allowed(hand, opts)]
    if not arrangements:
        return Score.invalid(NAME, shape_error(hand))
    best_arr, best = None, None
    for arr in arrangements:
        val = value_arrangement(arr, opts)
        if best is None or (val.total, val.raw) > (best.total, best.raw):
            best_arr, best = arr, val
    assert best_arr is not None and best is not None
    notes = [msg("Arrangement: {sets}", sets=best_arr.describe()), *best.notes, *notes]
    details: dict[str, object] = {
        "form": best_arr.reading.form,
        "arrangement": best_arr.describe(),
        "raw_total": best.raw,
        "limit": best.limit,
    }
    try:
        payments = _payments(hand, opts, best, details, notes)
    except ValueError as exc:
        return Score.invalid(NAME, f"payment: {exc}", elements=best.elements, total=best.total)
    return Score(NAME, True, None, dict(best.elements), best.total, "points", details, notes, payments)


def input_error(hand: Hand, opts: Mapping[str, str]) -> str | None:
    """Why the input cannot be a Zung Jung win, or None."""
    role = hand.context.role
    if role != "winner":
        return (
            f"Zung Jung scores only the winning hand, not a {role}'s "
            "('Solo la mano vincente viene conteggiata', seed REGOLE DI BASE 1)"
        )
    if hand.bonus_tiles and opts["flowers"] == "no":
        return "flowers and seasons are not in play (option flowers=no): remove the bonus tiles"
    reason = check_tiles(hand, red_fives_in_set=0)
    if reason:
        return reason
    unknown = sorted(hand.context.flags - FLAG_WIN_BY.keys())
    if unknown:
        return f"unknown flag(s) for Zung Jung: {', '.join(unknown)} (known: {', '.join(FLAG_WIN_BY)})"
    for flag in sorted(hand.context.flags):
        if FLAG_WIN_BY[flag] != hand.context.win_by:
            return f"flag {flag} needs win_by {FLAG_WIN_BY[flag]}, not {hand.context.win_by}"
    if hand.context.winning_tile is None and "heavenly" not in hand.context.flags:
        return "no winning tile: Zung Jung needs it to tell a discard-completed pung from a concealed one"
    if "kong_replacement" in hand.context.flags and not any(m.kind == "kong" for m in hand.melds):
        return "flag kong_replacement but no declared kong"
    if "heavenly" in hand.context.flags:
        if hand.context.seat_wind != "E":
            return (
                f"Blessing of Heaven is East's only ('Est vince con la sua Mano iniziale'); "
                f"the seat is {hand.context.seat_wind}"
            )
        if any(m.open for m in hand.melds):
            return "Blessing of Heaven is won on the initial 14 tiles: no set can have been claimed"
    if "earthly" in hand.context.flags:
        if hand.context.seat_wind == "E":
            return "Blessing of Earth is for South, West or North (it is won on East's first discard)"
        if hand.melds:
            return "Blessing of Earth is won with the initial 13 tiles: no set can have been declared"
    return None


def _allowed(hand: Hand, opts: Mapping[str, str]) -> list[Decomposition]:
    """Every reading; with ``discard_pung_assignment=pung_first`` the discard must take a pung."""
    found = readings(hand, seven_pairs=True, thirteen_orphans=True, seven_pairs_quads=True)
    winning = hand.context.winning_tile
    if opts["discard_pung_assignment"] == "free" or hand.context.win_by != "discard" or winning is None:
        return found
    win = winning.index
    return [
        r
        for r in found
        if r.groups[r.win_group].is_pung_like
        or not any(g.is_pung_like and not g.declared and g.first == win for g in r.groups)
    ]


def _payments(
    hand: Hand, opts: Mapping[str, str], best: Valuation, details: dict[str, object], notes: list[str]
) -> list[Payment]:
    """Seed SCHEMA DI PAGAMENTO for this win; none when the input does not say enough to settle it."""
    situation = hand.context
    winner, value = situation.seat_wind, best.total
    win_by = hand.context.win_by
    if "robbing_kong" in hand.context.flags and opts["robbing_kong_win"] == "self_draw":
        win_by = "self_draw"
    if win_by == "self_draw":
        responsible = None
    elif situation.responsible is not None:
        responsible = None if situation.responsible == NOBODY else situation.responsible
    elif situation.discarder is not None or "earthly" in situation.flags:
        discarder = situation.discarder or "E"  # 9.4.2: East is the discarder
        responsible = responsible_player(
            winner,
            discarder,
            situation.winning_tile,
            situation.discards_in_window,
            immunity_before_first_discard=opts["immunity_before_first_discard"],
        )
    elif value <= PAR:
        responsible = None  # "fino a 25 punti … indipendentemente da chi è responsabile"
    else:
        notes.append(
            msg(
                "Payment: {value} > {par} on a discard; give 'discarder' or 'responsible' to settle",
                value=value,
                par=PAR,
            )
        )
        return []
    payments = settle(winner, win_by, value, responsible)
    details["responsible"] = responsible
    totals = paid_by(payments)
    paid = tuple(msg("{payer} pays {points}", payer=msg(s), points=n) for s, n in totals.items())
    notes.append(
        msg(
            "Payment: {paid} -> {winner} receives {total}",
            paid=paid,
            winner=msg(winner),
            total=sum(totals.values()),
        )
    )
    return payments
