"""Liability (pao) for Dai sangen and Dai suushii (seed 001 §3.3.6; spec §5.6 and §8 A7, A28).

"Un giocatore che fornisce la pedina utile per formare il terzo tris/poker di drago ad un avversario
che già ha esposto due tris/poker di drago o la pedina utile per formare il quarto tris/poker di
vento ... deve pagare l'intero valore della mano ... pescandosi la pedina di chiusura (gli altri due
giocatori non pagano niente). Nel caso in cui ... siano realizzati grazie allo scarto di un altro
giocatore, questi dividerà il pagamento in ugual modo con chi ha scartato la pedina utile".

The rule is a table of rows a referee can check against the seed: which yakuman, which honour
sets, how many of them must stand exposed (the fed set was *called*, A28: a set completed by the
winning tile itself carries no liability). :func:`liable_payments` then re-divides the hand's
payment; the counters follow A7 (the discarder alone pays them on a shared ron, the liable player
on a self-draw). Riichi sticks are not touched: they go to the winner as usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.payments import FOR_COUNTERS, FOR_HAND, FOR_PAO, SEATS, TABLE, Payment
from mahjong_camera_scorer.scoring.riichi.payments import HONBA_RON, up100
from mahjong_camera_scorer.scoring.tiles import tile


@dataclass(frozen=True, slots=True)
class Liability:
    """One row of the liability table."""

    yakuman: str  # the element name in the riichi Score
    honours: str  # the honour kinds whose sets trigger it (mpsz)
    exposed_sets: int  # how many of them stand exposed when the liable tile is called
    seed: str

    def kinds(self) -> set[int]:
        return {tile(f"{d}z").index for d in self.honours.rstrip("z")}


LIABILITIES: tuple[Liability, ...] = (
    Liability("Dai sangen", "567z", 3, "3.3.6 terzo tris/poker di drago"),
    Liability("Dai suushii", "1234z", 4, "3.3.6 quarto tris/poker di vento"),
)


def liability_for(hand: Hand, elements: Mapping[str, int]) -> Liability | None:
    """The row that applies to this scored hand, or None: the yakuman was made and the liable
    set was a called one (all the trigger sets exposed, so the last of them came from a claim)."""
    for row in LIABILITIES:
        if row.yakuman not in elements:
            continue
        kinds = row.kinds()
        exposed = sum(1 for m in hand.melds if m.open and m.kind in ("pung", "kong") and m.first in kinds)
        if exposed >= row.exposed_sets:
            return row
    return None


def liable_payments(
    hand: Hand, base: int, elements: Mapping[str, int], liable: str, payments: list[Payment]
) -> tuple[list[Payment], Liability]:
    """The hand's ``payments`` re-divided with ``liable`` (a seat) paying as §3.3.6 says, and the
    liability row that applies.

    ``base`` and ``elements`` are the scored hand's base points and elements. Raises
    :class:`HandError` when pao cannot apply (no Dai sangen / Dai suushii, the fed set not called,
    the liable seat is the winner). The riichi sticks from the table are kept as they are.
    """
    winner = hand.context.seat_wind
    if liable not in SEATS:
        raise HandError(f"pao must name the liable seat E, S, W or N, not {liable!r}")
    if liable == winner:
        raise HandError("pao: the liable player cannot be the winner")
    row = liability_for(hand, elements)
    if row is None:
        raise HandError(
            "pao applies only to Dai sangen or Dai suushii whose third dragon / fourth "
            "wind set was called (exposed) from the liable player's discard"
        )
    value = up100((6 if winner == "E" else 4) * base)  # the ron-equivalent
    counters = HONBA_RON * hand.context.honba
    sticks = [p for p in payments if p.payer == TABLE]
    if hand.context.self_drawn:
        out = [Payment(liable, winner, value, FOR_PAO)]
        counter_payer = liable
    else:
        discarder = hand.context.discarder
        if discarder not in SEATS:
            raise HandError("pao on a discard win needs the discarder's seat")
        if discarder == liable:
            return list(payments), row
        out = [Payment(discarder, winner, value // 2, FOR_HAND), Payment(liable, winner, value // 2, FOR_PAO)]
        counter_payer = discarder
    if counters:
        out.append(Payment(counter_payer, winner, counters, FOR_COUNTERS))
    return out + sticks, row
