"""The web server's JSON API with FastAPI's test client: reading, correcting, scoring, bad input.

The reader is the ground-truth stand-in (``tests.vision.support.TruthReader``) except in the last test,
which needs the trained models.
"""

from __future__ import annotations

import base64
import json
import tempfile
import warnings
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.payments import Payment
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.vision.images import pixel_size, sniff
from mahjong_camera_scorer.vision.render.page import settlement
from mahjong_camera_scorer.vision.web.app import create_app
from tests.vision.support import EXAMPLE, TruthReader, models_present, truth_tiles
from tests.vision.test_images import tiff_claiming

CTX = {"win_by": "self_draw", "seat_wind": "W", "round_wind": "E"}


@pytest.fixture
def reader() -> TruthReader:
    return TruthReader(low=(4,))


@pytest.fixture
def client(reader: TruthReader) -> TestClient:
    return TestClient(create_app(reader), raise_server_exceptions=False, base_url="http://localhost")


def _read(client: TestClient, data: bytes | None = None, ctx: dict | None = None, **fields: str):
    data = EXAMPLE.read_bytes() if data is None else data
    form = {"rules": "riichi", "context": json.dumps(ctx or CTX), **fields}
    return client.post("/api/read", files={"image": ("hand.jpg", data, "image/jpeg")}, data=form)


# ------------------------------------------------------------------------------------------------
# the page and its files
# ------------------------------------------------------------------------------------------------
def test_page_and_its_static_files(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert 'capture="environment"' in r.text and 'accept="image/*"' in r.text
    assert "default-src 'self'" in r.headers["content-security-policy"]
    for name, kind in (("app.js", "javascript"), ("app.css", "css")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/app.py",
        "/static/../app.py",
        "/static/%2e%2e/app.py",
        "/static/..%2fapp.py",
        "/static/%2e%2e%2f%2e%2e%2fpyproject.toml",
        "/static/..%5c..%5cpyproject.toml",
        "/etc/passwd",
        "/static/",
    ],
)
def test_only_its_own_static_files_are_served(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404
    assert "error" in r.json()


def test_openapi_documents_the_api(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    assert {"/api/read", "/api/score", "/api/layout", "/api/meta"} <= set(spec["paths"])
    body = spec["paths"]["/api/read"]["post"]["requestBody"]["content"]
    assert "image" in body["multipart/form-data"]["schema"]["properties"]


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_the_api_docs_load_nothing_from_another_host(client: TestClient, page: str) -> None:
    """The phone page works without internet, so must its API documentation: every script,
    style sheet and icon it names is one of the server's own files, and is served."""
    import re

    r = client.get(page)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    urls = re.findall(r"""(?:src|href|url)\s*[=:(]\s*['"]([^'"]+)['"]""", r.text)
    assert any(u.endswith(".js") for u in urls), urls
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), url
        assert client.get(url).status_code == 200, url
    assert not re.search(r"https?://|cdn\.|fonts\.googleapis", r.text.replace("http://www.w3.org", ""))
    assert client.get("/docs-assets/../app.py").status_code == 404
    if page == "/docs":  # nor does Swagger UI send the spec to its online validator
        assert '"validatorUrl": null' in r.text


def test_meta(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert len(m["palette"]) == 46 and m["winds"] == ["E", "S", "W", "N"]
    assert {s["name"] for s in m["systems"]} == {"mcr", "riichi", "zung-jung", "australian", "classical"}


# ------------------------------------------------------------------------------------------------
# reading a photo
# ------------------------------------------------------------------------------------------------
def test_read_returns_tiles_hand_score_and_preview(client: TestClient) -> None:
    r = _read(client)
    assert r.status_code == 200, r.text
    d = r.json()
    assert Counter(t["code"] for t in d["tiles"]) == Counter(t["code"] for t in truth_tiles())
    t = d["tiles"][0]
    assert set(t) >= {"id", "code", "glyph", "name", "box", "confidence", "orientation", "flagged", "role"}
    flagged = [t for t in d["tiles"] if t["flagged"]]
    assert len(flagged) == 1 and flagged[0]["alternatives"][1]["code"] == "9s"
    assert d["hand"]["win_by"] == "self_draw" and d["hand"]["seat_wind"] == "W"
    assert d["hand"]["melds"] == [{"type": "kong", "tiles": "1111p", "open": False}]
    # the layout finds the winning tile set apart at the right of the slanted concealed row
    assert d["hand"]["hand"] == "345m55888p444s" and d["hand"]["winning_tile"] == "4s", d["problems"]
    assert [t["role"] for t in d["tiles"]].count("winning") == 1
    assert d["score"]["valid"] and d["score"]["han"] == 3 and d["score"]["notes"]
    assert d["image"]["width"] == 1024 and d["image"]["height"] == 768
    assert d["image"]["preview"].startswith("data:image/jpeg;base64,")
    preview = cv2.imdecode(
        np.frombuffer(base64.b64decode(d["image"]["preview"].split(",", 1)[1]), np.uint8), 1
    )
    assert preview.shape[1] / preview.shape[0] == pytest.approx(1024 / 768, rel=0.01)
    assert set(d["timings_ms"]) >= {"decode", "detect", "read", "total"}


def test_what_the_mending_changed_is_listed_with_the_problems() -> None:
    """A misread tile the rules mend, and a weak stray box in the hand's row that the rules leave
    out: both are named with the problems, for the player to check."""
    from dataclasses import replace

    class MendedReader(TruthReader):
        def readings(self):  # type: ignore[no-untyped-def]
            out = super().readings()
            eight = next(i for i, r in enumerate(out) if r.code == "8p")  # one of the pung 888p
            out[eight] = replace(
                out[eight], code="9p", confidence=0.5, alternatives=(("9p", 0.5), ("8p", 0.4))
            )
            last = max(out, key=lambda r: r.box[2])
            x0, y0, x1, y1 = last.box
            stray = replace(last, box=(x1 + 40, y0, x1 + 40 + (x1 - x0), y1), code="7z", detector_score=0.4)
            return [*out, replace(stray, index=len(out))]

    d = _read(
        TestClient(create_app(MendedReader()), raise_server_exceptions=False, base_url="http://localhost")
    ).json()
    assert d["score"]["valid"], d
    assert any("read as 9p, taken as 8p" in p for p in d["problems"]), d["problems"]
    assert any("read as 7z" in p and "left out" in p for p in d["problems"]), d["problems"]
    assert [t.get("corrected_from") for t in d["tiles"]].count("9p") == 1
    assert d["hand"]["hand"] == "345m55888p444s" and "7z" not in [t["code"] for t in d["tiles"]]


def test_read_with_the_winning_tile_given_scores_the_example(client: TestClient) -> None:
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    assert d["hand"]["hand"] == "345m55888p444s" and d["hand"]["winning_tile"] == "4s"
    s = d["score"]
    assert s["valid"], s
    assert s["han"] == 3 and s["fu"] == 70
    assert d["settlement"] == {"E": -4000, "S": -2000, "W": 8000, "N": -2000}
    assert [t["role"] for t in d["tiles"]].count("meld") == 4


def test_each_rule_system_scores_the_read_hand(client: TestClient) -> None:
    for rules in ("mcr", "riichi", "zung-jung", "australian", "classical"):
        d = _read(client, ctx={**CTX, "winning_tile": "4s"}, rules=rules).json()
        assert d["score"]["rules"] == rules
        assert d["score"]["valid"] or d["score"]["error"]


# ------------------------------------------------------------------------------------------------
# correcting tiles, scoring a hand
# ------------------------------------------------------------------------------------------------
def test_layout_after_a_correction_rescores(client: TestClient) -> None:
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    tiles = [{k: t[k] for k in ("id", "code", "box", "orientation")} for t in d["tiles"]]
    five = next(t for t in tiles if t["code"] == "5m")
    five["code"] = "0m"
    body = {"tiles": tiles, "rules": "riichi", "context": {**CTX, "winning_tile": "4s"}}
    r = client.post("/api/layout", json=body)
    assert r.status_code == 200, r.text
    e = r.json()
    assert e["hand"]["hand"] == "340m55888p444s"
    assert e["score"]["han"] == d["score"]["han"] + 1
    assert [t["id"] for t in e["tiles"]].count(five["id"]) == 1
    # removing a tile (not a tile after all) leaves a hand one short: a clear reason, not a crash
    e = client.post("/api/layout", json={**body, "tiles": tiles[1:]}).json()
    assert e["score"]["valid"] is False and e["score"]["error"]


def test_a_discarder_says_who_pays_and_is_checked(client: TestClient) -> None:
    """The page's context takes the discarder like every other front end: a discard win is then
    settled between seats; the winner's own seat, or a discarder on a self-draw, is a 400."""
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    tiles = [{k: t[k] for k in ("id", "code", "box", "orientation")} for t in d["tiles"]]
    ron = {"win_by": "discard", "seat_wind": "W", "winning_tile": "4s", "discarder": "N", "flags": ["riichi"]}
    e = client.post("/api/layout", json={"tiles": tiles, "rules": "riichi", "context": ron}).json()
    assert e["hand"]["discarder"] == "N" and e["settlement"]["N"] < 0 < e["settlement"]["W"]
    assert e["settlement"]["E"] == e["settlement"]["S"] == 0
    tsumo = {**ron, "win_by": "self_draw"}
    for bad, words in (({**ron, "discarder": "W"}, "own seat"), (tsumo, "self-draw")):
        r = client.post("/api/layout", json={"tiles": tiles, "rules": "riichi", "context": bad})
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_the_context_takes_the_words_every_front_end_takes(client: TestClient) -> None:
    """The page's context is read by the one parser (issue 35 item 3): ``ron`` and ``West`` are
    words here as on the command line (the context's own schema took ``discard`` and ``W`` alone),
    and a word no front end takes is a 400 with the one message."""
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    tiles = [{k: t[k] for k in ("id", "code", "box", "orientation")} for t in d["tiles"]]
    said = {"win_by": "tsumo", "seat_wind": "West", "winning_tile": "4s"}
    e = client.post("/api/layout", json={"tiles": tiles, "rules": "riichi", "context": said}).json()
    assert (e["hand"]["win_by"], e["hand"]["seat_wind"]) == ("self_draw", "W")
    assert _read(client, ctx={**CTX, "win_by": "ron"}).json()["hand"]["win_by"] == "discard"
    for bad, words in (
        ({"seat_wind": "Wrong"}, "seat_wind must be E, S, W or N (East, South, West, North), not 'Wrong'"),
        ({"win_by": "claim"}, "win_by must be 'discard' or 'self_draw' (ron or tsumo), not 'claim'"),
    ):
        r = client.post("/api/layout", json={"tiles": tiles, "rules": "riichi", "context": bad})
        assert r.status_code == 400 and r.json()["error"] == words, r.text
        r = _read(client, ctx=bad)
        assert r.status_code == 400 and r.json()["error"] == words, r.text


def test_a_misspelled_key_is_a_422_naming_the_known_keys(client: TestClient) -> None:
    """``flag: [riichi]`` for ``flags`` was dropped in silence (4 han instead of 5, issue 36 item
    4): in a structured hand, the layout's context or the photo's, it is the request's mistake."""
    hand = {"hand": "234m55p123456789s", "winning_tile": "9s", "win_by": "self_draw", "flag": ["riichi"]}
    r = client.post("/api/score", json={"hand": hand, "rules": "riichi"})
    error = r.json()["error"]
    assert r.status_code == 422 and error.startswith("invalid request: hand: the hand: unknown key 'flag'")
    assert "flags" in error and "dora_indicators" in error
    r = client.post("/api/layout", json={"tiles": [], "rules": "riichi", "context": {"dora_indicator": "1z"}})
    assert r.status_code == 422 and "unknown key 'dora_indicator' (known keys: " in r.json()["error"]
    r = _read(client, ctx={**CTX, "flag": ["riichi"]})
    assert r.status_code == 422 and "unknown key 'flag'" in r.json()["error"]
    r = client.post("/api/layout", json={"tiles": [], "rules": "riichi", "context": ["riichi"]})
    assert r.status_code == 422 and r.json()["error"].startswith("invalid request: context")


def test_tiles_carry_how_sure_their_turn_is_and_a_re_layout_weighs_it(client: TestClient) -> None:
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    assert all(0.0 <= t["turn_confidence"] <= 1.0 for t in d["tiles"])
    tiles = [{k: t[k] for k in ("id", "code", "box", "orientation", "turn")} for t in d["tiles"]]
    # most tiles claim the hand is upside down, but unsure; three are sure it is not
    for i, t in enumerate(tiles):
        t["turn"], t["turn_confidence"] = (0, 1.0) if i < 3 else (180, 0.05)
    body = {"tiles": tiles, "rules": "riichi", "context": CTX}
    weighed = client.post("/api/layout", json=body).json()
    assert weighed["hand"]["winning_tile"] == "4s"  # read upright: the winning tile at the right
    flipped = client.post(
        "/api/layout", json={**body, "tiles": [{**t, "turn_confidence": 1.0} for t in tiles]}
    ).json()
    # unweighted, the unsure majority turns the hand: its right end is now the left one
    assert flipped["hand"].get("winning_tile") != "4s"
    bad = {**body, "tiles": [{**tiles[0], "turn_confidence": 2}]}
    assert client.post("/api/layout", json=bad).status_code == 422


@pytest.mark.slow
def test_layout_rejects_bad_codes_and_bodies(client: TestClient) -> None:
    r = client.post("/api/layout", json={"tiles": [{"code": "9x", "box": [0, 0, 1, 1]}]})
    assert r.status_code == 400 and "9x" in r.json()["error"]
    r = client.post("/api/layout", json={"tiles": "nope"})
    assert r.status_code == 422 and r.json()["error"].startswith("invalid request")
    r = client.post("/api/layout", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "error" in r.json()
    r = client.post("/api/layout", json={"tiles": [], "rules": "poker"})
    assert r.status_code == 400 and "unknown rules" in r.json()["error"]
    r = client.post(
        "/api/layout",
        content=b'{"tiles": [{"code": "1m", "box": [NaN, 0, 1, 1]}]}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and "NaN is not a JSON number" in r.json()["error"]
    big = {"tiles": [], "options": {f"o{i}": "x" * 100 for i in range(20000)}}
    assert client.post("/api/layout", json=big).status_code == 413

    def chunks():
        yield b'{"tiles": [], "options": {'
        for i in range(20000):
            yield f'"o{i}": "{"x" * 100}", '.encode()
        yield b'"z": "1"}}'

    r = client.post("/api/score", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "request body too large"


def test_score_endpoint(client: TestClient) -> None:
    hand = {
        "hand": "234m55p12345678s9s",
        "winning_tile": "9s",
        "win_by": "self_draw",
        "seat_wind": "S",
        "flags": ["riichi"],
        "dora_indicators": ["1z"],
    }
    r = client.post("/api/score", json={"hand": hand, "rules": "riichi"})
    assert r.status_code == 200
    d = r.json()
    assert d["score"]["valid"] and d["score"]["total"] >= 4
    assert d["settlement"]["S"] > 0 and sum(d["settlement"].values()) == 0
    assert any("pays" in n for n in d["score"]["notes"])
    bad = client.post("/api/score", json={"hand": {"hand": "12m"}, "rules": "mcr"}).json()
    assert bad["score"]["valid"] is False and bad["score"]["error"]
    assert client.post("/api/score", json={"hand": {"hand": "12q"}}).json()["score"]["error"]
    assert client.post("/api/score", json={"hand": "x"}).status_code == 422


@pytest.mark.parametrize("value", [True, 1e29, -1, 101, "3", 2.5])
def test_counters_are_whole_numbers_from_0_to_100_everywhere(client: TestClient, value: object) -> None:
    """honba true or 1e29 used to be taken (points 3e28): the structured hand and the photo's
    context both refuse them with a message."""
    hand = {"hand": "234m55p123456789s", "winning_tile": "9s", "win_by": "self_draw", "honba": value}
    d = client.post("/api/score", json={"hand": hand, "rules": "riichi"}).json()
    assert d["score"]["valid"] is False and "honba" in d["score"]["error"]
    r = _read(client, ctx={**CTX, "honba": value})
    assert r.status_code == 400 and "honba" in r.json()["error"]
    r = _read(client, ctx={**CTX, "riichi_sticks": value})
    assert r.status_code == 400 and "riichi_sticks" in r.json()["error"]
    assert _read(client, ctx={**CTX, "honba": 100}).status_code == 200


def test_settlement_nets_the_typed_payments() -> None:
    riichi = [Payment("E", "W", 3900, "hand"), Payment("E", "W", 100, "counters")]
    riichi.append(Payment("S", "W", 2000, "hand"))
    assert settlement(riichi) == {"E": -4000, "S": -2000, "W": 6000, "N": 0}
    # riichi sticks come from the table: the winner gains them, no seat pays them again
    sticks = Payment("table", "W", 1000, "riichi sticks")
    assert settlement([*riichi, sticks]) == {"E": -4000, "S": -2000, "W": 7000, "N": 0}
    assert settlement([Payment("discarder", "W", 1000, "hand")]) is None  # whose seat is not known
    assert settlement([]) is None
    mcr = score_hand(parse_hand("123m456p789s5556z ron 6z seat=S discarder=W"), "mcr")
    assert settlement(mcr.payments) == {"E": -8, "S": 37, "W": -21, "N": -8}
    zj = score_hand(parse_hand("11123m555p777s88s ron 1m seat=E discarder=S"), "zung-jung")
    assert settlement(zj.payments) == {"E": 105, "S": -55, "W": -25, "N": -25}


# ------------------------------------------------------------------------------------------------
# bad input: a clear JSON error, never a crash, nothing written to disk
# ------------------------------------------------------------------------------------------------
def _png_header(w: int, h: int) -> bytes:
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", 13)
        + b"IHDR"
        + ihdr
        + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    )


@pytest.mark.parametrize(
    "data,status,words",
    [
        (b"hello, this is a text file", 415, "not an image"),
        (b"", 400, "empty"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 300, 400, "corrupt"),
        (b"\x00\x00\x00\x18ftypheic" + b"\x00" * 100, 415, "HEIC"),
        (_png_header(40000, 40000), 413, "too large"),
        (tiff_claiming(20000, 20000), 413, "too large"),
        (tiff_claiming(65535, 65535, big_endian=True), 413, "too large"),
        (cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes(), 400, "too small"),
        (_png_header(0, 10), 400, "corrupt"),
    ],
)
def test_bad_photos_get_a_clear_error(client: TestClient, data: bytes, status: int, words: str) -> None:
    r = _read(client, data)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]


@pytest.mark.slow
def test_photos_are_decoded_a_few_at_a_time(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each decode may take hundreds of MB: however many uploads arrive at once, at most
    DECODE_SLOTS are decoded together (the others wait their turn and are then read)."""
    import threading
    import time

    from mahjong_camera_scorer.vision import images
    from mahjong_camera_scorer.vision.web import upload

    running, peak, lock = [0], [0], threading.Lock()
    real = images.decode_image

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        time.sleep(0.15)
        try:
            return real(*args, **kwargs)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(images, "decode_image", slow)
    codes: list[int] = []
    threads = [threading.Thread(target=lambda: codes.append(_read(client).status_code)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert codes == [200] * 6
    assert 1 <= peak[0] <= upload.DECODE_SLOTS < 6


def test_a_truncated_jpeg_is_an_error_or_a_reading_never_a_crash(client: TestClient) -> None:
    data = EXAMPLE.read_bytes()
    r = _read(client, data[: len(data) // 3])
    assert r.status_code in (200, 400)
    assert r.json()


def test_uploads_over_the_limit_are_refused(reader: TruthReader) -> None:
    client = TestClient(
        create_app(reader, max_upload=50_000), raise_server_exceptions=False, base_url="http://localhost"
    )
    r = _read(client, EXAMPLE.read_bytes())  # 128 kB > 50 kB: refused from Content-Length
    assert r.status_code == 413 and "too large" in r.json()["error"]

    def chunks():  # no Content-Length: counted while streaming
        for _ in range(100):
            yield b"\xff" * 65536

    r = client.post("/api/read", content=chunks(), headers={"content-type": "image/jpeg"})
    assert r.status_code == 413 and "too large" in r.json()["error"]
    r = client.post(
        "/api/read",
        content=chunks(),
        headers={"content-type": "multipart/form-data; boundary=xyz"},
    )
    assert r.status_code == 413
    assert reader.calls["read"] == 0


def test_form_errors(client: TestClient) -> None:
    r = client.post("/api/read", data={"rules": "riichi"}, files={"other": ("a.txt", b"x", "text/plain")})
    assert r.status_code in (400, 415)
    r = client.post("/api/read", data={"rules": "riichi"})
    assert r.status_code in (400, 415) and "error" in r.json()
    assert "unknown rules" in _read(client, rules="poker").json()["error"]
    assert "not valid JSON" in _read(client, context="{").json()["error"]
    assert "seat_wind" in _read(client, ctx={"seat_wind": "X"}).json()["error"]
    assert "options" in _read(client, options="[1]").json()["error"]
    d = _read(client, options=json.dumps({"no_such_option": "1"})).json()
    assert "no_such_option" in d["score"]["error"]
    r = client.post(
        "/api/read",
        content=b"--xyz\r\ngarbage",
        headers={"content-type": "multipart/form-data; boundary=xyz"},
    )
    assert r.status_code == 400


def test_a_raw_image_body_is_accepted(client: TestClient) -> None:
    r = client.post("/api/read", content=EXAMPLE.read_bytes(), headers={"content-type": "image/jpeg"})
    assert r.status_code == 200 and len(r.json()["tiles"]) == len(truth_tiles())


def test_reader_failures_are_json_errors(tmp_path: Path) -> None:
    client = TestClient(
        create_app(None, models_dir=tmp_path), raise_server_exceptions=False, base_url="http://localhost"
    )
    r = _read(client)
    assert r.status_code == 503 and "models" in r.json()["error"]

    class Broken(TruthReader):
        def read_boxes(self, image, detections, tileset=None):
            raise RuntimeError("boom")

    client = TestClient(create_app(Broken()), raise_server_exceptions=False, base_url="http://localhost")
    r = _read(client)
    assert r.status_code == 500 and r.json() == {"error": "internal error: RuntimeError: boom"}
    assert client.get("/api/meta").status_code == 200  # still serving


def test_uploads_are_never_written_to_disk(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*a, **k):
        raise AssertionError("an upload must not be written to a file")

    for name in ("TemporaryFile", "NamedTemporaryFile", "SpooledTemporaryFile", "mkstemp", "mkdtemp"):
        monkeypatch.setattr(tempfile, name, refuse)
    big = cv2.imencode(".png", np.random.default_rng(0).integers(0, 255, (900, 1200, 3), np.uint8))[
        1
    ].tobytes()
    assert len(big) > 2 << 20  # larger than any in-memory spool threshold
    assert _read(client, big).status_code == 200
    assert _read(client).status_code == 200


def test_sniffing() -> None:
    assert sniff(EXAMPLE.read_bytes()) == "jpeg"
    assert pixel_size(EXAMPLE.read_bytes(), "jpeg") == (1024, 768)
    png = cv2.imencode(".png", np.zeros((30, 50, 3), np.uint8))[1].tobytes()
    webp = cv2.imencode(".webp", np.zeros((30, 50, 3), np.uint8))[1].tobytes()
    bmp = cv2.imencode(".bmp", np.zeros((30, 50, 3), np.uint8))[1].tobytes()
    assert [sniff(x) for x in (png, webp, bmp)] == ["png", "webp", "bmp"]
    assert pixel_size(png, "png") == (50, 30) and pixel_size(bmp, "bmp") == (50, 30)
    assert pixel_size(webp, "webp") == (50, 30)


# ------------------------------------------------------------------------------------------------
# the command
# ------------------------------------------------------------------------------------------------
def test_serve_command_is_registered_and_checks_its_port(capsys: pytest.CaptureFixture) -> None:
    from mahjong_camera_scorer.vision.cli import main

    assert main(["serve", "--port", "70000"]) == 2
    assert "error:" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    assert "--host" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------
# with the trained models
# ------------------------------------------------------------------------------------------------
@pytest.mark.models
@pytest.mark.skipif(not models_present(), reason="models/detector.onnx and models/reader.onnx not built yet")
def test_read_with_the_real_models() -> None:
    client = TestClient(create_app(), raise_server_exceptions=False, base_url="http://localhost")
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    assert Counter(t["code"] for t in d["tiles"]) == Counter(t["code"] for t in truth_tiles())
    assert d["score"]["valid"], d["score"]


def test_phone_photos_are_turned_upright_and_big_ones_decoded_reduced(client: TestClient) -> None:
    """A portrait phone photo is stored landscape with an EXIF orientation: the boxes and the
    preview must both be in the upright picture's pixels; a 12 MP JPEG decodes at ~2000 px."""
    image_mod = pytest.importorskip("PIL.Image")
    import io

    img = image_mod.fromarray(np.zeros((300, 400, 3), np.uint8))
    exif = img.getexif()
    exif[0x0112] = 6  # rotate 90° clockwise to view
    buf = io.BytesIO()
    img.save(buf, "JPEG", exif=exif.tobytes())
    d = _read(client, buf.getvalue()).json()
    assert (d["image"]["width"], d["image"]["height"]) == (300, 400)
    big = cv2.imencode(".jpg", np.full((3000, 4000, 3), 90, np.uint8))[1].tobytes()
    d = _read(client, big).json()
    assert (d["image"]["width"], d["image"]["height"]) == (2000, 1500)


def test_a_hand_in_one_row_is_read_scored_and_rescored_with_its_candidates() -> None:
    """No winning tile set apart: the read gives the candidates and scores the best (a notice
    says so, by kind); the score endpoint then rescores it with the tile the player taps, and
    with the toggles (self-draw or discard), listing the candidates again."""
    from tests.vision.support import one_row_manifest

    client = TestClient(create_app(TruthReader(one_row_manifest())), base_url="http://localhost")
    d = _read(client).json()
    codes = [c["code"] for c in d["candidates"]]
    assert sorted(codes) == ["3m", "4m", "4s", "5m", "5p", "8p"] and all(c["valid"] for c in d["candidates"])
    assert d["score"]["valid"] and d["winning"] == {"tile": codes[0], "from": "candidate", "set_apart": None}
    assert d["hand"]["winning_tile"] is None
    assert {"kind": "winning_guessed", "tile": codes[0], "count": 6, "about": "score"} in d["notices"]
    assert not any(n["kind"] == "no_winning_tile" for n in d["notices"])
    # the player taps 4s: that score, the candidates still listed
    hand = {**d["hand"], "winning_tile": "4s"}
    won = client.post("/api/score", json={"hand": hand, "rules": "riichi", "candidates": True}).json()
    assert won["winning"] == {"tile": "4s", "from": "given", "set_apart": None} and won["score"]["valid"]
    assert [c["code"] for c in won["candidates"]] == codes and won["notices"] == []

    # a discard instead of a self-draw: rescored at once, no new read; on 4s no yaku is left,
    # on 5p (a pair wait) three concealed pungs are
    def ron(tile: str) -> dict:
        body = {"hand": {**hand, "win_by": "discard", "winning_tile": tile}, "rules": "riichi"}
        return client.post("/api/score", json=body).json()

    assert not ron("4s")["score"]["valid"] and [n["kind"] for n in ron("4s")["notices"]] == ["not_a_win"]
    assert "yaku" in ron("4s")["notices"][0]["detail"].lower()
    assert ron("5p")["score"]["valid"] and "San ankou" in ron("5p")["score"]["elements"]
    # without the winning tile and without asking: the candidates all the same (no score without)
    plain = client.post("/api/score", json={"hand": d["hand"], "rules": "riichi"}).json()
    assert plain["winning"]["from"] == "candidate" and plain["score"] == d["score"]


def test_notices_name_kinds_and_facts_never_cli_words() -> None:
    """What the page words itself: a hand a tile short says how many it has and needs; a hand
    the rules refuse gives the rules' reason; no notice carries a CLI flag or a field name."""
    client = TestClient(create_app(TruthReader()), base_url="http://localhost")
    ready = client.post("/api/score", json={"hand": {"hand": "234m55p12345678s"}, "rules": "riichi"}).json()
    assert ready["notices"] == [{"kind": "ready", "have": 13, "need": 14, "about": "score"}]
    # a ready hand's waits, each with what it would score under the rules (3s, 6s, 9s: Itsu on 9s)
    assert ready["waits"][0]["code"] == "9s" and {w["code"] for w in ready["waits"]} == {"3s", "6s", "9s"}
    assert ready["waits"][0]["valid"] and ready["waits"][0]["total"] > ready["waits"][-1]["total"]
    short = client.post("/api/score", json={"hand": {"hand": "234m55p1234569s"}, "rules": "riichi"}).json()
    assert short["notices"] == [{"kind": "incomplete", "have": 12, "need": 14, "about": "score"}]
    assert short["waits"] == []
    five = client.post("/api/score", json={"hand": {"hand": "55555m123p456789s"}, "rules": "mcr"}).json()
    assert five["notices"] == [{"kind": "too_many_copies", "tile": "5m", "copies": 5, "about": "score"}]
    shape = client.post("/api/score", json={"hand": {"hand": "1234m55p12345679s"}, "rules": "riichi"}).json()
    assert shape["notices"] == [{"kind": "not_winning_shape", "have": 14, "need": 14, "about": "score"}]
    open_hand = {
        "hand": "234m678p55s",
        "melds": [{"type": "chow", "tiles": "789s"}, {"type": "chow", "tiles": "123m"}],
        "win_by": "self_draw",
    }
    none = client.post("/api/score", json={"hand": open_hand, "rules": "riichi"}).json()
    assert [n["kind"] for n in none["notices"]] == ["no_candidate_wins"] and none["candidates"]
    d = _read(client, ctx={**CTX, "winning_tile": "4s"}).json()
    text = json.dumps([d["notices"], d["candidates"], d["winning"]])
    assert "--" not in text and "winning_tile" not in text
