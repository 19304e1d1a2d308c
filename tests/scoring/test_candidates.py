"""Candidate winning tiles of a hand with none set apart (:mod:`scoring.candidates`)."""

from __future__ import annotations

from mahjong_camera_scorer.scoring.candidates import best, candidates, value
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.render import candidate_line
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.tiles import tile


def codes(found) -> list[str]:
    return [c.tile.code for c in found]


def test_each_distinct_tile_that_completes_the_hand_is_a_candidate_with_its_own_score() -> None:
    # 234m 55p 123s 456s 789s: a riichi hand; every distinct tile is a candidate (14 tiles, 13 kinds)
    hand = parse_hand("234m55p123456789s riichi")
    found = candidates(hand, "riichi")
    assert sorted(codes(found)) == sorted(["2m", "3m", "4m", "5p", *[f"{n}s" for n in range(1, 10)]])
    for c in found:  # each is the hand scored with that tile as the winning tile, nothing else
        assert c.score == score_hand(hand.with_context(winning_tile=c.tile), "riichi")
    # best first: basic points (han and fu) decide; a closed 3m wait loses pinfu's fu
    values = [value(c.score) for c in found]
    assert values == sorted(values, reverse=True)
    assert value(best(found).score) > value(next(c for c in found if c.tile.code == "3m").score)


def test_a_discard_win_scores_the_pung_it_finishes_as_exposed() -> None:
    # 55666z: the 6z pung finished by a discard is exposed; self-drawn it is concealed (MCR)
    ron = candidates(parse_hand("234m234p234s55666z"), "mcr")
    tsumo = candidates(parse_hand("234m234p234s55666z win=self_draw"), "mcr")
    by = {c.tile.code: c.score.total for c in ron}
    assert set(by) == {"2m", "3m", "4m", "2p", "3p", "4p", "2s", "3s", "4s", "5z", "6z"}
    assert {c.tile.code: c.score.total for c in tsumo} != by


def test_a_red_five_is_its_own_candidate() -> None:
    found = candidates(parse_hand("340m55p123456789s riichi"), "riichi")
    assert "0m" in codes(found) and "5m" not in codes(found)


def test_a_hand_that_is_not_complete_has_no_candidate() -> None:
    assert candidates(parse_hand("234m55p12345678s"), "riichi") == []  # 13 tiles
    assert candidates(parse_hand("1234m55p12345679s"), "riichi") == []  # 14 tiles, no winning shape
    assert best([]) is None


def test_a_candidate_the_rules_refuse_is_kept_with_the_reason() -> None:
    # an open hand without yaku, self-drawn with no kong: a winning shape, but no yaku whichever tile won
    found = candidates(parse_hand("234m678p55s [789s] [123m] win=self_draw"), "riichi")
    assert found and not any(c.valid for c in found) and best(found) is None
    assert all("yaku" in (c.score.error or "").lower() for c in found)


def test_a_candidate_that_needs_a_kong_replacement_says_so() -> None:
    # open, no yaku, self-drawn with a kong declared: only Rinshan kaihou makes it a win
    found = candidates(parse_hand("234m678p55s [789s] [1111m] win=self_draw"), "riichi")
    assert found and all(c.needs == ("kong_replacement",) for c in found if c.valid)
    assert best(found) is not None and "Rinshan kaihou" in best(found).score.elements
    assert "kong's replacement" in candidate_line(best(found))


def test_a_candidate_that_needs_a_robbed_kong_says_so_and_only_for_a_single_copy() -> None:
    # open, no yaku, by discard: Chankan makes a win, but only of a tile the hand holds once
    found = candidates(parse_hand("234m678p55s [789s] [111m]"), "riichi")
    robbed = {c.tile.code for c in found if c.needs == ("robbing_kong",)}
    assert robbed == {"2m", "3m", "4m", "6p", "7p", "8p"}  # not 5s: the hand holds two
    assert all(not c.valid for c in found if c.tile.code == "5s")


def test_the_hands_own_winning_tile_is_ignored_and_the_claimed_tile_is_among_the_candidates() -> None:
    hand = parse_hand("234m55p12345678s ron 9s riichi")
    found = candidates(hand, "riichi")
    assert tile("9s") in [c.tile for c in found]
    assert candidates(hand.with_context(winning_tile=None), "riichi") == found
