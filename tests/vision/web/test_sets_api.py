"""The phone page's taught sets over the JSON API (:mod:`vision.web.sets_api`), with FastAPI's test
client and a ``--profile``-style folder of sets in a temporary directory.

The reader is the ground-truth stand-in (``tests.vision.support.TruthReader``) with the shipped tile
reader model for the crops' features (a set's taught reader and its suspects need them); the last
test reads with the trained models end to end. Both skip while the models are missing.
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import cv2
import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.vision.models import MODELS_DIR
from mahjong_camera_scorer.vision.teach.adapt import TaughtReader
from mahjong_camera_scorer.vision.teach.store import SetStore
from mahjong_camera_scorer.vision.web import sets as web_sets
from mahjong_camera_scorer.vision.web.app import create_app
from tests.vision.support import EXAMPLE, TruthReader, models_present, truth_tiles

#: the bundled example, row by row as a player reads it (one row of 15: hand, winning tile, kong)
CODES = "345m 55888p 44s | 4s | ?11p?"
#: the same with the first 3m and the first 4s swapped: a set taught so has two wrong tiles
SWAPPED = "4s 45m 55888p 3m 4s | 4s | ?11p?"
needs_models = pytest.mark.skipif(not models_present(), reason="models/*.onnx not built yet")


@pytest.fixture(scope="module")
def tile_model():  # type: ignore[no-untyped-def]
    if not models_present():
        pytest.skip("models/reader.onnx not built yet")
    from mahjong_camera_scorer.vision.models import reader

    return reader(str(MODELS_DIR))


@pytest.fixture
def reader(tile_model) -> TruthReader:  # type: ignore[no-untyped-def]
    r = TruthReader()
    r.rdr = tile_model
    return r


def _client(
    reader: TruthReader | None, profile: Path, default: str | None = None, **kw: object
) -> TestClient:
    app = create_app(reader, sets=SetStore(profile), default_set=default, **kw)  # type: ignore[arg-type]
    return TestClient(app, raise_server_exceptions=False, base_url="http://localhost")


@pytest.fixture
def client(reader: TruthReader, tmp_path: Path) -> TestClient:
    return _client(reader, tmp_path / "sets")


def _photo(data: bytes | None = None) -> dict:
    return {"image": ("hand.jpg", EXAMPLE.read_bytes() if data is None else data, "image/jpeg")}


def _teach(client: TestClient, name: str = "home", codes: str = CODES, **fields: str):
    form = {"set": name, "codes": codes, **fields}
    return client.post("/api/teach", files=_photo(), data=form)


def _taught(client: TestClient, name: str = "home", codes: str = CODES) -> dict:
    r = _teach(client, name, codes, save="true")
    assert r.status_code == 200, r.text
    return r.json()


def _read(client: TestClient, **fields: str):
    return client.post("/api/read", files=_photo(), data={"rules": "riichi", **fields})


def _count(client: TestClient, name: str = "home") -> int:
    return client.get(f"/api/sets/{name}").json()["set"]["tiles"]


# ------------------------------------------------------------------------------------------------
# sets
# ------------------------------------------------------------------------------------------------
@pytest.mark.models
def test_sets_are_listed_created_and_the_default_marked(reader: TruthReader, tmp_path: Path) -> None:
    client = _client(reader, tmp_path)
    assert client.get("/api/sets").json() == {"sets": [], "default": None}
    r = client.post("/api/sets", json={"name": "club set"})
    assert r.status_code == 201
    assert r.json()["set"] == {"name": "club set", "tiles": 0, "codes": 0, "default": False}
    r = client.post("/api/sets", json={"name": "club set"})
    assert r.status_code == 409 and "exists already" in r.json()["error"]
    _taught(client, "home")
    client = _client(reader, tmp_path, default="home")
    listing = client.get("/api/sets").json()
    assert listing["default"] == "home"
    assert listing["sets"] == [
        {"name": "club set", "default": False, "tiles": 0, "codes": 0},
        {"name": "home", "default": True, "tiles": 15, "codes": 8},
    ]


@pytest.mark.models
def test_teaching_shows_the_pairing_first_and_saves_it_when_asked(client: TestClient, tmp_path: Path) -> None:
    r = _teach(client)
    assert r.status_code == 200, r.text
    d = r.json()
    assert d["saved"] is False and d["source"] == "hand.jpg"
    assert (d["tiles"], d["taught"], d["disagreeing"]) == (15, 15, 0)
    assert [[t["code"] for t in row] for row in d["rows"]] == [
        ["3m", "4m", "5m", "5p", "5p", "8p", "8p", "8p", "4s", "4s", "4s", "back", "1p", "1p", "back"]
    ]
    assert all(t["read"] == t["code"] for t in d["rows"][0])
    assert all(t["crop"].startswith("data:image/jpeg;base64,") for t in d["rows"][0])
    assert client.get("/api/sets").json()["sets"] == []  # a preview saves nothing
    r = client.post("/api/teach/save", json={"preview": d["preview"]})
    assert r.status_code == 200, r.text
    assert r.json()["set"]["tiles"] == 15 and len(r.json()["added"]) == 15
    again = client.post("/api/teach/save", json={"preview": d["preview"]})  # saved once, not twice
    assert again.status_code == 410 and "pair it again" in again.json()["error"]
    assert _count(client) == 15
    home = {p.name for p in (tmp_path / "sets" / "home").iterdir()}
    assert home - {"features.npz"} == {"crops", "set.json"}
    assert len(list((tmp_path / "sets" / "home" / "crops").iterdir())) == 15  # the crops, no photo


def test_the_pairing_marks_what_the_reader_read_otherwise_and_x_is_not_taught(client: TestClient) -> None:
    d = _teach(client, codes="x45m 55888p 44s | 3s | ?11p?").json()
    row = d["rows"][0]
    assert row[0] == {**row[0], "code": "x", "taught": False, "crop": ""}
    assert row[10]["code"] == "3s" and row[10]["read"] == "4s" and row[10]["disagrees"] is True
    assert (d["taught"], d["disagreeing"]) == (14, 1)


@pytest.mark.models
def test_the_same_photo_taught_twice_is_not_doubled(client: TestClient) -> None:
    first = _taught(client)
    assert len(first["added"]) == 15 and first["already"] == 0
    again = _taught(client)  # the same photo paired and saved again (issue 38 item 5)
    assert again["added"] == [] and again["already"] == 15 and again["set"]["tiles"] == 15
    assert _count(client) == 15


def test_a_row_that_does_not_pair_is_shown_with_its_tiles_and_the_rest_taught(client: TestClient) -> None:
    d = _teach(client, codes="345m 55888p 44s | 4s / ?11p? / 1234z").json()
    assert d["taught"] == 15 and [len(r) for r in d["rows"]] == [11, 4, 0]
    assert d["unpaired"] == [{"row": 3, "found": 0, "given": 4, "codes": "1z 2z 3z 4z", "tiles": []}]
    # two rows typed for the photo's one row of tiles, both paired: a hand, then the kong apart
    two = _teach(client, codes="345m 55888p 44s 4s / ?11p?").json()
    assert [len(r) for r in two["rows"]] == [11, 4] and two["unpaired"] == []


def test_rows_that_do_not_match_are_named_and_nothing_is_kept(client: TestClient) -> None:
    # 16 codes for the photo's 15 tiles: no typed row pairs
    r = _teach(client, codes="345m55888p44s / 4s ?11p? 9m")
    assert r.status_code == 422
    d = r.json()
    assert "the codes give 2" in d["lines"][0]
    assert d["lines"][1:] == [
        "row 1: 15 tiles found, 10 codes given (3m 4m 5m 5p 5p 8p 8p 8p 4s 4s)",
        "row 2: 0 tiles found, 6 codes given (4s ? 1p 1p ? 9m)",
    ]
    assert d["error"].startswith("the tiles found do not match the codes: ")
    # the same facts for the page to word in its language
    assert d["row_counts"] == [1, 2] and d["counts"] == [
        {"row": 1, "found": 15, "given": 10, "codes": "3m 4m 5m 5p 5p 8p 8p 8p 4s 4s"},
        {"row": 2, "found": 0, "given": 6, "codes": "4s ? 1p 1p ? 9m"},
    ]
    r = client.post("/api/teach", files=_photo(), data={"set": "home", "standard": "true", "save": "true"})
    assert r.status_code == 422
    assert r.json()["lines"][-1].startswith("the standard layout: 123456789m / 123456789p")
    assert client.get("/api/sets").json()["sets"] == []


@pytest.mark.models
def test_the_set_view_lists_taught_tiles_their_crops_and_suspects(client: TestClient) -> None:
    _taught(client, "home", SWAPPED)
    d = client.get("/api/sets/home").json()
    assert d["set"]["tiles"] == 15 and d["counts"]["4s"] == 3
    first = d["tiles"][0]
    assert (first["code"], first["source"], first["how"]) == ("4s", "hand.jpg", "teach")
    assert set(first) >= {"id", "code", "source", "how", "added", "glyph"}
    suspects = {s["id"]: s for s in d["suspects"]}
    wrong = {d["tiles"][0]["id"], d["tiles"][8]["id"]}  # taught 4s (a 3m), taught 3m (a 4s)
    assert wrong <= set(suspects), d["suspects"]
    assert all("remove" in s["message"] for s in d["suspects"])
    png = client.get(f"/api/sets/home/tiles/{first['id']}.png")
    assert png.status_code == 200 and png.headers["content-type"] == "image/png"
    crop = cv2.imdecode(np.frombuffer(png.content, np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape == (96, 96, 3)
    assert "immutable" in png.headers["cache-control"]


@pytest.mark.models
def test_a_set_changed_outside_the_server_is_seen(client: TestClient, tmp_path: Path) -> None:
    """``mahjong-score teach`` may change a set while the server runs: every save replaces its
    set.json, which the server looks at before using what it loaded."""
    _taught(client)
    store = SetStore(tmp_path / "sets")
    ts = store.load("home")
    ts.remove([ts.examples[0].id, ts.examples[1].id])
    store.save(ts)
    assert _count(client) == 13
    assert client.get("/api/sets").json()["sets"][0]["tiles"] == 13


# ------------------------------------------------------------------------------------------------
# reading with a set, learning from corrections, removing and undoing
# ------------------------------------------------------------------------------------------------
@pytest.mark.models
def test_a_photo_is_read_with_the_set_asked_for(reader: TruthReader, tmp_path: Path) -> None:
    client = _client(reader, tmp_path, default="home")
    _taught(client)
    d = _read(client).json()  # no set field: the default
    assert d["set"] == "home" and isinstance(reader.tilesets[-1], TaughtReader)
    assert reader.tilesets[-1].name == "home" and len(reader.tilesets[-1].labels) == 15  # 15 crops, as cut
    d = _read(client, set="").json()  # none
    assert d["set"] is None and reader.tilesets[-1] is None
    first = reader.tilesets[-2]
    _read(client, set="home")
    assert reader.tilesets[-1] is first  # built once for this version of the set
    r = _read(client, set="nope")
    assert r.status_code == 404 and r.json()["error"] == "no taught set 'nope' (sets: home)"
    assert _read(client, set="../etc").status_code == 400
    client.post("/api/sets", json={"name": "empty"})
    d = _read(client, set="empty").json()  # a set taught nothing yet reads as none
    assert d["set"] == "empty" and len(d["tiles"]) == len(truth_tiles())


@pytest.mark.models
def test_a_correction_is_taught_to_the_set_and_can_be_undone(client: TestClient) -> None:
    _taught(client)
    d = _read(client, set="home").json()
    assert d["read_id"]
    five = next(t for t in d["tiles"] if t["code"] == "5m")
    body = {"set": "home", "read_id": d["read_id"], "tile": five["id"], "code": "0m"}
    r = client.post("/api/teach/correction", json=body)
    assert r.status_code == 200, r.text
    added = r.json()["added"]
    assert (added["code"], added["how"], added["source"]) == ("0m", "correction", "hand.jpg (corrected)")
    assert r.json()["set"]["tiles"] == 16
    ids = [t["id"] for t in client.get("/api/sets/home").json()["tiles"]]
    assert ids[-1] == added["id"]
    r = client.delete(f"/api/sets/home/tiles/{added['id']}")  # the page's Undo
    assert r.status_code == 200 and r.json()["removed"]["id"] == added["id"]
    assert r.json()["set"]["tiles"] == 15
    assert client.get(f"/api/sets/home/tiles/{added['id']}.png").status_code == 404


@pytest.mark.models
def test_a_removed_tile_comes_back_in_its_place(client: TestClient) -> None:
    _taught(client)
    before = [t["id"] for t in client.get("/api/sets/home").json()["tiles"]]
    r = client.delete(f"/api/sets/home/tiles/{before[3]}")
    assert r.status_code == 200
    d = r.json()
    assert d["removed"]["id"] == before[3] and d["removed"]["code"] == "5p" and d["set"]["tiles"] == 14
    r = client.post("/api/sets/undo", json={"undo": d["undo"]})
    assert r.status_code == 200 and r.json()["restored"]["id"] == before[3]
    assert [t["id"] for t in client.get("/api/sets/home").json()["tiles"]] == before
    r = client.post("/api/sets/undo", json={"undo": d["undo"]})  # once
    assert r.status_code == 410 and "nothing to undo" in r.json()["error"]


def test_only_the_last_reads_are_kept(
    reader: TruthReader, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web_sets, "READS_KEPT", 2)
    client = _client(reader, tmp_path)
    _taught(client)
    ids = [_read(client).json()["read_id"] for _ in range(3)]
    body = {"set": "home", "tile": 0, "code": "0m"}
    r = client.post("/api/teach/correction", json={**body, "read_id": ids[0]})
    assert r.status_code == 410 and "take it again" in r.json()["error"]
    assert client.post("/api/teach/correction", json={**body, "read_id": ids[2]}).status_code == 200


# ------------------------------------------------------------------------------------------------
# bad input: a clear JSON error with a 4xx, nothing changed
# ------------------------------------------------------------------------------------------------
#: a correction as the page sends it ("READ": the id of a read made in the test)
FIX = {"set": "home", "read_id": "READ", "tile": 0, "code": "1m"}


@pytest.mark.models
@pytest.mark.slow
@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("get", "/api/sets/nope", None, 404, "no taught set 'nope' (sets: home)"),
        ("get", "/api/sets/nope/tiles/abcdef.png", None, 404, "no taught set"),
        ("get", "/api/sets/home/tiles/abcdef.png", None, 404, "has no taught tile 'abcdef'"),
        ("get", "/api/sets/.hidden", None, 400, "bad set name"),
        ("delete", "/api/sets/nope/tiles/abcdef", None, 404, "no taught set"),
        ("delete", "/api/sets/home/tiles/abcdef", None, 404, "has no taught tile"),
        ("delete", "/api/sets/%20home/tiles/abcdef", None, 400, "bad set name"),
        ("post", "/api/sets", {"name": "../up"}, 400, "bad set name"),
        ("post", "/api/sets", {"name": ""}, 400, "bad set name"),
        ("post", "/api/sets", {"name": "x" * 65}, 400, "bad set name"),
        ("post", "/api/sets", {"name": "a", "other": 1}, 422, "other"),
        ("post", "/api/sets", {"name": 3}, 422, "name"),
        ("post", "/api/sets/undo", {"undo": "0123"}, 410, "nothing to undo"),
        ("post", "/api/teach/save", {"preview": "0123"}, 410, "pair it again"),
        ("post", "/api/teach/correction", {**FIX, "read_id": "0123"}, 410, "memory"),
        ("post", "/api/teach/correction", {**FIX, "set": "nope"}, 404, "no taught"),
        ("post", "/api/teach/correction", {**FIX, "set": "../x"}, 400, "bad set"),
        ("post", "/api/teach/correction", {**FIX, "code": "9q"}, 400, "9q"),
        ("post", "/api/teach/correction", {**FIX, "tile": 99}, 404, "tile 99"),
        ("post", "/api/teach/correction", {**FIX, "tile": "0"}, 422, "tile"),
        ("post", "/api/teach/correction", {**FIX, "tile": -1}, 422, "tile"),
        ("post", "/api/teach/correction", {**FIX, "extra": 1}, 422, "extra"),
    ],
)
def test_bad_requests_get_a_clear_error(
    client: TestClient, method: str, path: str, body: dict | None, status: int, words: str
) -> None:
    _taught(client)
    read_id = _read(client).json()["read_id"]
    if body is not None:
        body = {k: read_id if v == "READ" else v for k, v in body.items()}
    r = client.request(method.upper(), path, json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert _count(client) == 15


def _png_header(w: int, h: int) -> bytes:
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))


@pytest.mark.parametrize(
    ("fields", "data", "status", "words"),
    [
        ({"set": "home", "codes": "345m / 9q"}, None, 400, "row 2"),
        ({"set": "home", "codes": ""}, None, 400, "no codes given"),
        ({"set": "home", "codes": "123m", "standard": "true"}, None, 400, "not both"),
        ({"set": "../x", "codes": CODES}, None, 400, "bad set name"),
        ({"codes": CODES}, None, 400, "bad set name"),
        ({"set": "home", "codes": CODES}, b"this is not a photo", 415, "not an image"),
        ({"set": "home", "codes": CODES}, b"", 400, "empty"),
        ({"set": "home", "codes": CODES}, _png_header(40000, 40000), 413, "too large"),
    ],
)
def test_bad_teaching_requests_get_a_clear_error(
    client: TestClient, fields: dict, data: bytes | None, status: int, words: str
) -> None:
    r = client.post("/api/teach", files=_photo(data), data={**fields, "save": "true"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert client.get("/api/sets").json()["sets"] == []


@pytest.mark.models
def test_too_large_and_cross_origin_requests_are_refused(reader: TruthReader, tmp_path: Path) -> None:
    client = _client(reader, tmp_path, max_upload=50_000)
    r = _teach(client)  # 128 kB > 50 kB
    assert r.status_code == 413 and "too large" in r.json()["error"]
    r = client.post("/api/teach", data={"set": "home", "codes": CODES})
    assert r.status_code in (400, 415) and "error" in r.json()
    client = _client(reader, tmp_path)
    _taught(client)
    tile = client.get("/api/sets/home").json()["tiles"][0]["id"]
    r = client.delete(f"/api/sets/home/tiles/{tile}", headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and _count(client) == 15
    r = client.post("/api/sets", content=b'{"name": NaN}', headers={"content-type": "application/json"})
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]


def test_without_the_tile_reader_model_sets_are_a_clear_503(tmp_path: Path) -> None:
    client = _client(TruthReader(), tmp_path)  # a stand-in with no reader model: no features
    client.post("/api/sets", json={"name": "home"})
    r = _teach(client)
    assert r.status_code == 503 and "taught sets" in r.json()["error"]
    r = _read(client, set="home")
    assert r.status_code == 503
    d = _read(client).json()
    assert d["read_id"] is None and d["set"] is None  # read as ever, no set
    d = client.get("/api/sets/home").json()
    assert d["tiles"] == [] and d["suspects"] == []


def test_the_api_documents_the_set_endpoints(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/sets", "/api/sets/{name}", "/api/teach", "/api/teach/save", "/api/teach/correction"} <= set(
        paths
    )
    form = paths["/api/read"]["post"]["requestBody"]["content"]["multipart/form-data"]
    assert "set" in form["schema"]["properties"]


# ------------------------------------------------------------------------------------------------
# the command
# ------------------------------------------------------------------------------------------------
def test_serve_refuses_a_set_that_is_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mahjong_camera_scorer.vision.cli import main

    assert main(["serve", "--set", "nope", "--profile", str(tmp_path), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "no taught set 'nope'" in err and "Traceback" not in err
    assert main(["serve", "--set", "a/b", "--profile", str(tmp_path)]) == 2
    assert "bad set name" in capsys.readouterr().err


@pytest.mark.models
def test_serve_reads_with_the_set_it_names(
    client: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``--set`` the taught reader is made before the server starts (the server itself is
    not started here: its ``run`` is replaced)."""
    import socket

    import uvicorn

    from mahjong_camera_scorer.scoring.cli import run
    from mahjong_camera_scorer.vision.cli import build_parser
    from mahjong_camera_scorer.vision.web import server
    from mahjong_camera_scorer.vision.web.sets import Sets

    _taught(client)
    made: list[str] = []
    real = Sets.adjuster
    monkeypatch.setattr(Sets, "adjuster", lambda self, name: made.append(name) or real(self, name))
    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)
    monkeypatch.setattr(server, "log_errors_to_stderr", lambda level: None)  # the test log stays as it is
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = io.StringIO()
    argv = ["serve", "--set", "home", "--profile", str(tmp_path / "sets"), "--port", str(port)]
    assert run(build_parser()[0], argv, out=out) == 0, capsys.readouterr().err
    assert "read with the taught set 'home'" in out.getvalue()
    assert made == ["home"]


# ------------------------------------------------------------------------------------------------
# with the trained models
# ------------------------------------------------------------------------------------------------
@pytest.mark.models
@pytest.mark.slow
@needs_models
def test_teach_and_read_with_the_real_models(tmp_path: Path) -> None:
    from collections import Counter

    client = _client(None, tmp_path)
    d = _taught(client)
    assert d["disagreeing"] == 0 and d["set"]["tiles"] == 15
    assert client.get("/api/sets/home").json()["suspects"] == []
    d = _read(client, set="home", context=json.dumps({"win_by": "self_draw", "seat_wind": "W"})).json()
    assert d["set"] == "home"
    assert Counter(t["code"] for t in d["tiles"]) == Counter(t["code"] for t in truth_tiles())
    assert d["score"]["valid"], d["score"]


@needs_models
@pytest.mark.models
@pytest.mark.slow
def test_not_a_tile_becomes_a_negative_that_suppresses_the_box_and_can_be_undone(tmp_path: Path) -> None:
    client = _client(None, tmp_path)
    _taught(client)
    d = _read(client, set="home").json()
    first = d["tiles"][0]
    body = {"set": "home", "read_id": d["read_id"], "tile": first["id"], "code": "none"}
    r = client.post("/api/teach/correction", json=body)
    assert r.status_code == 200, r.text
    added = r.json()["added"]
    assert added["code"] == "none" and added["tile_name"] == "not a tile"
    again = _read(client, set="home").json()
    # the box the player marked is read as no tile now (its crop is the set's negative)
    assert len(again["tiles"]) == len(d["tiles"]) - 1
    r = client.delete(f"/api/sets/home/tiles/{added['id']}")  # the page's Undo
    assert r.status_code == 200
    assert len(_read(client, set="home").json()["tiles"]) == len(d["tiles"])


@pytest.mark.slow
def test_random_json_never_gets_a_server_error(client: TestClient) -> None:
    """Whatever JSON the set endpoints get, the answer is JSON with a status below 500."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.scoring.hand_strategies import json_values

    _taught(client)
    paths = ["/api/sets", "/api/sets/undo", "/api/teach/save", "/api/teach/correction"]
    words = ["home", "x", "../a", "0m", "5p", "9q", "", "0", "abcdef0123456789"]
    keys = ["name", "undo", "preview", "set", "read_id", "tile", "code"]
    bodies = st.one_of(
        json_values(words, max_leaves=8),
        st.dictionaries(st.sampled_from(keys), json_values(words, 3), max_size=5),
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(path=st.sampled_from(paths), body=bodies)
    def check(path: str, body: object) -> None:
        r = client.post(path, content=json.dumps(body), headers={"content-type": "application/json"})
        assert r.status_code < 500, (path, body, r.text)
        assert isinstance(r.json(), dict)

    check()
