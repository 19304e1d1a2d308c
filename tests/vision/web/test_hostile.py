"""The page's server against the second probe: a trickling upload loses its slot, a 500 the app
raises on purpose is logged with its cause, a correction posted twice is taught once."""

from __future__ import annotations

import logging
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.vision.teach.profile import Example, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore
from mahjong_camera_scorer.vision.web.app import create_app
from mahjong_camera_scorer.vision.web.guard import Limits
from tests.vision.support import Server, TruthReader
from tests.vision.web.test_guard import _closed_within, _connect
from tests.vision.web.test_sets_api import _client, _read, _taught, needs_models, reader, tile_model  # noqa: F401


@pytest.mark.slow
def test_a_trickling_upload_loses_its_slot_within_seconds() -> None:
    """10 bytes every 0.3 s never pauses long enough for the idle limit, but is far under the
    rate a real upload keeps: answered 408 once the grace is over, not after the total limit."""
    limits = Limits(body_idle=2.0, body_total=60.0, body_rate=2000, body_grace=1.0, body_slots=1)
    app = create_app(TruthReader(), limits=limits)
    with Server(app) as base:
        s = _connect(int(base.rsplit(":", 1)[1]))
        s.sendall(
            b"POST /api/read HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\n"
            b"Content-Length: 100000\r\n\r\n"
        )
        t0, got = time.monotonic(), None
        while got is None and time.monotonic() - t0 < 10:
            try:
                s.sendall(b"x" * 10)
            except OSError:
                break
            got = _closed_within(s, 0.3)
        assert time.monotonic() - t0 < 4
        assert got is None or got == b"" or got.startswith(b"HTTP/1.1 408"), got


def test_a_500_raised_on_purpose_is_logged_with_its_cause(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = SetStore(tmp_path)
    crop = np.zeros((96, 96, 3), np.uint8)
    store.save(TileSet("home", [Example("1m", crop)]))
    (tmp_path / "home" / "set.json").write_text("{broken")
    app = create_app(TruthReader(), sets=store)
    client = TestClient(app, raise_server_exceptions=False, base_url="http://localhost")
    with caplog.at_level(logging.ERROR, logger="mahjong_camera_scorer.vision.web"):
        r = client.get("/api/sets/home")
    assert r.status_code == 500 and "cannot be read" in r.json()["error"]
    logged = [rec.getMessage() for rec in caplog.records if rec.name == "mahjong_camera_scorer.vision.web"]
    assert any("answered 500" in m and "not valid JSON" in m for m in logged), logged


@needs_models
@pytest.mark.models
def test_the_same_correction_posted_twice_is_taught_once(reader: TruthReader, tmp_path: Path) -> None:  # noqa: F811
    client = _client(reader, tmp_path / "sets")
    _taught(client)
    d = _read(client, set="home").json()
    five = next(t for t in d["tiles"] if t["code"] == "5m")
    body = {"set": "home", "read_id": d["read_id"], "tile": five["id"], "code": "0m"}
    first = client.post("/api/teach/correction", json=body)
    again = client.post("/api/teach/correction", json=body)
    assert first.status_code == again.status_code == 200, again.text
    assert again.json()["set"]["tiles"] == 16 and first.json()["added"]["id"] == again.json()["added"]["id"]


def test_opencv_lines_stay_out_of_the_server_log() -> None:
    """OpenCV's own log is off for the whole server (the per-decode switch raced between the
    server's threads), and corrupt uploads decoded in threads at once write nothing to stderr."""
    import subprocess
    import sys

    code = (
        "import cv2, numpy as np\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "from mahjong_camera_scorer.vision.images import PhotoError, decode_image\n"
        "from mahjong_camera_scorer.vision.web.server import log_errors_to_stderr\n"
        "log_errors_to_stderr()\n"
        "assert cv2.utils.logging.getLogLevel() == cv2.utils.logging.LOG_LEVEL_SILENT\n"
        "img = np.random.default_rng(0).integers(0, 255, (64, 64, 3), np.uint8)\n"
        "files = [cv2.imencode(e, img)[1].tobytes() for e in ('.png', '.jpg', '.tif', '.webp')]\n"
        "bad = [f[: len(f) // 2] for f in files]\n"
        "def one(k):\n"
        "    try:\n"
        "        decode_image(bad[k % 4])\n"
        "    except PhotoError:\n"
        "        pass\n"
        "list(ThreadPoolExecutor(8).map(one, range(400)))\n"
    )
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == "", done.stderr[:500]


@needs_models
@pytest.mark.models
def test_a_change_to_a_set_reads_only_the_crops_it_added(
    reader: TruthReader,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mahjong_camera_scorer.vision.teach import adapt

    client = _client(reader, tmp_path / "sets")
    _taught(client)
    sizes: list[int] = []
    real = adapt._crop_looks
    monkeypatch.setattr(adapt, "_crop_looks", lambda m, crops: sizes.append(len(crops)) or real(m, crops))
    d = _read(client, set="home").json()  # the set's looks: from the cache teaching filled, or once
    first = sum(sizes)
    assert first in (0, 15)
    body = {"set": "home", "read_id": d["read_id"], "tile": d["tiles"][0]["id"], "code": "0m"}
    assert client.post("/api/teach/correction", json=body).status_code == 200
    _read(client, set="home")
    assert sum(sizes) - first == 1, sizes  # the one crop the correction added
