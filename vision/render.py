"""Every way a :class:`vision.result.HandResult` is shown, in one module: the ``photo`` command's
lines (the tiles read, the hand, what to check), the JSON of ``photo --json`` and ``photos``, the
photos CSV's cells, the phone page's JSON, the camera's JSON lines and the session's
:class:`scoring.session.photo.PhotoHand`. A front end calls one of these and adds nothing of its
own, so a change of the result shows the same everywhere.

What to check is one list (:attr:`HandResult.checks`); the ``problems``, ``warnings`` and
``checks`` of each JSON are its views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scoring.candidates import render as render_candidates
from scoring.cli import describe_hand
from scoring.payments import Payment, between_seats, net_by_seat
from scoring.result import Score
from scoring.session.photo import PhotoHand
from scoring.tiles import tile
from vision.read import TileRead
from vision.result import HandResult
from vision.web.meta import tile_info
from vision.web.notices import candidates_payload, score_notices, tile_notices, winning_payload

# ------------------------------------------------------------------------------------------------
# the photo command: lines of text
# ------------------------------------------------------------------------------------------------
#: How the note on tiles left out of the hand names each reason (vision.table.LeftOut.why).
LEFT_OUT = {
    "apart": "lying apart from the hand's rows",
    "wall": "in a wall (face down)",
    "other row": "in other rows (discards, other players' hands)",
    "bonus apart": "flowers or seasons beside other players' tiles",
}


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


def text_lines(result: HandResult) -> list[str]:
    """What the ``photo`` command prints: the tiles read, the hand, the candidates when the score
    assumes one, the score."""
    assert result.score is not None  # the photo command always scores
    lines = [f"Read:  {len(result.tiles)} tiles: {tile_line(result)}"]
    if result.hand is not None:
        lines.append(describe_hand(result.hand))
    if result.candidates and result.winning_from not in ("given", "photo"):
        lines.append(render_candidates(result.candidates, "give the one that won with --winning-tile"))
    lines.append(result.score.render())
    return lines


# ------------------------------------------------------------------------------------------------
# JSON for photo --json and photos, and the photos CSV
# ------------------------------------------------------------------------------------------------
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
    out["winning_tile_from"] = result.winning_from
    out["scored_winning_tile"] = result.scored_winning_tile
    return out


#: the photos CSV's cells a read photo fills, after ``file`` (and a manifest's table and hand)
CSV_COLUMNS = (
    "tiles",
    "hand",
    "melds",
    "winning_tile",
    # no winning tile set apart: the one the score assumes and how many could have won (for the
    # referee to check which did); empty when the photo or the context gave the winning tile
    "best_candidate",
    "candidates",
    "bonus_tiles",
    "valid",
    "total",
    "unit",
    "flagged",
    # the changes the mending made to complete the hand (vision.mend), each one to check
    "mended",
)


def csv_cells(result: HandResult | None) -> list[Any]:
    """The photos CSV's cells for :data:`CSV_COLUMNS` (None: a photo not read: empty cells)."""
    if result is None:
        return ["", "", "", "", "", "", "", False, "", "", 0, 0]
    hand = result.hand_json()
    score = result.score.to_json() if result.score is not None else {}
    return [
        " ".join(t.code for t in result.tiles),
        hand.get("hand", ""),
        " ".join(m["tiles"] for m in hand.get("melds", [])),
        hand.get("winning_tile") or "",
        (result.scored_winning_tile or "") if result.winning_from == "candidate" else "",
        len(result.candidates) or "",
        " ".join(hand.get("bonus_tiles", [])),
        score.get("valid", False),
        score.get("total", ""),
        score.get("unit", ""),
        len(result.flagged),
        result.mended,
    ]


# ------------------------------------------------------------------------------------------------
# the phone page
# ------------------------------------------------------------------------------------------------
def settlement(payments: Sequence[Payment]) -> dict[str, int] | None:
    """Net points per seat (E, S, W, N) from the score's payments; None when there are none or a
    payer's seat is not known (a discard win without the discarder)."""
    if not payments or not between_seats(payments):
        return None
    return net_by_seat(payments)


def score_json(hand: dict[str, Any], score: Score, problems: list[str]) -> dict[str, Any]:
    """The hand, what to check, the score with its notes, and who pays whom."""
    out = score.to_json()
    out["notes"] = list(score.notes)
    return {
        "hand": hand,
        "problems": problems,
        "score": out,
        "settlement": settlement(score.payments),
    }


def reading_order(result: HandResult) -> list[tuple[TileRead, int | None, str]]:
    """Each tile with its place in the laid-out hand: its group (row, left to right) and its role
    (``concealed``, ``winning``, ``meld``, ``bonus`` or ``unused``), in reading order: the hand's
    groups as laid out, then the bonus tiles and the tiles left out, each row by row
    (:func:`by_rows`), never in the reader's order (by detector score)."""
    ordered: list[tuple[TileRead, int | None, str]] = [
        (t, i, g.role) for i, g in enumerate(result.layout.groups) for t in g.tiles]
    seen = {t.index for t, _, _ in ordered}
    bonus = [t for t in result.tiles if t.index not in seen and t.code.endswith("f")]
    ordered += [(t, None, "bonus") for t in by_rows(bonus)]
    seen = {t.index for t, _, _ in ordered}
    ordered += [(t, None, "unused") for t in by_rows([t for t in result.tiles if t.index not in seen])]
    return ordered


def by_rows(tiles: Sequence[TileRead]) -> list[TileRead]:
    """Tiles row by row, top to bottom, each row left to right: a tile starts a new row when its
    centre lies more than half a tile's height below the row's first tile."""
    rows: list[list[TileRead]] = []
    for t in sorted(tiles, key=lambda t: t.box[1] + t.box[3]):
        first = rows[-1][0] if rows else None
        if first is None or (t.box[1] + t.box[3]) / 2 - (first.box[1] + first.box[3]) / 2 > (
            first.box[3] - first.box[1]
        ) / 2:
            rows.append([t])
        else:
            rows[-1].append(t)
    return [t for r in rows for t in sorted(r, key=lambda t: t.box[0])]


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


def page_json(result: HandResult, ids: list[Any] | None = None) -> dict[str, Any]:
    """What the page shows of a :class:`HandResult`: tiles, hand, what to check, score. What the
    mending changed to complete the hand is listed with the problems, to check."""
    assert result.score is not None  # the web app always scores

    def page_id(i: int) -> Any:
        return ids[i] if ids is not None and 0 <= i < len(ids) else i

    return {
        "tiles": page_tiles(result, ids),
        **score_json(result.hand_json(), result.score, [*result.warnings, *result.problems]),
        # the tiles that could have completed a hand with no winning tile set apart, and the one
        # the score takes; what to check, as kinds the page words itself (vision.web.notices)
        "candidates": candidates_payload(result.candidates),
        "winning": winning_payload(
            result.winning_from, result.scored_winning_tile, result.layout.winning_tile
        ),
        "notices": [
            *tile_notices(result.problem_kinds, result.tile_checks, page_id),
            *score_notices(
                result.score, result.hand, result.candidates, result.winning_from, result.score_reason,
                result.hand_error,
            ),
        ],
        # what to check, each naming its tiles by the page's ids
        "checks": [{**c.to_json(), "tiles": [page_id(i) for i in c.tiles]} for c in result.tile_checks],
        # tiles left out of the hand (walls, discards, other players' hands, strays): never scored
        "left_out": [
            {"why": lo.why, "tiles": [page_id(t.index) for t in lo.tiles]} for lo in result.layout.left_out
        ],
    }


def _reading_extra(r: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"confidence": round(float(r.confidence), 4), "flagged": bool(r.flagged)}
    if getattr(r, "corrected_from", None):
        out["corrected_from"] = r.corrected_from
    out["alternatives"] = [
        {"code": c, "confidence": round(float(p), 4)} for c, p in getattr(r, "alternatives", ())
    ]
    return out


# ------------------------------------------------------------------------------------------------
# the camera and the session
# ------------------------------------------------------------------------------------------------
def camera_json(result: HandResult, frame: int, seconds: float) -> dict[str, Any]:
    """One steady view as the camera's ``readings.jsonl`` line gives it."""
    assert result.score is not None  # the camera always scores
    return {
        "frame": frame,
        "tiles": [r.to_json() for r in result.tiles],
        "hand": result.hand_json(),
        "problems": list(result.problems),
        "score": result.score.to_json(),
        "winning_tile_from": result.winning_from,
        "scored_winning_tile": result.scored_winning_tile,
        "candidates": [c.to_json() for c in result.candidates],
        "read_ms": round(seconds * 1000, 1),
    }


def photo_hand(result: HandResult) -> PhotoHand:
    """What a session needs of a photo: the hand as it shows it (the session gives it its
    context), the tiles as read, and everything to check before it is scored."""
    flagged = [
        f"{r.code} at x={r.box[0]:.0f} y={r.box[1]:.0f} (confidence {r.confidence:.2f})"
        for r in result.flagged
    ]
    return PhotoHand(
        result.hand,
        tiles=" ".join(r.code for r in result.in_hand),
        flagged=flagged,
        warnings=result.warnings + result.problems,
        error=result.hand_error,
    )
