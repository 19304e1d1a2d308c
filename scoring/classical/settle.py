"""Settlement (*pagamenti*, spec §4): winners collect, the rest settle differences, East doubles.

Seed, "I punteggi: punti e raddoppi": *"Chi fa mah jong calcola il proprio punteggio e tutti gli
altri glielo pagano; gli altri giocatori calcolano il proprio punteggio e tra loro regolano le
differenze. Il giocatore Est raddoppia i pagamenti e le riscossioni che lo riguardano."* and
*"Tutti i pagamenti vengono arrotondati alla decina più vicina"*.

:func:`pairwise_differences` and :func:`round_half_up` are generic (any system where players
settle score differences among themselves can use them); :func:`settle` is the classical order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.payments import FOR_DIFFERENCE, FOR_HAND, Payment


def pairwise_differences(scores: Mapping[str, int], players: Sequence[str]) -> list[Payment]:
    """'tra loro regolano le differenze': for every pair of ``players`` the lower score pays the
    higher one the difference; equal scores exchange nothing."""
    out = []
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if scores[a] != scores[b]:
                lo, hi = (a, b) if scores[a] < scores[b] else (b, a)
                out.append(Payment(lo, hi, scores[hi] - scores[lo], FOR_DIFFERENCE))
    return out


def round_half_up(amount: int, step: int = 10) -> int:
    """'arrotondati alla decina più vicina (24 → 20, 26 → 30)'; an exact half goes up (D-8)."""
    return (amount + step // 2) // step * step


def cap(score: int, limit: int | None) -> int:
    """D-9: the limit caps each player's hand score, before East's doubling."""
    return score if limit is None else min(score, limit)


@dataclass(frozen=True, slots=True)
class Settlement:
    capped: dict[str, int]
    raw: list[Payment]  # after East's doubling, before rounding
    payments: list[Payment]  # what changes hands (rounded, zero amounts dropped)


def debts(
    scores: Mapping[str, int],
    winners: Sequence[str],
    *,
    non_winners_settle: bool = True,
    no_winner: str = "none",
) -> list[Payment]:
    """Who owes whom, before East's doubling (spec §4.2).

    Each winner collects their score from every non-winner; the winners settle their differences
    (*"i giocatori che hanno chiuso riscuotono da quelli che non hanno chiuso e tra loro regolano
    la differenza"*); the non-winners settle theirs (D-10). With no winner: nothing (D-18) or,
    under ``no_winner='differences'``, everybody settles differences.
    """
    seats = list(scores)
    losers = [s for s in seats if s not in winners]
    if not winners:
        return pairwise_differences(scores, seats) if no_winner == "differences" else []
    out = [Payment(loser, w, scores[w], FOR_HAND) for w in winners for loser in losers]
    out.extend(pairwise_differences(scores, list(winners)))
    if non_winners_settle or len(winners) == 1:
        out.extend(pairwise_differences(scores, losers))
    return out


def settle(
    scores: Mapping[str, int],
    winners: Sequence[str],
    *,
    limit: int | None = 1000,
    east: str = "E",
    round_scores_first: bool = False,
    non_winners_settle: bool = True,
    no_winner: str = "none",
) -> Settlement:
    """The whole table's payments from each seat's hand score (before the cap).

    East doubles every payment it makes or receives; each payment is then rounded to the nearest
    10 (D-8 default). ``round_scores_first`` is D-8's other reading: round each capped score, then
    settle (the amounts are then already multiples of 10).
    """
    capped = {s: cap(v, limit) for s, v in scores.items()}
    basis = {s: round_half_up(v) for s, v in capped.items()} if round_scores_first else capped
    owed = debts(basis, winners, non_winners_settle=non_winners_settle, no_winner=no_winner)
    raw = [
        Payment(p.payer, p.payee, p.amount * (2 if east in (p.payer, p.payee) else 1), p.reason) for p in owed
    ]
    paid = [Payment(p.payer, p.payee, round_half_up(p.amount), p.reason) for p in raw]
    return Settlement(capped, raw, [p for p in paid if p.amount > 0])
