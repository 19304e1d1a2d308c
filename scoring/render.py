"""How a typed hand's result is shown: its text lines and its JSON record.

The ``hand`` command prints these, the photo commands and the camera print the same lines of the
hand they read (:mod:`vision.render`), so a hand reads alike wherever it is scored. The score's own
lines are :meth:`scoring.result.Score.render` (the result renders itself); the candidates, the
hand's two lines and the JSON record of a hand with its candidates are here, one function each,
and a front end adds nothing of its own.

``lang`` is ``en`` or ``it`` (:mod:`scoring.i18n`); the JSON record has no language (its keys and
values are the identifiers a program reads).
"""

from __future__ import annotations

from typing import Any

from mahjong_camera_scorer.scoring.candidates import Candidate, Scored, best, needs_words, tile_codes
from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, Msg, msg, translator
from mahjong_camera_scorer.scoring.incomplete import Problem
from mahjong_camera_scorer.scoring.notation import format_hand
from mahjong_camera_scorer.scoring.tiles import format_tiles, glyphs


def hand_lines(hand: Hand, lang: str = DEFAULT_LANG) -> str:
    """Two lines a player can check against the table: the tiles as codes (the notation, which
    reads the same in every language) and as glyphs; a third for bonus tiles."""
    tr = translator(lang)
    tiles = list(hand.concealed)
    glyph_melds = " ".join(glyphs(m.tiles) for m in hand.melds)
    lines = [
        tr("Hand:  {hand}").format(hand=format_hand(hand)),
        tr("Tiles: {glyphs}").format(glyphs=f"{glyphs(tiles)}  {glyph_melds}").rstrip(),
    ]
    if hand.bonus_tiles:
        lines.append(
            tr("Bonus: {glyphs} ({codes})").format(
                glyphs=glyphs(hand.bonus_tiles), codes=format_tiles(hand.bonus_tiles)
            )
        )
    return "\n".join(lines)


def candidate_line(c: Candidate, lang: str = DEFAULT_LANG) -> str:
    """One candidate: the tile, its score (or why it does not win) and what its win needs."""
    tr = translator(lang)
    s = c.score
    if s.valid:
        fu = s.details.get("fu")
        value = f"{s.total} {tr(s.unit)}" + (f" {fu} fu" if fu else "")
    else:
        value = tr("no win: {reason}").format(reason=s.error)
    return f"{c.tile.code}: {value}{needs_words(c, tr)}"


def candidate_lines(found: list[Candidate], hint: str, lang: str = DEFAULT_LANG) -> str:
    """The candidates as the text front ends print them: which one the score assumes (marked
    ``*``), then each with its score; ``hint`` says how to give the tile that won (a sentence of
    the catalog, translated here)."""
    tr = translator(lang)
    chosen = best(found)
    if chosen is not None:
        head = tr(
            "Winning tile: none set apart; scored as if {tile} won, the best of {n} candidate(s) ({hint})"
        ).format(tile=chosen.tile.code, n=len(found), hint=tr(hint))
    else:
        head = tr("Winning tile: none set apart, and no candidate wins ({hint})").format(hint=tr(hint))
    return "\n".join([head, *(f"  {'*' if c is chosen else ' '} {candidate_line(c, lang)}" for c in found)])


def wait_lines(found: list[Candidate], hint: str, lang: str = DEFAULT_LANG) -> str:
    """A ready hand's waits (one tile short: :func:`scoring.candidates.waits`) as the text front
    ends print them, each with what it would score as the winning tile, best first; ``hint`` says
    how to give the tile that won (a sentence of the catalog)."""
    tr = translator(lang)
    head = tr("Waits: one tile from a win, on {tiles} ({hint})").format(
        tiles=" ".join(tile_codes(found)), hint=tr(hint)
    )
    return "\n".join([head, *(f"    {candidate_line(c, lang)}" for c in found)])


def problem_record(problem: Problem | None, waits: list[Candidate]) -> dict[str, Any]:
    """Why the tiles are no win whichever tile won (``problem``: its kind and facts,
    :mod:`scoring.incomplete`) and a ready hand's ``waits``: nothing when there is no problem.
    The typed hand's record and a photo's (:mod:`vision.render.records`) alike."""
    out: dict[str, Any] = {}
    if problem is not None:
        out["problem"] = {"kind": problem.kind, **problem.facts()}
    if waits:
        out["waits"] = [c.to_json() for c in waits]
    return out


#: how a hand was won, as a sheet's cell or a line says it (the identifiers are the input's)
WIN_BY_WORDS = {"self_draw": "self-draw", "discard": "discard"}


def win_by_words(win_by: str) -> Msg:
    """``win_by`` (``self_draw``, ``discard``) in words, for the reader's language."""
    return msg(WIN_BY_WORDS.get(win_by, win_by))


#: how the ``hand`` command tells a typist to give the tile that won, and a ready hand's
TYPED_HINT = "write 'ron TILE' or 'tsumo TILE' to say which"
TYPED_WAIT_HINT = "add the tile that won with 'ron TILE' or 'tsumo TILE'"


def typed_lines(hand: Hand, scored: Scored, lang: str = DEFAULT_LANG) -> str:
    """What ``hand`` prints: the hand, the candidates when the score assumes one, a ready hand's
    waits, the score."""
    lines = [hand_lines(hand, lang)]
    if scored.candidates:
        lines.append(candidate_lines(scored.candidates, TYPED_HINT, lang))
    if scored.waits:
        lines.append(wait_lines(scored.waits, TYPED_WAIT_HINT, lang))
    lines.append(scored.score.render(lang))
    return "\n".join(lines)


def typed_record(scored: Scored) -> dict[str, Any]:
    """What ``hand --json`` prints: the score's JSON, and with candidates the tile the score takes
    (None: none wins) and every candidate."""
    record = scored.score.to_json()
    if scored.candidates:
        record["scored_winning_tile"] = scored.chosen.tile.code if scored.chosen else None
        record["candidates"] = [c.to_json() for c in scored.candidates]
    record.update(problem_record(scored.problem, scored.waits))
    return record
