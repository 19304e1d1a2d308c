"""Issue 37 on the phone page's server: slow uploads no longer hold every POST slot, the connection
limit answers JSON, ``/api/session`` refuses unknown options as the command line does, a pairing's
422 is bounded whatever was typed, and the upload road reads image headers as the decoder does."""

from __future__ import annotations

import json
import socket
import threading
import time
import warnings

import cv2
import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.vision.web.app import create_app
from mahjong_camera_scorer.vision.web.guard import Limits
from tests.vision.support import EXAMPLE, Server, TruthReader
from tests.vision.test_images import jpeg_with_comments, progressive_jpeg_claiming, tiff_listing_twice

HAND = {"hand": "234m55p12345678s9s", "winning_tile": "9s", "win_by": "self_draw", "seat_wind": "S"}


def _client() -> TestClient:
    return TestClient(create_app(TruthReader()), raise_server_exceptions=False, base_url="http://localhost")


def _head(path: str, length: int, ctype: str = "image/jpeg") -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {ctype}\r\n"
        f"Content-Length: {length}\r\n\r\n"
    ).encode()


@pytest.mark.slow
def test_slow_uploads_within_the_rate_do_not_starve_a_small_request() -> None:
    """Four uploads trickling at the documented rate hold the four large-body slots; a corrected
    hand posted to /api/score meanwhile is answered at once (it waited 60 s for a 503)."""
    limits = Limits(
        body_idle=5.0, body_total=30.0, body_rate=1000, body_grace=1.0, body_slots=4, slot_wait=20
    )
    app = create_app(TruthReader(), limits=limits)
    stop = threading.Event()
    with Server(app) as base:
        port = int(base.rsplit(":", 1)[1])

        def trickle() -> None:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
                s.sendall(_head("/api/read", 24 << 20))
                while not stop.wait(0.25):
                    try:
                        s.sendall(b"x" * 1000)  # 4 KB/s: above the rate asked of it
                    except OSError:
                        return

        senders = [threading.Thread(target=trickle, daemon=True) for _ in range(4)]
        for t in senders:
            t.start()
        time.sleep(1.5)  # the four hold their slots
        import httpx

        start = time.monotonic()
        r = httpx.post(f"{base}/api/score", json={"hand": HAND}, timeout=30)
        waited = time.monotonic() - start
        stop.set()
    assert r.status_code == 200 and waited < 5, (r.status_code, waited)


@pytest.mark.slow
def test_requests_beyond_the_connection_limit_get_the_json_error() -> None:
    app = create_app(TruthReader())
    with Server(app, max_connections=3) as base:
        port = int(base.rsplit(":", 1)[1])
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3)]
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", port), timeout=10)
        extra.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n\r\n")
        answer = b""
        while b"}" not in answer:
            chunk = extra.recv(4096)
            if not chunk:
                break
            answer += chunk
        for s in [*held, extra]:
            s.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503") and b"application/json" in head.lower()
    assert "busy" in json.loads(body)["error"]


def test_the_session_api_refuses_unknown_options_as_the_command_line_does() -> None:
    players = [{"name": n, "seat": s} for n, s in zip(("A", "B", "C", "D"), "ESWN", strict=True)]
    body = {"rules": "mcr", "options": {"no_such_option": "1"}, "session": {"players": players, "hands": []}}
    r = _client().post("/api/session", json=body)
    assert r.status_code == 400 and "no_such_option" in r.json()["error"]
    body["options"] = {}
    assert _client().post("/api/session", json=body).status_code == 200


@pytest.mark.slow  # the 60 KB of codes: 30,000 tiles to pair (about 2 s)
def test_a_pairing_422_stays_small_whatever_was_typed() -> None:
    codes = "1m" * 30_000  # 60 KB of codes in one row
    r = _client().post(
        "/api/teach",
        files={"image": ("hand.jpg", EXAMPLE.read_bytes(), "image/jpeg")},
        data={"set": "home", "codes": codes},
    )
    assert r.status_code == 422 and len(r.content) < 4_000, len(r.content)  # was 91 KB
    assert all(len(c["codes"]) <= 300 for c in r.json()["counts"])


@pytest.mark.parametrize(
    "data",
    [
        jpeg_with_comments(progressive_jpeg_claiming(14400, 14400), 128 << 10),
        tiff_listing_twice((30000, 30000), (100, 100), (100, 100)),
    ],
    ids=["progressive-behind-comments", "tiff-size-twice"],
)
def test_uploads_whose_headers_passed_the_check_are_refused_at_once(data: bytes) -> None:
    start = time.perf_counter()
    r = _client().post("/api/read", files={"image": ("x", data, "application/octet-stream")})
    assert r.status_code == 413 and time.perf_counter() - start < 2, r.text


def test_an_upload_the_header_reader_reads_decodes_to_its_size() -> None:
    img = np.random.default_rng(2).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    data = jpeg_with_comments(
        cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])[1].tobytes(), 100_000
    )
    r = _client().post("/api/read", files={"image": ("x.jpg", data, "image/jpeg")})
    assert r.status_code == 200, r.text
