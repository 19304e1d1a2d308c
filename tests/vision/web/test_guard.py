"""What every request to the phone page's server passes: the Host it names (DNS rebinding), where
a POST comes from, strict JSON numbers, slow or stalled clients, how many uploads at once, and
internal errors logged with their traceback while the client gets one line.

The first tests use FastAPI's test client; the others a real uvicorn server in a thread, set up as
``mahjong-score serve`` sets it up, talked to over sockets."""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
import tracemalloc
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.vision.cli import build_parser
from mahjong_camera_scorer.vision.web.app import create_app
from mahjong_camera_scorer.vision.web.guard import Limits, host_name, loads_strict
from tests.vision.support import EXAMPLE, Server, TruthReader

JSON = {"content-type": "application/json"}
HAND = {"hand": "234m55p12345678s9s", "winning_tile": "9s", "win_by": "self_draw", "seat_wind": "S"}


def _client(base: str = "http://localhost", **kw) -> TestClient:  # type: ignore[no-untyped-def]
    return TestClient(create_app(TruthReader(), **kw), raise_server_exceptions=False, base_url=base)


# ------------------------------------------------------------------------------------------------
# Host (DNS rebinding) and cross-origin POSTs
# ------------------------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize(
    ("base", "ok"),
    [
        ("http://localhost:8000", True),
        ("http://127.0.0.1:8000", True),
        ("http://192.168.1.20:8000", True),  # the address the phone opens
        ("http://[::1]:8000", True),
        ("http://LOCALHOST", True),
        ("http://evil.example", False),  # a rebound name: the attacker's page on this machine
        ("http://localhost.evil.example:8000", False),
        ("http://192.168.1.20.nip.io:8000", False),
        ("http://mahjong.local:8000", False),
    ],
)
def test_only_localhost_ip_addresses_and_allowed_names_are_answered(base: str, ok: bool) -> None:
    client = _client(base)
    for r in (client.get("/api/meta"), client.post("/api/score", json={"hand": HAND})):
        if ok:
            assert r.status_code == 200, r.text
        else:
            assert r.status_code == 421 and "--allow-host" in r.json()["error"]


def test_allow_host_names_a_host_the_page_may_be_opened_by() -> None:
    client = _client("http://mahjong.local:8000", allow_hosts=["Mahjong.Local"])
    assert client.get("/").status_code == 200
    assert _client("http://other.local", allow_hosts=["mahjong.local"]).get("/").status_code == 421


@pytest.mark.parametrize(
    ("headers", "ok"),
    [
        ({}, True),  # curl, scripts
        ({"Origin": "http://localhost"}, True),  # the page itself
        ({"Sec-Fetch-Site": "same-origin"}, True),
        ({"Sec-Fetch-Site": "none"}, True),  # typed by the user
        ({"Origin": "http://evil.example"}, False),
        ({"Origin": "http://localhost:9999"}, False),  # another port is another origin
        ({"Origin": "null"}, False),  # a sandboxed frame, a file:// page
        ({"Sec-Fetch-Site": "cross-site"}, False),
        ({"Sec-Fetch-Site": "same-site"}, False),
        ({"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"}, False),
    ],
)
def test_cross_origin_posts_are_refused(headers: dict[str, str], ok: bool) -> None:
    client = _client()
    r = client.post("/api/score", json={"hand": HAND}, headers=headers)
    if ok:
        assert r.status_code == 200, r.text
    else:
        assert r.status_code == 403 and "refused" in r.json()["error"]
    files = {"image": ("hand.jpg", EXAMPLE.read_bytes(), "image/jpeg")}
    r = client.post("/api/read", files=files, headers=headers)
    assert (r.status_code == 200) is ok
    # reading is harmless: the browser shows another origin nothing of the answer
    assert client.get("/api/meta", headers=headers).status_code == 200


def test_host_names_without_their_port() -> None:
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1" and host_name("[fe80::1]") == "fe80::1"
    assert host_name("192.168.1.20") == "192.168.1.20"


# ------------------------------------------------------------------------------------------------
# strict JSON: NaN, Infinity, deep nesting
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/score", '{"hand": {"hand": "234m", "honba": NaN}}', "NaN is not a JSON number"),
        ("/api/score", '{"hand": {"hand": "234m", "x": [Infinity]}}', "Infinity is not a JSON number"),
        ("/api/score", '{"hand": {"hand": "234m"}, "rules": -Infinity}', "-Infinity is not a JSON number"),
        ("/api/score", '{"hand": ' * 100_000 + "1" + "}" * 100_000, "nested too deeply"),
        ("/api/layout", '{"tiles": [], "context": {"honba": NaN}}', "NaN is not a JSON number"),
        ("/api/session", '{"rules": "mcr", "session": {"x": NaN}}', "NaN is not a JSON number"),
        ("/api/session/export", '{"rules": "mcr", "format": "csv", "session": {"x": Infinity}}', "Infinity"),
    ],
)
def test_json_that_python_reads_but_json_does_not_have_is_a_400(path: str, body: str, words: str) -> None:
    r = _client().post(path, content=body.encode(), headers={"content-type": "application/json"})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert len(r.json()["error"]) < 200


def test_nan_in_a_form_field_is_a_400() -> None:
    files = {"image": ("hand.jpg", EXAMPLE.read_bytes(), "image/jpeg")}
    r = _client().post("/api/read", files=files, data={"context": '{"honba": NaN}'})
    assert r.status_code == 400 and "NaN is not a JSON number" in r.json()["error"]


def test_strict_json_reads_what_json_has() -> None:
    assert loads_strict(b'{"a": [1, 2.5e3, -0.0, "NaN"]}') == {"a": [1, 2500.0, -0.0, "NaN"]}
    for text in ("NaN", "[Infinity]", "-Infinity", "[" * 100_000 + "]" * 100_000):
        with pytest.raises(ValueError):
            loads_strict(text)


# ------------------------------------------------------------------------------------------------
# internal errors: one line for the client, the traceback in the server's log
# ------------------------------------------------------------------------------------------------
def test_an_internal_error_is_logged_with_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    class Broken(TruthReader):
        def read_boxes(self, image, detections, tileset=None):  # type: ignore[no-untyped-def]
            raise RuntimeError("boom in the reader")

    client = TestClient(create_app(Broken()), raise_server_exceptions=False, base_url="http://localhost")
    with caplog.at_level(logging.ERROR, logger="mahjong_camera_scorer.vision.web"):
        r = client.post("/api/read", files={"image": ("h.jpg", EXAMPLE.read_bytes(), "image/jpeg")})
    assert r.status_code == 500 and r.json() == {"error": "internal error: RuntimeError: boom in the reader"}
    assert "Traceback" not in r.text
    record = next(r for r in caplog.records if r.name == "mahjong_camera_scorer.vision.web")
    assert "internal error on POST /api/read" in record.getMessage()
    assert (
        record.exc_info
        and "read_boxes" in caplog.text
        and 'raise RuntimeError("boom in the reader")' in caplog.text
    )


# ------------------------------------------------------------------------------------------------
# a real server: slow and stalled clients, many uploads at once, the connection limit
# ------------------------------------------------------------------------------------------------
def _connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def _status(answer: bytes) -> str:
    return answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.1 ") else "closed"


def _response(s: socket.socket) -> bytes:
    """One whole HTTP response (headers, then a body of its Content-Length)."""
    s.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        data += s.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(v)
        for k, _, v in (h.partition(b":") for h in head.split(b"\r\n"))
        if k.lower() == b"content-length"
    )
    while len(body) < length:
        body += s.recv(65536)
    return head


def _closed_within(s: socket.socket, seconds: float) -> bytes | None:
    """What the server sent before closing the connection, or None if it is still open."""
    s.settimeout(seconds)
    got = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                return got
            got += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        return got


@pytest.mark.slow
def test_a_client_that_sends_its_headers_too_slowly_is_dropped() -> None:
    app = create_app(TruthReader())
    with Server(app, header_timeout=0.5) as base:
        port = int(base.rsplit(":", 1)[1])
        silent, slow = _connect(port), _connect(port)
        slow.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n")  # never ends its headers
        t0 = time.monotonic()
        assert _closed_within(silent, 5) == b"" and _closed_within(slow, 5) == b""
        assert time.monotonic() - t0 < 3
        # a client that keeps to time is answered, and its kept-alive connection serves again
        ok = _connect(port)
        for _ in range(2):
            ok.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert _response(ok).startswith(b"HTTP/1.1 200")
            time.sleep(0.3)
        ok.close()


@pytest.mark.slow
def test_a_body_that_stops_coming_gets_a_408() -> None:
    app = create_app(TruthReader(), limits=Limits(body_idle=0.5, body_total=2.0))
    with Server(app) as base:
        port = int(base.rsplit(":", 1)[1])
        s = _connect(port)
        s.sendall(
            b"POST /api/score HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n" + b'{"hand": '
        )
        got = _closed_within(s, 5)
        assert got is not None and got.startswith(b"HTTP/1.1 408") and b"too slowly" in got
        # a body trickling in never finishes either: the total time is bounded too
        s = _connect(port)
        s.sendall(b"POST /api/score HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n")
        t0, got = time.monotonic(), None
        while got is None and time.monotonic() - t0 < 6:
            try:
                s.sendall(b" ")
            except OSError:
                break
            got = _closed_within(s, 0.2)
        assert time.monotonic() - t0 < 4


@pytest.mark.slow
def test_twenty_unfinished_uploads_hold_only_the_slots_memory() -> None:
    """Twenty clients each start a 24 MB upload, send 3 MB of it and stall. Four are read (the
    slots), the others wait unread; when the stalled bodies time out, every one is answered and
    the memory comes back."""
    limits = Limits(body_idle=0.6, body_total=30, body_slots=4, slot_wait=30)
    app = create_app(TruthReader(), limits=limits)
    part = b"x" * (3 << 20)
    head = (
        b"POST /api/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
        b"Content-Length: 25165824\r\n\r\n"
    )
    tracemalloc.start()
    try:
        with Server(app) as base:
            port = int(base.rsplit(":", 1)[1])
            tracemalloc.reset_peak()
            base_mem = tracemalloc.get_traced_memory()[0]
            socks = [_connect(port) for _ in range(20)]

            def send(s: socket.socket) -> None:
                s.sendall(head)
                with contextlib.suppress(OSError):
                    s.sendall(part)  # the unread ones block here once the socket buffers fill

            senders = [threading.Thread(target=send, args=(s,), daemon=True) for s in socks]
            for t in senders:
                t.start()
            answers = [_closed_within(s, 60) or b"" for s in socks]
            peak = tracemalloc.get_traced_memory()[1] - base_mem
    finally:
        tracemalloc.stop()
    statuses = sorted(
        a.split(b" ", 2)[1].decode() if a.startswith(b"HTTP/1.1") else "closed" for a in answers
    )
    assert statuses.count("408") >= 4 and set(statuses) <= {"408", "503", "closed"}, statuses
    # four bodies of 3 MB in memory (and their copies), not twenty: well under 20 x 3 MB = 60 MB
    assert peak < 40 << 20, f"peak {peak >> 20} MB"


@pytest.mark.slow
def test_connections_beyond_the_limit_get_a_503() -> None:
    app = create_app(TruthReader())
    with Server(app, max_connections=3) as base:
        port = int(base.rsplit(":", 1)[1])
        held = [_connect(port) for _ in range(3)]
        time.sleep(0.2)
        extra = _connect(port)
        extra.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert extra.recv(100).startswith(b"HTTP/1.1 503")
        for s in held:
            s.close()


def test_serve_listens_on_this_computer_unless_told_otherwise() -> None:
    parser, _ = build_parser()
    args = parser.parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.allow_host is None
    args = parser.parse_args(["serve", "--host", "0.0.0.0", "--allow-host", "mahjong.local"])
    assert args.host == "0.0.0.0" and args.allow_host == ["mahjong.local"]


@pytest.mark.slow
def test_the_loads_of_many_clients_leave_no_memory_behind() -> None:
    """8 clients x 25 requests (reads, scores, bad bodies) through the guard: no growth."""
    app = create_app(TruthReader())
    with Server(app) as base:
        import httpx

        def client_run() -> None:
            with httpx.Client(base_url=base, timeout=30) as c:
                for i in range(25):
                    if i % 5 == 0:
                        c.post("/api/read", files={"image": ("h.jpg", EXAMPLE.read_bytes(), "image/jpeg")})
                    elif i % 2:
                        c.post("/api/score", json={"hand": HAND})
                    else:
                        c.post(
                            "/api/score",
                            content=b'{"hand": NaN}',
                            headers={"content-type": "application/json"},
                        )

        def round_of_load() -> None:
            threads = [threading.Thread(target=client_run) for _ in range(8)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()

        round_of_load()  # warm up: caches, the models' first runs
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            round_of_load()
            after = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
    assert after - before < 4 << 20, f"{(after - before) >> 10} kB more after 200 requests"
