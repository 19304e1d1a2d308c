"""The page itself and the API's documentation: ``GET /`` (``static/index.html``), its CSS and JS
under ``/static/``, and ``GET /docs`` (Swagger UI) and ``GET /redoc`` from local files (the
fastapi-offline package's copies), so that they too work without internet.

Only the files that were in the package's ``static`` folder when the server started are served,
each by its exact name.
"""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import APIRouter
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.requests import Request

from mahjong_camera_scorer.vision.web.errors import ApiError

STATIC_DIR = Path(__file__).resolve().parent / "static"
#: Swagger UI and ReDoc as the fastapi-offline package ships them, for /docs and /redoc
DOCS_ASSETS = {
    name: Path(fastapi_offline.__file__).resolve().parent / "static" / name
    for name in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js", "favicon.png")
}
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
    "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
MEDIA = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
}


def static_files() -> dict[str, Path]:
    """The page's files by name, as they are now (the app takes them once, at its start)."""
    return {p.name: p for p in STATIC_DIR.iterdir() if p.is_file() and not p.name.startswith(".")}


router = APIRouter(include_in_schema=False)


def _statics(request: Request) -> dict[str, Path]:
    statics: dict[str, Path] = request.app.state.statics
    return statics


@router.get("/")
async def page(request: Request) -> FileResponse:
    return FileResponse(_statics(request)["index.html"], media_type="text/html", headers=PAGE_HEADERS)


@router.get("/static/{name}")
async def static(request: Request, name: str) -> FileResponse:
    path = _statics(request).get(name)  # only the files that were in the folder at start, by exact name
    if path is None:
        raise ApiError(404, f"no such file: {name}")
    media = MEDIA.get(path.suffix, "application/octet-stream")
    return FileResponse(path, media_type=media, headers=PAGE_HEADERS)


@router.get("/docs")
async def docs(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return get_swagger_ui_html(
        openapi_url=f"{root}{request.app.openapi_url}",
        title=f"{request.app.title} - API",
        swagger_js_url=f"{root}/docs-assets/swagger-ui-bundle.js",
        swagger_css_url=f"{root}/docs-assets/swagger-ui.css",
        swagger_favicon_url=f"{root}/docs-assets/favicon.png",
        # Swagger UI would send the spec to its online validator: no call to another host
        swagger_ui_parameters={"validatorUrl": None},
    )


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return get_redoc_html(
        openapi_url=f"{root}{request.app.openapi_url}",
        title=f"{request.app.title} - API",
        redoc_js_url=f"{root}/docs-assets/redoc.standalone.js",
        redoc_favicon_url=f"{root}/docs-assets/favicon.png",
        with_google_fonts=False,
    )


@router.get("/docs-assets/{name}")
async def docs_asset(name: str) -> FileResponse:
    path = DOCS_ASSETS.get(name)  # a fixed list of files, by exact name
    if path is None:
        raise ApiError(404, f"no such file: {name}")
    return FileResponse(path, media_type=MEDIA.get(path.suffix, "application/octet-stream"))


@router.get("/favicon.ico")
async def favicon() -> Response:
    return Response(status_code=204)
