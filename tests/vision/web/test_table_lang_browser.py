"""The table mode in Italian, in real headless Chromium: the language switch (app.js fetches the
page's words from ``GET /api/messages`` and sends ``mahjong:lang``) turns the table mode's own
words, its seats' letters and name fields and the server's notes into Italian; the seeds' terms
stay as they are."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.vision.support import TruthReader
from tests.vision.web.test_browser import CHROMIUM, Server, _page, browser  # noqa: F401 (fixture)
from tests.vision.web.test_table_browser import _start_session

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium)",
)


def test_table_mode_speaks_italian_when_the_page_does(browser) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _page(browser)
    try:
        with Server(create_app(TruthReader())) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-table-ready='true']")
            page.click("#mode-table")
            _start_session(page, "mcr")
            page.click("#t-kind button[data-value='draw']")
            page.click("#t-add-row")
            page.wait_for_selector("#t-sheet tr[data-row='0']")
            assert "Next: hand 2" in page.inner_text("#t-next")
            page.click("#lang-switch button[data-lang='it']")
            page.wait_for_selector("#t-next:has-text('Prossima: mano 2')")
            sheet = page.inner_text("#t-sheet")
            assert "Patta" in sheet and "patta: nessun pagamento" in sheet  # the server's note, in Italian
            assert "Totale" in sheet and "Mini Punti" in sheet and "Punti Tavolo" in sheet
            assert page.inner_text("#t-add-row") == "Aggiungi la patta"
            # one letter per wind and language: West is O (Ovest) in the next hand's seats and the
            # sheet's head; the setup's name fields say so too
            next_hand = page.inner_text("#t-next")
            assert re.search(r"\bO\b", next_hand) and not re.search(r"\bW\b", next_hand), next_hand
            assert not re.search(r"\bW\b", page.inner_text("#t-sheet thead"))
            placeholder = page.get_attribute("#t-players input[name='name-W']", "placeholder")
            assert placeholder == "Giocatore che parte da O"
            assert not errors, errors
    finally:
        context.close()
