"""Rounding and the settlement of a hand among the four players.

"I totali vengono arrotondati ai 100 punti più vicini (ad esempio 240 vale 200, 260 vale 300)"
(L326); "Est riceve e paga sempre il doppio" (L81). The settlement itself is the classic European
one the seed assumes (§4.1, stated in seed 004): the winner collects its score from everyone, the
winner pays nobody, and the other players settle the differences of their scores among themselves.

:func:`settle_by_differences` is generic (no Australian rule in it) and can be shared with the
Classical scorer.
"""

from __future__ import annotations

from collections.abc import Mapping

from mahjong_camera_scorer.scoring.payments import FOR_DIFFERENCE, FOR_HAND, SEATS, Payment


def round_hundred(value: int, half: str = "up") -> int:
    """Nearest 100; A-06 ``rounding_half`` decides exact halves (up, down, or to even hundreds)."""
    hundreds, rest = divmod(value, 100)
    if rest > 50 or (rest == 50 and (half == "up" or (half == "even" and hundreds % 2 == 1))):
        hundreds += 1
    return hundreds * 100


def east_factor(a: str, b: str, east: str = "E") -> int:
    """L81: East receives and pays double."""
    return 2 if east in (a, b) else 1


def settle_by_differences(
    scores: Mapping[str, int], winner: str | None, *, east: str = "E", skip: frozenset[str] = frozenset()
) -> list[Payment]:
    """Winner collects its score from each player; each pair of other players settles the
    difference of their scores; every amount to or from East doubled.

    ``skip`` lists non-winners who take no part in the differences (they still pay the winner).
    Payments come in seat order: the winner's collection first, then the differences.
    """
    seats = [s for s in SEATS if s in scores]
    out: list[Payment] = []
    if winner is not None:
        for s in seats:
            if s != winner and scores[winner]:
                out.append(Payment(s, winner, scores[winner] * east_factor(s, winner, east), FOR_HAND))
    others = [s for s in seats if s != winner and s not in skip]
    for i, a in enumerate(others):
        for b in others[i + 1 :]:
            diff = scores[a] - scores[b]
            if diff:
                payer, payee = (b, a) if diff > 0 else (a, b)
                out.append(Payment(payer, payee, abs(diff) * east_factor(a, b, east), FOR_DIFFERENCE))
    return out


def matrix(payments: list[Payment], seats: tuple[str, ...] = SEATS) -> dict[str, dict[str, int]]:
    """payer → payee → total amount."""
    out = {a: {b: 0 for b in seats if b != a} for a in seats}
    for p in payments:
        if p.payer in out and p.payee in out[p.payer]:
            out[p.payer][p.payee] += p.amount
    return out
