"""The structured form (spec vectors' fields) ↔ Hand."""

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.hand import HandError, Jokers, check_tiles
from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS, score_hand, scorer
from mahjong_camera_scorer.scoring.structured import hand_from_dict, hand_to_dict, parse_document, parse_json
from mahjong_camera_scorer.scoring.tiles import tile
from tests.scoring.hand_strategies import hands


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(hands())
def test_dict_round_trip(hand):
    assert hand_from_dict(hand_to_dict(hand)) == hand


def test_vector_fields_and_the_situations_keys_are_typed():
    """What was an untyped ``extra`` (the role, the discarder) is the situation's own typed field."""
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
    assert h.context.winning_tile == tile("9s") and h.melds[0].kind == "chow" and h.context.honba == 1
    assert (h.context.role, h.context.discarder) == ("winner", "W")
    assert hand_to_dict(h)["discarder"] == "W"


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"hand": "234m55p123456789s", "winning_tile": "9s", "flag": ["riichi"]}, "flag"),
        ({"hand": "234m55p123456789s", "winning_tile": "9s", "dora_indicator": ["1z"]}, "dora_indicator"),
        ({"hand": "11m", "melds": [{"type": "pung", "tiles": "111z", "opne": False}]}, "opne"),
        ({"hand": "11m", "jokers": []}, "jokers"),  # derived from the melds, never read
    ],
)
def test_a_key_nobody_reads_is_refused_with_the_known_keys(data, key):
    """``flag: [riichi]`` for ``flags`` was dropped in silence: 4 han instead of 5 (issue 36 item 4)."""
    with pytest.raises(UnknownKeyError, match=f"unknown key '{key}' \\(known keys: ") as err:
        hand_from_dict(data)
    assert ("win_by" in str(err.value)) is (key != "opne") and "\n" not in str(err.value)


@pytest.mark.slow
def test_yaml_and_json_documents():
    assert parse_document('{"hand": "11m"}') == {"hand": "11m"}
    assert parse_document("hand: 11m\nmelds: []\n") == {"hand": "11m", "melds": []}
    with pytest.raises(HandError, match="not valid JSON or YAML"):
        parse_document("{hand: [")
    for deep in ("[" * 100_000 + "]" * 100_000, "a: " + "[" * 100_000):
        with pytest.raises(HandError, match="nested too deeply"):
            parse_document(deep)
    with pytest.raises(HandError, match="nested too deeply"):
        parse_json('{"a":' * 100_000 + "1" + "}" * 100_000)
    with pytest.raises(HandError, match=re.escape("not valid JSON: Expecting value: line 1 column 1")):
        parse_json("hand: 11m")


def test_joker_melds_are_read_and_written_back_as_shown():
    data = {
        "hand": "111m44z",
        "melds": [{"type": "pung", "tiles": "5m2s2s"}, {"type": "kong", "tiles": ["2s", "7z", "2s", "7z"]}],
        "winning_tile": "4z",
        "flags": ["goulash", "jokers"],
    }
    hand = hand_from_dict(data)
    assert [m.code for m in hand.melds] == ["555m", "7777z"]
    assert hand.jokers == (Jokers(meld=0, count=2, shown="5m"), Jokers(meld=1, count=2, shown="77z"))
    back = hand_to_dict(hand)
    assert [m["tiles"] for m in back["melds"]] == ["5m22s", "22s77z"] and "jokers" not in back
    assert hand_from_dict(back) == hand
    # without the flag the 2s are plain tiles, and the meld is not a pung
    with pytest.raises(HandError, match="not a pung"):
        hand_from_dict({**data, "flags": ["goulash"]})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be an object"),
        ({"hand": "11m", "win_by": "teleport"}, "win_by must be"),
        ({"hand": "11m", "seat_wind": "Q"}, "seat_wind must be"),
        ({"hand": "11m", "seat_wind": "ſ"}, "seat_wind must be"),
        ({"hand": "11m", "melds": ["123m"]}, r"melds\[0\]"),
        ({"hand": "11m", "melds": [{"type": "pung", "tiles": "123m"}]}, "not a pung"),
        ({"hand": "11m", "melds": [{"type": "set", "tiles": "111m"}]}, "meld type must be"),
        ({"hand": "11q"}, "unexpected character"),
        ({"hand": "11m", "winning_tile": 5}, "winning_tile: expected text"),
        ({"hand": "11m", "honba": "two"}, "honba must be a whole number"),
        ({"hand": "11m", "options": ["x"]}, "options must be"),
        ({"melds": 5}, "melds: expected a list, got int 5"),
        ({"hand": "11m", "melds": [{"type": 3, "tiles": "111m"}]}, r"melds\[0\]\.type"),
        ({"hand": "11m", "flags": "riichi" * 100}, "too long"),
        ({"hand": "11m", "flags": ["riichi"] * 65}, "65 items"),
        ({"hand": "11m", "honba": True}, "honba must be a whole number from 0 to 100, not True"),
        ({"hand": "11m", "riichi_sticks": 101}, "riichi_sticks must be"),
        ({"hand": "11m", "win_by": ["tsumo"]}, "win_by: expected text"),
        ({"hand": "11m", "options": {"limit": {"a": 1}}}, "not NAME: value"),
        ({"hand": "11m", "pao": 3}, "pao: expected text"),
        ({"hand": "11m", "melds": [{"type": "pung", "tiles": "5m2s3s"}], "flags": ["jokers"]}, "even with"),
        ({"hand": list(range(100))}, "100 items"),
        ({"hand": "11m", "melds": [[[[1]]] * 99]}, re.escape("got [[...], [...], [...], [...], ...]") + "$"),
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


# -- fuzzing: any JSON-like value either reads as a hand every system scores, or is a HandError --
_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(),
    st.text(max_size=6),
    st.sampled_from(["123m", "5m2s2s", "E", "S", "discard", "self_draw", "pung", "kong", "riichi", "jokers"]),
)
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from(["type", "tiles", "open", "limit", "x"]), inner, max_size=3),
    ),
    max_leaves=10,
)
_KEYS = [
    "hand",
    "melds",
    "winning_tile",
    "win_by",
    "seat_wind",
    "round_wind",
    "bonus_tiles",
    "flags",
    "dora_indicators",
    "ura_dora_indicators",
    "honba",
    "riichi_sticks",
    "options",
    "discarder",
    "pao",
    "role",
    "responsible",
    "discards_in_window",
    "jokers",
]
_WON = {"hand": "123m456p789s1122z", "winning_tile": "2z"}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from(_KEYS), _VALUE, max_size=8),
    st.booleans(),
    st.sampled_from(sorted(RULE_SYSTEMS)),
)
def test_fuzz_structured_form_raises_only_hand_error(data, won, rules):
    try:
        hand = hand_from_dict({**_WON, **data} if won else data)
    except HandError:
        return
    assert hand_from_dict(hand_to_dict(hand)) == hand
    score = score_hand(hand, rules)
    assert score.valid or score.error
    json.dumps(score.to_json())


_ENTRY = st.one_of(
    _VALUE,
    st.fixed_dictionaries(
        {"role": st.sampled_from(["winner", "loser", "fishing"])},
        optional={k: _VALUE for k in ("score", "hand", "chips", "flags", "flat", "melds", "winning_tile")},
    ),
)
_TABLE = st.fixed_dictionaries(
    {},
    optional={
        "players": st.one_of(_VALUE, st.fixed_dictionaries({s: _ENTRY for s in "ESWN"})),
        **{
            k: _VALUE
            for k in (
                "round_wind",
                "flags",
                "goulash_stake_each",
                "options",
                "false_mah_jong",
                "scores",
                "winners",
                "limit",
            )
        },
    },
)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_TABLE, st.sampled_from(["australian", "classical"]))
def test_fuzz_table_input_never_raises(data, rules):
    try:
        score = scorer(rules).score_table(data, {})
    except UnknownKeyError as exc:  # a key nobody reads is the file's own error (exit 2), named
        assert "unknown key" in str(exc) and "\n" not in str(exc)
        return
    assert score.valid or score.error
    json.dumps(score.to_json())
