"""Every vector of ../shared/rules/riichi.md, read at test time (skipped when ../shared is absent).

Where a vector contradicts the seed, the seed wins: OVERRIDES lists the vector id, what the vector
says, what the seed says (section and quote) and the expected values the test uses instead.
"""

from __future__ import annotations

from typing import Any

import pytest

from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from tests.spec_vectors import hand_form, vector_params

#: vector id → (why, replacement for parts of ``expected``)
OVERRIDES: dict[str, tuple[str, dict[str, Any]]] = {}


@pytest.mark.parametrize("vector", vector_params("riichi"))
def test_riichi_vector(vector: dict[str, Any]) -> None:
    expected = dict(vector["expected"])
    if vector["id"] in OVERRIDES:
        expected.update(OVERRIDES[vector["id"]][1])
    result = score_hand(hand_from_dict(hand_form(vector)), "riichi")
    assert result.valid == (expected["points"] is not None), result.error
    assert result.details["points"] == expected["points"]
    assert result.details["han"] == expected["han"]
    assert result.details["fu"] == expected["fu"]
    assert result.elements == expected["elements"]
    if not result.valid:
        assert result.error  # a precise reason, never an empty string
