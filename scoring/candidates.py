"""Which tile won, when nobody set it apart: every candidate winning tile of a complete hand.

Players leave a finished hand in one row, so a photo (or a typed hand) often shows all its
tiles with none set apart as the winning tile. Most rule systems cannot score without it (a
pung finished by a discard is exposed, a wait has its own value, riichi's fu count the wait). So
each tile of the concealed part that could have completed the hand is tried: each distinct code
(a red five apart from its plain fives) is put back as the winning tile and the hand is scored
under the chosen rules. Removing such a tile leaves a waiting hand by construction, so the
claimed tile of a discard win is always one of them.

A candidate whose tiles complete a winning shape but which the rules refuse as it stands may
still win in a situation the photo cannot show: on a kong's replacement tile (self-drawn, the
hand declaring a kong) or by robbing a kong (a discard win, the hand holding only the robbed
copy). Such a candidate is scored in that situation and says so in :attr:`Candidate.needs`.

Pure: no vision imports; every front end (CLI, ``photos``, camera, the web page) shows the list
:func:`candidates` returns, best first, through its renderer (:mod:`scoring.render`,
:mod:`vision.render`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mahjong_camera_scorer.scoring.decompose import readings
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.incomplete import (
    COPIES_KIND,
    Problem,
    hand_problem,
    no_completing_tile,
    ready,
)
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import score_hand, score_or_invalid
from mahjong_camera_scorer.scoring.tile_counts import COPIES
from mahjong_camera_scorer.scoring.tiles import ALL_KINDS, Tile, sort_key

#: The situations a candidate may need (flags of the structured form), with the way the hand
#: must have been won for each: a kong's replacement tile is drawn, a robbed kong's tile claimed.
SITUATIONS: dict[str, str] = {"kong_replacement": "self_draw", "robbing_kong": "discard"}
#: How a candidate's situation reads in text (the CLI, ``photos``, the camera, a photo's warning);
#: English message ids of the catalog (:mod:`scoring.i18n`).
SITUATION_WORDS: dict[str, str] = {
    "kong_replacement": "only if drawn as a kong's replacement tile",
    "robbing_kong": "only if robbed from another player's kong",
}


@dataclass(frozen=True)
class Candidate:
    """One tile that could have completed the hand, and the hand's score with it as the winning
    tile. ``needs``: the situation flags the score assumes beyond the hand's own (empty for a
    plain win)."""

    tile: Tile
    score: Score
    needs: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        return self.score.valid

    def to_json(self) -> dict[str, Any]:
        return {"tile": self.tile.code, "needs": list(self.needs), "score": self.score.to_json()}


def needs_words(c: Candidate, tr: Callable[[str], str] = str) -> str:
    """What the candidate's win needs, in words (`` (only if …)``; ``tr``: in a language), or ``""``."""
    return "".join(f" ({tr(SITUATION_WORDS[n]) if n in SITUATION_WORDS else n})" for n in c.needs)


def _score(hand: Hand, rules: str, options: Mapping[str, str] | None) -> Score:
    """The hand's score; a scorer's exception becomes an invalid score (never stops a batch)."""
    try:
        return score_hand(hand, rules, options)
    except HandError as exc:
        return Score.invalid(rules, str(exc))
    except Exception as exc:  # a scorer bug must not stop the page, a batch or the camera
        return Score.invalid(rules, f"internal error while scoring: {type(exc).__name__}: {exc}")


def _situations(hand: Hand, win: Tile) -> list[str]:
    """The situations this winning tile could have come in that the hand does not already say:
    a kong's replacement (self-drawn, a kong declared), a robbed kong (by discard, the hand
    holding no other copy of the tile: the other three were the robbed kong's pung)."""
    out = []
    for flag, how in SITUATIONS.items():
        if flag in hand.context.flags or hand.context.win_by != how:
            continue
        if flag == "kong_replacement" and not any(m.kind == "kong" for m in hand.melds):
            continue
        if flag == "robbing_kong" and sum(t.index == win.index for t in hand.all_tiles()) != 1:
            continue
        out.append(flag)
    return out


def value(score: Score) -> float:
    """What a score is worth, to compare candidates: riichi's basic points (han and fu
    together: 30 fu beats 40 fu at equal han only in the points), else the total."""
    base = score.details.get("base_points")
    return float(base) if isinstance(base, int | float) else float(score.total)


def _rank(c: Candidate) -> tuple[int, float, tuple[int, int]]:
    """Best first: a plain win before one needing a situation, before no win; the higher score
    first; then in tile order (a stable, readable tie-break)."""
    group = 0 if c.valid and not c.needs else 1 if c.valid else 2
    return (group, -value(c.score) if c.valid else 0.0, sort_key(c.tile))


def candidates(hand: Hand, rules: str, options: Mapping[str, str] | None = None) -> list[Candidate]:
    """Every candidate winning tile of ``hand`` (its own winning tile, if any, is ignored), each
    with its score under ``rules``, best first (:func:`_rank`).

    A candidate is a distinct concealed tile whose return as the winning tile makes a hand the
    rules score (valid), or one that completes a winning shape (sets and a pair, seven pairs,
    thirteen orphans) that the rules refuse as it stands: kept, with the reason, so that "this
    hand has no yaku whichever tile won" is said rather than "no candidate". Empty when no tile
    completes the hand (wrong number of tiles, not a winning shape)."""
    out: list[Candidate] = []
    for win in sorted(set(hand.concealed), key=sort_key):
        if win.is_back or win.is_bonus:
            continue
        found = _try(hand.with_context(winning_tile=win), win, rules, options)
        if found is not None:
            out.append(found)
    return sorted(out, key=_rank)


def _try(trial: Hand, win: Tile, rules: str, options: Mapping[str, str] | None) -> Candidate | None:
    """``trial`` (a hand whose winning tile is ``win``) scored under ``rules``: as it stands, else
    in a situation that makes it a win (:func:`_situations`), else kept with the rules' refusal
    when its tiles make a winning shape; None when they make none."""
    score = _score(trial, rules, options)
    if score.valid:
        return Candidate(win, score)
    for flag in _situations(trial, win):
        more = _score(trial.with_context(flags=trial.context.flags | {flag}), rules, options)
        if more.valid:
            return Candidate(win, more, (flag,))
    return Candidate(win, score) if readings(trial) else None


def waits(hand: Hand, rules: str, options: Mapping[str, str] | None = None) -> list[Candidate]:
    """The tiles a hand one tile short of a win waits on (a ready hand: 13 tiles, each declared
    set counting three), each added as the winning tile and scored under ``rules`` in the hand's
    own situation, best first: what a player pointing the camera at a ready hand wants to know.
    A tile whose four copies the hand holds is no wait; empty when no tile completes it."""
    held = Counter(t.index for t in hand.all_tiles())
    out: list[Candidate] = []
    for win in ALL_KINDS:
        if held[win.index] >= COPIES:
            continue
        trial = hand.with_changes(concealed=(*hand.concealed, win)).with_context(winning_tile=win)
        found = _try(trial, win, rules, options)
        if found is not None:
            out.append(found)
    return sorted(out, key=_rank)


def best(found: list[Candidate]) -> Candidate | None:
    """The candidate to score the hand with when nobody says which tile won: the first valid
    one (:func:`candidates` puts it first), None when none wins."""
    return found[0] if found and found[0].valid else None


def tile_codes(found: list[Candidate]) -> list[str]:
    """The candidates' tiles in tile order (a list to read, where the ranking is the scores')."""
    return [c.tile.code for c in sorted(found, key=lambda c: sort_key(c.tile))]


@dataclass(frozen=True)
class Scored:
    """A hand's score, the candidate winning tiles when they were looked for, and the one the
    score takes (None when the hand said which tile won, or none wins); when the hand is no win
    whatever tile won, the ``problem`` (its score's error says it) and, for a ready hand, its
    ``waits``."""

    score: Score
    candidates: list[Candidate]
    chosen: Candidate | None
    problem: Problem | None = None
    waits: list[Candidate] = field(default_factory=list)


def score_or_best(
    hand: Hand | None,
    rules: str,
    options: Mapping[str, str] | None = None,
    *,
    hand_error: str | None = None,
    listed: bool = False,
    on_bug: Callable[[Exception], None] | None = None,
) -> Scored:
    """Score ``hand`` as every front end does (:func:`scoring.context.score_or_invalid`); when it
    names no winning tile and does not score without one, every tile that could have won is
    scored and the best gives the score. ``listed``: look for the candidates even so (the page and
    a photo with the winning tile given list them). A hand that is no win whatever tile won says
    why (:mod:`scoring.incomplete`: its count, a fifth copy, no tile completing it) instead of
    the rules' first refusal, and a ready hand lists its waits. Never an exception: a scorer's bug
    is an invalid score (``on_bug`` is told)."""
    score = score_or_invalid(hand, rules, options, hand_error=hand_error, on_bug=on_bug)
    if hand is not None and not score.valid and (problem := hand_problem(hand)) is not None:
        return _no_win(hand, rules, options, problem)
    if hand is None or not (listed or (hand.context.winning_tile is None and not score.valid)):
        return Scored(score, [], None)
    try:
        found = candidates(hand, rules, options)
    except Exception as exc:  # a scorer bug must not stop a batch, the page or the camera
        if on_bug is not None:
            on_bug(exc)
        bug = f"internal error while scoring: {type(exc).__name__}: {exc}"
        return Scored(Score.invalid(rules, bug), [], None)
    if hand.context.winning_tile is None and not found:
        return _no_win(hand, rules, options, no_completing_tile())
    chosen = best(found) if hand.context.winning_tile is None else None
    return Scored(chosen.score if chosen is not None else score, found, chosen)


def _no_win(hand: Hand, rules: str, options: Mapping[str, str] | None, problem: Problem) -> Scored:
    """The invalid score that names ``problem``; a hand one tile short lists its waits."""
    one_short = ready(hand) and problem.kind != COPIES_KIND
    found = waits(hand, rules, options) if one_short else []
    message = problem.message
    if found:
        message += f"; it waits on {', '.join(tile_codes(found))}"
    elif one_short:
        message += "; no tile would complete it"
    return Scored(Score.invalid(rules, message), [], None, problem, found)
