"""The structured form (spec vectors' fields) ↔ Hand."""

import pytest
from hypothesis import given, settings

from scoring.hand import HandError, check_tiles
from scoring.structured import hand_from_dict, hand_to_dict, parse_document
from scoring.tiles import tile
from tests.scoring.hand_strategies import hands


@settings(max_examples=200, deadline=None)
@given(hands())
def test_dict_round_trip(hand):
    assert hand_from_dict(hand_to_dict(hand)) == hand


def test_vector_fields_and_extra_keys_are_kept():
    h = hand_from_dict(
        {
            "hand": "55p123456789s",
            "melds": [{"type": "chow", "tiles": "234m", "open": True}],
            "winning_tile": "9s",
            "win_by": "discard",
            "seat_wind": "S",
            "round_wind": "E",
            "flags": ["riichi"],
            "dora_indicators": ["6s"],
            "ura_dora_indicators": [],
            "honba": 1,
            "bonus_tiles": ["1f"],
            "role": "winner",
            "discarder": "W",
        }
    )
    assert h.winning_tile == tile("9s") and h.melds[0].kind == "chow" and h.honba == 1
    assert dict(h.extra) == {"role": "winner", "discarder": "W"}
    assert hand_to_dict(h)["discarder"] == "W"


def test_yaml_and_json_documents():
    assert parse_document('{"hand": "11m"}') == {"hand": "11m"}
    assert parse_document("hand: 11m\nmelds: []\n") == {"hand": "11m", "melds": []}
    with pytest.raises(HandError, match="not valid JSON or YAML"):
        parse_document("{hand: [")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object"),
        ({"hand": "11m", "win_by": "teleport"}, "win_by must be"),
        ({"hand": "11m", "seat_wind": "Q"}, "seat_wind must be"),
        ({"hand": "11m", "melds": ["123m"]}, r"melds\[0\]"),
        ({"hand": "11m", "melds": [{"type": "pung", "tiles": "123m"}]}, "not a pung"),
        ({"hand": "11m", "melds": [{"type": "set", "tiles": "111m"}]}, "meld type must be"),
        ({"hand": "11q"}, "unexpected character"),
        ({"hand": "11m", "winning_tile": 5}, "winning_tile must be"),
        ({"hand": "11m", "honba": "two"}, "whole numbers"),
        ({"hand": "11m", "options": ["x"]}, "options must be"),
    ],
)
def test_bad_input_has_a_precise_message(data, message):
    with pytest.raises(HandError, match=message):
        hand_from_dict(data)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"hand": "11111m"}, "5 copies of 1m"),
        ({"hand": "1111m", "melds": [{"type": "pung", "tiles": "111m"}]}, "7 copies of 1m"),
        ({"hand": "00m"}, "2 red fives 0m"),
        ({"hand": "11m", "winning_tile": "2m"}, "winning tile 2m is not among"),
        ({"hand": "50p", "winning_tile": "0p"}, None),
        ({"hand": "55p", "winning_tile": "0p"}, "winning tile 0p is not among"),
        ({"hand": "11m1f"}, "flower or season is among"),
        ({"hand": "11m?"}, "face-down tile"),
        ({"hand": "11m", "bonus_tiles": ["1m"]}, "not a flower or season"),
    ],
)
def test_check_tiles(data, reason):
    result = check_tiles(hand_from_dict(data))
    if reason is None:
        assert result is None
    else:
        assert reason in result
