"""How the web app refuses a request: :class:`ApiError` (status and message) anywhere below an
endpoint, answered as ``{"error": "…"}`` by the app's handler (:func:`error_response`).

In a module of its own so that the app and its routers (:mod:`vision.web.sets_api`) raise the
same error without importing each other.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from fastapi.responses import JSONResponse

log = logging.getLogger("vision.web")


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
    return JSONResponse(
        {"error": message, **extra}, status_code=status, headers={"Cache-Control": "no-store"}
    )
