"""The phone page's taught sets (issue 14): list and create sets, see and prune what a set was taught,
teach it from a photo, and teach it every correction made on the page.

- ``GET /api/sets`` the sets (name, taught tiles, codes; ``default``: the one ``serve --set`` named).
- ``POST /api/sets`` ``{"name"}`` → a new empty set (409 when it exists).
- ``GET /api/sets/{name}`` its taught tiles (id, code, source, how, added) and its suspects: taught
  tiles that disagree with the rest of their code (two codes swapped), each with its facts (source,
  ``own``/``other`` similarities, ``why``) for the page to word, and its English sentence.
- ``GET /api/sets/{name}/tiles/{id}.png`` a taught tile's crop, as the reader sees it.
- ``DELETE /api/sets/{name}/tiles/{id}`` → ``{"removed": tile, "undo": id}``;
  ``POST /api/sets/undo`` ``{"undo": id}`` puts it back.
- ``POST /api/teach`` (multipart: ``image``, ``set``, ``codes`` or ``standard=true``, optional
  ``save=true``) → the pairing row by row (each tile's code, the reader's where it differs, its
  crop), or 422 with ``lines``: which row has how many tiles found against how many codes given.
  Nothing is saved unless ``save=true``: the page shows the pairing, then
  ``POST /api/teach/save`` ``{"preview": id}`` saves it (the photo is not sent again).
- ``POST /api/teach/correction`` ``{"set", "read_id", "tile", "code"}``: the tile ``tile`` of the
  read ``read_id`` (``/api/read`` returns it) taught as ``code``; undone by removing it.

``/api/read`` takes a ``set`` field: the set to read with ("" for none; absent: the default).
Names are checked by :func:`vision.teach.profile.check_name` (400); a set that is not there is a
404, an id the server no longer remembers a 410 (:mod:`vision.web.sets`).
"""

from __future__ import annotations

import base64
from typing import Any

import cv2
from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from mahjong_camera_scorer.vision.classes import NOT_A_TILE
from mahjong_camera_scorer.vision.read import tile_crop
from mahjong_camera_scorer.vision.render.page import tile_info
from mahjong_camera_scorer.vision.teach.adapt import Suspect
from mahjong_camera_scorer.vision.teach.codes import STANDARD_TEXT, CodesError, parse_rows
from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.teaching import TaughtPhoto
from mahjong_camera_scorer.vision.web.errors import ApiError
from mahjong_camera_scorer.vision.web.sets import Sets, photo_name
from mahjong_camera_scorer.vision.web.upload import decode_photo, form_schema, read_upload

#: the JSON endpoints and their body limits, for the app's request guard
SETS_PATHS = {
    p: 64 << 10 for p in ("/api/sets", "/api/sets/undo", "/api/teach/save", "/api/teach/correction")
}
_NO_STORE = {"Cache-Control": "no-store"}
#: a taught crop never changes (a new crop gets a new id)
_IMMUTABLE = {"Cache-Control": "private, max-age=86400, immutable"}
_TRUE = ("1", "true", "on", "yes")

router = APIRouter()


class _Body(BaseModel):
    """A JSON body: a field the endpoint does not know is an error, not ignored."""

    model_config = ConfigDict(extra="forbid")


class NewSet(_Body):
    name: str = Field(max_length=200)


class Undo(_Body):
    undo: str = Field(max_length=64)


class SavePreview(_Body):
    preview: str = Field(max_length=64)


class Correction(_Body):
    set: str = Field(max_length=200)
    read_id: str = Field(max_length=64)
    tile: int = Field(ge=0, strict=True, description="the tile's id as /api/read gave it")
    code: str = Field(max_length=8)


def sets_of(request: Request) -> Sets:
    sets: Sets = request.app.state.sets
    return sets


def _json(payload: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(payload, status_code=status, headers=_NO_STORE)


def summary(sets: Sets, ts: TileSet) -> dict[str, Any]:
    return {"name": ts.name, "tiles": len(ts), "codes": len(ts.codes()), "default": ts.name == sets.default}


def tile_json(e: Example) -> dict[str, Any]:
    """A taught tile as the page lists it (its crop: ``/api/sets/{name}/tiles/{id}.png``); a
    "not a tile" crop (a negative) with a cross for a glyph."""
    info = {"glyph": "✕", "name": "not a tile"} if e.code == NOT_A_TILE else tile_info(e.code)
    return {**e.meta(), "glyph": info["glyph"], "tile_name": info["name"]}


def suspect_json(s: Suspect) -> dict[str, Any]:
    """A suspect's facts (the page words them in its language) and its English sentence."""
    e = s.example
    return {
        "id": e.id,
        "code": e.code,
        "source": e.source,
        "looks_like": s.looks_like,
        "why": s.why,
        "own": round(float(s.own), 4),
        "other": round(float(s.other), 4),
        "message": s.message,
    }


def _png(crop: Any) -> bytes:
    ok, buf = cv2.imencode(".png", crop)
    if not ok:
        raise ApiError(500, "the crop could not be encoded")
    return buf.tobytes()


def _jpeg_url(crop: Any) -> str:
    ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii") if ok else ""


# ------------------------------------------------------------------------------------------------
# the sets
# ------------------------------------------------------------------------------------------------
@router.get("/api/sets", summary="The taught tile sets, and the default one")
async def list_sets(request: Request) -> JSONResponse:
    sets = sets_of(request)
    listing = await run_in_threadpool(sets.listing)
    return _json({"sets": listing, "default": sets.default})


@router.post("/api/sets", summary="Create an empty taught set", status_code=201)
async def create_set(request: Request, body: NewSet) -> JSONResponse:
    sets = sets_of(request)
    ts = await run_in_threadpool(sets.create, body.name)
    return _json({"set": summary(sets, ts)}, 201)


@router.get("/api/sets/{name}", summary="A set's taught tiles and the ones that look wrong")
async def one_set(request: Request, name: str) -> JSONResponse:
    sets = sets_of(request)
    ts = await run_in_threadpool(sets.load, name)
    payload: dict[str, Any] = {
        "set": summary(sets, ts),
        "counts": ts.codes(),
        "tiles": [tile_json(e) for e in ts.examples],
        "suspects": [],
    }
    try:
        payload["suspects"] = [suspect_json(s) for s in await run_in_threadpool(sets.suspects, name)]
    except ApiError as exc:  # no models yet: the tiles are listed all the same
        if exc.status != 503:
            raise
        payload["suspects_error"] = exc.message
    return _json(payload)


@router.get("/api/sets/{name}/tiles/{tile_id}.png", summary="A taught tile's crop (PNG)")
async def tile_png(request: Request, name: str, tile_id: str) -> Response:
    ts = await run_in_threadpool(sets_of(request).load, name)
    example = next((e for e in ts.examples if e.id == tile_id), None)
    if example is None:
        raise ApiError(404, f"set {name!r} has no taught tile {tile_id!r}")
    return Response(await run_in_threadpool(_png, example.crop), media_type="image/png", headers=_IMMUTABLE)


@router.delete("/api/sets/{name}/tiles/{tile_id}", summary="Remove a taught tile (undo: /api/sets/undo)")
async def remove_tile(request: Request, name: str, tile_id: str) -> JSONResponse:
    sets = sets_of(request)
    gone, token = await run_in_threadpool(sets.remove_tile, name, tile_id)
    ts = await run_in_threadpool(sets.load, name)
    return _json({"removed": tile_json(gone), "undo": token, "set": summary(sets, ts)})


@router.post("/api/sets/undo", summary="Put back a taught tile removed a moment ago")
async def undo_remove(request: Request, body: Undo) -> JSONResponse:
    sets = sets_of(request)
    name, example = await run_in_threadpool(sets.undo_remove, body.undo)
    ts = await run_in_threadpool(sets.load, name)
    return _json({"restored": tile_json(example), "set": summary(sets, ts)})


# ------------------------------------------------------------------------------------------------
# teaching
# ------------------------------------------------------------------------------------------------
def pairing_json(photo: TaughtPhoto, examples: list[Example]) -> list[list[dict[str, Any]]]:
    """The pairing row by row: each tile's given code (``x``: not taught, ``none``: taught as not
    a tile), the reader's code, its box in the photo, the crop it is taught by (a small JPEG; none
    for ``x``) and, for a tile the detector missed, how it was recovered (``found``:
    :data:`vision.teach.finding.HOW`)."""
    taught = iter(examples)  # one a taught tile, in order
    # one list a typed row (a row that did not pair: empty here, its tiles in unpaired_json)
    rows: list[list[dict[str, Any]]] = [[] for _ in range(_typed_rows(photo))]
    for p in photo.pairs:
        rows[p.row - 1].append(
            {
                "code": p.code,
                "read": p.tile.code,
                "taught": p.taught,
                "disagrees": p.disagrees,
                "box": [round(float(v), 1) for v in p.tile.box],
                "crop": _jpeg_url(next(taught).crop) if p.taught else "",
                "found": p.found,
            }
        )
    return rows


def _typed_rows(photo: TaughtPhoto) -> int:
    return max([p.row for p in photo.pairs] + [u.row for u in photo.unpaired], default=0)


#: the side of the crops the page shows of a row that did not pair
UNPAIRED_CROP = 64


def unpaired_json(photo: TaughtPhoto) -> list[dict[str, Any]]:
    """The typed rows that did not pair (not taught): each row's counts and codes, and the tiles
    found where it was looked for, each with the reader's code, its box and its picture."""
    return [
        {
            **u.facts(),
            "tiles": [
                {
                    "read": t.code,
                    "box": [round(float(v), 1) for v in t.box],
                    "crop": _jpeg_url(tile_crop(photo.image, t, UNPAIRED_CROP)),
                }
                for t in u.tiles
            ],
        }
        for u in photo.unpaired
    ]


@router.post(
    "/api/teach",
    summary="Pair a photo's tiles with typed codes (or the standard layout); save with save=true",
    openapi_extra=form_schema(
        ["image", "set"],
        {
            "image": {"type": "string", "format": "binary"},
            "set": {"type": "string", "description": "the set to teach (made when new)"},
            "codes": {"type": "string", "description": "rows top to bottom, ' / ' between"},
            "standard": {"type": "boolean", "description": STANDARD_TEXT},
            "save": {"type": "boolean", "description": "save at once (default: preview)"},
        },
    ),
)
async def teach(request: Request) -> JSONResponse:
    sets = sets_of(request)
    upload = await read_upload(request, request.app.state.max_upload)
    name = sets.checked(upload.fields.get("set", "").strip())
    standard = upload.fields.get("standard", "").lower() in _TRUE
    text = upload.fields.get("codes", "")
    if standard and text.strip():
        raise ApiError(400, "give either the codes or the standard layout, not both")
    try:
        codes = None if standard else parse_rows(text)
    except CodesError as exc:
        raise ApiError(400, str(exc)) from None
    f = upload.files.get("image")
    if f is None:
        raise ApiError(400, "no photo in the request (form field 'image')")
    image = await run_in_threadpool(decode_photo, f[2])
    source = photo_name(f[0])
    try:
        photo, examples, preview = await run_in_threadpool(sets.pair, name, image, codes, source)
    except ApiError as exc:
        if exc.status == 422 and standard:
            exc.extra["lines"] = [*exc.extra.get("lines", []), f"the standard layout: {STANDARD_TEXT}"]
        raise
    payload = {
        "set": name,
        "source": source,
        "rows": pairing_json(photo, examples),
        "tiles": len(photo.pairs),
        "taught": len(photo.taught),
        "disagreeing": len(photo.disagreeing),
        "recovered": photo.recovery_lines(),
        "left_out": len(photo.left_out),
        "unpaired": unpaired_json(photo),
        "dropped": [
            {
                "row": d.row,
                "read": d.tile.code,
                "how": d.how,
                "why": d.why,
                "box": [round(float(v), 1) for v in d.tile.box],
            }
            for d in photo.dropped
        ],
        "preview": preview,
        "saved": False,
    }
    if upload.fields.get("save", "").lower() in _TRUE:
        payload.update(await _save(sets, preview))
    return _json(payload)


async def _save(sets: Sets, preview: str) -> dict[str, Any]:
    _item, ts, done = await run_in_threadpool(sets.save_preview, preview)
    return {
        "saved": True,
        "added": [tile_json(e) for e in done.added],
        # the same photo taught before: its tiles are in the set already, not doubled
        "already": len(done.already),
        "retaught": len(done.retaught),
        "set": summary(sets, ts),
    }


@router.post("/api/teach/save", summary="Save a teaching photo's pairing into its set")
async def teach_save(request: Request, body: SavePreview) -> JSONResponse:
    return _json(await _save(sets_of(request), body.preview))


@router.post("/api/teach/correction", summary="Teach the set a tile corrected on the page")
async def teach_correction(request: Request, body: Correction) -> JSONResponse:
    sets = sets_of(request)
    sets.checked(body.set)
    example, ts = await run_in_threadpool(sets.correction, body.set, body.read_id, body.tile, body.code)
    return _json({"added": tile_json(example), "set": summary(sets, ts)})


__all__ = ["SETS_PATHS", "router"]
