"""What one photo (or camera frame, or a player's corrected tiles) gives: a :class:`HandResult`.

Every front end (``photo``, ``photos``, ``camera``, the web page, the session's photo rows, the
bench) renders this one object and nothing else: the tiles read (boxes in the photo's own
pixels), the layout, the hand built directly from the layout, its score, what to check (notes and
warnings) and the seconds each stage took. :func:`finish` is the one place where a layout
becomes a hand and a score.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import numpy as np

from mahjong_camera_scorer.scoring.candidates import Candidate, needs_words, score_or_best
from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.hand import Hand, HandError, Meld
from mahjong_camera_scorer.scoring.incomplete import Problem
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import with_problems
from mahjong_camera_scorer.scoring.tiles import Tile, TileError, tile
from mahjong_camera_scorer.vision.checks import Check, checks, mended
from mahjong_camera_scorer.vision.classes import BACK, TILE_CLASSES
from mahjong_camera_scorer.vision.layout import PROBLEM_KINDS, Layout, lay_out
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.scene import Change, Scene
from mahjong_camera_scorer.vision.verdict import Verdict, judge
from mahjong_camera_scorer.vision.zoom import SecondPass

#: the kind of the note that says which candidate winning tile the score assumes
CANDIDATE = "winning_candidate"


@cache
def _tiles() -> dict[str, Tile]:
    """Each reader code's tile (a face-down tile is ``back`` here, ``?`` in the notation)."""
    return {c: tile("?" if c == BACK else c) for c in TILE_CLASSES}


def tile_of(code: str) -> Tile:
    """The tile for one reader code; :class:`TileError` for anything else."""
    try:
        return _tiles()[code]
    except KeyError:
        raise TileError(f"{code!r} is not a tile code") from None


def hand_from_layout(layout: Layout[TileRead], context: HandContext) -> Hand:
    """The hand the layout shows, in the context given: built from the tiles' codes directly.
    :class:`HandError` when those tiles cannot be a hand's (then the score says why)."""
    winning = context.winning_tile or (tile_of(layout.winning_tile) if layout.winning_tile else None)
    try:
        return Hand(
            concealed=tuple(tile_of(c) for c in layout.concealed),
            melds=tuple(Meld(m.kind, tuple(tile_of(c) for c in m.codes), m.open) for m in layout.melds),
            bonus_tiles=tuple(tile_of(c) for c in layout.bonus_tiles),
            context=replace(context, winning_tile=winning),
        )
    except TileError as exc:
        raise HandError(str(exc)) from None


@dataclass
class HandResult:
    """One photo (or frame) read, laid out and scored. Boxes are in the photo's own pixels."""

    #: the tiles the layout was made from, in reading order (tiles lying apart included)
    tiles: list[TileRead]
    layout: Layout[TileRead]
    context: HandContext
    #: the hand the layout shows, None when its tiles cannot be a hand (``hand_error`` says why)
    hand: Hand | None
    #: the score under ``rules``; None when no rules were asked for (the session scores itself)
    score: Score | None
    rules: str | None = None
    hand_error: str | None = None
    #: everything to check, one list: what did not fit the layout (kinds in
    #: :data:`vision.layout.PROBLEM_KINDS`, after the context's winning tile, if given); what the
    #: tool can see is wrong or doubtful, each naming its tiles (:mod:`vision.checks`: a gap, a
    #: hand of the wrong size, a fifth copy, a rejected box by the hand, a faint box, a mending
    #: change); and the score's note when it assumes a candidate winning tile (:data:`CANDIDATE`).
    #: :attr:`problems`, :attr:`warnings` and :attr:`tile_checks` are views of it.
    checks: list[Check] = field(default_factory=list)
    #: boxes the reader read as "not a tile": never laid out, listed so a wrong rejection shows
    rejected: list[TileRead] = field(default_factory=list)
    #: seconds per stage: decode, detect, read, layout, score (those that ran)
    timings: dict[str, float] = field(default_factory=dict)
    #: (height, width, channels) of the photo the boxes refer to
    image_shape: tuple[int, ...] = ()
    #: the decoded pixels (kept for drawing; maybe reduced) and photo pixels per decoded pixel
    image: np.ndarray | None = field(default=None, repr=False)
    scale: float = 1.0
    #: where the detector looked a second time, closer (small tiles), if it did
    second_pass: SecondPass | None = None
    #: when the photo set no winning tile apart: every tile that could have completed the hand,
    #: each with its score, best first (:mod:`scoring.candidates`)
    candidates: list[Candidate] = field(default_factory=list)
    #: where the winning tile the score assumes comes from: ``photo`` (set apart in it),
    #: ``given`` (the context), ``candidate`` (the best candidate: to be checked), or None
    winning_from: str | None = None
    #: why the rules refuse the hand, in the scorer's words (the score's error before the layout's
    #: problems are added to it); None for a valid score
    score_reason: str | None = None
    #: why the tiles are no win whatever tile won (:mod:`scoring.incomplete`: the count, a fifth
    #: copy, no tile completing them), and a ready hand's waits, each scored as the winning tile
    problem: Problem | None = None
    waits: list[Candidate] = field(default_factory=list)
    #: what each step of the photo's road added, dropped, moved or recoded, and why
    #: (:class:`vision.scene.Change`; empty for tiles a player placed)
    record: list[Change] = field(default_factory=list)
    #: sure, or the tiles to check by place (:mod:`vision.verdict`): what a front end shows first
    verdict: Verdict = field(default_factory=lambda: Verdict(False))

    @property
    def problems(self) -> list[str]:
        """What did not fit the layout, one sentence each."""
        return [c.message for c in self.checks if c.kind in PROBLEM_KINDS]

    @property
    def problem_kinds(self) -> list[str]:
        """The kinds of :attr:`problems`, in order (:data:`vision.layout.PROBLEM_KINDS`)."""
        return [c.kind for c in self.checks if c.kind in PROBLEM_KINDS]

    @property
    def warnings(self) -> list[str]:
        """What to check beside the layout's problems: the tile checks' sentences, then the note
        on a candidate winning tile."""
        return [c.message for c in self.checks if c.kind not in PROBLEM_KINDS]

    @property
    def tile_checks(self) -> list[Check]:
        """The checks of what was read (:mod:`vision.checks`), each naming its tiles."""
        return [c for c in self.checks if c.kind not in PROBLEM_KINDS and c.kind != CANDIDATE]

    @property
    def mended(self) -> int:
        """How many changes the mending made to complete the hand (each one a check)."""
        return sum(c.kind == "mended" for c in self.checks)

    @property
    def scored_winning_tile(self) -> str | None:
        """The code of the winning tile the score assumes (given, set apart, or the best
        candidate), None when there is none."""
        if self.context.winning_tile is not None:
            return self.context.winning_tile.code
        if self.layout.winning_tile:
            return self.layout.winning_tile
        if self.winning_from == "candidate":
            return self.candidates[0].tile.code
        return None

    @property
    def ignored(self) -> list[TileRead]:
        """Tiles lying apart from the hand's rows: left out of the hand."""
        return list(self.layout.ignored)

    @property
    def flagged(self) -> list[TileRead]:
        """Tiles read with low confidence that are part of the hand: to be checked."""
        apart = {t.index for t in self.layout.ignored}
        return [t for t in self.tiles if t.flagged and t.index not in apart]

    @property
    def warned(self) -> set[int]:
        """The readings (by index) a check names: shown like low-confidence tiles."""
        return {i for c in self.checks for i in c.tiles}

    def to_check(self, r: TileRead) -> bool:
        """Is this tile flagged, by the reader's low confidence or by a check?"""
        return r.flagged or r.index in self.warned

    @property
    def in_hand(self) -> list[TileRead]:
        apart = {t.index for t in self.layout.ignored}
        return [t for t in self.tiles if t.index not in apart]

    def hand_json(self, with_context: bool = True) -> dict[str, Any]:
        """The structured form of :mod:`scoring.structured`: what the photo showed (the winning
        tile as the context gives it, if it does) plus, by default, the context."""
        out = self.layout.to_dict()
        if self.context.winning_tile is not None:
            out["winning_tile"] = self.context.winning_tile.code
        if with_context:
            out.update(self.context.to_json())
        return out


def mend_notes(tiles: list[TileRead], layout: Layout[TileRead]) -> list[str]:
    """One sentence per change :mod:`vision.mend` made to complete the hand, for the player to
    check: boxes left out or taken in, tiles taken as another candidate than the reader's first."""
    return [c.message for c in mended(tiles, layout)]


def finish(
    tiles: list[TileRead],
    layout: Layout[TileRead],
    context: HandContext,
    rules: str | None,
    options: dict[str, str] | None = None,
    **fields: Any,
) -> HandResult:
    """The layout's hand in its context, scored under ``rules`` (when given): a scorer's error
    becomes an invalid score with the reason, never an exception. ``fields``: the rest of the
    :class:`HandResult` (rejected boxes, timings, the image)."""
    t0 = time.perf_counter()
    kinds = list(layout.problem_kinds)
    problems = list(layout.problems)
    hand: Hand | None = None
    hand_error = score = None
    try:
        hand = hand_from_layout(layout, context)
    except HandError as exc:
        hand_error = str(exc)
    winning_from = "given" if context.winning_tile is not None else "photo" if layout.winning_tile else None
    found: list[Candidate] = []
    notes: list[str] = []
    problem: Problem | None = None
    waits: list[Candidate] = []
    if rules is not None:
        # nothing set apart: every tile that could have won (listed even when the tile is given)
        given = layout.winning_tile is None and context.winning_tile is not None
        scored = score_or_best(hand, rules, options, hand_error=hand_error, listed=given)
        score, found, chosen = scored.score, scored.candidates, scored.chosen
        problem, waits = scored.problem, scored.waits
        if chosen is not None:
            winning_from = "candidate"
            notes.append(
                f"no winning tile set apart: scored as if {chosen.tile.code} won, the best of "
                f"{len(found)} candidate(s){needs_words(chosen)}; check which tile won"
            )
    if winning_from is not None or problem is not None:
        # the winning tile is known or chosen, or the tiles are no win whichever tile won (their
        # count, a fifth copy): the layout's lack of a winning tile is moot
        kept = [(k, p) for k, p in zip(kinds, problems, strict=True) if k != "no_winning_tile"]
        kinds, problems = [k for k, _ in kept], [p for _, p in kept]
    reason = score.error if score is not None and not score.valid else None
    if score is not None:
        score = with_problems(score, problems)
    found_checks = checks(tiles, layout, fields.get("rejected", []))
    timings = dict(fields.pop("timings", {}))
    timings["score"] = time.perf_counter() - t0
    every = [
        *(Check(k, p) for k, p in zip(kinds, problems, strict=True)),
        *found_checks,
        *(Check(CANDIDATE, n) for n in notes),
    ]
    return HandResult(
        tiles=list(tiles),
        layout=layout,
        context=context,
        hand=hand,
        score=score,
        rules=rules,
        hand_error=hand_error,
        checks=every,
        verdict=judge(tiles, layout, every),
        timings=timings,
        candidates=found,
        winning_from=winning_from,
        score_reason=reason,
        problem=problem,
        waits=waits,
        **fields,
    )


def scene_result(
    scene: Scene, context: HandContext, rules: str | None, options: dict[str, str] | None = None
) -> HandResult:
    """The end of a photo's road: the scene's hand built and scored (:func:`finish`), with its
    tiles, the boxes read as no tile, the photo, the seconds each step took and the record."""
    assert scene.layout is not None, "the road lays the hand out before it is scored"
    return finish(
        list(scene.tiles),
        scene.layout,
        context,
        rules,
        options,
        rejected=list(scene.rejected),
        timings=dict(scene.timings),
        image_shape=scene.photo.shape,
        image=scene.photo.pixels,
        scale=scene.photo.scale,
        second_pass=scene.second_pass,
        record=list(scene.record),
    )


def score_tiles(
    tiles: list[TileRead], context: HandContext, rules: str | None, options: dict[str, str] | None = None
) -> HandResult:
    """Tiles a player placed or corrected (the web page's tiles): laid out as they are (no
    mending: the player has the last word) and scored."""
    t0 = time.perf_counter()
    layout = lay_out(tiles)
    return finish(tiles, layout, context, rules, options, timings={"layout": time.perf_counter() - t0})
