"""``Score.payments``: one typed list of who pays whom under all five systems (scoring/payments.py)."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.scoring.australian import score_table as australian_table
from mahjong_camera_scorer.scoring.classical import score_table as classical_table
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.payments import Payment, between_seats, net_by_seat, paid_by
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import score_hand

#: one won hand per single-hand system, the discarder's seat given; then the two table systems
HANDS = {
    "mcr": "123m456p789s5556z ron 6z seat=S discarder=W",
    "riichi": "234m55p12345678s ron 9s seat=S riichi discarder=W honba=1 sticks=1",
    "zung-jung": "11123m555p777s88s ron 1m seat=E discarder=S",
}
TABLE = {
    "players": {
        "E": {"role": "loser", "score": 160},
        "S": {"role": "winner", "score": 288},
        "W": {"role": "loser", "score": 0},
        "N": {"role": "loser", "score": 4},
    }
}
#: what each system used to put in ``details`` for its payments, each in its own shape
OLD_SHAPES = ("settlement", "winner_receives", "payments", "matrix")


def _scores() -> dict[str, Score]:
    out = {rules: score_hand(parse_hand(text), rules) for rules, text in HANDS.items()}
    out["australian"] = australian_table(TABLE, {})
    out["classical"] = classical_table({"scores": {"E": 160, "S": 288, "W": 0, "N": 4}, "winners": ["S"]}, {})
    return out


@pytest.mark.parametrize("rules", [*HANDS, "australian", "classical"])
def test_every_system_pays_in_the_one_shape(rules: str) -> None:
    score = _scores()[rules]
    assert score.valid, score.error
    assert score.payments and all(type(p) is Payment for p in score.payments)
    assert all(p.amount > 0 and p.reason for p in score.payments)
    assert not set(OLD_SHAPES) & set(score.details)
    out = score.to_json()
    assert out["payments"] == [p.as_dict() for p in score.payments]
    assert {key for row in out["payments"] for key in row} == {"from", "to", "amount", "for"}
    winner = "E" if rules == "zung-jung" else "S"
    net = net_by_seat(p for p in score.payments if p.payer != "table")
    assert sum(net.values()) == 0 and max(net, key=net.__getitem__) == winner


def test_the_winner_collects_what_the_notes_say() -> None:
    scores = _scores()
    assert net_by_seat(scores["mcr"].payments)["S"] == 13 + 3 * 8
    riichi = scores["riichi"]
    assert paid_by(riichi.payments) == {"W": riichi.details["points"]["ron"], "table": 1000}
    assert net_by_seat(scores["zung-jung"].payments)["E"] == 105
    assert net_by_seat(scores["australian"].payments) == {"E": 200, "S": 1200, "W": -700, "N": -700}


def test_an_invalid_hand_pays_nothing() -> None:
    bad = score_hand(parse_hand("123m456p789s5556z ron 7z seat=S"), "mcr")
    assert not bad.valid and bad.payments == [] and bad.to_json()["payments"] == []


def test_net_and_parties() -> None:
    pays = [Payment("E", "S", 100, "hand"), Payment("table", "S", 1000, "riichi sticks")]
    pays.append(Payment("W", "pot", 50))
    assert net_by_seat(pays) == {"E": -100, "S": 1100, "W": -50, "N": 0}
    assert between_seats(pays)
    assert not between_seats([Payment("discarder", "S", 100)])
    assert paid_by([Payment("E", "S", 100), Payment("W", "S", 5), Payment("E", "S", 1)]) == {"E": 101, "W": 5}
    assert str(pays[0]) == "E→S 100"
    assert Payment("E", "S", 1).as_dict() == {"from": "E", "to": "S", "amount": 1}
