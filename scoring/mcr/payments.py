"""Settlement of a won MCR hand (seed Introduction, §3.8, §3.9 (16)(17), element 42; spec §5.1).

"Al valore della mano si aggiungono 8 punti di bonus": on a discard the discarder pays the hand's
value V (flowers included) + 8 and the other two pay 8; on a self-draw each of the three pays
V + 8. A robbed kong is paid by its owner as a discard (el. 42); replacement-tile wins are
self-draws (A32). Every settlement sums to zero.
"""

from __future__ import annotations

from typing import Any

from scoring.hand import WINDS, Hand

BASE = 8


def settlement(hand: Hand, value: int) -> dict[str, Any]:
    """Net amounts by seat, or by role when the discarder's seat is not known.

    The discarder's seat comes from the structured input's ``discarder`` (E/S/W/N; the robbed
    player for Robbing the Kong). Without it a discard win is given as ``winner``,
    ``from_discarder`` and ``from_each_other``.
    """
    winner = hand.seat_wind
    others = [w for w in WINDS if w != winner]
    if hand.self_drawn:
        out = {w: -(value + BASE) for w in others}
        out[winner] = 3 * (value + BASE)
        return {w: out[w] for w in WINDS}
    discarder = hand.extra.get("discarder")
    if discarder is None:
        return {"winner": value + 3 * BASE, "from_discarder": value + BASE, "from_each_other": BASE}
    out = {w: -BASE for w in others}
    out[str(discarder)] = -(value + BASE)
    out[winner] = value + 3 * BASE
    return {w: out[w] for w in WINDS}


def discarder_error(hand: Hand) -> str | None:
    """Why the ``discarder`` field cannot be used, or None."""
    discarder = hand.extra.get("discarder")
    if discarder is None:
        return None
    if hand.self_drawn:
        return "discarder is given but the hand was self-drawn"
    if discarder not in WINDS:
        return f"discarder must be the seat wind E, S, W or N of the player who discarded, not {discarder!r}"
    if discarder == hand.seat_wind:
        return f"discarder {discarder} is the winner's own seat"
    return None
