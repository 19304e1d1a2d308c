"""The ``photo`` command's text: the tiles read, the hand, the candidates, the score (stdout), and
what to check (stderr).

The hand, the candidates and the score are the typed hand's own lines (:mod:`scoring.render`,
:meth:`scoring.result.Score.render`), so a photo's score reads as a typed one does, in English or
Italian (``lang``). What to check stays in English: it is about the photo, for the one running the
command, like every ``error:`` line.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, translator
from mahjong_camera_scorer.scoring.render import candidate_lines, hand_lines, wait_lines
from mahjong_camera_scorer.scoring.tiles import tile
from mahjong_camera_scorer.vision.render.order import reading_order
from mahjong_camera_scorer.vision.render.verdict import verdict_line
from mahjong_camera_scorer.vision.result import HandResult

#: How the note on tiles left out of the hand names each reason (vision.table.LeftOut.why).
LEFT_OUT = {
    "apart": "lying apart from the hand's rows",
    "wall": "in a wall (face down)",
    "other row": "in other rows (discards, other players' hands)",
    "bonus apart": "flowers or seasons beside other players' tiles",
}

#: how the ``photo`` command tells its user to give the tile that won, and for a ready hand's waits
PHOTO_HINT = "give the one that won with --winning-tile"
PHOTO_WAIT_HINT = "photograph the hand with the tile that won"


def tile_line(result: HandResult) -> str:
    """The tiles read, in the layout's reading order (:func:`reading_order`: the hand's groups
    row by row, each left to right in the hand's own frame, then bonus tiles and the tiles left
    out), so a turned photo or a table's rows read as the hand lies: ``?`` marks a low-confidence
    reading, ``!`` a tile a check names."""
    parts = []
    warned = result.warned
    for r, _, _ in reading_order(result):
        g = "🀫" if r.is_back else tile(r.code).glyph
        mark = ("?" if r.flagged else "") + ("!" if r.index in warned else "")
        turn = {"sideways": "⟲", "upside_down": "↕"}.get(r.orientation, "")
        parts.append(f"{r.code}{turn}{mark}{g}")
    return " ".join(parts)


def left_out_notes(result: HandResult, most: int = 6) -> list[str]:
    """One note per reason tiles were left out of the hand (never scored), with where they lie."""
    notes = []
    for why, label in LEFT_OUT.items():
        tiles = [t for lo in result.layout.left_out if lo.why == why for t in lo.tiles]
        if tiles:
            where = ", ".join(f"x={t.box[0]:.0f} y={t.box[1]:.0f}" for t in tiles[:most])
            more = f" and {len(tiles) - most} more" if len(tiles) > most else ""
            notes.append(f"note: left out {len(tiles)} tile(s) {label} ({where}{more})")
    return notes


def check_lines(result: HandResult) -> list[str]:
    """What the ``photo`` command says on stderr, one line each: the tiles left out, the checks,
    the low-confidence tiles with their alternatives, the layout's problems."""
    lines = left_out_notes(result)
    lines += [f"warning: {note}" for note in result.warnings]
    for r in result.flagged:
        alts = ", ".join(f"{c} {p:.2f}" for c, p in r.alternatives)
        lines.append(
            f"warning: tile at x={r.box[0]:.0f} y={r.box[1]:.0f} read as {r.code} with confidence "
            f"{r.confidence:.2f} (check it; candidates {alts})"
        )
    lines += [f"warning: {p}" for p in result.problems]
    return lines


def text_lines(result: HandResult, lang: str = DEFAULT_LANG) -> list[str]:
    """What the ``photo`` command prints: the verdict first (sure, or the tiles to check by
    place), the tiles read, the hand, the candidates when the score assumes one, the score."""
    assert result.score is not None  # the photo command always scores
    tr = translator(lang)
    lines = [verdict_line(result.verdict, lang)]
    lines.append(tr("Read:  {n} tiles: {tiles}").format(n=len(result.tiles), tiles=tile_line(result)))
    if result.hand is not None:
        lines.append(hand_lines(result.hand, lang))
    if result.candidates and result.winning_from not in ("given", "photo"):
        lines.append(candidate_lines(result.candidates, PHOTO_HINT, lang))
    if result.waits:
        lines.append(wait_lines(result.waits, PHOTO_WAIT_HINT, lang))
    lines.append(result.score.render(lang))
    return lines
