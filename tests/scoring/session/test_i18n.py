"""The session's Italian and English: the gettext catalog complete, compiled and in step with its
source, its fields the English ones, and the sheets rendered in each language."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest

from scoring.session.catalog_sources import message_ids, page_keys, page_labels, page_messages
from scoring.session.engine import run_session
from scoring.session.html import sheet_html
from scoring.session.i18n import (
    LOCALE_DIR,
    check_lang,
    compile_po,
    mo_path,
    msg,
    parse_po,
    translator,
)
from scoring.session.load import parse_yaml
from scoring.session.output import sheet_csv, sheet_text

ROOT = Path(__file__).resolve().parents[3]
PO = LOCALE_DIR / "it" / "LC_MESSAGES" / "session.po"
SOURCES = [
    *sorted((ROOT / "scoring" / "session").rglob("*.py")),  # the rulebooks too
    ROOT / "vision" / "web" / "session_api.py",
    ROOT / "vision" / "web" / "static" / "table.js",
    ROOT / "vision" / "web" / "static" / "sets.js",
    ROOT / "vision" / "web" / "static" / "messages.js",
    ROOT / "vision" / "web" / "static" / "index.html",
]
STATIC = ROOT / "vision" / "web" / "static"


def test_the_committed_mo_is_the_po_compiled() -> None:
    # a wheel and an editable install both read the .mo: it must be the .po as it is now
    # (after editing the .po: python -m scoring.session.i18n)
    assert mo_path("it").read_bytes() == compile_po(PO.read_text(encoding="utf-8"))


def test_the_compiled_catalog_reads_back_as_the_po_says() -> None:
    entries = parse_po(PO.read_text(encoding="utf-8"))
    catalog = gettext.GNUTranslations(io.BytesIO(compile_po(PO.read_text(encoding="utf-8"))))
    assert all(catalog.gettext(k) == v for k, v in entries.items() if k)
    assert catalog.gettext("not in the catalog") == "not in the catalog"


def test_every_sentence_the_code_translates_is_in_italian() -> None:
    entries = parse_po(PO.read_text(encoding="utf-8"))
    missing = sorted(i for i in message_ids(SOURCES) if not entries.get(i))
    assert not missing, f"add to {PO.name} (then python -m scoring.session.i18n): {missing}"


def test_the_phone_pages_table_is_read_whole_and_in_italian() -> None:
    # every entry line of messages.js is collected (a line the pattern missed would go untranslated)
    source = (STATIC / "messages.js").read_text(encoding="utf-8")
    table = page_messages(STATIC / "messages.js")
    assert len(table) == len(re.findall(r'^\s*"[\w.]+":', source, re.MULTILINE)) > 90
    it = translator("it")
    untranslated = sorted(k for k, v in table.items() if it(v) == v and not _kept(v))
    assert not untranslated, untranslated
    # the seeds' terms stay as they are in the page's Italian too
    assert it(table["toggle.riichi"]) == "Riichi"


def _kept(text: str) -> bool:
    """A word the same in both languages: the seeds' terms, a letter code."""
    return text in ("Riichi",) or not re.search(r"[a-z]{3}", text.replace("{", " ").replace("}", " "))


def test_each_data_msg_label_of_the_page_is_a_sentence_of_its_table() -> None:
    # index.html's label is what the page shows before the language is known: the table's English
    table = page_messages(STATIC / "messages.js")
    labels = page_labels(STATIC / "index.html")
    assert len(labels) >= 15
    assert {k: v for k, v in labels.items() if table.get(k) != v} == {}


def test_the_taught_sets_script_words_every_text_through_the_table() -> None:
    # sets.js (the set bar, the teach panel, the pairing, the taught tiles, the toasts) names keys of
    # the one table; each is there, its sentence collected and in Italian, and no sentence is left
    # in the script itself (a string or template literal of two words or more, outside comments)
    script = STATIC / "sets.js"
    table = page_messages(STATIC / "messages.js")
    keys = page_keys(script)
    assert len(keys) >= 60
    assert sorted(keys - set(table)) == []
    assert {table[k] for k in keys} <= message_ids([script])
    it = translator("it")
    assert sorted(k for k in keys if it(table[k]) == table[k] and not _kept(table[k])) == []
    code = re.sub(r"^\s*//.*$|\s//\s.*$", "", script.read_text(encoding="utf-8"), flags=re.MULTILINE)
    literals = re.findall(r'"[^"\n]*"|`[^`]*`', code)
    code_words = {'"use strict"', '"prow recovered-notes"', '"2px solid #1e6fd9"'}  # not shown
    worded = re.compile(r"[A-Za-z]{2,}[,.:;!?]? [A-Za-z]{2,}")
    sentences = [s for s in literals if worded.search(s) and s not in code_words]
    assert sentences == [], sentences
    # the panel's labels in index.html are the table's (checked above), and there are many
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    start = html.index('<section id="sets"')
    panel = html[start : html.index("</section>", start)]
    assert len(re.findall(r'data-msg(?:-placeholder)?="', panel)) >= 15


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_each_translation_keeps_the_fields_of_its_english() -> None:
    for msgid, text in parse_po(PO.read_text(encoding="utf-8")).items():
        if msgid:
            assert _fields(text) == _fields(msgid), (msgid, text)


def test_the_seeds_terms_are_kept_in_both_languages() -> None:
    it, en = translator("it"), translator("en")
    for term in ("Mini Punti", "uma", "chombo"):
        assert it(term) == en(term) == term
    assert "Punti Tavolo" in it("Punti Tavolo (4/2/1/0)") and "Punti Tavolo" in en("Punti Tavolo (4/2/1/0)")
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        check_lang("fr")


def test_a_message_waits_for_its_language() -> None:
    note = msg("exhaustive draw: tenpai {who}; East stays", who=msg("nobody"))
    assert str(note) == "exhaustive draw: tenpai nobody; East stays"
    assert note.render(translator("it")) == "a monte per esaurimento: tenpai nessuno; Est rimane"


SESSION = """
tournament: Torneo
session: 1
table: 2
players: {Anna: E, Bruno: S, Carla: W, Dario: N}
hands:
  - {hand: "123m456p789s5556z ron 6z", winner: Anna, discarder: Bruno}
  - {draw: exhaustive}
  - {penalty: late, player: Carla, minutes: 3}
"""


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("it", ["Mano", "Punti Mahjong", "Cambio posti", "Firma", "Totale", "Punti Tavolo", "Mini Punti"]),
        ("en", ["Hand", "Mahjong points", "Seat change", "Signature", "Total", "Punti Tavolo", "Mini Punti"]),
    ],
)
def test_the_sheets_render_in_each_language(lang: str, words: list[str]) -> None:
    sheet = run_session(parse_yaml(SESSION), "mcr")
    html, text, table = sheet_html(sheet, lang=lang), sheet_text(sheet, lang), sheet_csv(sheet, lang)
    assert f"<html lang={lang}>" in html
    for word in words:
        assert word in html, word
    assert ("turno 1, tavolo 2" if lang == "it" else "session 1, table 2") in text
    assert ("ritardo" if lang == "it" else "late") in text and (
        "ritardo" if lang == "it" else "late"
    ) in table
    # nothing left untranslated in the Italian sheet's own words
    if lang == "it":
        assert not re.search(r"\b(Penalty|Draw|draw: no payments|min late)\b", html + text)
