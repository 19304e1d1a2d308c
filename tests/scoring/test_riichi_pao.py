"""Liability (pao), spec riichi §5.6 and §8 A7: the worked example and each row of the table."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.notation import format_hand, parse_hand
from mahjong_camera_scorer.scoring.payments import paid_by
from mahjong_camera_scorer.scoring.riichi.pao import LIABILITIES, liable_payments
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict

# Dai sangen with all three dragon pungs called (the third fed by the liable player)
DAI_SANGEN = {
    "hand": "234m55p",
    "melds": [
        {"type": "pung", "tiles": "555z"},
        {"type": "pung", "tiles": "666z"},
        {"type": "pung", "tiles": "777z"},
    ],
    "winning_tile": "5p",
}
DAI_SUUSHII = {
    "hand": "55p",
    "melds": [{"type": "pung", "tiles": t} for t in ("111z", "222z", "333z", "444z")],
    "winning_tile": "5p",
}


def _pay(data: dict, liable: str, **ctx: object) -> dict[str, int]:
    """What each seat pays when the scorer is told the liable seat (``pao``), the public path."""
    score = score_hand(hand_from_dict({**data, **ctx, "pao": liable}), "riichi")
    assert score.valid, score.error
    assert {p.payee for p in score.payments} == {ctx["seat_wind"]}
    return paid_by(score.payments)


def test_worked_example_shared_ron() -> None:
    # "a non-dealer wins Dai sangen on Y's discard after X fed the third dragon pung: Y pays 16,000, X 16,000"
    assert _pay(DAI_SANGEN, "N", seat_wind="S", win_by="discard", discarder="W") == {"W": 16000, "N": 16000}


def test_self_draw_liable_pays_everything() -> None:
    assert _pay(DAI_SANGEN, "N", seat_wind="S", win_by="self_draw") == {"N": 32000}
    assert _pay(DAI_SANGEN, "N", seat_wind="E", win_by="self_draw") == {"N": 48000}


def test_liable_discarder_pays_as_a_normal_ron() -> None:
    assert _pay(DAI_SANGEN, "W", seat_wind="S", win_by="discard", discarder="W") == {"W": 32000}


def test_counters_follow_a7() -> None:
    # shared ron: the discarder alone pays the counters; self-draw: the liable player, 300 each
    assert _pay(DAI_SANGEN, "N", seat_wind="S", win_by="discard", discarder="W", honba=2) == {
        "W": 16600,
        "N": 16000,
    }
    assert _pay(DAI_SANGEN, "N", seat_wind="S", win_by="self_draw", honba=2) == {"N": 32600}


def test_dai_suushii_is_the_double_yakuman_row() -> None:
    assert [row.yakuman for row in LIABILITIES] == ["Dai sangen", "Dai suushii"]
    assert _pay(DAI_SUUSHII, "E", seat_wind="S", win_by="self_draw") == {"E": 64000}
    assert _pay(DAI_SUUSHII, "E", seat_wind="S", win_by="discard", discarder="W") == {"W": 32000, "E": 32000}


def test_pao_rows_say_what_they_pay_for() -> None:
    score = score_hand(
        hand_from_dict(
            {**DAI_SANGEN, "seat_wind": "S", "discarder": "W", "pao": "N", "honba": 1, "riichi_sticks": 1}
        ),
        "riichi",
    )
    assert [(p.payer, p.amount, p.reason) for p in score.payments] == [
        ("W", 16000, "hand"),
        ("N", 16000, "pao"),
        ("W", 300, "counters"),
        ("table", 1000, "riichi sticks"),
    ]
    assert "N pays S 16000 [pao: Dai sangen, seed 3.3.6 terzo tris/poker di drago]" in score.notes
    # the hand's value is unchanged: pao only re-divides who pays it
    assert score.details["points"] == {"ron": 32300}


def test_pao_in_the_notation_round_trips() -> None:
    hand = parse_hand("234m5p [555z] [666z] [777z] tsumo 5p seat=S pao=N")
    assert hand.context.pao == "N" and "pao=N" in format_hand(hand)
    assert parse_hand(format_hand(hand)) == hand
    assert paid_by(score_hand(hand, "riichi").payments) == {"N": 32000}


def test_no_liability_when_the_winning_tile_completes_the_set() -> None:
    # the third dragon pung completed by the winning discard is not a called set (A7, A28)
    data = {"hand": "234m55p777z", "melds": DAI_SANGEN["melds"][:2], "winning_tile": "7z"}
    hand = hand_from_dict({**data, "seat_wind": "S", "win_by": "discard", "discarder": "W"})
    score = score_hand(hand, "riichi")
    assert score.valid and "Dai sangen" in score.elements
    with pytest.raises(HandError, match="called"):
        liable_payments(hand, score.details["base_points"], score.elements, "N", score.payments)
    claimed = score_hand(hand.with_context(pao="N"), "riichi")
    assert not claimed.valid and "called" in (claimed.error or "")


def test_liable_player_cannot_be_the_winner() -> None:
    hand = hand_from_dict({**DAI_SANGEN, "seat_wind": "S", "win_by": "self_draw"})
    score = score_hand(hand, "riichi")
    with pytest.raises(HandError, match="winner"):
        liable_payments(hand, score.details["base_points"], score.elements, "S", score.payments)
    claimed = score_hand(hand.with_context(pao="S"), "riichi")
    assert not claimed.valid and "pao" in (claimed.error or "")
    with pytest.raises(HandError, match="pao"):  # no seat at all: refused as the situation is made
        hand.with_context(pao="X")
