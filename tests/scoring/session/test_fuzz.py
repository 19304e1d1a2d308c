"""Bounded fuzzers for a table's session and a photo manifest: whatever a file holds, loading it
and running it give a sheet or the session's own error (one short line), never another exception.
The hands inside are the structured form's and the notation's, fuzzed on their own in
tests/scoring/test_structured.py and test_notation.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.load import session_from_dict
from mahjong_camera_scorer.scoring.session.manifest import (
    MANIFEST_COLUMNS,
    ManifestError,
    parse_manifest,
    session_from_manifest,
)
from mahjong_camera_scorer.scoring.session.output import sheet_csv, sheet_json
from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.scoring.structured import hand_from_dict
from tests.scoring.hand_strategies import json_values

_WORDS = ["A", "B", "E", "S", "W", "N", "exhaustive", "late", "chombo", "1z"]
#: round 3 (issue 37): what Python reads as a number and a session does not, and names that look
#: alike or hold escape codes
_HOSTILE = ["nan", "-nan", ".nan", "inf", "١٢", "１２", "1_000", "4" * 40, "A\u200b", "Ａ", "\x1b[2JA", "B\r"]
_WORDS += _HOSTILE
_VALUE = json_values([*_WORDS, "123m456p789s5556z ron 6z", "234m55p12345678s tsumo 9s"])
_ROW_KEYS = [
    "hand",
    "photo",
    "winner",
    "discarder",
    "win_by",
    "flags",
    "dora",
    "riichi",
    "tenpai",
    "draw",
    "honba",
    "sticks",
    "penalty",
    "chombo",
    "player",
    "minutes",
    "points",
    "others",
    "confirmed",
    "same_discard",
    "pao",
    "reading",
    "kind",
]
_ROW = st.dictionaries(st.sampled_from(_ROW_KEYS), _VALUE, max_size=6)
_PLAYERS = [{"name": n, "seat": s} for n, s in zip(("A", "B", "C", "D"), "ESWN", strict=True)]
_SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _photo(path: object) -> PhotoHand:
    read = hand_from_dict({"hand": "234m55p123456789s", "winning_tile": "9s"})
    return PhotoHand(read, warnings=["a warning"])


@pytest.mark.slow
@_SETTINGS
@given(
    st.one_of(st.just(_PLAYERS), _VALUE),
    st.lists(st.one_of(_ROW, _VALUE), max_size=8),
    st.sampled_from(["mcr", "riichi", "zung-jung", "australian", "classical"]),
)
def test_fuzz_a_session_gives_a_sheet_or_its_own_error(players, rows, rules) -> None:  # type: ignore[no-untyped-def]
    try:
        sheet = run_session(session_from_dict({"players": players, "hands": rows}), rules, read_photo=_photo)
    except HandError as exc:  # SessionError is a HandError
        assert "\n" not in str(exc) and len(str(exc)) < 1000
        return
    json.dumps(sheet_json(sheet))
    sheet_csv(sheet)


_CELL = st.one_of(
    st.text(max_size=8),
    st.sampled_from(
        [
            *["E", "s", "West", "tsumo", "ron", "3m 7z", "1e29", "٣", "100", "101", "yes", "a=b; c", "#x"],
            *_HOSTILE,
        ]
    ),
)


@pytest.mark.slow
@_SETTINGS
@given(
    st.lists(st.sampled_from([*MANIFEST_COLUMNS, "x", ""]), min_size=1, max_size=8),
    st.lists(st.lists(_CELL, max_size=9), max_size=8),
)
def test_fuzz_a_manifest_gives_rows_or_its_own_error(columns, lines) -> None:  # type: ignore[no-untyped-def]
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(columns)
    writer.writerows(lines)
    try:
        rows = parse_manifest(buf.getvalue())
    except ManifestError as exc:
        assert "\n" not in str(exc)
        return
    for row in rows:
        assert row.error is None or (row.error.startswith("manifest line ") and len(row.error) < 600)
        assert row.honba is None or 0 <= row.honba <= 100
    try:
        session = session_from_manifest(rows, ["A", "B", "C", "D"], None, ".")
    except HandError:
        return
    assert len(session.rows) == len(rows)


@_SETTINGS
@given(st.one_of(st.text(max_size=12), st.sampled_from(_HOSTILE)))
def test_fuzz_a_session_number_has_an_exact_key_and_one_parser(text: str) -> None:
    """Whatever a session field holds: its grouping key equals itself (a NaN key never did, and
    grouping by it never ended), and the number parser gives a number or its own error."""
    from mahjong_camera_scorer.scoring.session.model import SessionError
    from mahjong_camera_scorer.scoring.session.numbers import session_key, whole_number

    assert session_key(text) == session_key(text)
    try:
        n = whole_number(text, "x")
    except SessionError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 200
        return
    assert n is None or (isinstance(n, int) and abs(n) < 10**9 and text.strip().lstrip("+-").isascii())
