"""Who pays whom: the one shape every rule system's settlement takes (:attr:`Score.payments`).

A :class:`Payment` is one player paying another one amount for one reason. Every system settles
in these rows (MCR's hand value and 8-point base, riichi's hand, counters and riichi sticks and
pao, Zung Jung's hand and responsibility, the Australian and Classical table settlements), so
the CLI, the web page and the session sheet all read the same list and never look inside a
system's ``details``. Notes print a payment as ``E→W 800``, JSON as ``{"from", "to", "amount",
"for"}``.

A party is a seat wind (E, S, W, N) or one of the names below, for money that does not come
from, or go to, a known seat: riichi sticks already lying on the table, a discarder (or another
player) whose seat the input did not give, a Goulash pot carried to the next hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.tiles import WIND_LETTERS

#: the four seats in playing order, by their wind (the one definition: every rule system and
#: the session import it)
SEATS: tuple[str, ...] = tuple(WIND_LETTERS)
#: riichi sticks lying on the table (each paid when its riichi was declared)
TABLE = "table"
#: the player who discarded the winning tile, when the input did not say which seat
DISCARDER = "discarder"
#: one of the players who neither won nor discarded, when the discarder's seat is not known
OTHER = "other"
#: a Goulash pot carried to the next hand (nobody won it)
POT = "pot"

# what a payment is for (the ``for`` of the JSON)
FOR_HAND = "hand"
FOR_BASE = "base"  # MCR: the 8 points every loser adds to the hand's value
FOR_COUNTERS = "counters"  # riichi honba
FOR_STICKS = "riichi sticks"
FOR_PAO = "pao"  # riichi liability
FOR_RESPONSIBILITY = "responsibility"  # Zung Jung: the responsible player pays the rest
FOR_POT = "goulash pot"
FOR_FALSE_MAH_JONG = "false mah jong"
FOR_DIFFERENCE = "difference"  # table settlements: two non-winners settle their scores' difference


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (≥ 0) for ``reason`` (one of the names above, or a
    system's own words, e.g. riichi's ``pao (Dai sangen, seed 3.3.6 …)``)."""

    payer: str
    payee: str
    amount: int
    reason: str = ""

    def __str__(self) -> str:
        return f"{self.payer}→{self.payee} {self.amount}"

    def words(self) -> Msg:
        """``E→W 800`` for a reader: the seats' letters (and a role, the table, the pot) in the
        reader's language (``W`` is ``O`` in Italian)."""
        return msg(
            "{payer}→{payee} {amount}", payer=msg(self.payer), payee=msg(self.payee), amount=self.amount
        )

    def as_dict(self) -> dict[str, str | int]:
        out: dict[str, str | int] = {"from": self.payer, "to": self.payee, "amount": self.amount}
        if self.reason:
            out["for"] = self.reason
        return out


def net_by_seat(payments: Iterable[Payment], seats: Iterable[str] = SEATS) -> dict[str, int]:
    """Each seat's gain (+) or loss (−). Parties that are not seats (the table's sticks, a pot)
    move no seat's balance; between seats a settlement sums to zero."""
    out = dict.fromkeys(seats, 0)
    for p in payments:
        if p.payer in out:
            out[p.payer] -= p.amount
        if p.payee in out:
            out[p.payee] += p.amount
    return out


def paid_by(payments: Iterable[Payment]) -> dict[str, int]:
    """Each payer's total over all its payments, in the order they first pay."""
    out: dict[str, int] = {}
    for p in payments:
        out[p.payer] = out.get(p.payer, 0) + p.amount
    return out


def between_seats(payments: Iterable[Payment]) -> bool:
    """Whether every party is a known seat or the table (nothing waits for a seat to be named)."""
    known = (*SEATS, TABLE, POT)
    return all(p.payer in known and p.payee in known for p in payments)
