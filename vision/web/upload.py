"""Take an uploaded photo in memory, never on disk, and refuse what is too big before reading it all.

``read_upload`` streams the request body through python-multipart's parser and counts bytes as
they arrive: a body announced (``Content-Length``) or found to be larger than the limit is refused
at once, so a client can never make the server hold more than the limit. ``decode_photo`` decodes
from memory through :mod:`vision.images` (format and pixel count from the header first: a small
PNG can announce a gigapixel image), a few photos at a time.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import ClientDisconnect, Request

from mahjong_camera_scorer.vision import images
from mahjong_camera_scorer.vision.images import MAX_PIXELS
from mahjong_camera_scorer.vision.web.errors import ApiError

#: Largest photo accepted (bytes). Phone photos are 2–12 MB.
MAX_UPLOAD = 25 * 1024 * 1024
#: Room for the form's other fields and the multipart framing.
FORM_SLACK = 256 * 1024
#: What a client that left (or was too slow) before the end of its upload is told, if it listens.
CUT_OFF = "the upload was cut off before its end"
#: Long side of the preview the page shows under the boxes.
PREVIEW_SIDE = 1280


class UploadError(ApiError, ValueError):
    """An upload the server refuses: ``status`` is the HTTP status, the message says why (an
    :class:`ApiError`, answered by the app's one handler)."""


@dataclass
class Upload:
    """The form: text fields by name, and the file parts (name → (filename, content type, bytes))."""

    fields: dict[str, str] = field(default_factory=dict)
    files: dict[str, tuple[str, str, bytes]] = field(default_factory=dict)


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB"


async def read_upload(request: Request, limit: int = MAX_UPLOAD) -> Upload:
    """Parse a ``multipart/form-data`` body (or a bare image body) held in memory, at most
    ``limit`` + :data:`FORM_SLACK` bytes of it."""
    total_limit = limit + FORM_SLACK
    announced = request.headers.get("content-length")
    if announced is not None:
        try:
            size = int(announced)
        except ValueError:
            raise UploadError(400, "bad Content-Length header") from None
        if size > total_limit:
            raise UploadError(413, f"the photo is too large ({_mb(size)}; the limit is {_mb(limit)})")
    raw_type, params = parse_options_header(request.headers.get("content-type", ""))
    ctype = raw_type.decode("latin-1").lower()
    if ctype.startswith("image/") or ctype == "application/octet-stream":
        body = bytearray()
        try:
            async for chunk in request.stream():
                body.extend(chunk)
                if len(body) > limit:
                    raise UploadError(413, f"the photo is too large (over {_mb(limit)})")
        except ClientDisconnect:
            raise UploadError(400, CUT_OFF) from None
        return Upload(files={"image": ("", ctype, bytes(body))})
    if ctype != "multipart/form-data" or b"boundary" not in params:
        raise UploadError(
            415, "send the photo as multipart/form-data (field 'image') or as an image/* request body"
        )
    return await _parse_multipart(request, params[b"boundary"], limit, total_limit)


async def _parse_multipart(request: Request, boundary: bytes, limit: int, total_limit: int) -> Upload:
    out = Upload()
    state: dict[str, Any] = {"headers": {}, "field": b"", "value": b"", "data": bytearray(), "size": 0}
    problems: list[UploadError] = []

    def on_part_begin() -> None:
        state["headers"], state["data"] = {}, bytearray()

    def on_header_field(data: bytes, start: int, end: int) -> None:
        state["field"] += data[start:end]

    def on_header_value(data: bytes, start: int, end: int) -> None:
        state["value"] += data[start:end]

    def on_header_end() -> None:
        state["headers"][state["field"].decode("latin-1").lower()] = state["value"]
        state["field"], state["value"] = b"", b""

    def on_part_data(data: bytes, start: int, end: int) -> None:
        buf = state["data"]
        buf.extend(data[start:end])
        is_file = b"filename" in state["headers"].get("content-disposition", b"")
        if len(buf) > (limit if is_file else 64 * 1024) and not problems:
            what = "the photo" if is_file else "a form field"
            problems.append(
                UploadError(413, f"{what} is too large (over {_mb(limit) if is_file else '64 kB'})")
            )

    def on_part_end() -> None:
        _, opts = parse_options_header(state["headers"].get("content-disposition", b""))
        name = opts.get(b"name", b"").decode("utf-8", "replace")
        data = bytes(state["data"])
        if b"filename" in opts:
            ctype = state["headers"].get("content-type", b"").decode("latin-1")
            out.files[name] = (opts[b"filename"].decode("utf-8", "replace"), ctype, data)
        else:
            try:
                out.fields[name] = data.decode("utf-8")
            except UnicodeDecodeError:
                problems.append(UploadError(400, f"form field {name!r} is not UTF-8 text"))

    parser = MultipartParser(
        boundary,
        {
            "on_part_begin": on_part_begin,
            "on_part_data": on_part_data,
            "on_part_end": on_part_end,
            "on_header_field": on_header_field,
            "on_header_value": on_header_value,
            "on_header_end": on_header_end,
        },
    )
    received = 0
    try:
        async for chunk in request.stream():
            received += len(chunk)
            if received > total_limit:
                raise UploadError(413, f"the photo is too large (over {_mb(limit)})")
            parser.write(chunk)
            if problems:
                raise problems[0]
        parser.finalize()
    except UploadError:
        raise
    except ClientDisconnect:
        raise UploadError(400, CUT_OFF) from None
    except Exception as exc:  # python-multipart raises its own errors on malformed bodies
        raise UploadError(400, f"malformed multipart body: {exc}") from None
    if problems:
        raise problems[0]
    return out


def form_schema(required: list[str], properties: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of a ``multipart/form-data`` endpoint (its fields documented on
    ``/docs``; the endpoint reads the body itself with :func:`read_upload`)."""
    schema = {"type": "object", "required": required, "properties": properties}
    return {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": schema}}}}


# ------------------------------------------------------------------------------------------------
# decoding
# ------------------------------------------------------------------------------------------------
#: HTTP status for each reason :mod:`vision.images` refuses a photo
STATUS = {"too_large": 413, "not_image": 415, "unsupported": 415}
#: Photos decoded at once, whatever the number of requests: each may take up to
#: :data:`vision.images.MAX_DECODE_BYTES` at its peak while it decodes; the others wait their turn.
DECODE_SLOTS = 2
_decoding = threading.BoundedSemaphore(DECODE_SLOTS)


def decode_photo(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """BGR image from the uploaded bytes (large JPEGs reduced), or :class:`UploadError` saying
    clearly what is wrong; at most :data:`DECODE_SLOTS` decode at a time."""
    with _decoding:
        try:
            return images.decode_image(data, max_pixels)[0]
        except images.PhotoError as exc:
            raise UploadError(STATUS.get(exc.reason, 400), str(exc)) from None


def preview_jpeg(image: np.ndarray, side: int = PREVIEW_SIDE, quality: int = 82) -> bytes:
    """The photo as the page shows it: long side at most ``side``, JPEG."""
    h, w = image.shape[:2]
    s = min(1.0, side / max(h, w))
    small = image if s >= 1 else cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    ok, enc = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise UploadError(500, "could not encode the preview")
    return enc.tobytes()
