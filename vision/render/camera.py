"""The camera's words: the live overlay's lines, the frozen view's breakdown and the lines the
``camera`` command reports for each steady view.

The camera (:mod:`vision.camera`) draws these and adds nothing of its own: the overlay's status
and hints, the hand in one line, the score in one line (total, fu, limit), the candidates, and
the frozen breakdown (the score's elements beside their values, its notes). Drawing (OpenCV's
ASCII-only fonts, wrapping to the frame's width) stays with the camera.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, term, translator
from mahjong_camera_scorer.scoring.render import candidate_lines, wait_lines
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.vision.render.verdict import verdict_line
from mahjong_camera_scorer.vision.result import HandResult

#: how the camera tells its user to give the tile that won, and for a ready hand's waits
CAMERA_HINT = "set the tile that won apart at the right of the row"
CAMERA_WAIT_HINT = "show the tile that won beside the hand"


def hand_line(result: HandResult) -> str:
    """The hand in one line: concealed tiles, sets (``[open]``, ``(concealed)``), the winning tile
    (``?`` and how many could have won when the score assumes the best candidate)."""
    h = result.hand_json()
    melds = " ".join(
        ("[{}]" if m.get("open", True) else "({})").format(m["tiles"]) for m in h.get("melds", [])
    )
    win = h.get("winning_tile") or ""
    if not win and result.winning_from == "candidate":
        win = f"{result.scored_winning_tile}? (best of {len(result.candidates)})"
    parts = [h.get("hand") or "", melds, f"win {win}" if win else ""]
    return " ".join(p for p in parts if p)


def score_line(score: Score, lang: str = DEFAULT_LANG) -> str:
    """One line: total and unit, and riichi's fu and limit."""
    tr = translator(lang)
    if not score.valid:
        return tr("not scored: {reason}").format(reason=score.error)
    d = score.details
    extra = [f"{d['fu']} fu"] if d.get("fu") else []
    if isinstance(d.get("limit"), str):
        extra.append(term(lang, score.rules, d["limit"]))
    return " ".join([f"{score.total} {tr(score.unit)}", *extra])


def guessed(result: HandResult) -> bool:
    """No winning tile set apart in view: the candidates are shown, to be checked."""
    return bool(result.candidates) and result.winning_from not in ("given", "photo")


def candidates_line(result: HandResult, lang: str = DEFAULT_LANG) -> str:
    """The candidate winning tiles in one line, best first, each with its score (the ``*`` one is
    scored)."""
    return translator(lang)("won by? ") + ", ".join(
        f"{c.tile.code}{'*' if i == 0 and c.valid else ''} "
        f"{score_line(c.score, lang) if c.valid else translator(lang)('no win')}"
        for i, c in enumerate(result.candidates)
    )


def live_lines(
    tiles: int,
    steady: bool,
    motion: float,
    fps: float | None,
    result: HandResult | None,
    rules: str,
    lang: str = DEFAULT_LANG,
) -> list[str]:
    """The live overlay's lines: the status (frames per second, tiles in view, steady or moving),
    then the reading's hand, score and candidates, or what to do, then the keys."""
    tr = translator(lang)
    status = tr("{n} tiles  ").format(n=tiles) + (
        tr("steady") if steady else tr("moving ({motion})").format(motion=f"{motion:.1f}")
    )
    if fps:
        status = f"{fps:4.1f} fps  " + status
    lines = [status]
    if result is not None:
        assert result.score is not None  # the camera always scores
        lines.append(verdict_line(result.verdict, lang))
        lines.append(hand_line(result))
        lines.append(f"{rules}: {score_line(result.score, lang)}")
        if guessed(result):
            lines.append(candidates_line(result, lang))
    else:
        lines.append(tr("hold the camera still to read the hand") if tiles else tr("no tiles in view"))
    lines.append(tr("[space] score  [q] quit"))
    return lines


def breakdown_rows(result: HandResult, lang: str = DEFAULT_LANG) -> list[tuple[str, str]]:
    """The frozen view's panel, row by row (left text, right value): the hand, the rules, why it is
    not a win, the candidates or a ready hand's waits, each element with its value, the total,
    the notes, the layout's problems, the key back. Rows without a value are whole lines (the
    camera wraps them)."""
    assert result.score is not None  # the camera always scores
    tr = translator(lang)
    s = result.score
    rows: list[tuple[str, str]] = [(tr("Hand: {hand}").format(hand=hand_line(result)), "")]
    rows.append((tr("Rules: {rules}").format(rules=s.rules), ""))
    if not s.valid:
        rows.append((tr("Not a valid win: {reason}").format(reason=s.error), ""))
    if guessed(result):
        rows += [(ln, "") for ln in candidate_lines(result.candidates, CAMERA_HINT, lang).split("\n")]
    if result.waits:  # one tile short: what each tile it waits on would score
        rows += [(ln, "") for ln in wait_lines(result.waits, CAMERA_WAIT_HINT, lang).split("\n")]
    rows += [("  " + name, str(value)) for name, value in s.labelled_elements(lang)]
    if s.elements:
        rows.append(("  " + tr("Total"), score_line(s, lang)))
    rows += [(n, "") for n in s.note_lines(lang)]
    rows += [(f"layout: {p}", "") for p in result.problems]
    rows.append((tr("any key: back to the live view"), ""))
    return rows


def report_line(frame: int, result: HandResult, rules: str, lang: str = DEFAULT_LANG) -> str:
    """What the ``camera`` command prints for each steady view read."""
    assert result.score is not None  # the camera always scores
    verdict = "sure" if result.verdict.sure else f"check {len(result.verdict.doubts)}"
    return f"frame {frame}: {hand_line(result)}  [{rules}] {score_line(result.score, lang)}  ({verdict})"


def frozen_text(result: HandResult, lang: str = DEFAULT_LANG) -> str:
    """What the ``camera`` command prints when a view is frozen: the hand, the score's lines."""
    assert result.score is not None  # the camera always scores
    hand = translator(lang)("Hand:  {hand}").format(hand=hand_line(result))
    return "\n".join([verdict_line(result.verdict, lang), hand, result.score.render(lang)])
