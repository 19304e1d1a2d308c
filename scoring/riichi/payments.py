"""Base points, limits and who pays whom (seed §4.1–4.1.3, TABELLE PUNTEGGIO; riichi.md §5).

Under 5 fan the base is "i mini-punti ... raddoppiati per il numero di fan più 2" (fu × 2^(fan+2)),
never above a mangan's 2,000; there is no rounding up to mangan (4 fan 30 fu pays 7,700, Esempio 2).
From 5 fan the limit table applies. Each payment is rounded up to 100 on its own; counters add 300
on a discard (paid by the discarder) or 100 from each payer on a self-draw; the winner collects
the riichi sticks on the table (§4.1).
"""

from __future__ import annotations

from typing import NamedTuple

MANGAN = 2000
#: (lowest fan, name, base points) from the seed's limit table
LIMITS: tuple[tuple[int, str, int], ...] = (
    (13, "yakuman", 8000),
    (11, "sanbaiman", 6000),
    (8, "baiman", 4000),
    (6, "haneman", 3000),
    (5, "mangan", 2000),
)
SEATS = ("E", "S", "W", "N")
HONBA_RON, HONBA_TSUMO, RIICHI_STICK = 300, 100, 1000


def up100(x: int) -> int:
    return -(-x // 100) * 100


def base_points(han: int, fu: int | None, yakuman: int = 0,
                counted_yakuman: bool = True) -> tuple[int, str | None]:
    """Base points and limit name. ``yakuman`` is the number of yakuman paid (0, 1, or 2)."""
    if yakuman:
        return 8000 * yakuman, "double yakuman" if yakuman == 2 else "yakuman"
    if han < LIMITS[-1][0] and fu is not None:  # under the limits (the usual case)
        base = fu * 2 ** (han + 2)
        return (MANGAN, "mangan") if base > MANGAN else (base, None)
    for lowest, name, base in LIMITS:
        if han >= lowest:
            if name == "yakuman" and not counted_yakuman:
                return 6000, "sanbaiman"
            return base, name
    assert fu is not None, "a hand under 5 fan has fu"
    base = fu * 2 ** (han + 2)
    return (MANGAN, "mangan") if base > MANGAN else (base, None)


class Payment(NamedTuple):
    payer: str  # a seat letter, "discarder" (seat unknown) or "table" (riichi sticks)
    amount: int
    honba: int = 0

    @property
    def total(self) -> int:
        return self.amount + self.honba


def hand_payments(base: int, dealer: bool, self_drawn: bool, winner: str, honba: int,
                  discarder: str | None = None) -> list[Payment]:
    """What each loser pays for the hand and the counters (riichi sticks apart)."""
    if not self_drawn:
        return [Payment(discarder or "discarder", up100((6 if dealer else 4) * base), HONBA_RON * honba)]
    counters = HONBA_TSUMO * honba
    double, single = up100(2 * base), up100(base)
    return [Payment(seat, double if dealer or seat == "E" else single, counters)
            for seat in SEATS if seat != winner]


def points_of(payments: list[Payment], dealer: bool, self_drawn: bool) -> dict[str, int]:
    """The vectors' ``expected.points`` shape: ron, or the two tsumo amounts (honba included)."""
    if not self_drawn:
        return {"ron": payments[0].total}
    if dealer:
        return {"tsumo_others_pay": payments[0].total}
    east = next(p for p in payments if p.payer == "E")
    other = next(p for p in payments if p.payer != "E")
    return {"tsumo_dealer_pays": east.total, "tsumo_others_pay": other.total}
