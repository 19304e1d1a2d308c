"""The one place where the session reads a hand's settlement: :func:`hand_payments`.

Every rule system says who pays whom in :attr:`scoring.result.Score.payments` (pao included: the
session passes the liable seat to the riichi scorer with the hand), so the session never looks
inside a system's details. Riichi sticks are the one thing it leaves out: the session keeps the
sticks on the table itself, from the declarations it books.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.payments import TABLE, Payment, between_seats
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.session.model import SessionError


def hand_payments(score: Score) -> list[Payment]:
    """Who pays whom (seat winds) for this scored, valid hand, riichi sticks from the table left
    out; a :class:`SessionError` when the score could not name every payer's seat."""
    pays = [p for p in score.payments if p.payer != TABLE]
    if not pays:
        raise SessionError(
            f"the {score.rules} payment needs the discarder's seat"
            + (" (or 'responsible')" if score.rules == "zung-jung" else "")
        )
    if not between_seats(pays):
        raise SessionError(f"the {score.rules} payment needs the discarder's seat")
    return pays
