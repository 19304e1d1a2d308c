"""The phone page's payload for a read photo, corrected tiles or a typed hand.

The page shows the tiles in reading order (:mod:`.order`), the hand, the score with its notes and
who pays whom, the candidate winning tiles, and what to check as notice kinds (:mod:`.notices`)
that the page words itself. A tile is shown by :func:`tile_info` (its code, glyph and name), in
the palette of corrections too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mahjong_camera_scorer.scoring.candidates import Candidate, Scored
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, term, translator
from mahjong_camera_scorer.scoring.payments import Payment, between_seats, net_by_seat
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.tiles import tile
from mahjong_camera_scorer.vision.classes import BACK
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.render.notices import score_notices, tile_notices
from mahjong_camera_scorer.vision.render.order import reading_order
from mahjong_camera_scorer.vision.render.verdict import verdict_line
from mahjong_camera_scorer.vision.result import HandResult


def tile_info(code: str) -> dict[str, Any]:
    """A tile as the page shows it (and its palette lists it): the vision code, the Unicode glyph
    and the tile's name."""
    t = tile("?" if code == BACK else code)
    return {
        "code": code,
        "glyph": t.glyph,
        "name": "face-down tile" if code == BACK else t.name,
        "suit": "back" if code == BACK else code[1],
    }


def candidates_payload(found: list[Candidate]) -> list[dict[str, Any]]:
    """The candidates as the page lists them, best first: the tile, its score in short, what
    the win needs (situation flags), and whether it wins at all."""
    out = []
    for c in found:
        s = c.score
        out.append(
            {
                **tile_info(c.tile.code),
                "valid": s.valid,
                "total": s.total if s.valid else None,
                "unit": s.unit,
                "fu": s.details.get("fu") if s.valid else None,
                "limit": s.details.get("limit")
                if s.valid and isinstance(s.details.get("limit"), str)
                else None,
                "needs": list(c.needs),
            }
        )
    return out


def winning_payload(
    winning_from: str | None, code: str | None, set_apart: str | None = None
) -> dict[str, Any]:
    """Which tile the score takes as the winning tile and where it comes from: ``photo`` (set
    apart), ``given`` (the player chose it), ``candidate`` (the best candidate), or none; with a
    layout, ``set_apart``: the tile the photo showed set apart (None: the page lists candidates)."""
    return {"tile": code, "from": winning_from, "set_apart": set_apart}


def settlement(payments: Sequence[Payment]) -> dict[str, int] | None:
    """Net points per seat (E, S, W, N) from the score's payments; None when there are none or a
    payer's seat is not known (a discard win without the discarder)."""
    if not payments or not between_seats(payments):
        return None
    return net_by_seat(payments)


def score_words(score: Score, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """What the page reads out of a score, in ``lang``: each element as the seed names it, with its
    value; the unit; a limit's name; the system's notes (fu, payments…); why it is no win."""
    tr = translator(lang)
    limit = score.details.get("limit")
    return {
        "elements": [[name, value] for name, value in score.labelled_elements(lang)],
        "unit": tr(score.unit),
        "limit": term(lang, score.rules, limit) if score.valid and isinstance(limit, str) else None,
        "notes": score.note_lines(lang),
        "error": score.error,
    }


def score_json(
    hand: dict[str, Any], score: Score, problems: list[str], lang: str = DEFAULT_LANG
) -> dict[str, Any]:
    """The hand, what to check, the score with its notes (``words``: what the page shows of it, in
    ``lang``), and who pays whom."""
    out = score.to_json()
    out["notes"] = [str(note) for note in score.notes]
    out["words"] = score_words(score, lang)
    return {
        "hand": hand,
        "problems": problems,
        "score": out,
        "settlement": settlement(score.payments),
    }


def page_tiles(result: HandResult, ids: list[Any] | None = None) -> list[dict[str, Any]]:
    """The tiles as the page holds them; ``ids``: the page's own ids by tile index (a corrected
    hand), else the tiles were read from a photo and carry what the reader said. A tile a check
    names (:mod:`vision.checks`) is flagged like a low-confidence one and carries the checks'
    sentences; a tile left out of the hand (role ``unused``) says why."""
    said: dict[int, list[str]] = {}
    for c in result.tile_checks:
        for i in c.tiles:
            said.setdefault(i, []).append(c.message)
    why = {t.index: lo.why for lo in result.layout.left_out for t in lo.tiles}
    out = []
    for t, group, role in reading_order(result):
        item = {
            **tile_info(t.code),
            "box": [round(float(v), 1) for v in t.box],
            "orientation": t.orientation,
            "turn": t.turn,
            "turn_confidence": round(float(t.turn_confidence), 3),
        }
        if ids is None:
            item.update(_reading_extra(t))
        if t.index in said:
            item.update(flagged=True, checks=said[t.index])
        if t.index in why:
            item["why"] = why[t.index]
        item.update(id=t.index if ids is None else ids[t.index], group=group, role=role)
        out.append(item)
    return out


def page_json(result: HandResult, ids: list[Any] | None = None, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """What the page shows of a :class:`HandResult`: tiles, hand, what to check, score (its words
    in ``lang``). What the mending changed to complete the hand is listed with the problems, to
    check."""
    assert result.score is not None  # the web app always scores

    def page_id(i: int) -> Any:
        return ids[i] if ids is not None and 0 <= i < len(ids) else i

    return {
        # sure, or the tiles to check by place, in words and as data (the tiles by the page's ids)
        "verdict": {
            **result.verdict.to_json(),
            "line": verdict_line(result.verdict, lang),
            "tiles": [page_id(d.index) for d in result.verdict.doubts],
        },
        "tiles": page_tiles(result, ids),
        **score_json(result.hand_json(), result.score, [*result.warnings, *result.problems], lang),
        # the tiles that could have completed a hand with no winning tile set apart, and the one
        # the score takes; what to check, as kinds the page words itself (vision.render.notices)
        "candidates": candidates_payload(result.candidates),
        # a hand one tile short: each tile it waits on, with what it would score
        "waits": candidates_payload(result.waits),
        "winning": winning_payload(
            result.winning_from, result.scored_winning_tile, result.layout.winning_tile
        ),
        "notices": [
            *tile_notices(result.problem_kinds, result.tile_checks, page_id),
            *score_notices(
                result.score,
                result.hand,
                result.candidates,
                result.winning_from,
                result.score_reason,
                result.hand_error,
                result.problem,
                result.waits,
            ),
        ],
        # what to check, each naming its tiles by the page's ids
        "checks": [{**c.to_json(), "tiles": [page_id(i) for i in c.tiles]} for c in result.tile_checks],
        # tiles left out of the hand (walls, discards, other players' hands, strays): never scored
        "left_out": [
            {"why": lo.why, "tiles": [page_id(t.index) for t in lo.tiles]} for lo in result.layout.left_out
        ],
    }


def _reading_extra(r: TileRead) -> dict[str, Any]:
    out: dict[str, Any] = {"confidence": round(float(r.confidence), 4), "flagged": bool(r.flagged)}
    if r.corrected_from:
        out["corrected_from"] = r.corrected_from
    out["alternatives"] = [{"code": c, "confidence": round(float(p), 4)} for c, p in r.alternatives]
    return out


def typed_page_json(
    hand: dict[str, Any],
    built: Hand | None,
    scored: Scored,
    problems: list[str],
    reason: str | None,
    hand_error: str | None = None,
    lang: str = DEFAULT_LANG,
) -> dict[str, Any]:
    """What the page shows of a typed (structured) hand: the hand as sent, the score, the
    candidates, which tile the score takes (``given`` by the hand, else the best ``candidate``)
    and the notices about the score. ``reason``: the rules' own words for refusing the hand."""
    winning_from: str | None = None
    scored_tile: str | None = None
    if built is not None and built.context.winning_tile is not None:
        winning_from, scored_tile = "given", built.context.winning_tile.code
    elif scored.chosen is not None:
        winning_from, scored_tile = "candidate", scored.chosen.tile.code
    out = score_json(hand, scored.score, problems, lang)
    out.update(
        candidates=candidates_payload(scored.candidates),
        waits=candidates_payload(scored.waits),
        winning=winning_payload(winning_from, scored_tile),
        notices=score_notices(
            scored.score,
            built,
            scored.candidates,
            winning_from,
            reason,
            hand_error,
            scored.problem,
            scored.waits,
        ),
    )
    return out
