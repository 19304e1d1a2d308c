"""The phone page end to end, in real headless Chromium (Debian's ``chromium``, driven by Playwright).

Upload the bundled example photo, see the right tiles, tap one, correct it from the palette and
see the score change. (The screenshot of the page, ``docs/phone.png``, shows the flow of a hand
left in one row: ``tests/vision/web/test_phone.py``.)

Two servers: one whose reader answers with the photo's ground truth (tests the page and the API
whatever the state of the models), and one with the real models (skipped while they are missing).
The browser comes from ``scripts/install_browser.sh``; without it these tests skip, saying so.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.vision.support import EXAMPLE, Server, TruthReader, models_present, truth_tiles

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
PHONE = {"width": 390, "height": 844}

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
uvicorn = pytest.importorskip("uvicorn")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium) "
    "to run the browser test of the phone page",
)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield b
        finally:
            b.close()


def _page(browser, viewport: dict[str, int] = PHONE):
    context = browser.new_context(
        viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True, service_workers="block"
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return context, page, errors


def _set_context(page) -> None:
    """The example hand was won by self-draw in the West seat (examples/hand.json)."""
    page.click("#settings-toggle")
    page.select_option("#rules", "riichi")
    page.click("#seat_wind button[data-value='W']")
    page.click("#win_by button[data-value='self_draw']")
    page.click("#settings-done")


def _hand_codes(page) -> list[str]:
    return page.eval_on_selector_all("#hand .tile", "els => els.map(e => e.dataset.code)")


def _run_flow(
    page, base: str, screenshot: Path | None = None, win_tile: str | None = None, remove_and_add: bool = False
) -> dict:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='true']")
    _set_context(page)
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("#result:not([hidden]) #hand .tile")
    page.wait_for_selector("#score[data-total]")
    codes = _hand_codes(page)
    valid_as_read = page.get_attribute("#score", "data-valid")
    if win_tile:
        # the rightmost tile of the concealed row is the winning tile: say so (a no-op when the
        # layout already found it set apart)
        page.locator(f"#hand .tile[data-code='{win_tile}']").last.click()
        page.wait_for_selector("#palette[open]")
        page.click("#palette-winning")
        page.wait_for_selector("#palette", state="hidden")
        page.wait_for_selector("#score[data-valid='true']")
    first_total = page.get_attribute("#score", "data-total")
    first_valid = page.get_attribute("#score", "data-valid")
    n_boxes = page.locator("#boxes .box").count()
    # correct the first 5m to a red five (0m): under riichi a red five is one more han
    target = page.locator("#hand .tile[data-code='5m']").first
    target.click()
    page.wait_for_selector("#palette[open]")
    page.click("#palette-grid .tile[data-code='0m']")
    page.wait_for_selector(f"#score:not([data-total='{first_total}'])")
    after = {
        "codes": _hand_codes(page),
        "total": page.get_attribute("#score", "data-total"),
        "valid": page.get_attribute("#score", "data-valid"),
        "corrected": page.locator("#hand .tile.corrected").count(),
        "text": page.inner_text("#score"),
    }
    if screenshot is not None:
        page.evaluate("window.scrollTo(0, 0)")
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(screenshot), full_page=True)
    if remove_and_add:
        # another rule system: the same tiles scored again at once
        page.click("#settings-toggle")
        page.select_option("#rules", "mcr")
        page.wait_for_selector("#score h2:has-text('MCR')")
        after["mcr_total"] = page.get_attribute("#score", "data-total")
        page.select_option("#rules", "riichi")
        page.wait_for_selector("#score h2:has-text('Riichi')")
        page.click("#settings-done")
        # a false detection removed ("Not a tile") and a missed tile added back: the hand is whole again
        page.locator("#hand .tile[data-code='8p']").first.click()
        page.wait_for_selector("#palette[open]")
        page.click("#palette-remove")
        page.wait_for_selector("#score[data-valid='false']")
        after["removed_count"] = len(_hand_codes(page))
        page.click("#add-tile")
        page.wait_for_selector("#palette[open]")
        page.click("#palette-grid .tile[data-code='8p']")
        page.wait_for_selector("#score[data-valid='true']")
        after["readded_total"] = page.get_attribute("#score", "data-total")
        after["readded_codes"] = _hand_codes(page)
    return {
        "codes": codes,
        "valid_as_read": valid_as_read,
        "total": first_total,
        "valid": first_valid,
        "boxes": n_boxes,
        "after": after,
    }


def _expected_codes() -> Counter:
    return Counter(t["code"] for t in truth_tiles())


def test_phone_page_reads_corrects_and_rescores(browser) -> None:
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _page(browser)
    try:
        with Server(create_app(TruthReader(low=(9,)))) as base:
            out = _run_flow(page, base, None, win_tile="4s", remove_and_add=True)
    finally:
        context.close()
    assert Counter(out["codes"]) == _expected_codes()
    assert out["boxes"] == len(truth_tiles())
    assert out["valid_as_read"] == "true", out  # the layout found the winning tile by itself
    assert out["valid"] == "true", out
    assert out["after"]["valid"] == "true"
    assert out["after"]["total"] == str(int(out["total"]) + 1)  # one more han: the red five
    assert out["after"]["corrected"] == 1
    assert "0m" in out["after"]["codes"]
    assert out["after"]["mcr_total"] not in (None, "invalid")  # scored under MCR too
    assert out["after"]["removed_count"] == len(truth_tiles()) - 1
    assert out["after"]["readded_total"] == out["after"]["total"]
    assert Counter(out["after"]["readded_codes"]) == Counter(out["after"]["codes"])
    assert not errors, errors


@pytest.mark.models
@pytest.mark.skipif(not models_present(), reason="models/detector.onnx and models/reader.onnx not built yet")
def test_phone_page_with_the_real_models(browser) -> None:
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _page(browser)
    try:
        with Server(create_app()) as base:
            out = _run_flow(page, base, None, win_tile="4s")
    finally:
        context.close()
    assert Counter(out["codes"]) == _expected_codes()
    assert out["valid"] == "true", out
    assert out["after"]["total"] != out["total"]
    assert not errors, errors


def test_page_shows_a_clear_message_for_a_file_that_is_not_a_photo(browser, tmp_path: Path) -> None:
    from mahjong_camera_scorer.vision.web.app import create_app

    bad = tmp_path / "notes.jpg"
    bad.write_text("this is not a photo")
    context, page, errors = _page(browser)
    try:
        with Server(create_app(TruthReader())) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready='true']")
            page.set_input_files("#photo", str(bad))
            page.wait_for_selector("#message:not([hidden])")
            text = page.inner_text("#message")
    finally:
        context.close()
    assert "not an image" in text
    assert not [e for e in errors if "415" not in e], errors
