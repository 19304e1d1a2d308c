"""Bounded fuzzers for the web API's JSON: random structured hands, corrected tiles and sessions,
and random bytes, sent to /api/score, /api/layout and /api/session. The notation and the
structured form have their own (tests/scoring); this checks what the server adds on top: every
answer is JSON with a status below 500, and an error is one short line."""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mahjong_camera_scorer.vision.web.app import create_app
from tests.scoring.hand_strategies import json_values
from tests.scoring.test_structured import _KEYS
from tests.vision.support import TruthReader

_CLIENT = TestClient(create_app(TruthReader()), raise_server_exceptions=False, base_url="http://localhost")
_WORDS = ["1m", "9s", "7z", "0p", "1f", "back", "E", "S", "discard", "self_draw", "riichi", "123m"]
#: round 3 (issue 37): numbers Python reads and a session does not, look-alike and escape-code names
_WORDS += ["nan", ".nan", "١٢", "１２", "1_000", "A\u200b", "Ａ", "\x1b[2JA"]
_VALUE = json_values(_WORDS, max_leaves=20)
_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=12), st.sampled_from(_WORDS))
_HAND = st.dictionaries(st.sampled_from(_KEYS), _VALUE, max_size=7)
_TILE = st.fixed_dictionaries(
    {"code": st.one_of(st.sampled_from(["1m", "5p", "9s", "1z", "back", "0m"]), st.text(max_size=4))},
    optional={
        "box": st.lists(st.floats(-1e7, 1e7), min_size=0, max_size=5),
        "orientation": st.sampled_from(["upright", "sideways", "upside_down", "x"]),
        "turn": st.sampled_from([0, 90, 180, 270, 45]),
        "id": _SCALAR,
    },
)
_RULES = st.one_of(
    st.sampled_from(["mcr", "riichi", "zung-jung", "australian", "classical"]), st.text(max_size=6)
)
_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check(path: str, body: bytes) -> None:
    r = _CLIENT.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code < 500, (r.status_code, r.text[:300], body[:300])
    answer = r.json()
    if r.status_code >= 400:
        assert isinstance(answer["error"], str) and "\n" not in answer["error"]
        assert len(answer["error"]) < 1000 and "Traceback" not in answer["error"]


@pytest.mark.slow
@_SETTINGS
@given(st.one_of(_HAND, _VALUE), _RULES, st.dictionaries(st.text(max_size=8), _SCALAR, max_size=3))
def test_fuzz_score_answers_every_hand_without_a_server_error(hand, rules, options) -> None:  # type: ignore[no-untyped-def]
    _check("/api/score", json.dumps({"hand": hand, "rules": rules, "options": options}).encode())


@pytest.mark.slow
@_SETTINGS
@given(
    st.lists(_TILE, max_size=16),
    _RULES,
    st.one_of(
        st.dictionaries(
            st.sampled_from(["honba", "seat_wind", "flags", "dora_indicators", "winning_tile"]),
            _VALUE,
            max_size=4,
        ),
        _VALUE,
    ),
)
def test_fuzz_layout_answers_every_set_of_tiles_without_a_server_error(tiles, rules, context) -> None:  # type: ignore[no-untyped-def]
    _check("/api/layout", json.dumps({"tiles": tiles, "rules": rules, "context": context}).encode())


_ROW = st.dictionaries(
    st.sampled_from(
        [
            "hand",
            "winner",
            "discarder",
            "win_by",
            "draw",
            "penalty",
            "player",
            "honba",
            "riichi",
            "others",
            "photo",
            "reading",
            "kind",
        ]
    ),
    _VALUE,
    max_size=5,
)
_PLAYERS = st.one_of(
    _VALUE,
    st.just([{"name": n, "seat": s} for n, s in zip(("A", "B", "C", "D"), "ESWN", strict=True)]),
)


@pytest.mark.slow
@_SETTINGS
@given(
    _PLAYERS,
    st.lists(st.one_of(_ROW, _VALUE), max_size=6),
    _RULES,
    st.dictionaries(st.one_of(st.text(max_size=8), st.sampled_from(["oka", "ties", "red_fives"])), _SCALAR),
)
def test_fuzz_session_answers_every_session_without_a_server_error(players, hands, rules, options) -> None:  # type: ignore[no-untyped-def]
    body = {"rules": rules, "options": options, "session": {"players": players, "hands": hands}}
    _check("/api/session", json.dumps(body).encode())


@_SETTINGS
@given(st.binary(max_size=200), st.sampled_from(["/api/score", "/api/layout", "/api/session"]))
def test_fuzz_bytes_that_are_no_json_get_a_clear_error(body, path) -> None:  # type: ignore[no-untyped-def]
    _check(path, body)


_IMAGES: list[bytes] = []


@pytest.mark.slow
@_SETTINGS
@given(st.integers(0, 10**6))
def test_fuzz_uploads_get_a_clear_answer(seed: int) -> None:
    """The image fuzzer's files (lying headers, a frame behind long comments, a size listed twice),
    mutated, through the upload road: an answer under 500 with one line, never a server error."""
    import random

    from tests.vision.test_fuzz_images import mutate, seeds

    if not _IMAGES:
        _IMAGES.extend(seeds())
    rng = random.Random(seed)
    data = mutate(rng.choice(_IMAGES), rng)
    r = _CLIENT.post("/api/read", files={"image": ("x", data, "application/octet-stream")})
    assert r.status_code < 500, (r.status_code, r.text[:300])
    if r.status_code >= 400:
        assert "\n" not in r.json()["error"] and len(r.json()["error"]) < 1000
