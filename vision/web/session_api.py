"""The phone page's table mode on the server: a table's session, scored by the one session engine.

The page keeps the session (setup and rows) in the browser and sends all of it with every change;
the server keeps nothing. Totals, winds, counters, penalties and the closing all come from
:func:`scoring.session.engine.run_session`, never from the page's own arithmetic.

- ``GET /api/session/meta`` what the table form offers: the penalty infractions of each system,
  the systems that score the losers' hands too, the systems with chombo rows.
- ``POST /api/session`` ``{rules, options, session}`` → ``{"sheet": …}`` (the sheet as
  ``mahjong-score session --json`` prints it, with ``next``: the winds and label of the next hand).
  ``session`` is the session file's structured form (tournament, session, table, players, hands);
  a photo's row carries the page's corrected ``reading`` (hand, flagged tiles, warnings) instead of
  a path: the engine marks it for confirmation as it marks any photo, until ``confirmed: true``.
- ``POST /api/session/export`` the same body plus ``format`` (csv, json or html) and ``thumbs``
  (photo name → small ``data:image/jpeg`` picture for the printable sheet) → the file, as a download.
  ``lang`` (``en`` or ``it``, in both requests) is the language of the sheet and of its notes.

Rows are checked as strictly as a session file's: a key nobody reads, a contradiction or a number
out of range is a 400 naming the row (``hands[3]``).

Bad input is a JSON ``{"error": "…"}`` (:class:`vision.web.errors.ApiError`), never a 500: 400
for a session the engine refuses, 422 for a body that does not fit its model (as every endpoint),
413 for a body too large (the app's request guard reads JSON bodies with their limits,
:data:`SESSION_PATHS`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.concurrency import run_in_threadpool

from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.i18n import render, translator
from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS, check_context
from mahjong_camera_scorer.scoring.session.engine import TABLE_SYSTEMS, Sheet, run_session
from mahjong_camera_scorer.scoring.session.html import sheet_html
from mahjong_camera_scorer.scoring.session.load import session_from_dict
from mahjong_camera_scorer.scoring.session.model import SessionError
from mahjong_camera_scorer.scoring.session.output import sheet_csv, sheet_json
from mahjong_camera_scorer.scoring.session.penalties import INFRACTIONS
from mahjong_camera_scorer.scoring.situation_words import option_values
from mahjong_camera_scorer.scoring.tiles import TileError
from mahjong_camera_scorer.vision.web.errors import ApiError

#: the largest body: a whole session with a thumbnail per photo (a few kB each)
MAX_SESSION_BODY = 4 << 20
#: the JSON endpoints and their body limits, for the app's request guard
SESSION_PATHS = {"/api/session": MAX_SESSION_BODY, "/api/session/export": MAX_SESSION_BODY}
MAX_ROWS = 200  # a long riichi hanchan with repeats and penalties stays far below
MAX_THUMB = 96 << 10
_THUMB_PREFIXES = ("data:image/jpeg;base64,", "data:image/png;base64,", "data:image/webp;base64,")
_NO_STORE = {"Cache-Control": "no-store"}


class SessionRequest(BaseModel):
    """A table's session as the page holds it."""

    model_config = ConfigDict(extra="forbid")
    rules: str = Field(description="mcr, riichi, zung-jung, australian or classical")
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)
    session: dict[str, Any] = Field(
        description="tournament, session, table, players [{name, seat, number}], hands [rows]"
    )
    lang: Literal["en", "it"] = Field("en", description="the sheet's language: en or it")


class ExportRequest(SessionRequest):
    format: Literal["csv", "json", "html"]
    thumbs: dict[str, str] = Field(default_factory=dict, description="photo name → data:image URL")

    @field_validator("thumbs")
    @classmethod
    def _pictures_only(cls, thumbs: dict[str, str]) -> dict[str, str]:
        for name, url in thumbs.items():
            if not url.startswith(_THUMB_PREFIXES) or len(url) > MAX_THUMB:
                raise ValueError(f"{name!r}: a data:image URL of at most {MAX_THUMB // 1024} kB")
        return thumbs


def _sheet(body: SessionRequest) -> Sheet:
    """Run the engine on the page's session; :class:`ApiError` with the engine's own message."""
    if body.rules not in RULE_SYSTEMS:
        raise ApiError(400, f"unknown rules {body.rules!r}: choose one of {', '.join(RULE_SYSTEMS)}")
    hands = body.session.get("hands")
    if isinstance(hands, list) and len(hands) > MAX_ROWS:
        raise ApiError(400, f"a session has at most {MAX_ROWS} rows here, this one has {len(hands)}")
    try:
        options = option_values(body.options, "options")  # read as a session file's and the CLI's
        check_context(body.rules, (), options)  # an unknown option refused, as the command line does
        session = session_from_dict(body.session)
        for row in session.rows:
            # the server reads no files for the page: a photo comes with the page's reading of it
            if row.kind == "hand" and row.hand is None and row.reading is None:
                raise SessionError(f"{row.line}: a photo's row needs the page's 'reading' of it")
        return run_session(session, body.rules, options, read_photo=_no_files)
    except UnknownKeyError as exc:  # a misspelled key: the request's own form, as at every endpoint
        raise ApiError(422, f"invalid request: {exc}") from None
    except (SessionError, HandError, TileError) as exc:
        raise ApiError(400, str(exc)) from None


def _no_files(path: Any) -> Any:  # never called: every photo row carries its reading (checked above)
    raise SessionError("the server reads no photo files for the page")


def _filename(sheet: Sheet, ext: str) -> str:
    s = sheet.session
    parts = [p for p in (s.tournament, f"session-{s.session}" if s.session else "", f"table-{s.table}") if p]
    stem = "_".join(re.sub(r"[^A-Za-z0-9.-]+", "-", p).strip("-.") for p in parts).strip("_")[:80]
    stem = stem or "session"
    return f"{stem}.{ext}"


router = APIRouter()


@router.get("/api/session/meta", summary="What the table mode offers: penalties, losers' hands, chombo")
async def session_meta() -> dict[str, Any]:
    return {
        "infractions": {k: list(v) for k, v in INFRACTIONS.items()},
        "scores_losers": list(TABLE_SYSTEMS),
        "chombo": ["riichi"],
    }


@router.post("/api/session", summary="Score a table's session: every row settled, running totals, closing")
async def api_session(body: SessionRequest) -> JSONResponse:
    sheet = await run_in_threadpool(_sheet, body)
    return JSONResponse({"sheet": _sheet_json(sheet, body.lang)}, headers=_NO_STORE)


@router.post("/api/session/export", summary="The session's sheet as a CSV, JSON or printable HTML file")
async def api_session_export(body: ExportRequest) -> Response:
    sheet = await run_in_threadpool(_sheet, body)
    if body.format == "csv":
        text, media = sheet_csv(sheet, body.lang), "text/csv"
    elif body.format == "json":
        doc = _sheet_json(sheet, body.lang)
        text, media = json.dumps(doc, ensure_ascii=False, indent=1), "application/json"
    else:
        text = await run_in_threadpool(sheet_html, sheet, ".", body.thumbs, body.lang)
        media = "text/html"
    headers = {**_NO_STORE, "Content-Disposition": f'attachment; filename="{_filename(sheet, body.format)}"'}
    return Response(text, media_type=f"{media}; charset=utf-8", headers=headers)


def _sheet_json(sheet: Sheet, lang: str) -> dict[str, Any]:
    """The sheet's JSON with each line's notes and each penalty's note in ``lang``."""
    doc = sheet_json(sheet)
    tr = translator(lang)
    for out, line in zip(doc["lines"], sheet.lines, strict=True):
        out["notes"] = [render(n, tr) for n in line.notes]
    for out, pen in zip(doc["penalties"], sheet.penalties, strict=True):
        out["note"] = render(pen.note, tr)
    doc["lang"] = lang
    return doc


__all__ = ["MAX_SESSION_BODY", "router"]
