"""The taught sets' part of the phone page in Italian and English, in real headless Chromium: a
browser set to Italian gets the set bar, the new set's form and the teach panel in Italian, with not
one English sentence of the messages table's ``sets.*`` entries left (hidden parts included), the
IT/EN switch words them again (the picker and the set's title too), and the panel fits 320 px. With
the shipped reader (the taught crops' features), the pairing view, a failed pairing and the toast
after saving, in Italian.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mahjong_camera_scorer.vision.teach.store import SetStore
from mahjong_camera_scorer.vision.web.messages import page_messages
from tests.catalog_sources import page_keys
from tests.vision.support import EXAMPLE, TruthReader, models_present
from tests.vision.web.test_browser import CHROMIUM, Server, browser  # noqa: F401 (fixture)
from tests.vision.web.test_phone import _fits, _sized

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium)",
)

STATIC = Path(__file__).resolve().parents[3] / "vision" / "web" / "static"


def _english_fragments() -> list[str]:
    """The English the sets' part may show (the table's ``sets.*`` sentences and the others sets.js
    and the panel use), cut at their ``{fields}``: the pieces long enough to be words of a sentence."""
    table = page_messages()
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    start = html.index('<section id="sets"')
    panel = html[start : html.index("</section>", start)]
    sections = {k.split(".")[0] for k in table}
    keys = {k for k in table if k.startswith("sets.")} | page_keys(STATIC / "sets.js", sections)
    keys |= set(re.findall(r'data-msg(?:-placeholder)?="([\w.]+)"', panel))
    pieces = {p.strip() for k in keys for p in re.split(r"\{\w+\}", table[k])}
    return sorted(p for p in pieces if len(p) >= 6 and re.search(r"[A-Za-z]{3}", p))


def _sets_text(page) -> str:
    """Every text of the set bar and the panel, hidden parts and the picker's options included, and
    the name field's placeholder, its white space folded as the browser shows it."""
    return " ".join(
        page.evaluate(
            """() => [document.querySelector('#set-bar').textContent,
                      document.querySelector('#sets').textContent,
                      document.querySelector('#set-name').placeholder].join('\\n')"""
        ).split()
    )


def _open_new_set(page, base: str, name: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-sets-ready='true']")
    page.select_option("#set-picker", "__new__")
    page.wait_for_selector("#set-new:not([hidden])")
    page.fill("#set-name", name)
    page.click("#set-create")
    page.wait_for_selector(f"#set-body:not([hidden]) #set-title:has-text('{name}')")


def test_the_teach_panel_in_italian_and_english(browser, tmp_path: Path) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _sized(browser, 320, locale="it-IT")
    try:
        with Server(create_app(TruthReader(), sets=SetStore(tmp_path / "sets"))) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-sets-ready='true']")
            bar = page.inner_text("#set-bar")
            page.select_option("#set-picker", "__new__")
            page.wait_for_selector("#set-new:not([hidden])")
            new_form = page.inner_text("#set-new")
            new_fits = _fits(page)
            page.click("#set-create")  # no name yet
            page.wait_for_selector("#sets-message:not([hidden])")
            no_name = page.inner_text("#sets-message")
            page.fill("#set-name", "-casa")  # a name the server refuses, in the page's words
            page.click("#set-create")
            page.wait_for_selector("#sets-message:has-text('lettera')")
            bad_name = page.inner_text("#sets-message")
            page.fill("#set-name", "casa")
            page.click("#set-create")
            page.wait_for_selector("#set-body:not([hidden]) #set-title:has-text('casa')")
            page.wait_for_selector("#teach[open]")
            page.click("#teach-pair")  # no photo yet
            page.wait_for_selector("#teach-message:not([hidden])")
            italian = _sets_text(page)
            shown = {
                "title": page.inner_text("#set-title"),
                "count": page.inner_text("#set-count"),
                "open": page.inner_text("#set-open"),
                "panel": page.inner_text("#sets"),
                "aria": page.get_attribute("#sets", "aria-label"),
            }
            panel_fits = _fits(page)
            # the switch words the panel again, the set's own texts too; and back
            page.click("#lang-switch button[data-lang='en']")
            page.wait_for_selector("html[lang='en']")
            english = _sets_text(page)
            english_title = page.inner_text("#set-title")
            page.click("#lang-switch button[data-lang='it']")
            page.wait_for_selector("html[lang='it']")
            back = _sets_text(page)
    finally:
        context.close()
    assert "Set di tessere" in bar and "Insegna" in bar and "Nessuno (come fornito)" in italian
    assert "Un nuovo set di tessere" in new_form and "Nome" in new_form and "Crea" in new_form
    assert "Annulla" in new_form and "es. circolo" in italian and no_name == "Dai un nome al set."
    assert bad_name.startswith("Per il nome usa da 1 a 64 lettere") and "bad set name" not in bad_name
    assert shown["title"] == "Il set “casa”" and shown["count"] == "(0 · 0 codici)"
    assert shown["open"] == "Insegna · tessere" and shown["aria"] == "I tuoi set di tessere"
    for words in (
        "Insegnalo da una foto",
        "Scatta o scegli una foto delle tessere",
        "Codici",
        "Disposizione standard (senza codici)",
        "Abbina le tessere ai codici",
        "Prima scegli una foto delle tessere.",
        "Tessere insegnate",
        "Ancora nulla di insegnato",
        "Fatto",
    ):
        assert words in shown["panel"], words
    assert "casa · 0 tessere" in italian and "Nuovo set…" in italian
    fragments = _english_fragments()
    assert len(fragments) >= 60
    assert [f for f in fragments if f in italian] == []
    assert [f for f in fragments if f in back] == []
    assert "Teach it from a photo" in english and "casa · 0 tiles" in english and "Name" in english
    assert english_title == "Set “casa”" and "Insegnalo da una foto" not in english
    for doc, win in (new_fits, panel_fits):
        assert doc <= win == 320, (new_fits, panel_fits)
    assert not [e for e in errors if "400" not in e], errors  # 400: the refused name, as meant


@pytest.mark.models
@pytest.mark.skipif(not models_present(), reason="models/reader.onnx not built yet (a set's features)")
def test_the_pairing_and_its_toast_in_italian_fit_the_phone(browser, tmp_path: Path) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.models import MODELS_DIR, reader
    from mahjong_camera_scorer.vision.web.app import create_app

    stand_in = TruthReader()
    stand_in.rdr = reader(str(MODELS_DIR))
    context, page, errors = _sized(browser, 320, locale="it-IT")
    try:
        with Server(create_app(stand_in, sets=SetStore(tmp_path / "sets"))) as base:
            _open_new_set(page, base, "casa")
            page.set_input_files("#teach-photo", str(EXAMPLE))
            page.fill("#teach-codes", "345m55888p44s / 4s ?11p? 9m")  # 16 codes for the 15 tiles
            page.click("#teach-pair")
            page.wait_for_selector("#teach-message:not([hidden]) li")
            mismatch = page.inner_text("#teach-message")
            page.fill("#teach-codes", "345m 55888p 44s | 4s | ?11p?")
            page.click("#teach-pair")
            page.wait_for_selector("#teach-result:not([hidden]) #teach-rows .pair")
            pairing = _sets_text(page)
            rows = page.inner_text("#teach-rows")
            summary = page.inner_text("#teach-summary")
            save = page.inner_text("#teach-save")
            paired_fits = _fits(page)
            page.click("#teach-save")
            page.wait_for_selector("#toast:not([hidden])")
            toast = page.inner_text("#toast")
            page.wait_for_function("() => document.querySelectorAll('#set-tiles .taught').length === 15")
            taught = _sets_text(page)
            taught_fits = _fits(page)
            page.wait_for_load_state("networkidle")  # the taught tiles' pictures, before the server stops
    finally:
        context.close()
    assert "Le tessere trovate non corrispondono ai codici" in mismatch and "abbina di nuovo" in mismatch
    assert "la foto mostra 1 fila di tessere, i codici ne danno 2" in mismatch
    assert "fila 1: 15 tessere trovate, 10 codici dati (3m 4m 5m 5p 5p 8p 8p 8p 4s 4s)" in mismatch, mismatch
    assert "fila 2: 0 tessere trovate, 6 codici dati" in mismatch and "found" not in mismatch
    assert "Fila 1 · 15" in rows and save == "Salva 15 tessere"
    assert summary.startswith("15 tessere in 1 fila: 15 da insegnare a “casa”"), summary
    assert toast == "Insegnate 15 tessere a “casa”."  # no Undo for a save
    fragments = _english_fragments()
    assert [f for f in fragments if f in pairing or f in taught] == []
    for doc, win in (paired_fits, taught_fits):
        assert doc <= win == 320, (paired_fits, taught_fits)
    assert not [e for e in errors if "422" not in e], errors  # 422: the mismatched rows, as meant
