"""The phone page's server: one page, its static files, and a small JSON API over the pipeline.

This module only wires: the request guard and the last-line catch-all around the routers, the one
error handler (:mod:`vision.web.errors`), and the routers, each in its module:

- :mod:`vision.web.pages`: ``GET /`` the page, its static files, ``/docs`` and ``/redoc``.
- :mod:`vision.web.hand_api`: ``GET /api/meta``, ``POST /api/read``, ``/api/layout`` and
  ``/api/score`` (one hand: a photo, corrected tiles or a structured hand → hand and score).
- :mod:`vision.web.session_api`: the table mode (``/api/session``…).
- :mod:`vision.web.sets_api`: taught tile sets (``/api/sets``, ``/api/teach``…).

Every failure is a JSON object ``{"error": "…"}`` with a 4xx/5xx status; nothing a client sends
can stop the server. Photos are decoded from memory and never written to disk; only the files of
the package's ``static`` folder are served.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

from fastapi import FastAPI
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mahjong_camera_scorer.vision import __version__
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF
from mahjong_camera_scorer.vision.models import MODELS_DIR
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.teach.store import SetStore
from mahjong_camera_scorer.vision.web.errors import add_error_handlers
from mahjong_camera_scorer.vision.web.errors import error_response as _error
from mahjong_camera_scorer.vision.web.guard import Limits, RequestGuard
from mahjong_camera_scorer.vision.web.hand_api import HAND_PATHS
from mahjong_camera_scorer.vision.web.hand_api import router as hand_router
from mahjong_camera_scorer.vision.web.messages import router as messages_router
from mahjong_camera_scorer.vision.web.pages import STATIC_DIR, static_files
from mahjong_camera_scorer.vision.web.pages import router as pages_router
from mahjong_camera_scorer.vision.web.reader import SharedReader
from mahjong_camera_scorer.vision.web.session_api import SESSION_PATHS
from mahjong_camera_scorer.vision.web.session_api import router as session_router
from mahjong_camera_scorer.vision.web.sets import Sets
from mahjong_camera_scorer.vision.web.sets_api import SETS_PATHS
from mahjong_camera_scorer.vision.web.sets_api import router as sets_router
from mahjong_camera_scorer.vision.web.upload import MAX_UPLOAD

#: where internal errors go, with their traceback (``serve`` prints it on stderr)
log = logging.getLogger("mahjong_camera_scorer.vision.web")


class _CatchAll:
    """Last line of defence: any exception an endpoint lets through becomes a one-line JSON 500 for
    the client, and its traceback goes to the server's log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except ClientDisconnect:
            return  # the client left (or was too slow, and was told): no one to answer
        except Exception as exc:
            log.error("internal error on %s %s", scope.get("method"), scope.get("path"), exc_info=exc)
            if not started:
                await _error(500, f"internal error: {type(exc).__name__}: {exc}")(scope, receive, send)


def create_app(
    reader: PhotoReader | None = None,
    *,
    models_dir: str | Path = MODELS_DIR,
    det_conf: float = DETECTOR_CONF,
    max_upload: int = MAX_UPLOAD,
    allow_hosts: Sequence[str] = (),
    limits: Limits | None = None,
    sets: SetStore | None = None,
    default_set: str | None = None,
) -> FastAPI:
    """The web app. ``reader`` is injectable (tests); by default the models load on first use.
    Requests are answered for localhost, IP addresses and ``allow_hosts`` (:mod:`vision.web.guard`).
    ``sets``: the folder of taught sets (default: the user's, :mod:`vision.teach.store`);
    ``default_set``: the set a photo is read with when the request names none."""
    app = FastAPI(
        docs_url=None,  # served by vision.web.pages from local files: the page and its docs work offline
        redoc_url=None,
        title="Camera mahjong scorer",
        version=__version__,
        description="Read a photo of a finished mahjong hand, lay out the hand and score it under five "
        'rule systems. Errors are JSON objects `{"error": "…"}`.',
    )
    app.add_middleware(_CatchAll)
    app.add_middleware(  # outermost: what every request passes before the app sees it
        RequestGuard,
        allow_hosts=allow_hosts,
        limits=limits,
        json_limits=HAND_PATHS | SESSION_PATHS | SETS_PATHS,
    )
    add_error_handlers(app)
    for router in (pages_router, messages_router, hand_router, session_router, sets_router):
        app.include_router(router)
    holder = SharedReader(reader, models_dir, det_conf)
    app.state.reader = holder
    app.state.sets = Sets(sets or SetStore(), holder, default_set)
    app.state.max_upload = max_upload
    app.state.statics = static_files()
    return app


__all__ = ["STATIC_DIR", "create_app"]
