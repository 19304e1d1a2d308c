"""A hand that is no win whatever tile won says why: its count, a fifth copy (the one check of
scoring.tile_counts), no completing tile; a hand one tile short lists its waits, each scored as
the rules would score that win."""

from __future__ import annotations

import pytest

from mahjong_camera_scorer.scoring.candidates import score_or_best, waits
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.incomplete import (
    COPIES_KIND,
    NO_COMPLETING_TILE,
    hand_problem,
    named,
    tile_count,
)
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.scoring.tile_counts import LONG, SHORT
from mahjong_camera_scorer.scoring.tiles import tile


def test_the_count_counts_each_declared_set_as_three_and_a_loser_is_never_counted() -> None:
    kong = parse_hand("123m456p11z (2222s) 78s")  # 10 concealed and a kong: 13, ready
    assert tile_count(kong) == 13
    problem = hand_problem(kong)
    assert problem is not None and problem.kind == SHORT and problem.have == 13
    assert problem.message == "10 concealed tiles with 1 declared set: one tile short of a won hand"
    short = hand_problem(parse_hand("123m456p11z (2222s) 7s"))  # 12: two short
    assert short is not None and short.kind == SHORT and short.facts() == {"have": 12, "need": 14}
    assert short.message.startswith("9 concealed tiles with 1 declared set: a hand has 10 before")
    long = hand_problem(parse_hand("123m456p789s1234567z"))
    assert long is not None and long.kind == LONG and long.have == 16 and "(too many" in long.message
    assert hand_problem(parse_hand("123m456p789s11z22z ron 2z")) is None
    loser = hand_from_dict({"hand": "123m456p789s11z", "role": "loser"})
    assert hand_problem(loser) is None


def test_a_fifth_copy_is_named_before_the_count() -> None:
    problem = hand_problem(parse_hand("55555m123p45678s"))  # 13 tiles and a fifth 5m: the copies first
    assert problem is not None and problem.kind == COPIES_KIND
    assert problem.facts() == {"tile": "5m", "copies": 5}
    assert problem.message == "5 copies of 5m: a set has only 4"


@pytest.mark.parametrize("rules", ["mcr", "riichi", "zung-jung", "classical", "australian"])
def test_a_ready_hand_lists_its_waits_each_scored_as_that_win(rules: str) -> None:
    hand = parse_hand("234m55p12345678s")  # 13 tiles, waiting on 3s 6s 9s
    scored = score_or_best(hand, rules)
    assert not scored.score.valid and scored.problem is not None and scored.problem.kind == SHORT
    assert "no winning tile" not in (scored.score.error or "") and "give the winning tile" not in (
        scored.score.error or ""
    )
    assert scored.score.error == (
        "13 concealed tiles with 0 declared sets: one tile short of a won hand; it waits on 3s, 6s, 9s"
    )
    assert {w.tile.code for w in scored.waits} == {"3s", "6s", "9s"}
    for w in scored.waits:  # each wait is the 14-tile hand won on that tile, scored by the rules
        won = hand.with_changes(concealed=(*hand.concealed, w.tile)).with_context(winning_tile=w.tile)
        assert w.score.to_json() == score_hand(won, rules, {}).to_json()


def test_no_tile_is_a_wait_when_its_four_copies_are_held() -> None:
    hand = parse_hand("111123m456p789s5z")  # 1m would be a fifth copy: only the single 5z waits
    assert [w.tile.code for w in waits(hand, "mcr")] == ["5z"]


def test_thirteen_tiles_no_tile_completes_say_so() -> None:
    scored = score_or_best(parse_hand("1357m2468p1357s9s"), "riichi")
    assert scored.waits == [] and scored.score.error is not None
    assert scored.score.error.endswith("one tile short of a won hand; no tile would complete it")


def test_fourteen_tiles_no_tile_completes_say_so_not_which_tile_won() -> None:
    # the example: nine suited tiles in sets and five lone honours, no winning tile given
    scored = score_or_best(parse_hand("123m456p789s1z2z3z4z5z"), "mcr")
    assert scored.problem is not None and scored.problem.kind == NO_COMPLETING_TILE
    assert scored.score.error is not None and "no tile completes them" in scored.score.error
    assert scored.candidates == [] and scored.waits == []


def test_a_won_hand_keeps_its_score_and_a_given_winning_tile_is_not_second_guessed() -> None:
    won = score_or_best(parse_hand("234m55p12345678s ron 9s"), "riichi")
    assert won.score.valid and won.problem is None and won.waits == []
    # the winning tile given and one tile short: the count, no waits (the hand said how it won)
    short = score_or_best(parse_hand("234m55p1234567s ron 9s"), "riichi")
    assert short.problem is not None and short.problem.have == 13 and short.waits == []


def test_named_replaces_only_a_refusal_of_a_hand_with_a_problem() -> None:
    short = Hand(concealed=tuple(tile(c) for c in ["1m", "2m", "3m"]))
    refused = Score.invalid("mcr", "MCR scores a won hand: give the winning tile")
    said = named(refused, short).error or ""
    assert said.startswith("3 concealed tiles with 0 declared sets: a hand has 13")
    assert named(refused, None) is refused
    valid = Score("mcr", True)
    assert named(valid, short) is valid
