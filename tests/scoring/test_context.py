"""The situation of a hand parsed once (:mod:`scoring.context`): every field checked in one place,
named as the front end names it, a base's values kept where a field is not given; and the one
"score, or an invalid score with the reason"."""

from __future__ import annotations

import pytest

from scoring.context import HandContext, context_from_dict, score_or_invalid
from scoring.hand import HandError
from scoring.notation import parse_hand
from scoring.tiles import tile


def test_every_field_is_parsed_into_its_type() -> None:
    ctx = context_from_dict(
        {"win_by": "tsumo", "seat_wind": "west", "round_wind": "2z", "flags": "riichi, ippatsu",
         "dora_indicators": "3m7z", "ura_dora_indicators": ["1p"], "honba": 2, "riichi_sticks": 1,
         "winning_tile": "4s"}
    )
    assert ctx == HandContext(
        win_by="self_draw", seat_wind="W", round_wind="S", flags=("riichi", "ippatsu"),
        dora_indicators=(tile("3m"), tile("7z")), ura_dora_indicators=(tile("1p"),), honba=2,
        riichi_sticks=1, winning_tile=tile("4s"),
    )


def test_a_field_not_given_keeps_the_bases_value_and_a_discarder_means_a_discard() -> None:
    base = HandContext(win_by="self_draw", seat_wind="S", honba=3, flags=("riichi",))
    ctx = context_from_dict({"discarder": "E", "honba": None}, base)
    assert (ctx.win_by, ctx.seat_wind, ctx.honba, ctx.discarder) == ("discard", "S", 3, "E")
    assert ctx.flags == ("riichi",)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"seat_wind": "X"}, "--seat must be E, S, W or N"),
        ({"win_by": "maybe"}, "--win-by must be 'discard' or 'self_draw'"),
        ({"discarder": "E"}, "--discarder: E is the winner's own seat"),
        ({"discarder": "S", "win_by": "self_draw"}, "--discarder: it goes with a win on a discard"),
        ({"discarder": "Sam"}, "--discarder: a seat E, S, W or N"),
        ({"honba": 101}, "--honba must be a whole number from 0 to 100"),
        ({"honba": True}, "--honba must be a whole number"),
        ({"dora_indicators": "3x"}, "--dora: "),
        ({"winning_tile": "44s"}, "--winning-tile: "),
        ({"winning_tile": "?"}, "--winning-tile: one tile code"),
        ({"seat": "E"}, "unknown context field 'seat'"),
    ],
)
def test_a_bad_field_is_one_error_naming_it_as_the_front_end_does(data: dict, words: str) -> None:
    names = {"seat_wind": "--seat", "win_by": "--win-by", "discarder": "--discarder", "honba": "--honba",
             "dora_indicators": "--dora", "winning_tile": "--winning-tile"}
    with pytest.raises(HandError, match=None) as err:
        context_from_dict(data, names=names)
    assert words in str(err.value)


def test_the_rules_check_flags_and_options() -> None:
    assert context_from_dict({"flags": ["riichi"]}, rules="riichi").flags == ("riichi",)
    with pytest.raises(HandError, match="unknown flag"):
        context_from_dict({"flags": ["riichy"]}, rules="riichi")
    with pytest.raises(HandError):
        context_from_dict({}, rules="riichi", options=[{"no_such_option": "1"}])


def test_score_or_invalid_never_raises() -> None:
    hand = parse_hand("123m456p789s11z 22z ron 2z")
    assert score_or_invalid(hand, "mcr").rules == "mcr"
    assert score_or_invalid(None, "mcr", hand_error="hand: 3x").error == "hand: 3x"
    short = score_or_invalid(parse_hand("123m ron 4m"), "riichi", problems=["a gap"])
    assert not short.valid and short.error is not None and short.error.endswith("; layout: a gap")
    seen: list[Exception] = []

    def bug(*args: object) -> None:
        raise ZeroDivisionError("oops")

    import scoring.context

    real = scoring.context.score_hand
    scoring.context.score_hand = bug  # type: ignore[assignment]
    try:
        broken = score_or_invalid(hand, "mcr", on_bug=seen.append)
    finally:
        scoring.context.score_hand = real
    assert broken.error == "internal error while scoring: ZeroDivisionError: oops" and len(seen) == 1
