"""The JSON records of a read photo: ``photo --json``, each line of ``photos``, and each steady view
of the camera (``readings.jsonl``).

A record is for a program: keys and values are identifiers, with no language. What to check is one
list (:attr:`HandResult.checks`); the ``problems``, ``warnings`` and ``checks`` of a record are its
views.
"""

from __future__ import annotations

from typing import Any

from mahjong_camera_scorer.scoring.render import problem_record
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.result import HandResult


def photo_json(result: HandResult) -> dict[str, Any]:
    """Everything, as ``photo --json`` and each JSON line of ``photos`` give it: the keys
    ``problems``, ``warnings`` and ``checks`` are views of the one list of checks."""
    warned = result.warned
    kinds: dict[int, list[str]] = {}
    for c in result.tile_checks:
        for i in c.tiles:
            kinds.setdefault(i, []).append(c.kind)

    def tile(t: TileRead) -> dict[str, Any]:
        out = t.to_json()
        if t.index in warned:
            out["checks"] = kinds[t.index]
        return out

    why = {t.index: lo.why for lo in result.layout.left_out for t in lo.tiles}
    out: dict[str, Any] = {
        # sure, or the tiles to check by place (vision.verdict): what a person sees first
        "verdict": result.verdict.to_json(),
        "tiles": [tile(t) for t in result.tiles],
        "hand": result.hand_json(),
        "problems": list(result.problems),
        # tiles left out of the hand, each with why: apart, wall, other row, bonus apart
        "ignored": [{**tile(t), "why": why.get(t.index, "apart")} for t in result.layout.ignored],
        "rejected": [tile(t) for t in result.rejected],
        "flagged": [t.to_json() for t in result.flagged],
        # boxes the hand's rules decided on (vision.mend): reported, since each is a guess
        "boxes_left_out": [t.to_json() for t in result.layout.dropped],
        "boxes_taken_in": [t.to_json() for t in result.layout.added],
        "warnings": list(result.warnings),
        "checks": [c.to_json() for c in result.tile_checks],
        "timings_ms": {k: round(v * 1000, 1) for k, v in result.timings.items()},
        # what each step of the road added, dropped, moved or recoded, and why (vision.scene)
        "record": [c.to_json() for c in result.record],
    }
    if result.second_pass is not None:
        out["second_pass"] = result.second_pass.to_json()
    if result.score is not None:
        out["score"] = result.score.to_json()
    if result.candidates:
        out["candidates"] = [c.to_json() for c in result.candidates]
    out.update(problem_record(result.problem, result.waits))
    out["winning_tile_from"] = result.winning_from
    out["scored_winning_tile"] = result.scored_winning_tile
    return out


def camera_json(result: HandResult, frame: int, seconds: float) -> dict[str, Any]:
    """One steady view as the camera's ``readings.jsonl`` line gives it."""
    assert result.score is not None  # the camera always scores
    return {
        "frame": frame,
        "verdict": result.verdict.to_json(),
        "tiles": [r.to_json() for r in result.tiles],
        "hand": result.hand_json(),
        "problems": list(result.problems),
        "score": result.score.to_json(),
        "winning_tile_from": result.winning_from,
        "scored_winning_tile": result.scored_winning_tile,
        "candidates": [c.to_json() for c in result.candidates],
        **problem_record(result.problem, result.waits),
        "read_ms": round(seconds * 1000, 1),
    }
