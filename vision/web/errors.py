"""How the web app refuses a request: :class:`ApiError` (status and message) anywhere below an
endpoint, answered as ``{"error": "…"}`` by the one handler (:func:`error_response`), which
:func:`add_error_handlers` also gives FastAPI's own refusals (a body that does not fit its model:
422; an unknown path: 404).

In a module of its own so that the app and its routers (:mod:`vision.web.hand_api`,
:mod:`vision.web.session_api`, :mod:`vision.web.sets_api`) raise the same error without importing
each other.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

log = logging.getLogger("mahjong_camera_scorer.vision.web")
#: the longest ``error`` an answer carries (characters)
MAX_ERROR = 2000


class ApiError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, ``message`` says why, and
    ``extra`` goes into the answer beside ``error`` (e.g. the rows of a teaching photo that
    do not match their codes)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def error_response(status: int, message: str, **extra: Any) -> JSONResponse:
    """The answer; a 5xx the app raised on purpose (an :class:`ApiError`, an upload's error) is
    logged with its cause here (unexpected errors are logged where they are caught)."""
    if status >= 500:
        exc = sys.exc_info()[1]
        if exc is not None and (isinstance(exc, ApiError) or hasattr(exc, "status")):
            cause = exc.__cause__ or exc.__context__
            why = f" (cause: {type(cause).__name__}: {cause})" if cause is not None else ""
            log.error("answered %d: %s%s", status, message, why, exc_info=exc)
    if len(message) > MAX_ERROR:  # whatever a client sent that a message quotes: one short line
        message = message[: MAX_ERROR - 1] + "…"
    return JSONResponse(
        {"error": message, **extra}, status_code=status, headers={"Cache-Control": "no-store"}
    )


def validation_message(errors: Any) -> str:
    """Pydantic's first errors as one line (a key the client sent is quoted if it holds a line
    break or another control character)."""
    parts = []
    for e in list(errors)[:3]:
        if e.get("type") == "json_invalid":  # the body is no JSON at all: say so, not where in the model
            parts.append(f"the body is not valid JSON: {(e.get('ctx') or {}).get('error', e.get('msg'))}")
            continue
        loc = ".".join(str(x) if str(x).isprintable() else repr(x) for x in e.get("loc", ()) if x != "body")
        parts.append(f"{loc}: {e.get('msg')}" if loc else str(e.get("msg")))
    return "; ".join(parts) or "invalid request"


def add_error_handlers(app: FastAPI) -> None:
    """Every refusal of every router as ``{"error": "…"}``: :class:`ApiError` (an upload's
    :class:`vision.web.upload.UploadError` is one), a body that does not fit its model (422),
    and Starlette's own (404, 405)."""

    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.message, **exc.extra)

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return error_response(422, f"invalid request: {validation_message(exc.errors())}")

    async def http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        return error_response(exc.status_code, str(exc.detail))

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http)
