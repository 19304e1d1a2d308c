"""The one-line notation: parsing, printing, and the round-trip property."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mahjong_camera_scorer.scoring.hand import HandError, Jokers
from mahjong_camera_scorer.scoring.notation import format_hand, parse_hand
from mahjong_camera_scorer.scoring.tiles import parse_tiles, tile
from tests.scoring.hand_strategies import hands


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hands())
def test_parse_print_parse_round_trips(hand):
    text = format_hand(hand)
    again = parse_hand(text)
    assert again == hand
    assert format_hand(again) == text


def test_full_example():
    h = parse_hand(
        "123m 406p 78s 11z [555z] (2222s) ron 9s seat=S round=W riichi dora=1z,3m ura=4p "
        "honba=2 sticks=1 discarder=N option:kiriage=off 2f"
    )
    assert [t.code for t in h.concealed] == ["1m", "2m", "3m", "4p", "0p", "6p", "7s", "8s", "9s", "1z", "1z"]
    assert [(m.kind, m.code, m.open) for m in h.melds] == [("pung", "555z", True), ("kong", "2222s", False)]
    ctx = h.context
    assert ctx.winning_tile == tile("9s") and ctx.win_by == "discard"
    assert (ctx.seat_wind, ctx.round_wind) == ("S", "W")
    assert ctx.flags == {"riichi"}
    assert ctx.dora_indicators == tuple(parse_tiles("1z3m")) and ctx.ura_dora_indicators == (tile("4p"),)
    assert (ctx.honba, ctx.riichi_sticks) == (2, 1)
    assert dict(ctx.options) == {"kiriage": "off"}
    assert h.bonus_tiles == (tile("2f"),)
    assert ctx.discarder == "N" and ctx.pao is None
    assert parse_hand(format_hand(h)) == h


def test_tsumo_and_chow_meld():
    h = parse_hand("55p12345678s [234m] tsumo 9s")
    assert h.context.win_by == "self_draw" and h.melds[0].kind == "chow" and len(h.concealed) == 11


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty hand"),
        ("123m ron", "must be followed by the winning tile"),
        ("123m ron 12m", "the winning tile is one tile"),
        ("123m [12m]", "a meld has 3 or 4 tiles"),
        ("123m [135m]", "not a chow"),
        ("123m (555m)", "only a kong can be declared concealed"),
        ("123m [555m", "must be closed"),
        ("123m seat=X", "seat must be E, S, W or N"),
        ("123m seat=Wrong", "seat must be E, S, W or N"),  # 'Wrong' was West (its first letter)
        ("123m color=red", "unknown key"),
        ("123m honba=x", "whole number"),
        ("123m ron 1m tsumo 2m", "two winning tiles"),
        ("123m R!", "cannot read"),
        ("12x", "unexpected character 'x'"),
        ("why?", "cannot read"),
        # a flag must not print back as tiles: 'M' would become the flag 'm', and 'm' is no hand
        ("123m M", "cannot read 'M'"),
        ("123m honba=²", "honba must be a whole number from 0 to 100"),
        ("123m honba=١", "honba must be a whole number"),
        ("123m sticks=101", "sticks must be a whole number from 0 to 100"),
        ("123m seat=ß", "seat must be E, S, W or N"),  # 'ß'.upper() is 'SS'
        ("123m round=ſ", "round must be E, S, W or N"),
        ("123m discarder=ſ", "discarder must be E, S, W or N"),  # 'ſ'.upper() is 'S'
        ("123m ²z", "SUPERSCRIPT TWO"),
        ("1m" * 501, "too long for one hand"),
        ("123m [5m23s] jokers", "not a chow"),
        ("123m [5m22s]", "not a chow"),  # without the flag the 2s are 2s
    ],
)
def test_errors_name_the_token(text, message):
    with pytest.raises(HandError, match=message):
        parse_hand(text)


def test_joker_melds_with_the_jokers_flag():
    h = parse_hand("111m4z [555m] [5m22s] (2s7z2s7z) tsumo 4z seat=S goulash jokers")
    assert [m.code for m in h.melds] == ["555m", "555m", "7777z"] and not h.melds[2].open
    assert h.jokers == (Jokers(meld=1, count=2, shown="5m"), Jokers(meld=2, count=2, shown="77z"))
    assert "[5m22s] (22s77z)" in format_hand(h) and parse_hand(format_hand(h)) == h


# -- fuzzing: any text either reads as a hand that prints back the same, or is a HandError -------
_PIECES = st.sampled_from(
    [
        "123m",
        "406p",
        "[555z]",
        "(2222s)",
        "[5m22s]",
        "ron",
        "tsumo",
        "5p",
        "2f",
        "?",
        "jokers",
        "seat=",
        "round=",
        "honba=",
        "sticks=",
        "dora=",
        "ura=",
        "discarder=",
        "pao=",
        "role=",
        "win=",
        "option:",
        "=",
        ",",
        "M",
        "Riichi",
        "²",
        "١",
        "ß",
        "K",
    ]
)
_TEXT = st.lists(st.one_of(st.text(max_size=6), _PIECES), max_size=10).map(" ".join)
_GLUED = st.lists(st.one_of(st.text(max_size=3), _PIECES), max_size=8).map("".join)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), _TEXT, _GLUED))
def test_fuzz_notation_raises_only_hand_error_and_round_trips(text):
    try:
        hand = parse_hand(text)
    except HandError:
        return
    again = parse_hand(format_hand(hand))
    assert again == hand and format_hand(again) == format_hand(hand)
