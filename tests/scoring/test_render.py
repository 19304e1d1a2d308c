"""A typed hand's renderer (:mod:`scoring.render`): the lines and the record every front end prints."""

from __future__ import annotations

from mahjong_camera_scorer.scoring.candidates import score_or_best
from mahjong_camera_scorer.scoring.i18n import translator
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.render import (
    candidate_lines,
    hand_lines,
    typed_lines,
    typed_record,
    win_by_words,
)

ONE_ROW = parse_hand("345m55888p444s (1111p) win=self_draw seat=W")


def test_the_candidates_read_in_both_languages() -> None:
    scored = score_or_best(ONE_ROW, "riichi")
    english = candidate_lines(scored.candidates, "say which")
    italian = candidate_lines(scored.candidates, "say which", "it")
    assert english.startswith("Winning tile: none set apart; scored as if 3m won, the best of 6")
    assert italian.startswith("Tessera vincente: nessuna messa da parte; conteggiata come se avesse chiuso")
    assert english.count("\n") == italian.count("\n") == 6 and "  * 3m: 3 han 70 fu" in italian


def test_the_lines_are_the_hand_the_candidates_and_the_score() -> None:
    scored = score_or_best(ONE_ROW, "riichi")
    text = typed_lines(ONE_ROW, scored, "it")
    hand, candidates = hand_lines(ONE_ROW, "it"), candidate_lines(scored.candidates, "x", "it")
    assert text.startswith(hand + "\n") and text.endswith(scored.score.render("it"))
    assert "Tessera vincente" in text and candidates.split("\n")[1] in text
    assert hand.startswith("Mano:  345m55888p444s (1111p) win=self_draw")  # the notation as typed


def test_the_record_adds_the_candidates_to_the_scores_json() -> None:
    scored = score_or_best(ONE_ROW, "riichi")
    record = typed_record(scored)
    assert record["scored_winning_tile"] == "3m" and len(record["candidates"]) == 6
    assert {k: v for k, v in record.items() if k not in ("scored_winning_tile", "candidates")} == (
        scored.score.to_json()
    )
    given = score_or_best(parse_hand("345m55888p44s (1111p) tsumo 4s seat=W"), "riichi")
    assert "candidates" not in typed_record(given) and typed_record(given) == given.score.to_json()


def test_how_a_hand_was_won_is_said_in_words() -> None:
    it = translator("it")
    assert str(win_by_words("self_draw")) == "self-draw"
    assert win_by_words("self_draw").render(it) == "pescata da solo"
    assert win_by_words("discard").render(it) == "scarto"
