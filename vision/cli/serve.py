"""``mahjong-score serve``: the phone page, on this computer or on the local network.

The server listens on 127.0.0.1 (this computer only) unless ``--host`` says otherwise; with
``--host 0.0.0.0`` the phone and the computer share a Wi-Fi network and the command prints the
address to open on the phone. The page uses a plain file input with ``capture``, which opens the
phone's camera over plain HTTP (no certificate needed, unlike a live camera stream in the browser).
``--set NAME`` is the taught set photos are read with unless the page picks another; the page
lists, teaches and prunes the sets of ``--profile DIR`` (default: the user's, as ``teach``).
"""

from __future__ import annotations

import argparse
import re
import socket
import sys
from typing import TYPE_CHECKING, TextIO

from mahjong_camera_scorer.scoring.cli import EXIT_OK, CliError
from mahjong_camera_scorer.vision.cli.options import add_model_options
from mahjong_camera_scorer.vision.models import ModelError

if TYPE_CHECKING:
    from fastapi import FastAPI

    from mahjong_camera_scorer.vision.teach.store import SetStore

#: open connections before new requests get a 503
MAX_CONNECTIONS = 64


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a phone on the same network could reach (best effort)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the route
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    out = []
    for a in found:
        if a not in out and not a.startswith("127.") and a != "0.0.0.0":
            out.append(a)
    return out


def _urls(host: str, port: int) -> list[str]:
    if host in ("0.0.0.0", "", "::"):
        return [f"http://{a}:{port}/" for a in lan_addresses()] or [f"http://localhost:{port}/"]
    return [f"http://{host}:{port}/"]


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    try:
        import uvicorn

        from mahjong_camera_scorer.vision.web.app import create_app
        from mahjong_camera_scorer.vision.web.server import config, log_errors_to_stderr
    except ImportError as exc:  # the web extras are runtime dependencies; say so if one is missing
        raise CliError(
            f"the web server needs {exc.name}: pip install fastapi uvicorn python-multipart"
        ) from None
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    if not 0 < args.port < 65536:
        raise CliError(f"--port must be 1..65535, not {args.port}")
    if args.max_upload_mb < 1:
        raise CliError("--max-upload-mb must be 1 or more")
    if args.max_connections < 1:
        raise CliError("--max-connections must be 1 or more")
    allow = [h.strip() for h in args.allow_host or [] if h.strip()]
    bad = next((h for h in allow if not _HOST_NAME.fullmatch(h)), None)
    if bad is not None:
        raise CliError(f"--allow-host {bad!r}: give a host name such as mahjong.local (no scheme, no port)")
    store = _set_store(args.profile, args.set)
    try:  # fail on a taken port with one clear line, before uvicorn starts logging
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((args.host, args.port))
    except OSError as exc:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}") from None
    reader = None
    try:
        reader = PhotoReader(args.models, conf=args.det_conf)
    except ModelError as exc:
        print(
            f"warning: {exc}; the page opens, but photos cannot be read until the models exist",
            file=sys.stderr,
        )
    app = create_app(
        reader,
        models_dir=args.models,
        det_conf=args.det_conf,
        max_upload=args.max_upload_mb << 20,
        allow_hosts=allow,
        sets=store,
        default_set=args.set,
    )
    if args.set and reader is not None:
        _ready(app, args.set)
    urls = _urls(args.host, args.port)
    if _local_only(args.host):
        out.write("Mahjong scorer is running for this computer only. Open:\n")
    else:
        out.write("Mahjong scorer is running. Open this on your phone (same Wi-Fi network):\n")
    for u in urls:
        out.write(f"  {u}\n")
    if args.set:
        out.write(f"Photos are read with the taught set {args.set!r} unless the page picks another.\n")
    out.write(f"API documentation: {urls[0]}docs    Stop with Ctrl+C.\n")
    if _local_only(args.host):
        out.write("For a phone on this network: mahjong-score serve --host 0.0.0.0\n")
    out.flush()
    log_errors_to_stderr(args.log_level)
    settings = config(
        app,
        args.host,
        args.port,
        max_connections=args.max_connections,
        log_level=args.log_level,
        access_log=args.access_log,
    )
    uvicorn.Server(settings).run()
    return EXIT_OK


def _set_store(profile: str | None, name: str | None) -> SetStore:
    """The folder of taught sets, with the set ``--set`` named in it (a clear error if not)."""
    from mahjong_camera_scorer.vision.teach.profile import SetError
    from mahjong_camera_scorer.vision.teach.store import SetStore

    store = SetStore(profile)
    if name:
        try:
            store.load(name)
        except SetError as exc:
            raise CliError(str(exc)) from None
    return store


def _ready(app: FastAPI, name: str) -> None:
    """The default set's taught reader made before the first photo (and a reader that cannot use
    a taught set said now, not on the phone)."""
    from mahjong_camera_scorer.vision.web.errors import ApiError

    try:
        app.state.sets.adjuster(name)
    except ApiError as exc:
        raise CliError(f"--set {name}: {exc.message}") from None


#: a name --allow-host takes: letters, digits, dots and hyphens
_HOST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9.-]{0,252})")


def _local_only(host: str) -> bool:
    return host in ("127.0.0.1", "::1", "localhost") or host.startswith("127.")


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``serve`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "serve",
        help="serve the phone page: take a photo, correct tiles, see the score",
        description="Start a web server for phones on the same network: take or choose a photo of a "
        "finished hand, tap any tile to correct it, see the full score. JSON API under /api, "
        "documented at /docs.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every "
        "interface, for a phone on the same network)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="a host name the page may be opened by besides localhost and IP addresses (repeatable; "
        "requests for other names are refused, against DNS rebinding)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        help=f"open connections before new requests get a 503 (default {MAX_CONNECTIONS})",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_model_options(p)
    p.add_argument("--max-upload-mb", type=int, default=25, help="largest photo accepted, in MB (default 25)")
    p.add_argument(
        "--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"]
    )
    p.add_argument("--access-log", action="store_true", help="log every request")
    p.set_defaults(func=cmd_serve)
