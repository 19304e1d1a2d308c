"""Every vector of ``../shared/rules/zung-jung.md`` (read at test time), hands and settlements.

Hand vectors go through the public path (structured form → ``score_hand``); settlement vectors
(``winner``, ``win_by``, ``hand_value``, ``responsible``…) go through the pure payment functions.

Overrides (vector ↔ seed contradictions, seed wins): none. Every vector was checked against the
seed; the spec's [ZJ]/[DEFAULT] choices they rely on are options, tested in
``test_zung_jung_options.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from mahjong_camera_scorer.scoring.payments import net_by_seat, paid_by
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.scoring.zung_jung import responsible_player, settle
from tests.spec_vectors import hand_form, load_vectors, vector_params

#: vector id → (what the vector says, what the seed says). Empty: no vector contradicts the seed.
OVERRIDES: dict[str, tuple[str, str]] = {}


def _hand(v: dict[str, Any]):
    return hand_from_dict(hand_form(v))


@pytest.mark.parametrize("vector", vector_params("zung-jung"))
def test_vector(vector: dict[str, Any]) -> None:
    assert vector["id"] not in OVERRIDES
    expected = vector["expected"]
    if "hand" not in vector:
        _check_settlement(vector)
        return
    result = score_hand(_hand(vector), "zung-jung")
    assert result.valid, result.error
    assert result.elements == expected["elements"]
    assert result.total == expected["total"]
    assert result.unit == expected["unit"]


def _check_settlement(v: dict[str, Any]) -> None:
    if v["win_by"] == "self_draw":
        responsible = None
    else:
        responsible = responsible_player(
            v["winner"], v["discarder"], v.get("winning_tile"), v.get("discards_in_window")
        )
    assert responsible == v["responsible"]
    payments = settle(v["winner"], v["win_by"], v["hand_value"], responsible)
    assert {p.payee for p in payments} == {v["winner"]}
    assert paid_by(payments) == v["expected"]["payments"]
    assert sum(p.amount for p in payments) == v["expected"]["winner_receives"] == 3 * v["hand_value"]


def _vector(vid: str) -> dict[str, Any]:
    found = [v for v in load_vectors("zung-jung") if v["id"] == vid]
    if not found:
        pytest.skip("../shared/rules/zung-jung.md not available")
    return found[0]


@pytest.mark.parametrize(
    ("hand_id", "pay_id"),
    [
        ("zj-blessing-of-earth", "zj-pay-blessing-of-earth"),
        ("zj-trap-par-25-concealed", "zj-pay-par-25"),
    ],
)
def test_hand_and_settlement_vectors_agree(hand_id: str, pay_id: str) -> None:
    """score() settles the hand itself when told who discarded, as the settlement vector does."""
    hand_v, pay_v = _vector(hand_id), _vector(pay_id)
    data = hand_form(hand_v)
    data.update(seat_wind=pay_v["winner"], discarder=pay_v["discarder"])
    result = score_hand(hand_from_dict(data), "zung-jung")
    assert result.total == pay_v["hand_value"]
    assert paid_by(result.payments) == pay_v["expected"]["payments"]
    assert net_by_seat(result.payments)[pay_v["winner"]] == pay_v["expected"]["winner_receives"]


def test_every_self_draw_vector_is_paid_by_all() -> None:
    """Seed SCHEMA DI PAGAMENTO 3: on a self-draw each of the three pays the value."""
    hands = [v for v in load_vectors("zung-jung") if v.get("win_by") == "self_draw" and "hand" in v]
    if not hands:
        pytest.skip("../shared/rules/zung-jung.md not available")
    for v in hands:
        result = score_hand(_hand(v), "zung-jung")
        total = v["expected"]["total"]
        assert set(paid_by(result.payments).values()) == {total}, v["id"]
        assert len(result.payments) == 3 and v["seat_wind"] not in paid_by(result.payments)
