"""Settlement of a won MCR hand (seed Introduction, §3.8, §3.9 (16)(17), element 42; spec §5.1).

"Al valore della mano si aggiungono 8 punti di bonus": on a discard the discarder pays the hand's
value V (flowers included) + 8 and the other two pay 8; on a self-draw each of the three pays
V + 8. A robbed kong is paid by its owner as a discard (el. 42); replacement-tile wins are
self-draws (A32). Every settlement sums to zero.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.payments import DISCARDER, FOR_BASE, FOR_HAND, OTHER, SEATS, Payment

BASE = 8


def settlement(hand: Hand, value: int) -> list[Payment]:
    """Who pays the winner what: the hand's value V from the discarder (from each player on a
    self-draw) and the 8-point base from every other player.

    The discarder's seat comes from the structured input's ``discarder`` (E/S/W/N; the robbed
    player for Robbing the Kong). Without it a discard win is paid by ``discarder`` and twice by
    ``other`` (the seats are not known).
    """
    winner = hand.context.seat_wind
    others = [w for w in SEATS if w != winner]
    if hand.context.self_drawn:
        return [
            p
            for w in others
            for p in (Payment(w, winner, value, FOR_HAND), Payment(w, winner, BASE, FOR_BASE))
        ]
    discarder = hand.context.discarder
    if discarder is None:
        return [
            Payment(DISCARDER, winner, value, FOR_HAND),
            *(Payment(who, winner, BASE, FOR_BASE) for who in (DISCARDER, OTHER, OTHER)),
        ]
    out = [Payment(str(discarder), winner, value, FOR_HAND)]
    out += [Payment(w, winner, BASE, FOR_BASE) for w in others]
    return out


def discarder_error(hand: Hand) -> str | None:
    """Why the ``discarder`` field cannot be used, or None."""
    discarder = hand.context.discarder
    if discarder is None:
        return None
    if hand.context.self_drawn:
        return "discarder is given but the hand was self-drawn"
    if discarder not in SEATS:
        return f"discarder must be the seat wind E, S, W or N of the player who discarded, not {discarder!r}"
    if discarder == hand.context.seat_wind:
        return f"discarder {discarder} is the winner's own seat"
    return None
