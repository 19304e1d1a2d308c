"""The phone page in Italian and English, in real headless Chromium: a browser set to Italian gets
the page in Italian (labels, a read hand's messages, the score area), the IT/EN switch turns it to
English and back and is remembered over the browser's language, and the longer Italian sentences
still fit the narrowest phones (no sideways scrolling at 320 and 360 px).

A phone-size screenshot of the page in Italian goes to ``docs/phone-it.png`` when asked
(``MAHJONG_SCREENSHOT=1``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.vision.support import ROOT, Server, TruthReader, one_row_manifest
from tests.vision.web.test_browser import CHROMIUM, browser  # noqa: F401 (fixture)
from tests.vision.web.test_phone import FORBIDDEN, _big_hand, _fits, _read, _sized

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium)",
)


def _texts(page) -> dict[str, str]:
    """What the person holding the phone reads, part by part."""
    return page.evaluate(
        """() => {
          const text = (sel) => { const e = document.querySelector(sel); return e ? e.innerText : ""; };
          return {
            lang: document.documentElement.lang, title: text("h1"), take: text("#take-text"),
            hand: text(".hand-title"), add: text("#add-tile"), score: text("#score"),
            guess: text("#score .notice.guess"), candidates: text("#candidates .cand-title"),
            context: text("#score-context"), summary: text("#summary"), settings: text("#settings"),
            note: text("#photo-note"),
            west: (document.querySelector("#score-context button[data-value='W']") || {}).title || "",
            pressed: [...document.querySelectorAll('#lang-switch [aria-pressed="true"]')]
              .map((b) => b.dataset.lang).join(),
          };
        }"""
    )


def test_the_page_follows_an_italian_browser_and_the_switch_changes_it(browser) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _sized(browser, 390, locale="it-IT")
    shot = ROOT / "docs" / "phone-it.png" if os.environ.get("MAHJONG_SCREENSHOT") else None
    try:
        with Server(create_app(TruthReader(one_row_manifest()))) as base:
            _read(page, base)
            italian = _texts(page)
            body_it = page.inner_text("body")
            if shot is not None:
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(shot), full_page=True)
            # a thumb beside the score, in Italian: the score is redrawn in Italian
            before = page.inner_text("#score")
            page.click("#score-context button[data-value='self_draw']")
            page.wait_for_function("b => document.querySelector('#score').innerText !== b", arg=before)
            tsumo = _texts(page)
            # the switch: English, at once, on the same read hand
            page.click("#lang-switch button[data-lang='en']")
            page.wait_for_selector("html[lang='en']")
            page.wait_for_selector("#score:has-text('Reading:')")  # the score's own words, again
            english = _texts(page)
            # remembered over the browser's language
            page.reload()
            page.wait_for_selector("body[data-ready='true']")
            reloaded = _texts(page)
            # and back to Italian
            page.click("#lang-switch button[data-lang='it']")
            page.wait_for_selector("html[lang='it']")
            back = _texts(page)
    finally:
        context.close()
    assert italian["lang"] == "it" and italian["pressed"] == "it"
    assert italian["title"] == "Punti mahjong" and italian["take"] == "Scatta un'altra foto"
    assert "Mano" in italian["hand"] and "tocca una tessera per correggerla" in italian["hand"]
    assert italian["add"] == "+ Aggiungi una tessera sfuggita alla foto"
    assert italian["score"].startswith("Punteggio · ")
    assert "Tocca la tessera vincente" in italian["guess"]
    assert italian["candidates"] == "Quale tessera ha vinto? Toccala"
    assert all(w in italian["context"] for w in ("Vinta su", "Scarto", "Posto"))
    assert "Totale" in italian["score"] and italian["west"] == "Ovest"  # the wind's name, as Italians say it
    assert "scarto" in italian["summary"] and "tessere" in italian["note"]
    assert all(w in italian["settings"] for w in ("Ciò che la foto non può mostrare", "Vento di giro"))
    for english_word in ("Tap", "Score", "Payments", "Won by", "Which tile", "winner"):
        assert english_word not in body_it, english_word
    assert not [w for w in FORBIDDEN if w in body_it], body_it
    assert "Pescata da solo" in tsumo["context"] and "pescata da solo" in tsumo["summary"]
    assert "Pagamenti" in tsumo["score"] and "E (vincitore)" in tsumo["score"]
    # the score's own words in the seed's Italian: its elements, its notes (the wait, the mini-punti)
    assert "Lettura:" in italian["score"] and "attesa:" in italian["score"] and "Reading:" not in body_it
    assert "Tutto pescato" in tsumo["score"] and "Mini-punti:" in tsumo["score"]
    assert "Menzen" not in tsumo["score"]
    assert "Menzen tsumo" in english["score"] and "Tutto pescato" not in english["score"]
    assert english["lang"] == "en" and english["pressed"] == "en" and english["title"] == "Mahjong scorer"
    assert english["score"].startswith("Score · ") and "Tap the tile that won" in english["guess"]
    assert "Payments" in english["score"] and "Self-draw" in english["context"] and english["west"] == "West"
    assert english["candidates"] == "Which tile won? Tap it" and "Hand" in english["hand"]
    assert reloaded["lang"] == "en" and reloaded["take"] == "Take or choose a photo"
    assert back["lang"] == "it" and back["take"] == "Scatta o scegli una foto" and back["pressed"] == "it"
    assert not errors, errors


def test_an_english_browser_gets_english(browser) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _sized(browser, 390, locale="en-GB")
    try:
        with Server(create_app(TruthReader())) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready='true']")
            shown = _texts(page)
    finally:
        context.close()
    assert shown["lang"] == "en" and shown["pressed"] == "en" and shown["take"] == "Take or choose a photo"
    assert not errors, errors


@pytest.mark.parametrize("width", (320, 360))
def test_the_page_in_italian_fits_the_phone(browser, width: int) -> None:  # noqa: F811
    """The width tests of test_phone.py in Italian, whose sentences are longer: a hand in one row
    (candidates and notices), the largest hand with the palette open, and the settings panel."""
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _sized(browser, width, locale="it-IT")
    try:
        with Server(create_app(TruthReader(one_row_manifest()))) as base:
            _read(page, base)
            assert page.get_attribute("html", "lang") == "it"
            one_row = _fits(page)
            page.click("#settings-toggle")
            page.wait_for_selector("#settings:not([hidden])")
            settings = _fits(page)
        with Server(create_app(TruthReader(_big_hand()))) as base:
            _read(page, base)
            big = _fits(page)
            page.locator("#hand .tile").first.click()
            page.wait_for_selector("#palette[open]")
            palette = _fits(page)
            title = page.inner_text("#palette-title")
    finally:
        context.close()
    for doc, win in (one_row, settings, big, palette):
        assert doc <= win == width, (width, one_row, settings, big, palette)
    assert title == "Che tessera è?"
    assert not errors, errors


def test_the_table_mode_in_italian_fits_the_phone(browser) -> None:  # noqa: F811
    """The table mode's labels in Italian (index.html's, worded by the page's table; table.js
    words the rest), its setup, sheet and a photo's hand fitting 320 px."""
    from mahjong_camera_scorer.vision.web.app import create_app
    from tests.vision.support import EXAMPLE
    from tests.vision.web.test_table_browser import _add_draw, _add_typed_hand, _start_session

    context, page, errors = _sized(browser, 320, locale="it-IT")
    try:
        with Server(create_app(TruthReader(one_row_manifest()))) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-table-ready='true']")
            page.click("#mode-table")
            labels = page.inner_text("#t-setup")
            setup = _fits(page)
            page.fill("#t-tournament", "Torneo di Pavia")
            _start_session(page, "riichi")
            _add_typed_hand(page)
            _add_draw(page)
            sheet = _fits(page)
            board = page.text_content("#t-add") + page.text_content("#t-tail")
            page.click("#t-kind button[data-value='hand']")
            page.click("#t-source button[data-value='photo']")
            page.set_input_files("#photo", str(EXAMPLE))
            page.wait_for_selector("#score[data-total]")
            photo = _fits(page)
            add_photo = page.inner_text("#t-add-photo")
    finally:
        context.close()
    for doc, win in (setup, sheet, photo):
        assert doc <= win == 320, (setup, sheet, photo)
    assert "Prepara il tavolo" in labels and "Torneo" in labels and "Inizia il tavolo" in labels
    assert "Vincitore" in board and "Tessere" in board and "Tabella da stampare" in board
    assert add_photo == "Aggiungi questa mano alla tabella"
    assert not [e for e in errors if "400" not in e], errors
