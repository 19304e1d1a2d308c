"""Each Zung Jung option: its documented default and what its alternative changes."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.payments import paid_by
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.zung_jung import OPTIONS, responsible_player

ZJ = "zung-jung"

#: The spec's defaults (§5.3, §5.4, §6). Every option must be listed here and tested below.
SPEC_DEFAULTS = {
    "flowers": "yes",
    "bonus_values": "full",
    "bonus_points": "pattern",
    "four_flowers_and_seasons": "both",
    "discard_pung_assignment": "free",
    "nine_gates": "wait",
    "robbing_kong_win": "discard",
    "immunity_before_first_discard": "hand_start",
}

ALL_SEQUENCES = "345m789s2p [123m] [567p] ron 2p"  # zj-all-sequences: 5 points


def _score(text: str, **options: str):
    return score_hand(parse_hand(text), ZJ, options)


def test_defaults_are_the_spec_defaults() -> None:
    assert {name: o.default for name, o in OPTIONS.items()} == SPEC_DEFAULTS
    for o in OPTIONS.values():
        assert o.default in o.choices and len(o.choices) >= 2 and o.help


def test_flowers() -> None:
    assert _score(ALL_SEQUENCES + " seat=E 2f").total == 7
    refused = _score(ALL_SEQUENCES + " 2f", flowers="no")
    assert not refused.valid and "flowers=no" in refused.error
    assert _score(ALL_SEQUENCES, flowers="no").total == 5


def test_bonus_values_half() -> None:
    """Seed §11 note: 'dimezzare tutti i valori sopra elencati' (West holding all four flowers)."""
    text = ALL_SEQUENCES + " seat=W 1f2f3f4f"
    assert _score(text).total == 25
    half = _score(text, bonus_values="half")
    assert half.elements == {
        "All Sequences": 5,
        "Seat Flower or Season": 2,
        "Non-seat Flower or Season": 3,
        "Four Flowers": 5,
    }
    assert half.total == 15


def test_bonus_points_extra_with_chicken_hand() -> None:
    text = "34p44z [123m] [555p] [678s] ron 2p seat=E 3f"  # zj-trap-flower-only-hand
    assert _score(text).elements == {"Non-seat Flower or Season": 2}
    extra = _score(text, bonus_points="extra")
    assert extra.elements == {"Chicken Hand": 1, "Non-seat Flower or Season": 2}
    assert extra.total == 3


def test_bonus_points_extra_above_listed_and_compound_limits() -> None:
    big_four_winds = "44z99m [111z] [222z] [333z] tsumo 4z seat=E 1f"
    assert _score(big_four_winds).total == 400
    assert _score(big_four_winds, bonus_points="extra").total == 404
    compound = "11122233355m99m tsumo 5m seat=E 5f"  # zj-trap-compound-limit (raw 340) + own season
    assert _score(compound).total == 320
    assert _score(compound, bonus_points="extra").total == 324


def test_four_flowers_and_seasons_one() -> None:
    text = ALL_SEQUENCES + " seat=E 1f2f3f4f5f6f7f8f"  # zj-trap-all-eight-bonus-tiles
    assert _score(text).total == 45
    one = _score(text, four_flowers_and_seasons="one")
    assert one.total == 35
    assert len({"Four Flowers", "Four Seasons"} & one.elements.keys()) == 1


def test_discard_pung_assignment_pung_first() -> None:
    text = "11123m555p777s88s ron 1m seat=E"  # zj-trap-winning-tile-assignment
    assert _score(text).elements == {"Three Concealed Triplets": 30, "Concealed Hand": 5}
    forced = _score(text, discard_pung_assignment="pung_first")
    assert forced.elements == {"Two Concealed Triplets": 5, "Concealed Hand": 5}
    assert forced.details["arrangement"] == "111m*(exposed) 123m 555p 777s 88s"
    # a self-drawn winning tile exposes nothing, whatever the option
    drawn = "11123m555p777s88s tsumo 1m seat=E"
    assert _score(drawn, discard_pung_assignment="pung_first").total == _score(drawn).total


def test_nine_gates_tiles() -> None:
    text = "1122345678999m tsumo 1m seat=E"  # zj-trap-not-nine-gates
    assert _score(text).total == 90
    assert _score(text, nine_gates="tiles").elements == {"Nine Gates": 480}
    assert _score("1122345678999m tsumo 5p seat=E", nine_gates="tiles").valid is False


def test_robbing_kong_win_self_draw() -> None:
    hand = parse_hand("78m123m456m11z [222z] ron 9m robbing_kong seat=E")
    hand = hand.with_context(discarder="S")
    default = score_hand(hand, ZJ)
    value = default.total
    assert value > 25
    assert paid_by(default.payments) == {"S": 3 * value - 50, "W": 25, "N": 25}
    as_draw = score_hand(hand, ZJ, {"robbing_kong_win": "self_draw"})
    assert as_draw.total == value
    assert paid_by(as_draw.payments) == {"S": value, "W": value, "N": value}


def test_immunity_before_first_discard() -> None:
    window = ["E:3s", "S:5z"]  # the winner (W) has not discarded yet in this hand
    assert responsible_player("W", "N", "3s", window) == "E"
    assert responsible_player("W", "N", "3s", window, immunity_before_first_discard="discarder") == "N"
    # a window opened by the winner's own discard is unaffected by the option
    assert (
        responsible_player("W", "N", "3s", ["W:7m", *window], immunity_before_first_discard="discarder")
        == "E"
    )
    hand = parse_hand("67p66z [777z] [555z] [234m] ron 8p seat=W")  # zj-seed-small-three-dragons: 60
    hand = hand.with_context(discarder="N", discards_in_window=("E:8p", "S:5z"))
    assert paid_by(score_hand(hand, ZJ).payments) == {"E": 130, "S": 25, "N": 25}
    chosen = score_hand(hand, ZJ, {"immunity_before_first_discard": "discarder"})
    assert paid_by(chosen.payments) == {"E": 25, "S": 25, "N": 130}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"no_such_option": "yes"}, "unknown option"),
        ({"nine_gates": "maybe"}, "takes one of wait, tiles"),
    ],
)
def test_bad_options_are_reported(options: dict[str, str], message: str) -> None:
    result = _score(ALL_SEQUENCES, **options)
    assert not result.valid and message in result.error


def test_options_in_the_hand_itself() -> None:
    assert _score("1122345678999m tsumo 1m option:nine_gates=tiles").total == 480
