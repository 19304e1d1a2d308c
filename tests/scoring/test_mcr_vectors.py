"""The MCR spec's vectors (``../shared/rules/mcr.md``), read at test time, plus the seed's payments."""

from __future__ import annotations

from typing import Any

import pytest

from mahjong_camera_scorer.scoring.payments import net_by_seat
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from tests.spec_vectors import hand_form, load_vectors, vector_params

#: Vectors whose note names an equal-value alternative labelling (spec §8.2: "When a hand has
#: equal-value alternatives ... the note says so"). The engine's deterministic choice is accepted
#: beside the vector's; the total and every other element must still match.
EQUAL_VALUE_ALTERNATIVES: dict[str, dict[str, int]] = {
    # note: "Mixed Double Chow (with 123m) OR Two Terminal Chows (with 789s), 1 point either way"
    "mcr-e11b-no-wait-1234": {
        "Mixed Straight": 8,
        "All Chows": 2,
        "Concealed Hand": 2,
        "Two Terminal Chows": 1,
    },
}


@pytest.mark.parametrize("vector", vector_params("mcr"))
def test_vector(vector: dict[str, Any]) -> None:
    score = score_hand(hand_from_dict(hand_form(vector)), "mcr")
    expected = vector["expected"]
    assert score.total == expected["total"], score.render()
    accepted = [expected["elements"], EQUAL_VALUE_ALTERNATIVES.get(vector["id"])]
    assert score.elements in accepted, score.render()
    assert score.unit == expected["unit"]
    # "Vectors with ids starting mcr-invalid- are not legal wins" (spec §8.2)
    assert score.valid is not vector["id"].startswith("mcr-invalid-"), score.render()
    if not score.valid:
        without = expected["total"] - expected["elements"].get("Flower Tiles", 0)
        assert score.error == f"not a legal win: only {without} points without flowers; MCR needs 8"


def test_alternatives_name_real_vectors() -> None:
    ids = {v["id"] for v in load_vectors("mcr")}
    if not ids:
        pytest.skip("../shared/rules/mcr.md not available")
    assert set(EQUAL_VALUE_ALTERNATIVES) <= ids


#: The seed's own settlements (spec §5.1 "Seed checks"): Figure 5 "each opponent pays 8+8 = 16",
#: Figure 6 "Chi ha scartato la pedina vincente perde 17 punti, gli altri due avversari perdono 8
#: punti e il vincitore della mano guadagna 17+8+8=33 punti", Figure 8 22+8+8 and 3 × 23.
SEED_SETTLEMENTS = {
    "mcr-fig5-fully-concealed-closed-wait": {"S": 48, "E": -16, "W": -16, "N": -16},
    "mcr-fig6-concealed-exclusion-principle": {"S": 33, "E": -17, "W": -8, "N": -8},
    "mcr-fig8-discard": {"S": 38, "E": -8, "W": -22, "N": -8},
    "mcr-fig8-self-drawn": {"S": 69, "E": -23, "W": -23, "N": -23},
}


@pytest.mark.parametrize("vector_id", sorted(SEED_SETTLEMENTS))
def test_seed_settlements(vector_id: str) -> None:
    vectors = {v["id"]: v for v in load_vectors("mcr")}
    if vector_id not in vectors:
        pytest.skip("../shared/rules/mcr.md not available")
    data = hand_form(vectors[vector_id])
    expected = SEED_SETTLEMENTS[vector_id]
    if data["win_by"] == "discard":
        data["discarder"] = min(expected, key=expected.__getitem__)
    score = score_hand(hand_from_dict(data), "mcr")
    assert net_by_seat(score.payments) == {w: expected[w] for w in "ESWN"}
    assert {p.payee for p in score.payments} == {data["seat_wind"]}
