"""Take an uploaded photo in memory, never on disk, and refuse what is too big before reading it all.

``read_upload`` streams the request body through python-multipart's parser and counts bytes as
they arrive: a body announced (``Content-Length``) or found to be larger than the limit is refused
at once, so a client can never make the server hold more than the limit. ``decode_photo`` sniffs
the format and the pixel count from the header before OpenCV decodes anything (a small PNG can
announce a gigapixel image), then decodes from memory.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import cv2
import numpy as np
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.requests import Request

from vision import pipeline

_reduced_decode = getattr(pipeline, "decode", None)

#: Largest photo accepted (bytes). Phone photos are 2–12 MB.
MAX_UPLOAD = 25 * 1024 * 1024
#: Room for the form's other fields and the multipart framing.
FORM_SLACK = 256 * 1024
#: Largest image accepted (pixels); a 200-megapixel phone photo is the biggest real one.
MAX_PIXELS = 210_000_000
#: Long side of the preview the page shows under the boxes.
PREVIEW_SIDE = 1280


class UploadError(ValueError):
    """A request the server refuses: ``status`` is the HTTP status, the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


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
    ctype, params = parse_options_header(request.headers.get("content-type", ""))
    ctype = ctype.decode("latin-1").lower()
    if ctype.startswith("image/") or ctype == "application/octet-stream":
        body = bytearray()
        async for chunk in request.stream():
            body.extend(chunk)
            if len(body) > limit:
                raise UploadError(413, f"the photo is too large (over {_mb(limit)})")
        return Upload(files={"image": ("", ctype, bytes(body))})
    if ctype != "multipart/form-data" or b"boundary" not in params:
        raise UploadError(
            415, "send the photo as multipart/form-data (field 'image') or as an image/* request body"
        )
    return await _parse_multipart(request, params[b"boundary"], limit, total_limit)


async def _parse_multipart(request: Request, boundary: bytes, limit: int, total_limit: int) -> Upload:
    out = Upload()
    state: dict = {"headers": {}, "field": b"", "value": b"", "data": bytearray(), "size": 0}
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
    except Exception as exc:  # python-multipart raises its own errors on malformed bodies
        raise UploadError(400, f"malformed multipart body: {exc}") from None
    if problems:
        raise problems[0]
    return out


# ------------------------------------------------------------------------------------------------
# image sniffing and decoding
# ------------------------------------------------------------------------------------------------
def sniff(data: bytes) -> str | None:
    """The image format from its magic bytes (``jpeg``, ``png``, …), ``heic``, or None."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "gif"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"heis", b"avif"):
        return "heic"
    return None


def pixel_size(data: bytes, kind: str) -> tuple[int, int] | None:
    """(width, height) from the header, without decoding; None where the header does not say."""
    try:
        if kind == "png" and len(data) >= 24:
            return struct.unpack(">II", data[16:24])
        if kind == "bmp" and len(data) >= 26:
            w, h = struct.unpack("<ii", data[18:26])
            return abs(w), abs(h)
        if kind == "webp" and len(data) >= 30:
            chunk = data[12:16]
            if chunk == b"VP8X":
                return 1 + int.from_bytes(data[24:27], "little"), 1 + int.from_bytes(data[27:30], "little")
            if chunk == b"VP8L":
                b = int.from_bytes(data[21:25], "little")
                return (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1
            if chunk == b"VP8 ":
                w, h = struct.unpack("<HH", data[26:30])
                return w & 0x3FFF, h & 0x3FFF
        if kind == "jpeg":
            return pipeline.jpeg_size(data)
    except struct.error:
        return None
    return None


def decode_photo(data: bytes, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """BGR image from the uploaded bytes, or :class:`UploadError` saying clearly what is wrong."""
    if not data:
        raise UploadError(400, "the upload is empty: choose a photo")
    kind = sniff(data)
    if kind == "heic":
        raise UploadError(
            415,
            "HEIC/AVIF photos cannot be read here: set the camera to 'Most compatible' (JPEG) "
            "or share the photo as JPEG",
        )
    if kind is None:
        raise UploadError(415, "this file is not an image (send a JPEG, PNG, WebP, BMP or TIFF photo)")
    size = pixel_size(data, kind)
    if size and size[0] * size[1] > max_pixels:
        raise UploadError(
            413, f"the image is too large: {size[0]}×{size[1]} pixels (limit {max_pixels // 1_000_000} MP)"
        )
    if size and (size[0] == 0 or size[1] == 0):
        raise UploadError(400, f"the {kind.upper()} image is corrupt (it says it is {size[0]}×{size[1]})")
    buf = np.frombuffer(data, dtype=np.uint8)
    try:
        # large JPEGs decode reduced (DCT scaling) exactly as the photo command reads them
        image = (
            _reduced_decode(buf)[0]
            if _reduced_decode and kind == "jpeg"
            else cv2.imdecode(buf, cv2.IMREAD_COLOR)
        )
    except cv2.error:
        image = None
    if image is None or image.size == 0 or min(image.shape[:2]) < 8:
        raise UploadError(400, f"the {kind.upper()} image is corrupt or truncated and cannot be decoded")
    return image


def preview_jpeg(image: np.ndarray, side: int = PREVIEW_SIDE, quality: int = 82) -> bytes:
    """The photo as the page shows it: long side at most ``side``, JPEG."""
    h, w = image.shape[:2]
    s = min(1.0, side / max(h, w))
    small = image if s >= 1 else cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    ok, enc = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise UploadError(500, "could not encode the preview")
    return enc.tobytes()
