"""The one-hand endpoints: a photo, corrected tiles or a structured hand → the hand and its score.

- ``GET /api/meta`` the rule systems with their flags, context fields and options; the tile palette.
- ``POST /api/read`` a photo (``multipart/form-data``: ``image`` + optional ``rules``, ``options``
  and ``context`` as JSON text, ``set``: a taught set to read with) → the tiles read (code, glyph,
  box, confidence, orientation, flagged), the hand laid out, its score, a preview of the photo the
  boxes refer to, and ``read_id`` (a correction of its tiles can teach the set, :mod:`.sets_api`).
- ``POST /api/layout`` tiles with their boxes (the page's corrected reading) → hand and score:
  the server lays the hand out again from the corrected tiles, exactly as from a photo.
- ``POST /api/score`` a structured hand → its score (the page rescores with it when a toggle
  beside the score or the tile that won changes: no new read, no new layout).

With no winning tile set apart (or given), every answer lists the ``candidates`` (each tile that
could have completed the hand, with its score, best first) and scores the best; ``winning`` says
which tile the score takes and where from. What to check comes as ``notices``: problem kinds with
their facts, which the page words itself (:mod:`vision.render.notices`). The context a photo cannot
show is read by :func:`scoring.context.context_from_dict`, as on the command line, in a session
file or a manifest: the same words accepted (``ron``, ``West``), the same refused with the same
message (400). A key of the context or of a structured hand that nobody reads (``flag`` for
``flags``) is the request's own mistake: 422, naming the keys known.

The reader, the taught sets and the upload limit are the app's (``request.app.state``, set by
:func:`vision.web.app.create_app`); refusals are :class:`vision.web.errors.ApiError`.
"""

from __future__ import annotations

import base64
import logging
import time
from dataclasses import replace
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from mahjong_camera_scorer.scoring.candidates import score_or_best
from mahjong_camera_scorer.scoring.context import CONTEXT_FIELDS, HandContext, context_from_dict
from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, LANGS
from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS, with_problems
from mahjong_camera_scorer.scoring.situation_words import option_values
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from mahjong_camera_scorer.scoring.tiles import TileError
from mahjong_camera_scorer.vision.classes import TILE_CLASSES
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.read import TileRead
from mahjong_camera_scorer.vision.render.page import page_json, typed_page_json
from mahjong_camera_scorer.vision.result import HandResult, score_tiles
from mahjong_camera_scorer.vision.web.errors import ApiError
from mahjong_camera_scorer.vision.web.guard import loads_strict
from mahjong_camera_scorer.vision.web.meta import meta
from mahjong_camera_scorer.vision.web.reader import SharedReader
from mahjong_camera_scorer.vision.web.sets import Sets, photo_name
from mahjong_camera_scorer.vision.web.upload import (
    MAX_UPLOAD,
    decode_photo,
    form_schema,
    preview_jpeg,
    read_upload,
)

Lang = Literal["en", "it"]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False, ge=-1e6, le=1e6)]
#: Largest JSON body of /api/layout and /api/score (a hand is a few kB).
MAX_JSON_BODY = 1 << 20
#: the JSON endpoints and their body limits, for the app's request guard
HAND_PATHS = {"/api/layout": MAX_JSON_BODY, "/api/score": MAX_JSON_BODY}
#: where internal errors go, with their traceback (``serve`` prints it on stderr)
log = logging.getLogger("mahjong_camera_scorer.vision.web")


# ------------------------------------------------------------------------------------------------
# request bodies (documented in the OpenAPI page)
# ------------------------------------------------------------------------------------------------
#: the context's documentation: the structured form's situation fields, read by the one parser
CONTEXT_HELP = (
    "what a photo cannot show, in the structured form's fields (" + ", ".join(CONTEXT_FIELDS) + "); "
    "win_by discard (ron) or self_draw (tsumo), winds E S W N, a winning_tile given overrides the photo's"
)


class TileIn(BaseModel):
    """A tile as the page holds it after corrections: code, box (x0, y0, x1, y1), orientation."""

    model_config = ConfigDict(extra="ignore")
    id: int | str | None = None
    code: str
    box: tuple[FiniteFloat, FiniteFloat, FiniteFloat, FiniteFloat]
    orientation: Literal["upright", "sideways", "upside_down"] = "upright"
    turn: Literal[0, 90, 180, 270] = 0
    #: how sure the reader was of ``turn`` (0..1; a tile the player added: 1)
    turn_confidence: float = Field(1.0, ge=0.0, le=1.0)


class LayoutRequest(BaseModel):
    tiles: list[TileIn] = Field(max_length=80)
    rules: str = "riichi"
    options: dict[str, str] = Field(default_factory=dict)
    context: dict[str, Any] = Field(default_factory=dict, description=CONTEXT_HELP)
    lang: Lang = Field("en", description="the language of the score's words (en or it)")


class ScoreRequest(BaseModel):
    hand: dict[str, Any] = Field(description="the structured hand form (see the README)")
    rules: str = "riichi"
    options: dict[str, str] = Field(default_factory=dict)
    candidates: bool = Field(
        False,
        description="list every tile that could have completed the hand, each scored (also done "
        "when the hand gives no winning tile and cannot be scored without one)",
    )
    lang: Lang = Field("en", description="the language of the score's words (en or it)")


# ------------------------------------------------------------------------------------------------
# the shared steps: context → hand → score
# ------------------------------------------------------------------------------------------------
def _check_rules(rules: str) -> None:
    if rules not in RULE_SYSTEMS:
        raise ApiError(400, f"unknown rules {rules!r}: choose one of {', '.join(RULE_SYSTEMS)}")


def _check_code(code: str, what: str) -> None:
    if code not in TILE_CLASSES:
        raise ApiError(400, f"{what}: {code!r} is not a tile code (1m..9m, 0m, 1p.., 1z..7z, 1f..8f, back)")


def score_payload(
    hand: dict[str, Any],
    rules: str,
    options: dict[str, str],
    problems: list[str],
    with_candidates: bool = False,
    lang: str = DEFAULT_LANG,
) -> dict[str, Any]:
    """Score a structured hand (``/api/score``); a hand that cannot be scored is an invalid score
    with the reason. With no winning tile (and no score without one), or when asked, every tile
    that could have completed the hand is scored; with no winning tile the best one gives the
    score (:mod:`scoring.candidates`)."""
    built: Hand | None = None
    hand_error = None

    def logged(exc: Exception) -> None:
        log.error("internal error while scoring %s under %s", _short(hand), rules, exc_info=exc)

    try:
        built = hand_from_dict(hand)
    except UnknownKeyError as exc:  # the request's own form, not a hand that is no win
        raise ApiError(422, f"invalid request: hand: {exc}") from None
    except (HandError, TileError) as exc:
        hand_error = str(exc)
    result = score_or_best(
        built, rules, options, hand_error=hand_error, listed=with_candidates, on_bug=logged
    )
    reason = result.score.error
    scored = replace(result, score=with_problems(result.score, problems))
    return typed_page_json(hand, built, scored, problems, reason, hand_error, lang)


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def hand_context(data: Any) -> HandContext:
    """The client's context parsed once by :func:`scoring.context.context_from_dict` (dora
    indicators as a list of codes, or one string with commas or spaces; the winning tile's code
    and the discarder checked): a key nobody reads is a 422, a value refused a 400."""
    if not isinstance(data, dict):
        raise ApiError(422, f"invalid request: context: an object of {', '.join(CONTEXT_FIELDS)}")
    try:
        return context_from_dict(data)
    except UnknownKeyError as exc:
        raise ApiError(422, f"invalid request: {exc}") from None
    except HandError as exc:
        raise ApiError(400, str(exc)) from None


def _form_json(fields: dict[str, str], name: str) -> Any:
    """A form field's JSON (an empty object when the field is absent or empty)."""
    text = fields.get(name)
    if not text:
        return {}
    try:
        return loads_strict(text)
    except ValueError as exc:
        raise ApiError(400, f"form field {name!r} is not valid JSON: {getattr(exc, 'msg', exc)}") from None


def _form_options(fields: dict[str, str]) -> dict[str, str]:
    """The form's rule options, read as a session file's (NAME: text, number or true/false)."""
    try:
        return option_values(_form_json(fields, "options"), "form field 'options'")
    except HandError as exc:
        raise ApiError(400, str(exc)) from None


# ------------------------------------------------------------------------------------------------
# the endpoints
# ------------------------------------------------------------------------------------------------
router = APIRouter()


@router.get("/api/meta", summary="Rule systems, their flags and options; the tile palette")
async def api_meta() -> dict[str, Any]:
    return meta()


@router.post(
    "/api/read",
    summary="Read a photo: tiles, hand and score",
    openapi_extra=form_schema(
        ["image"],
        {
            "image": {
                "type": "string",
                "format": "binary",
                "description": f"the photo (at most {MAX_UPLOAD // 2**20} MB unless the server sets less)",
            },
            "rules": {"type": "string", "enum": list(RULE_SYSTEMS), "default": "riichi"},
            "options": {"type": "string", "description": "JSON object NAME: value"},
            "context": {"type": "string", "description": f"JSON object: {CONTEXT_HELP}"},
            "set": {
                "type": "string",
                "description": "taught set to read with ('' none; absent: the default)",
            },
            "lang": {"type": "string", "enum": list(LANGS), "default": DEFAULT_LANG},
        },
    ),
)
async def api_read(request: Request) -> JSONResponse:
    t0 = time.perf_counter()
    holder: SharedReader = request.app.state.reader
    taught: Sets = request.app.state.sets
    upload = await read_upload(request, request.app.state.max_upload)
    f = upload.files.get("image") or next(iter(upload.files.values()), None)
    if f is None:
        raise ApiError(400, "no photo in the request (form field 'image')")
    rules = upload.fields.get("rules") or "riichi"
    _check_rules(rules)
    options = _form_options(upload.fields)
    ctx = hand_context(_form_json(upload.fields, "context"))
    name = upload.fields["set"].strip() if "set" in upload.fields else taught.default
    lang = upload.fields.get("lang") or DEFAULT_LANG
    if lang not in LANGS:
        raise ApiError(400, f"unknown language {lang[:20]!r}: choose one of {', '.join(LANGS)}")
    t1 = time.perf_counter()
    image = await run_in_threadpool(decode_photo, f[2])
    t2 = time.perf_counter()
    adjuster = await run_in_threadpool(taught.adjuster, name) if name else None

    def read(r: PhotoReader) -> HandResult:
        return r.read_and_score(image, ctx, rules, options, tileset=adjuster)

    result = await run_in_threadpool(holder.use, read)
    payload = page_json(result, lang=lang)
    payload["set"] = name or None
    payload["read_id"] = await run_in_threadpool(taught.remember_read, result, photo_name(f[0]))
    preview = await run_in_threadpool(preview_jpeg, image)
    h, w = image.shape[:2]
    payload["image"] = {
        "width": w,
        "height": h,
        "preview": "data:image/jpeg;base64," + base64.b64encode(preview).decode("ascii"),
    }
    timings = {"upload": t1 - t0, "decode": t2 - t1, **result.timings, "total": time.perf_counter() - t0}
    payload["timings_ms"] = {k: round(v * 1000, 1) for k, v in timings.items()}
    return JSONResponse(payload, headers={"Cache-Control": "no-store"})


@router.post("/api/layout", summary="Lay out and score corrected tiles (boxes as read)")
async def api_layout(body: LayoutRequest) -> JSONResponse:
    _check_rules(body.rules)
    for i, t in enumerate(body.tiles):
        _check_code(t.code, f"tiles[{i}].code")
    ctx = hand_context(body.context)
    tiles = [
        TileRead(
            t.box,
            t.code,
            1.0,
            t.orientation,
            turn=t.turn,
            turn_confidence=t.turn_confidence,
            index=i,
        )
        for i, t in enumerate(body.tiles)
    ]
    ids = [t.id if t.id is not None else i for i, t in enumerate(body.tiles)]
    result = await run_in_threadpool(score_tiles, tiles, ctx, body.rules, body.options)
    return JSONResponse(page_json(result, ids, body.lang), headers={"Cache-Control": "no-store"})


@router.post("/api/score", summary="Score a structured hand")
async def api_score(body: ScoreRequest) -> JSONResponse:
    _check_rules(body.rules)
    payload = await run_in_threadpool(
        score_payload, body.hand, body.rules, body.options, [], body.candidates, body.lang
    )
    return JSONResponse(payload, headers={"Cache-Control": "no-store"})


__all__ = ["HAND_PATHS", "router", "score_payload"]
