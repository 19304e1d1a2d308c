"""What every request passes before the app sees it: who may ask, how fast it must send, how many
at once, and what a JSON body may hold.

- **Host** (DNS rebinding): a page on another site can make its own name resolve to this
  machine's address and then talk to the server as if it were that site. Browsers always send the
  name they used, so only requests for ``localhost``, an IP address (a name nobody can rebind) or
  a name given with ``--allow-host`` are answered.
- **Cross-origin writes**: any page the phone or the computer has open could POST to the server
  (a form, ``fetch`` without reading the answer). A POST that a browser marks as coming from
  another site (``Sec-Fetch-Site``) or another origin (``Origin``) is refused; the page's own
  requests and tools such as ``curl`` send neither or the server's own.
- **Slow clients**: a request body must keep arriving (:attr:`Limits.body_idle` seconds without a
  byte at most), at :attr:`Limits.body_rate` bytes a second on average after the first
  :attr:`Limits.body_grace` seconds, and be whole within :attr:`Limits.body_total` seconds; the
  header timeout is the server's (:mod:`vision.web.server`).
- **Memory**: at most :attr:`Limits.body_slots` POST requests with a large body are handled at once
  (each may hold a 25 MB photo); the others wait up to :attr:`Limits.slot_wait` seconds, then get
  a 503, so twenty unfinished uploads hold four photos' worth of memory, not twenty. A request
  whose body is announced small (``Content-Length`` at most :attr:`Limits.small_body`, which the
  server holds it to) takes one of :attr:`Limits.small_slots` slots of its own instead: four slow
  uploads within the documented rate once held every slot for 90 s, and a corrected hand sent to
  ``/api/score`` waited 60 s for a 503.
- **JSON numbers**: Python reads ``NaN`` and ``Infinity`` in JSON, which JSON does not have; a body
  holding them (or nested too deeply to read) is a 400 with a message, never a 500.

Every refusal is a JSON ``{"error": ...}`` of one line.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: what a request may be, by method, before it is read
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: ``Sec-Fetch-Site`` values of a request the user or the page itself made
SAME_SITE = frozenset({"same-origin", "none"})


@dataclass(frozen=True)
class Limits:
    """How long a body may take and how many requests may hold one at a time."""

    #: seconds a body may pause between two pieces (a phone on Wi-Fi never pauses this long)
    body_idle: float = 5.0
    #: seconds a whole body may take (a 25 MB photo over a slow Wi-Fi: well under a minute)
    body_total: float = 90.0
    #: bytes a second a body must average once :attr:`body_grace` seconds have passed: a client
    #: trickling 10 bytes every few seconds held an upload slot for the whole of ``body_total``
    body_rate: float = 16 << 10
    body_grace: float = 5.0
    #: POST requests with a large (or unannounced) body handled at once; each may hold an upload
    body_slots: int = 4
    #: a body announced at most this long is small: a typed hand, a correction, a session's rows
    small_body: int = 1 << 20
    #: POST requests with a small body handled at once, beside the large ones (16 MB in all)
    small_slots: int = 16
    #: seconds a POST waits for a free slot before a 503
    slot_wait: float = 60.0


def _error(status: int, message: str) -> JSONResponse:
    """A refusal; the connection is closed after it (the request's body may be left unread)."""
    headers = {"Cache-Control": "no-store", "Connection": "close"}
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def host_name(host: str) -> str:
    """The name in a Host header, without its port, lowercase (``[::1]:8000`` → ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class RequestGuard:
    """The ASGI middleware in front of the app: Host, origin, timeouts, slots, strict JSON."""

    def __init__(
        self,
        app: ASGIApp,
        allow_hosts: Sequence[str] = (),
        limits: Limits | None = None,
        json_limits: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.hosts = {"localhost", *(host_name(h) for h in allow_hosts)}
        self.limits = limits or Limits()
        #: JSON endpoints (path → largest body): their bodies are read whole and checked first
        self.json_limits = dict(json_limits or {})
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore, asyncio.Semaphore] | None = None

    def host_allowed(self, host: str | None) -> bool:
        if host is None:  # HTTP/1.0 without Host: no browser sends that
            return True
        name = host_name(host)
        return name in self.hosts or is_ip(name)

    def refuse_origin(self, headers: dict[bytes, bytes], host: str | None) -> str | None:
        """Why a POST is refused as cross-origin, or None."""
        site = headers.get(b"sec-fetch-site", b"").decode("latin-1").strip().lower()
        if site and site not in SAME_SITE:
            return f"cross-site requests are refused ({site})"
        origin = headers.get(b"origin")
        if origin is None:
            return None
        text = origin.decode("latin-1").strip()
        netloc = urlsplit(text).netloc.lower() if text != "null" else ""
        if not netloc or host is None or netloc != host.strip().lower():
            return f"requests from another origin ({text[:80]}) are refused"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        raw_host = headers.get(b"host")
        host = raw_host.decode("latin-1") if raw_host is not None else None
        if not self.host_allowed(host):
            message = (
                "this server answers to localhost, its IP addresses and the names given with "
                f"--allow-host, not {(host or '')[:80]!r}"
            )
            await _error(421, message)(scope, receive, send)
            return
        if scope["method"] not in UNSAFE_METHODS:
            await self.app(scope, receive, send)
            return
        why = self.refuse_origin(headers, host)
        if why:
            await _error(403, why)(scope, receive, send)
            return
        slots = self.slots(small=self.small(headers))
        try:
            await asyncio.wait_for(slots.acquire(), self.limits.slot_wait)
        except TimeoutError:
            busy = "the server is busy with other uploads: try again in a moment"
            await _error(503, busy)(scope, receive, send)
            return
        try:
            await self.handle(scope, receive, send)
        finally:
            slots.release()

    def small(self, headers: dict[bytes, bytes]) -> bool:
        """Whether the request's body is announced small (HTTP/1.1 framing holds it to that)."""
        length = headers.get(b"content-length", b"").strip()
        return length.isdigit() and int(length) <= self.limits.small_body

    def slots(self, small: bool = False) -> asyncio.Semaphore:
        """The slots of the running event loop (made on its first request): for small bodies, or
        for large ones."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (
                loop,
                asyncio.Semaphore(self.limits.body_slots),
                asyncio.Semaphore(self.limits.small_slots),
            )
        return self._slots[2] if small else self._slots[1]

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A POST: its body timed, read whole and checked first where it is JSON, then the app;
        once the client was answered (a 408), whatever the app sends is dropped."""
        state = {"started": False, "answered": False}

        async def tracking_send(message: Message) -> None:
            if state["answered"]:
                return
            state["started"] = state["started"] or message["type"] == "http.response.start"
            await send(message)

        timed = self.timed(scope, receive, send, state)
        limit = self.json_limits.get(scope.get("path", ""))
        if limit is not None:
            body = await self.whole_body(timed, scope, send, limit)
            if body is None:
                return
            timed = _replay(body, receive)
        await self.app(scope, timed, tracking_send)

    def timed(self, scope: Scope, receive: Receive, send: Send, state: dict[str, bool]) -> Receive:
        """``receive`` with the body's idle and total time limits: past either, the client gets a
        408 (unless an answer has begun) and the app sees the client gone. Once the body is whole,
        ``receive`` is the server's own (the app may wait on it to learn the client left)."""
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + self.limits.body_total
        phase = {"body": True, "gone": False}
        received = [0]

        def too_slow() -> bool:
            late = loop.time() - start - self.limits.body_grace
            return late > 0 and received[0] < self.limits.body_rate * late

        async def receive_in_time() -> Message:
            if phase["gone"]:
                return {"type": "http.disconnect"}
            if not phase["body"]:
                return await receive()
            wait = min(self.limits.body_idle, deadline - loop.time())
            try:
                if wait <= 0 or too_slow():
                    raise TimeoutError
                message = await asyncio.wait_for(receive(), wait)
                received[0] += len(message.get("body", b""))
                if message.get("more_body", False) and too_slow():
                    raise TimeoutError
            except TimeoutError:
                phase["gone"] = True
                if not state["started"]:
                    await _error(408, "the request body came too slowly: send it again")(scope, receive, send)
                state["answered"] = True
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                phase["body"] = False
            return message

        return receive_in_time

    async def whole_body(self, receive: Receive, scope: Scope, send: Send, limit: int) -> bytes | None:
        """A JSON body read whole (at most ``limit`` bytes) and checked; None when the client was
        answered already (too large, not strict JSON, gone)."""
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length", b"")
        if length.isdigit() and int(length) > limit:
            await _error(413, "request body too large")(scope, receive, send)
            return None
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None  # gone (or timed out: answered already)
            body += message.get("body", b"")
            if len(body) > limit:
                await _error(413, "request body too large")(scope, receive, send)
                return None
            if not message.get("more_body", False):
                break
        problem = json_problem(bytes(body))
        if problem:
            await _error(400, problem)(scope, receive, send)
            return None
        return bytes(body)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole once, then whatever the client sends next."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number: send a finite number")


def loads_strict(data: bytes | bytearray | str) -> Any:
    """JSON as the standard says: ``NaN``, ``Infinity`` and ``-Infinity`` are errors
    (:class:`ValueError`), and so is nesting too deep to read (``RecursionError`` → ValueError)."""
    try:
        return json.loads(data, parse_constant=_no_constants)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None


def json_problem(body: bytes) -> str | None:
    """What makes a JSON body unusable in a way the app's own parser would not say clearly
    (NaN/Infinity, too deep), or None (syntax errors are the app's to report)."""
    if not body.strip():
        return None
    try:
        loads_strict(body)
    except json.JSONDecodeError:
        return None  # a syntax error: the app's validation says where
    except (ValueError, UnicodeDecodeError) as exc:
        return f"the body is not valid JSON: {exc}"
    return None
