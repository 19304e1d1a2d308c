"""uvicorn, set up so that no client can hold the server: a header timeout, a connection limit.

uvicorn closes an idle kept-alive connection, but waits forever for the request line and headers
of a connection that sends them slowly, or not at all; :class:`TimedH11Protocol` closes a
connection whose request headers are not whole within ``header_timeout`` seconds of its opening
(or of the previous answer). ``limit_concurrency`` answers 503 to requests beyond that many open
connections: uvicorn's own answer is plain text, so the protocol keeps the limit itself and answers
as every refusal of the app does, ``{"error": ...}`` (156 of 200 simultaneous reads got the text).
The body's own limits are the app's (:mod:`vision.web.guard`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import uvicorn
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

#: seconds a client has to send a request's line and headers
HEADER_TIMEOUT = 10.0


#: what a request beyond the connection limit is told
BUSY = "the server is busy: too many requests at once; try again in a moment"


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's headers, and its
    ``limit_concurrency`` answered as JSON."""

    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # the same test uvicorn makes before it starts a request, made by the app in front of
        # the app instead (uvicorn's own answer to it is text/plain)
        self._limit, self.limit_concurrency = self.limit_concurrency, None
        if self._limit is not None:
            self.app = self._limited(self.app)

    def _limited(self, app: ASGIApp) -> ASGIApp:
        limit = self._limit
        assert limit is not None

        async def limited(scope: Scope, receive: Receive, send: Send) -> None:
            # this request's own task is among the tasks already (uvicorn counted before adding it)
            if scope["type"] == "http" and (len(self.connections) >= limit or len(self.tasks) > limit):
                self.logger.warning("Exceeded concurrency limit.")
                headers = {"Cache-Control": "no-store", "Connection": "close"}
                await JSONResponse({"error": BUSY}, status_code=503, headers=headers)(scope, receive, send)
                return
            await app(scope, receive, send)

        return limited

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]  # as uvicorn's
        self._header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers came whole: the body has its own limits
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection gets the same time

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol(header_timeout: float) -> type[TimedH11Protocol]:
    """The protocol class with its header timeout (uvicorn takes a class)."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"header_timeout": header_timeout})


def config(
    app: Any,
    host: str,
    port: int,
    *,
    max_connections: int,
    header_timeout: float = HEADER_TIMEOUT,
    **settings: Any,
) -> uvicorn.Config:
    """uvicorn's configuration for the app, with the protocol and the limits above."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol(header_timeout),
        limit_concurrency=max_connections,
        timeout_keep_alive=5,
        **settings,
    )


def log_errors_to_stderr(level: str = "warning") -> None:
    """The app's log (internal errors with their traceback) on stderr, beside uvicorn's."""
    log = logging.getLogger("mahjong_camera_scorer.vision.web")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        log.addHandler(handler)
    log.setLevel(min(logging.ERROR, logging.getLevelName(level.upper())))
    log.propagate = False
    quiet_opencv()


def quiet_opencv() -> None:
    """OpenCV's own log lines ("imdecode_(): can't read header", …) off for the whole server: a
    decode turns its failure into the app's answer, and the per-decode switch
    (:func:`vision.images.decode_image`) races between the server's threads (one decode's
    restore turns the log back on while another decodes)."""
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
