"""The phone page's words (:mod:`vision.web.messages`): one table, every sentence in Italian, the
scripts holding keys and never sentences, served worded by ``GET /api/messages``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mahjong_camera_scorer.scoring.i18n import translator
from mahjong_camera_scorer.scoring.session.penalties import INFRACTION_WORDS, INFRACTIONS
from mahjong_camera_scorer.vision.web.messages import page_messages
from tests.catalog_sources import page_keys, page_labels
from tests.vision.support import TruthReader

STATIC = Path(__file__).resolve().parents[3] / "vision" / "web" / "static"
SCRIPTS = ("app.js", "table.js", "sets.js", "messages.js")


@pytest.fixture(scope="module")
def client() -> TestClient:
    from mahjong_camera_scorer.vision.web.app import create_app

    return TestClient(create_app(TruthReader()), base_url="http://localhost")


def _sections() -> set[str]:
    return {key.split(".")[0] for key in page_messages()}


#: the seeds' own terms, the same in both languages
KEPT = ("Riichi", "Mini Punti", "Uma", "han", "Dora", "chombo", "Punti Tavolo (4/2/1/0)")


def _kept(text: str) -> bool:
    """A word the same in both languages: the seeds' terms, a letter, a unit."""
    return text in KEPT or not re.search(r"[a-z]{3}", re.sub(r"\{\w+\}", " ", text))


def test_every_sentence_of_the_table_is_in_italian() -> None:
    table = page_messages()
    assert len(table) > 250
    it = translator("it")
    assert sorted(k for k, v in table.items() if it(v) == v and not _kept(v)) == []
    assert it(table["toggle.riichi"]) == "Riichi"  # the seeds' terms stay as they are
    assert it(table["seat.W"]) == "O" and it(table["seat.E"]) == "E"  # one letter per wind and language


def test_each_script_names_only_keys_of_the_table() -> None:
    sections = _sections()
    for name in ("app.js", "table.js", "sets.js"):
        keys = page_keys(STATIC / name, sections)
        assert len(keys) >= 25, name
        assert sorted(keys - set(page_messages())) == [], name


def test_no_script_holds_a_sentence_of_its_own() -> None:
    # a string or template literal of two words or more, outside comments, is a sentence the table
    # lacks (file names, CSS and selectors are not: they are listed)
    code_words = {
        '"use strict"',
        '"prow recovered-notes"',
        '"2px solid #1e6fd9"',
        '"TOTALE GENERALE"',
        # CSS classes
        '"button small-button"',
        '"link danger"',
        '"score-context"',
        '"notice guess"',
        '"note bad"',
    }
    worded = re.compile(r"[A-Za-z]{2,}[,.:;!?]? [A-Za-z]{2,}")
    found = {}
    for name in SCRIPTS:
        source = (STATIC / name).read_text(encoding="utf-8")
        code = re.sub(r"^\s*//.*$|\s//\s.*$", "", source, flags=re.MULTILINE)
        literals = re.findall(r'"[^"\n]*"|`[^`]*`', code)
        sentences = [s for s in literals if worded.search(s) and s not in code_words and "${" not in s]
        if sentences:
            found[name] = sentences
    assert found == {}


def test_each_data_msg_label_of_the_page_is_the_tables_english() -> None:
    # index.html's label is what the page shows before its words arrive (or without a server)
    labels = page_labels(STATIC / "index.html")
    assert len(labels) >= 15
    table = page_messages()
    assert {k: v for k, v in labels.items() if table.get(k) != v} == {}


def test_every_notice_kind_the_server_sends_has_the_pages_words() -> None:
    from mahjong_camera_scorer.vision.layout import PROBLEM_KINDS
    from mahjong_camera_scorer.vision.render import notices

    worded = {key.split(".", 1)[1] for key in page_messages() if key.startswith("notice.")}
    facts = {"about", "tiles", "score", "detail", "have", "need", "tile", "copies", "waits"}
    sent = set(re.findall(r"``(\w+)``", notices.__doc__ or "")) - facts
    checks = {"gap", "hand_size", "fifth_copy", "rejected_near", "faint", "mended"}
    assert set(PROBLEM_KINDS) | checks | {"winning_guessed", "too_many", "not_a_win"} <= sent
    assert sent <= worded, sent - worded
    for key, text in page_messages().items():
        if key.startswith("notice."):
            assert "--" not in text and "winning_tile" not in text and "win_by" not in text


def test_the_page_gets_its_words_worded(client: TestClient) -> None:
    it = client.get("/api/messages", params={"lang": "it"}).json()
    en = client.get("/api/messages", params={"lang": "en"}).json()["messages"]
    assert it["lang"] == "it" and set(en) == set(it["messages"]) >= set(page_messages())
    assert en["score.total"] == "Total" and it["messages"]["score.total"] == "Totale"
    assert it["messages"]["table.mini_punti"] == "Mini Punti"  # the seeds' own terms in both languages
    # the penalties' names are the session's own, worded, one key per infraction a row may name
    names = {n for ns in INFRACTIONS.values() for n in ns}
    assert {f"infraction.{n}" for n in names} <= set(en) and names <= set(INFRACTION_WORDS)
    assert en["infraction.false_hu_short"] == "false Hu (under 8 points)"
    assert it["messages"]["infraction.false_hu_short"] == "falso Hu (sotto gli 8 punti)"
    r = client.get("/api/messages", params={"lang": "xx"})
    assert r.status_code == 400 and "unknown language" in r.json()["error"]
