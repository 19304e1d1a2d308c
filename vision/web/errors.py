"""How the web app refuses a request: :class:`ApiError` (status and message) anywhere below an
endpoint, answered as ``{"error": "…"}`` by the app's handler (:func:`error_response`).

In a module of its own so that the app and its routers (:mod:`vision.web.sets_api`) raise the
same error without importing each other.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse


class ApiError(Exception):
    """A request the server refuses: ``status`` is the HTTP status, ``message`` says why, and
    ``extra`` goes into the answer beside ``error`` (e.g. the rows of a teaching photo that
    do not match their codes)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def error_response(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse(
        {"error": message, **extra}, status_code=status, headers={"Cache-Control": "no-store"}
    )
