"""The situation of a hand parsed once (:mod:`scoring.context`): every field checked in one place,
named as the front end names it, a base's values kept where a field is not given; and the one
"score, or an invalid score with the reason" (:func:`scoring.rules.score_or_invalid`)."""

from __future__ import annotations

import pickle

import pytest

import mahjong_camera_scorer.scoring.rules
from mahjong_camera_scorer.scoring.context import CONTEXT_FIELDS, HandContext, context_from_dict
from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.rules import check_context, score_or_invalid
from mahjong_camera_scorer.scoring.situation_words import NOBODY
from mahjong_camera_scorer.scoring.tiles import tile


def test_every_field_is_parsed_into_its_type() -> None:
    ctx = context_from_dict(
        {
            "win_by": "tsumo",
            "seat_wind": "west",
            "round_wind": "2z",
            "flags": "riichi, ippatsu",
            "dora_indicators": "3m7z",
            "ura_dora_indicators": ["1p"],
            "honba": 2,
            "riichi_sticks": 1,
            "winning_tile": "4s",
        }
    )
    assert ctx == HandContext(
        win_by="self_draw",
        seat_wind="W",
        round_wind="S",
        flags=frozenset({"riichi", "ippatsu"}),
        dora_indicators=(tile("3m"), tile("7z")),
        ura_dora_indicators=(tile("1p"),),
        honba=2,
        riichi_sticks=1,
        winning_tile=tile("4s"),
    )


def test_what_was_an_untyped_extra_is_a_typed_field() -> None:
    """The discarder, the liable and the responsible player, the role and the discards are fields
    of the situation, each read and checked (they were an untyped ``extra`` mapping)."""
    ctx = context_from_dict(
        {
            "discarder": "north",
            "pao": "s",
            "responsible": "none",
            "role": "Loser",
            "discards_played": 9,
            "discards_in_window": ["E:8p", "S:5z"],
            "options": {"limit": 500, "kiriage": True},
        }
    )
    assert (ctx.discarder, ctx.pao, ctx.responsible, ctx.role) == ("N", "S", NOBODY, "loser")
    assert ctx.discards_played == 9 and ctx.discards_in_window == ("E:8p", "S:5z")
    assert dict(ctx.options) == {"limit": "500", "kiriage": "true"}
    assert context_from_dict(ctx.to_json()) == ctx  # the structured form says it all back


def test_a_field_not_given_keeps_the_bases_value_and_a_discarder_means_a_discard() -> None:
    base = HandContext(win_by="self_draw", seat_wind="S", honba=3, flags=frozenset({"riichi"}))
    ctx = context_from_dict({"discarder": "E", "honba": None}, base)
    assert (ctx.win_by, ctx.seat_wind, ctx.honba, ctx.discarder) == ("discard", "S", 3, "E")
    assert ctx.flags == {"riichi"}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"seat_wind": "X"}, "--seat must be E, S, W or N"),
        ({"seat_wind": "Wrong"}, "--seat must be E, S, W or N"),  # 'Wrong' was West (any W… word)
        ({"win_by": "maybe"}, "--win-by must be 'discard' or 'self_draw'"),
        ({"discarder": "E"}, "--discarder: E is the winner's own seat"),
        ({"discarder": "S", "win_by": "self_draw"}, "--discarder: it goes with a win on a discard"),
        ({"discarder": "Sam"}, "--discarder must be E, S, W or N"),
        ({"honba": 101}, "--honba must be a whole number from 0 to 100"),
        ({"honba": True}, "--honba must be a whole number"),
        ({"dora_indicators": "3x"}, "--dora: "),
        ({"winning_tile": "44s"}, "--winning-tile: "),
        ({"winning_tile": "?"}, "--winning-tile: one tile code"),
        ({"flags": ["riichi", "Two Words"]}, "--flag: 'Two Words' is not a flag name"),
        ({"role": "referee"}, "role must be winner, fishing or loser"),
        ({"responsible": "Bob"}, "responsible must be a seat E, S, W or N (East, South, West, North) or"),
        ({"seat": "E"}, "context: unknown key 'seat' (known keys: "),
    ],
)
def test_a_bad_field_is_one_error_naming_it_as_the_front_end_does(data: dict, words: str) -> None:
    names = {
        "seat_wind": "--seat",
        "win_by": "--win-by",
        "discarder": "--discarder",
        "honba": "--honba",
        "dora_indicators": "--dora",
        "winning_tile": "--winning-tile",
        "flags": "--flag",
    }
    with pytest.raises(HandError) as err:
        context_from_dict(data, names=names)
    assert words in str(err.value)


def test_an_unknown_key_lists_every_known_one() -> None:
    with pytest.raises(UnknownKeyError) as err:
        context_from_dict({"dora_indicator": ["1z"]}, where="the page's context")
    message = str(err.value)
    assert message.startswith("the page's context: unknown key 'dora_indicator' (known keys: ")
    assert all(name in message for name in CONTEXT_FIELDS)


def test_a_context_goes_to_a_worker_process_and_back() -> None:
    ctx = context_from_dict({"seat_wind": "S", "discarder": "W", "options": {"kiriage": "on"}})
    assert pickle.loads(pickle.dumps(ctx)) == ctx
    hand = parse_hand("123m456p789s11z22z ron 2z seat=S option:limit=500")
    assert pickle.loads(pickle.dumps(hand)) == hand


def test_the_constructor_refuses_what_the_parser_would() -> None:
    """No front end can build a situation the parser refuses for its words: the typed fields are
    checked when the object is made (a seat is a letter, a counter a number in range)."""
    for bad in (
        {"seat_wind": "West"},
        {"discarder": "X"},
        {"pao": "north"},
        {"responsible": 5},
        {"role": "winer"},
        {"win_by": "ron"},
        {"honba": 101},
        {"discards_played": -1},
        {"discards_in_window": [5]},
    ):
        with pytest.raises(HandError):
            HandContext(**bad)


def test_the_rules_check_flags_and_options() -> None:
    check_context("riichi", context_from_dict({"flags": ["riichi"]}).flags)
    with pytest.raises(HandError, match="unknown flag"):
        check_context("riichi", context_from_dict({"flags": ["riichy"]}).flags)
    with pytest.raises(HandError):
        check_context("riichi", (), {"no_such_option": "1"})


def test_score_or_invalid_never_raises() -> None:
    hand = parse_hand("123m456p789s11z 22z ron 2z")
    assert score_or_invalid(hand, "mcr").rules == "mcr"
    assert score_or_invalid(None, "mcr", hand_error="hand: 3x").error == "hand: 3x"
    short = score_or_invalid(parse_hand("123m ron 4m"), "riichi", problems=["a gap"])
    assert not short.valid and short.error is not None and short.error.endswith("; layout: a gap")
    seen: list[Exception] = []

    def bug(*args: object) -> None:
        raise ZeroDivisionError("oops")

    real = mahjong_camera_scorer.scoring.rules.score_hand
    mahjong_camera_scorer.scoring.rules.score_hand = bug  # type: ignore[assignment]
    try:
        broken = score_or_invalid(hand, "mcr", on_bug=seen.append)
    finally:
        mahjong_camera_scorer.scoring.rules.score_hand = real
    assert broken.error == "internal error while scoring: ZeroDivisionError: oops" and len(seen) == 1
