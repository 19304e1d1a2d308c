"""Base points, limits and who pays whom (seed §4.1–4.1.3, TABELLE PUNTEGGIO; riichi.md §5).

Under 5 fan the base is "i mini-punti ... raddoppiati per il numero di fan più 2" (fu × 2^(fan+2)),
never above a mangan's 2,000; there is no rounding up to mangan (4 fan 30 fu pays 7,700, Esempio 2).
From 5 fan the limit table applies. Each payment is rounded up to 100 on its own; counters add 300
on a discard (paid by the discarder) or 100 from each payer on a self-draw; the winner collects
the riichi sticks on the table (§4.1).
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.payments import DISCARDER, FOR_COUNTERS, FOR_HAND, SEATS, Payment, paid_by

MANGAN = 2000
#: (lowest fan, name, base points) from the seed's limit table
LIMITS: tuple[tuple[int, str, int], ...] = (
    (13, "yakuman", 8000),
    (11, "sanbaiman", 6000),
    (8, "baiman", 4000),
    (6, "haneman", 3000),
    (5, "mangan", 2000),
)
HONBA_RON, HONBA_TSUMO, RIICHI_STICK = 300, 100, 1000


def up100(x: int) -> int:
    return -(-x // 100) * 100


def base_points(
    han: int, fu: int | None, yakuman: int = 0, counted_yakuman: bool = True
) -> tuple[int, str | None]:
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


def hand_payments(
    base: int, dealer: bool, self_drawn: bool, winner: str, honba: int, discarder: str | None = None
) -> list[Payment]:
    """What each loser pays for the hand, then for the counters (riichi sticks apart)."""
    if not self_drawn:
        payer = discarder or DISCARDER
        out = [Payment(payer, winner, up100((6 if dealer else 4) * base), FOR_HAND)]
        if honba:
            out.append(Payment(payer, winner, HONBA_RON * honba, FOR_COUNTERS))
        return out
    double, single = up100(2 * base), up100(base)
    payers = [seat for seat in SEATS if seat != winner]
    out = [Payment(seat, winner, double if dealer or seat == "E" else single, FOR_HAND) for seat in payers]
    if honba:
        out += [Payment(seat, winner, HONBA_TSUMO * honba, FOR_COUNTERS) for seat in payers]
    return out


def points_of(payments: list[Payment], dealer: bool, self_drawn: bool) -> dict[str, int]:
    """The vectors' ``expected.points`` shape: ron, or the two tsumo amounts (honba included)."""
    totals = paid_by(payments)
    if not self_drawn:
        return {"ron": next(iter(totals.values()))}
    if dealer:
        return {"tsumo_others_pay": next(iter(totals.values()))}
    other = next(v for seat, v in totals.items() if seat != "E")
    return {"tsumo_dealer_pays": totals["E"], "tsumo_others_pay": other}
