"""Taught sets on the phone page in real headless Chromium: create a set from the picker, teach it
from the bundled example photo (a wrong row named first, nothing saved; then the pairing, saved),
see its taught tiles, read a photo with it, correct a tile and see the correction taught to the
set and undone, remove a taught tile and undo that.

The server reads with the ground-truth stand-in and the shipped tile reader model (for the taught
crops' features), its sets in a temporary folder. A phone-size screenshot of the teaching panel
goes to ``docs/phone-teach.png`` when asked (``MAHJONG_SCREENSHOT=1``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mahjong_camera_scorer.vision.teach.store import SetStore
from tests.vision.support import EXAMPLE, ROOT, TruthReader, models_present
from tests.vision.web.test_browser import CHROMIUM, Server, _page, browser  # noqa: F401 (fixture)

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = [
    pytest.mark.skipif(
        not Path(CHROMIUM).is_file(),
        reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium) "
        "to run the browser test of the phone page",
    ),
    pytest.mark.skipif(not models_present(), reason="models/reader.onnx not built yet (a set's features)"),
]

CODES = "345m 55888p 44s | 4s | ?11p?"
EXPECTED = ["3m", "4m", "5m", "5p", "5p", "8p", "8p", "8p", "4s", "4s", "4s", "back", "1p", "1p", "back"]


def _taught(page) -> list[str]:
    return page.eval_on_selector_all("#set-tiles .taught", "els => els.map(e => e.dataset.code)")


def _wait_taught(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#set-tiles .taught').length === n", arg=n)


def _toast(page, words: str) -> str:
    page.wait_for_selector(f"#toast:not([hidden]) #toast-text:has-text('{words}')")
    return page.inner_text("#toast-text")


@pytest.mark.models
def test_teach_a_set_on_the_page_and_learn_from_a_correction(browser, tmp_path: Path) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.models import MODELS_DIR, reader
    from mahjong_camera_scorer.vision.web.app import create_app

    stand_in = TruthReader()
    stand_in.rdr = reader(str(MODELS_DIR))
    store = SetStore(tmp_path / "sets")
    shot = ROOT / "docs" / "phone-teach.png" if os.environ.get("MAHJONG_SCREENSHOT") else None
    context, page, errors = _page(browser)
    try:
        with Server(create_app(stand_in, sets=store)) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-sets-ready='true']")
            assert page.eval_on_selector("#set-picker", "s => s.value") == ""  # no set yet: none

            # a new set from the picker
            page.select_option("#set-picker", "__new__")
            page.wait_for_selector("#set-new:not([hidden])")
            page.fill("#set-name", "home")
            page.click("#set-create")
            page.wait_for_selector("#set-body:not([hidden]) #set-title:has-text('home')")
            assert page.eval_on_selector("#set-picker", "s => s.value") == "home"
            assert page.is_visible("#set-empty")

            # codes the photo's tiles cannot pair with (16 for 15): the rows are named, nothing is saved
            page.set_input_files("#teach-photo", str(EXAMPLE))
            page.fill("#teach-codes", "345m55888p44s / 4s ?11p? 9m")
            page.click("#teach-pair")
            page.wait_for_selector("#teach-message:not([hidden]) li")
            mismatch = page.inner_text("#teach-message")
            assert "row 1: 15 tiles found, 10 codes given" in mismatch and "nothing was saved" in mismatch
            assert page.is_hidden("#teach-result")

            # a third row typed that the photo does not show: the photo's two rows pair (the hand,
            # the kong apart), the third is shown not taught, and Save takes the fifteen
            page.fill("#teach-codes", "345m 55888p 44s | 4s / ?11p? / 1234z")
            page.click("#teach-pair")
            page.wait_for_selector("#teach-result:not([hidden]) #teach-rows .prow.unpaired")
            row3 = page.inner_text("#teach-rows .unpaired")
            assert "Row 3, not taught: 0 tiles found, 4 codes given" in row3
            assert page.inner_text("#teach-save") == "Save 15 tiles"
            assert "did not pair" in page.inner_text("#teach-summary")

            # the right codes: the pairing, then saved
            page.fill("#teach-codes", CODES)
            page.click("#teach-pair")
            page.wait_for_selector("#teach-result:not([hidden]) #teach-rows .pair")
            paired = page.eval_on_selector_all("#teach-rows .pair", "els => els.map(e => e.dataset.code)")
            assert paired == EXPECTED
            assert page.locator("#teach-rows .pair img").count() == 15
            assert page.inner_text("#teach-save") == "Save 15 tiles"
            if shot is not None:
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(shot), full_page=True)
            assert store.names() == ["home"] and len(store.load("home")) == 0  # not before Save
            page.click("#teach-save")
            _wait_taught(page, 15)
            assert sorted(_taught(page)) == sorted(EXPECTED)
            assert "Taught 15 tiles" in _toast(page, "Taught 15")
            assert "home · 15 tiles" in page.inner_text("#set-picker")
            page.click("#sets-done")

            # a photo read with the set; a corrected tile is taught to it, and Undo takes it out
            page.set_input_files("#photo", str(EXAMPLE))
            page.wait_for_selector("#result:not([hidden]) #hand .tile")
            assert "set “home”" in page.inner_text("#photo-note")
            page.locator("#hand .tile[data-code='5m']").first.click()
            page.wait_for_selector("#palette[open]")
            page.click("#palette-grid .tile[data-code='0m']")
            assert "Taught this 0m to “home”" in _toast(page, "Taught this 0m")
            assert len(store.load("home")) == 16 and store.load("home").examples[-1].how == "correction"
            page.click("#set-open")
            _wait_taught(page, 16)
            assert page.get_attribute("#set-tiles .taught:last-child", "data-code") == "0m"
            assert page.locator("#set-tiles .taught.correction").count() == 1
            page.click("#toast-undo")
            _wait_taught(page, 15)
            assert "0m" not in _taught(page) and len(store.load("home")) == 15
            _toast(page, "the correction stays on this photo only")
            assert page.locator("#hand .tile[data-code='0m']").count() == 1  # the hand keeps it

            # a taught tile removed, and put back
            page.locator("#set-tiles .taught[data-code='8p'] .remove").first.click()
            _wait_taught(page, 14)
            assert "Removed a taught 8p" in _toast(page, "Removed")
            page.click("#toast-undo")
            _wait_taught(page, 15)
            assert sorted(_taught(page)) == sorted(EXPECTED)
            _toast(page, "Put the 8p back")

            # a box marked "Not a tile" becomes the set's negative, and Undo takes it out
            page.locator("#hand .tile[data-code='3m']").first.click()
            page.wait_for_selector("#palette[open]")
            page.click("#palette-remove")
            assert "will read boxes like this one as no tile" in _toast(page, "no tile")
            _wait_taught(page, 16)
            assert store.load("home").examples[-1].code == "none"
            assert page.locator("#set-tiles .taught.negative").count() == 1
            assert page.locator("#hand .tile[data-code='3m']").count() == 0  # gone from this photo
            page.click("#toast-undo")
            _wait_taught(page, 15)
            assert "none" not in _taught(page) and len(store.load("home")) == 15
            _toast(page, "removed from this photo only")

            # the choice is remembered: a reload picks the set again
            page.reload()
            page.wait_for_selector("body[data-sets-ready='true']")
            assert page.eval_on_selector("#set-picker", "s => s.value") == "home"
            page.select_option("#set-picker", "")
            page.set_input_files("#photo", str(EXAMPLE))
            page.wait_for_selector("#result:not([hidden]) #hand .tile")
            assert "set" not in page.inner_text("#photo-note")
    finally:
        context.close()
    assert stand_in.tilesets[-1] is None  # the last photo: read with no set
    assert not [e for e in errors if "422" not in e], errors  # 422: the mismatched rows, as meant
