"""The table mode's API (``vision.web.session_api``) with FastAPI's test client: the sheet it returns
is the one ``mahjong-score session`` prints for the same hands; a photo's reading waits for the
referee's confirmation; every bad input is a one-line JSON error, never a 500."""

from __future__ import annotations

import copy
import csv
import io
import json
import warnings
from pathlib import Path

import pytest
import yaml

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.scoring import cli
from mahjong_camera_scorer.vision.web.app import create_app
from mahjong_camera_scorer.vision.web.session_api import MAX_ROWS, MAX_SESSION_BODY
from tests.vision.support import TruthReader

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
#: what examples/hand.jpg shows (examples/hand.json), as the page's reading sends it
PHOTO_HAND = {
    "hand": "345m55888p444s",
    "melds": [{"type": "kong", "tiles": "1111p", "open": False}],
    "winning_tile": "4s",
    "bonus_tiles": [],
}
FLAGGED = ["4s at x=491 y=226 (confidence 0.41)"]


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(TruthReader()), raise_server_exceptions=False, base_url="http://localhost")


def _example(name: str, rows: int) -> dict:
    doc = yaml.safe_load((EXAMPLES / name).read_text())
    doc["hands"] = doc["hands"][:rows]
    return doc


def _riichi(confirmed: bool | None, flagged: list[str]) -> tuple[dict, dict]:
    """The riichi example's first five rows: for the page (the photo as its reading) and for the
    command line (the same hand typed in the structured form)."""
    page = _example("session-riichi.yaml", 5)
    typed = copy.deepcopy(page)
    photo_row = {"photo": "3-hand.jpg", "winner": "W", "win_by": "self_draw", "honba": 1, "sticks": 1}
    page["hands"][2] = {**photo_row, "reading": {"hand": PHOTO_HAND, "flagged": flagged, "warnings": []}}
    if confirmed is not None:
        page["hands"][2]["confirmed"] = confirmed
    typed["hands"][2] = {**{k: v for k, v in photo_row.items() if k != "photo"}, "hand": PHOTO_HAND}
    return page, typed


def _cli_sheet(doc: dict, rules: str, tmp_path: Path) -> tuple[dict, str]:
    """``mahjong-score session FILE --rules R --json --csv OUT`` on the same session."""
    path = tmp_path / "session.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True))
    out = io.StringIO()
    parser, _ = cli.build_parser()
    code = cli.run(
        parser, ["session", str(path), "--rules", rules, "--json", "--csv", str(tmp_path / "s.csv")], out
    )
    assert code == 0, out.getvalue()
    return json.loads(out.getvalue()), (tmp_path / "s.csv").read_text()


def _post(client: TestClient, doc: dict, rules: str, **extra: object):
    return client.post("/api/session", json={"rules": rules, "session": doc, **extra})


# ------------------------------------------------------------------------------------------------
# the same sheet as the command line
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rows", [3, 8])
def test_mcr_hands_give_the_command_lines_totals(client: TestClient, tmp_path: Path, rows: int) -> None:
    doc = _example("session-mcr.yaml", rows)
    r = _post(client, doc, "mcr")
    assert r.status_code == 200, r.text
    sheet = r.json()["sheet"]
    expected, _ = _cli_sheet(doc, "mcr", tmp_path)
    assert sheet["totals"] == expected["totals"] and any(sheet["totals"].values())
    assert [line["totals"] for line in sheet["lines"]] == [line["totals"] for line in expected["lines"]]
    assert sheet["closing"] == expected["closing"] and "table_points" in sheet["closing"]
    assert len(sheet["lines"]) == rows and sheet["complete"]


def test_riichi_hands_with_a_confirmed_photo_give_the_command_lines_totals(
    client: TestClient, tmp_path: Path
) -> None:
    page, typed = _riichi(confirmed=True, flagged=FLAGGED)
    sheet = _post(client, page, "riichi").json()["sheet"]
    expected, _ = _cli_sheet(typed, "riichi", tmp_path)
    assert sheet["totals"] == expected["totals"]
    assert [line["deltas"] for line in sheet["lines"]] == [line["deltas"] for line in expected["lines"]]
    # the README's sheet: E1 Bruno +8000, E2 the draw, E3 the photo (Anna) +9300, E4 chombo, E4 again
    assert sheet["lines"][2]["deltas"]["Anna"] == 9300 and sheet["lines"][2]["photo"] == "3-hand.jpg"
    assert sheet["closing"]["uma"] == expected["closing"]["uma"]
    # Dario, East at E4, won the replayed hand: he keeps the deal, one counter on the table
    assert sheet["next"] == expected["next"]
    assert (
        sheet["next"]["label"] == "E4"
        and sheet["next"]["winds"]["Dario"] == "E"
        and sheet["next"]["honba"] == 1
    )


def test_a_photo_with_flagged_tiles_waits_for_confirmation(client: TestClient) -> None:
    page, _ = _riichi(confirmed=None, flagged=FLAGGED)
    sheet = _post(client, page, "riichi").json()["sheet"]
    line = sheet["lines"][2]
    assert line["status"] == "confirm" and not sheet["complete"]
    assert line["value"] is None and any("4s at x=491" in n for n in line["notes"])
    assert sheet["pending"] and "hands[2]" in sheet["pending"][0]
    sure, _ = _riichi(confirmed=None, flagged=[])  # nothing flagged, no warnings: scored as read
    assert _post(client, sure, "riichi").json()["sheet"]["lines"][2]["status"] == "scored"


def test_exports_are_the_command_lines_files(client: TestClient, tmp_path: Path) -> None:
    page, typed = _riichi(confirmed=True, flagged=[])
    expected_json, expected_csv = _cli_sheet(typed, "riichi", tmp_path)
    thumb = "data:image/jpeg;base64,/9j/AAAA"
    body = {"rules": "riichi", "session": page, "thumbs": {"3-hand.jpg": thumb}}
    r = client.post("/api/session/export", json={**body, "format": "csv"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert (
        r.headers["content-disposition"] == 'attachment; filename="Riichi-open-example_session-2_table-1.csv"'
    )
    # the photo's name differs (a path for the command line, the page's name here): else the same
    got, want = list(csv.reader(io.StringIO(r.text))), list(csv.reader(io.StringIO(expected_csv)))
    assert [row[:8] + row[9:] for row in got] == [row[:8] + row[9:] for row in want]
    r = client.post("/api/session/export", json={**body, "format": "json"})
    assert json.loads(r.text)["totals"] == expected_json["totals"]
    r = client.post("/api/session/export", json={**body, "format": "html"})
    assert r.headers["content-type"].startswith("text/html") and "Firma" in r.text
    assert f'<img class="th" src="{thumb}"' in r.text


def test_meta_lists_each_systems_penalties(client: TestClient) -> None:
    meta = client.get("/api/session/meta").json()
    assert set(meta["infractions"]) == {"mcr", "riichi", "zung-jung", "australian", "classical"}
    assert "false_hu_invalid" in meta["infractions"]["mcr"] and "late" in meta["infractions"]["riichi"]
    assert set(meta["scores_losers"]) == {"australian", "classical"} and meta["chombo"] == ["riichi"]


def test_the_page_loads_the_table_mode_from_its_own_server(client: TestClient) -> None:
    page = client.get("/").text
    assert '<script src="/static/table.js" defer></script>' in page and 'id="mode-table"' in page
    script = client.get("/static/table.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    for text in (page, script.text, client.get("/static/app.js").text):
        assert "http://" not in text and "https://" not in text  # nothing from elsewhere: works offline
    spec = client.get("/openapi.json").json()
    assert {"/api/session", "/api/session/export", "/api/session/meta"} <= set(spec["paths"])


# ------------------------------------------------------------------------------------------------
# bad input: a clear one-line JSON error
# ------------------------------------------------------------------------------------------------
def _players() -> list[dict]:
    return [{"name": n, "seat": w} for n, w in zip(["Anna", "Bruno", "Carla", "Dario"], "ESWN", strict=True)]


GOOD_HAND = {"hand": "123m456p789s5556z ron 6z", "winner": "Anna", "discarder": "Bruno"}
BAD = [
    ("not json", b"{rules: mcr", "not valid JSON"),
    ("a list", [], "invalid request"),
    ("no session", {"rules": "mcr"}, "session"),
    ("unknown field", {"rules": "mcr", "session": {}, "colour": 1}, "colour"),
    ("unknown rules", {"rules": "go", "session": {"players": _players(), "hands": []}}, "unknown rules 'go'"),
    ("three players", {"rules": "mcr", "session": {"players": _players()[:3], "hands": []}}, "four players"),
    (
        "same name",
        {
            "rules": "mcr",
            "session": {"players": [*_players()[:3], {"name": "Anna", "seat": "N"}], "hands": []},
        },
        "same name",
    ),
    ("no name", {"rules": "mcr", "session": {"players": [{"seat": "E"}] * 4, "hands": []}}, "players[0]"),
    (
        "rules of the file",
        {"rules": "mcr", "session": {"players": _players(), "hands": [], "rules": "riichi"}},
        "for riichi",
    ),
    (
        "unknown winner",
        {"rules": "mcr", "session": {"players": _players(), "hands": [{**GOOD_HAND, "winner": "Zoe"}]}},
        "hands[0].winner: 'Zoe'",
    ),
    (
        "a photo path",
        {
            "rules": "mcr",
            "session": {"players": _players(), "hands": [{"photo": "pyproject.toml", "winner": "E"}]},
        },
        "needs the page's 'reading'",
    ),
    (
        "a bad reading",
        {
            "rules": "mcr",
            "session": {"players": _players(), "hands": [{"photo": "p.jpg", "reading": [1], "winner": "E"}]},
        },
        "hands[0].reading",
    ),
    (
        "a penalty without minutes",
        {
            "rules": "mcr",
            "session": {"players": _players(), "hands": [{"penalty": "late", "player": "Anna"}]},
        },
        "needs 'minutes'",
    ),
    (
        "chombo under mcr",
        {"rules": "mcr", "session": {"players": _players(), "hands": [{"chombo": "Anna"}]}},
        "chombo is a riichi penalty",
    ),
    (
        "a row after the end",
        {"rules": "mcr", "session": {"players": _players(), "hands": [{"draw": True}] * 17}},
        "the session is over",
    ),
    (
        "too many rows",
        {"rules": "mcr", "session": {"players": _players(), "hands": [{"draw": True}] * (MAX_ROWS + 1)}},
        f"at most {MAX_ROWS} rows",
    ),
    ("options not an object", {"rules": "mcr", "options": [1], "session": {}}, "options"),
    # rows are as strict as a session file's (issue 24): a misspelt key changes the money in silence
    (
        "a misspelt key",
        {"rules": "riichi", "session": {"players": _players(), "hands": [{**GOOD_HAND, "richi": ["S"]}]}},
        "hands[0] (hand): unknown key 'richi'",
    ),
    (
        "tsumo with a discarder",
        {
            "rules": "mcr",
            "session": {
                "players": _players(),
                "hands": [{**GOOD_HAND, "hand": "123m456p789s5556z tsumo 6z"}],
            },
        },
        "hands[0]: the hand is self-drawn (tsumo) and the row names a discarder",
    ),
    (
        "lateness of 0 minutes",
        {
            "rules": "riichi",
            "session": {"players": _players(), "hands": [{"penalty": "late", "player": "E", "minutes": 0}]},
        },
        "hands[0].minutes: a lateness is at least 1 minute",
    ),
    ("an unknown language", {"rules": "mcr", "lang": "fr", "session": {}}, "lang"),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, "not valid JSON"),
]


@pytest.mark.parametrize(("body", "message"), [(b, m) for _, b, m in BAD], ids=[n for n, _, _ in BAD])
def test_bad_sessions_get_a_one_line_json_error(client: TestClient, body: object, message: str) -> None:
    if isinstance(body, bytes):
        r = client.post("/api/session", content=body, headers={"content-type": "application/json"})
    else:
        r = client.post("/api/session", json=body)
    error = r.json()["error"]
    # a body that does not fit the request's model is a 422, as at every endpoint; the engine's refusal a 400
    assert r.status_code == (422 if error.startswith("invalid request") else 400), r.text
    assert message in error and "\n" not in error and "Traceback" not in error


def test_a_hand_that_cannot_be_scored_stays_on_the_sheet_with_its_reason(client: TestClient) -> None:
    doc = {"players": _players(), "hands": [{**GOOD_HAND, "hand": "123m456p789s1234z ron 5z"}, GOOD_HAND]}
    sheet = _post(client, doc, "mcr").json()["sheet"]
    assert sheet["lines"][0]["status"] == "error" and "not a valid win" in sheet["lines"][0]["notes"][0]
    assert sheet["lines"][1]["status"] == "scored" and not sheet["complete"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"format": "pdf"}, "format"),
        ({"format": "html", "thumbs": {"p.jpg": "javascript:alert(1)"}}, "data:image URL"),
        (
            {"format": "html", "thumbs": {"p.jpg": "data:image/jpeg;base64," + "A" * 200_000}},
            "data:image URL",
        ),
    ],
)
def test_bad_exports_get_a_json_error(client: TestClient, extra: dict, message: str) -> None:
    r = client.post(
        "/api/session/export", json={"rules": "mcr", "session": {"players": _players(), "hands": []}, **extra}
    )
    assert r.status_code == 422 and message in r.json()["error"]


def test_a_body_too_large_is_refused_announced_or_streamed(client: TestClient) -> None:
    big = b'{"rules": "mcr", "session": {"note": "' + b"x" * MAX_SESSION_BODY + b'"}}'
    r = client.post("/api/session", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "request body too large"

    def chunks():
        for i in range(0, len(big), 1 << 16):
            yield big[i : i + (1 << 16)]

    r = client.post("/api/session", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "request body too large"


def test_the_sheet_and_its_notes_come_in_the_requested_language(client: TestClient) -> None:
    doc = {"players": _players(), "hands": [{"draw": True}, {"penalty": "late", "player": "E", "minutes": 3}]}
    r = client.post("/api/session", json={"rules": "mcr", "lang": "it", "session": doc})
    sheet = r.json()["sheet"]
    assert sheet["lang"] == "it" and sheet["lines"][0]["notes"] == ["patta: nessun pagamento"]
    assert sheet["penalties"][0]["note"] == "3 min di ritardo (E 2.3)"
    body = {"rules": "mcr", "lang": "it", "session": doc, "format": "html"}
    html = client.post("/api/session/export", json=body).text
    assert "<html lang=it>" in html and "Mini Punti" in html and "Firma" in html and "Penalità" in html
    english = client.post("/api/session/export", json={**body, "lang": "en"}).text
    assert "Signature (Firma)" in english and "Penalties" in english
