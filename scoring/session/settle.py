"""The one place where the session reads a hand's settlement: :func:`hand_payments`.

Each rule system says who pays whom in its own ``Score.details`` today (MCR ``settlement`` net by
seat, riichi and the table settlements ``payments`` lists, Zung Jung ``payments`` by payer). This
adapter turns all of them into :class:`scoring.payments.Payment` rows between seats, so that the
session never looks inside a system's details anywhere else. When ``Score.payments`` becomes the
one typed list for every system, only this function changes (to ``list(score.payments)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.hand import WINDS, Hand
from scoring.payments import Payment
from scoring.result import Score
from scoring.session.model import SessionError


def hand_payments(score: Score, hand: Hand | None, rules: str, pao: str | None = None) -> list[Payment]:
    """Who pays whom (seat winds) for this scored hand; riichi sticks from the table are left out
    (the session keeps the sticks itself). ``pao``: the liable seat, riichi only."""
    details = score.details
    if rules == "mcr":
        net = details.get("settlement")
        if not isinstance(net, Mapping) or not set(net) <= set(WINDS):
            raise SessionError("the MCR settlement needs the discarder's seat")
        winner = max(net, key=lambda s: net[s])
        return [Payment(s, winner, -int(v)) for s, v in net.items() if v < 0]
    if rules == "riichi":
        rows: list[dict[str, Any]] = details.get("payments", [])
        if pao is not None:
            from scoring.riichi.pao import liable_payments

            assert hand is not None
            rows = liable_payments(hand, details, score.elements, pao)
        if any(r["from"] == "discarder" for r in rows):
            raise SessionError("the riichi payment needs the discarder's seat")
        return [Payment(r["from"], r["to"], int(r["total"])) for r in rows if r["from"] != "table"]
    if rules == "zung-jung":
        pays = details.get("payments")
        if not isinstance(pays, Mapping):
            raise SessionError("the Zung Jung payment needs the discarder's seat (or 'responsible')")
        assert hand is not None
        return [Payment(s, hand.seat_wind, int(v)) for s, v in pays.items() if v]
    # australian, classical: the whole table's settlement
    return [Payment(p["from"], p["to"], int(p["amount"])) for p in details.get("payments", [])]


def net_by_seat(payments: list[Payment]) -> dict[str, int]:
    """Each seat's gain (+) or loss (−); a settlement sums to zero."""
    net = dict.fromkeys(WINDS, 0)
    for p in payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return net
