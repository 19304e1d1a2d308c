"""What the phone page is told to check: the notices, each a problem kind with its facts.

A notice is a problem *kind* with its facts (the tiles it concerns, by the page's ids; counts; a
tile code), never a sentence: the page words each kind itself (``messages.json``), in the
player's terms (what to tap, what to photograph again), so no CLI flag or internal field name
reaches the screen, and the words can be translated without touching the server. Only a rule
system's own reason for refusing a win travels as text (``detail``): it is about the hand.

Kinds (``about`` says which part of the page a notice belongs to: ``tiles`` come with a layout,
``score`` with every scoring, so the page keeps the first when it only rescores):

- tiles: ``no_tiles``, ``bad_set``, ``no_concealed``, ``no_winning_tile`` (the layout's,
  :data:`vision.layout.PROBLEM_KINDS`); ``gap``, ``hand_size``, ``fifth_copy``, ``rejected_near``,
  ``faint``, ``asked``, ``mended`` (:mod:`vision.checks`);
- score: ``winning_guessed`` (no winning tile set apart: scored with the best candidate),
  ``no_candidate_wins``, ``incomplete``, ``ready`` (one tile short: the payload's ``waits``
  list what each tile would score) and ``too_many`` (``have`` and ``need`` tiles),
  ``too_many_copies`` (``tile``, ``copies``), ``not_winning_shape`` (no tile completes them),
  ``impossible_hand`` and ``not_a_win`` (with the rules' ``detail``); the tiles' problems are
  :mod:`scoring.incomplete`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mahjong_camera_scorer.scoring.candidates import Candidate
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.incomplete import HAND_TILES, NO_COMPLETING_TILE, Problem, tile_count
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.tile_counts import SHORT


def score_notices(
    score: Score,
    hand: Hand | None,
    found: list[Candidate],
    winning_from: str | None,
    reason: str | None,
    hand_error: str | None = None,
    problem: Problem | None = None,
    waits: Sequence[Candidate] = (),
) -> list[dict[str, Any]]:
    """The notices about the score. ``reason``: the rules' own words for refusing the hand;
    ``problem``: why the tiles are no win whichever tile won (:mod:`scoring.incomplete`), a hand
    one tile short with ``waits`` being ``ready``."""
    out: list[dict[str, Any]] = []
    if winning_from == "candidate" and found:
        out.append({"kind": "winning_guessed", "tile": found[0].tile.code, "count": len(found)})
    if score.valid:
        return [{**n, "about": "score"} for n in out]
    if hand is None:
        out.append({"kind": "impossible_hand", "detail": hand_error or reason})
    elif problem is not None:
        kind = "ready" if problem.kind == SHORT and waits else problem.kind
        out.append({"kind": kind, **problem.facts()})
    elif winning_from is None and found:
        out.append({"kind": "no_candidate_wins", "detail": found[0].score.error})
    elif winning_from is None:
        out.append({"kind": NO_COMPLETING_TILE, "have": tile_count(hand), "need": HAND_TILES})
    else:
        out.append({"kind": "not_a_win", "detail": reason})
    return [{**n, "about": "score"} for n in out]


def tile_notices(
    problem_kinds: list[str], checks: list[Any], page_id: Callable[[int], Any]
) -> list[dict[str, Any]]:
    """The notices about the tiles: the layout's problems (by kind) and the checks, each check
    naming its tiles by the page's ids. The layout's missing winning tile is the score's
    business: the candidates settle it, or the score's notice says why none can."""
    out: list[dict[str, Any]] = [
        {"kind": k, "about": "tiles"} for k in problem_kinds if k != "no_winning_tile"
    ]
    out += [{"kind": c.kind, "tiles": [page_id(i) for i in c.tiles], "about": "tiles"} for c in checks]
    return out
