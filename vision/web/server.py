"""uvicorn, set up so that no client can hold the server: a header timeout, a connection limit.

uvicorn closes an idle kept-alive connection, but waits forever for the request line and headers
of a connection that sends them slowly, or not at all; :class:`TimedH11Protocol` closes a
connection whose request headers are not whole within ``header_timeout`` seconds of its opening
(or of the previous answer). ``limit_concurrency`` answers 503 to requests beyond that many open
connections. The body's own limits are the app's (:mod:`vision.web.guard`).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

#: seconds a client has to send a request's line and headers
HEADER_TIMEOUT = 10.0


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's headers."""

    header_timeout = HEADER_TIMEOUT

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
    log = logging.getLogger("vision.web")
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
