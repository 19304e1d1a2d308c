"""The phone page on a phone, in real headless Chromium: a hand left in one row (no winning tile
set apart) scored without typing anything, the tile that won tapped, the toggles beside the score
rescoring at once, and no sideways scrolling at 320, 360, 390 and 430 px on a read hand (the
largest: 18 tiles in hand, sets and flowers), the teach panel and the table mode. Nothing the page
shows names a command-line flag or an internal field.

A phone-size screenshot of the new flow goes to ``docs/phone.png`` when asked
(``MAHJONG_SCREENSHOT=1``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.vision.support import EXAMPLE, ROOT, Server, TruthReader, one_row_manifest
from tests.vision.web.test_browser import CHROMIUM, browser  # noqa: F401 (fixture)

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium) "
    "to run the browser test of the phone page",
)

WIDTHS = (320, 360, 390, 430)
#: what the page must never show: the command line's and the API's words, not the player's
FORBIDDEN = ("winning_tile", "--winning-tile", "win_by", "seat_wind", "--", "layout:")


def _sized(browser, width: int, locale: str = "en-US"):  # noqa: F811
    """A page ``width`` CSS pixels wide, in a browser set to ``locale`` (its ``navigator.language``
    and Accept-Language: the page's language follows it). Not an emulated mobile viewport: that one
    widens itself to whatever the page needs (``innerWidth`` 324 for a page 324 px wide), so a page
    too wide would pass; a plain viewport keeps ``innerWidth`` at ``width``."""
    context = browser.new_context(
        viewport={"width": width, "height": 780},
        device_scale_factor=2,
        has_touch=True,
        service_workers="block",
        locale=locale,
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return context, page, errors


def _fits(page) -> tuple[int, int]:
    """(document width, window width): the page scrolls sideways when the first is larger."""
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


def _read(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='true']")
    page.set_input_files("#photo", str(EXAMPLE))
    page.wait_for_selector("#result:not([hidden]) #hand .tile")
    page.wait_for_selector("#score[data-total]")


def _shown(page) -> str:
    return page.inner_text("body")


def _score(page) -> tuple[str, str, str]:
    return (
        page.get_attribute("#score", "data-valid"),
        page.get_attribute("#score", "data-total"),
        page.get_attribute("#score", "data-winning"),
    )


def _rescored(page, before: str) -> str:
    """The score card's text once it has changed from ``before`` (the same tiles rescored)."""
    page.wait_for_function("b => document.querySelector('#score').innerText !== b", arg=before)
    return page.inner_text("#score")


def test_a_hand_in_one_row_is_scored_without_typing_and_a_thumb_changes_it(browser) -> None:  # noqa: F811
    """The riichi hand of the example, pushed into one row: the page scores it with the best
    candidate, lists the others, and rescores at once when the tile that won is tapped (as a
    candidate or as a tile of the hand) and when a toggle beside the score changes; never a new
    read, and no sentence naming a flag or a field."""
    from mahjong_camera_scorer.vision.web.app import create_app

    reader = TruthReader(one_row_manifest())
    context, page, errors = _sized(browser, 390)
    shot = ROOT / "docs" / "phone.png" if os.environ.get("MAHJONG_SCREENSHOT") else None
    try:
        with Server(create_app(reader)) as base:
            _read(page, base)
            first = _score(page)
            text = page.inner_text("#score")
            candidates = page.eval_on_selector_all("#candidates .cand", "els => els.map(e => e.dataset.code)")
            guess = page.inner_text("#score .notice.guess")
            shown = [_shown(page)]
            # a thumb on "Self-draw" beside the score, then on the West seat
            page.click("#score-context button[data-value='self_draw']")
            text = _rescored(page, text)
            tsumo = _score(page)
            page.click("#score-context button[data-value='W']")
            text = _rescored(page, text)
            west = _score(page), "+" in text and "W (winner)" in text
            summary = page.inner_text("#summary")
            # the tile that won: 4s, tapped among the candidates
            page.click("#candidates .cand[data-code='4s']")
            text = _rescored(page, text)
            won = _score(page)
            pressed = page.eval_on_selector_all(
                "#candidates .cand[aria-pressed='true']", "els => els.map(e => e.dataset.code)"
            )
            won_tiles = page.eval_on_selector_all("#hand .tile.won", "els => els.map(e => e.dataset.code)")
            shown.append(_shown(page))
            if shot is not None:
                page.evaluate("window.scrollTo(0, 0)")
                shot.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(shot), full_page=True)
            # or a tile of the hand: "this one won"
            page.locator("#hand .tile[data-code='5p']").first.click()
            page.wait_for_selector("#palette[open]")
            page.click("#palette-winning")
            page.wait_for_selector("#palette", state="hidden")
            text = _rescored(page, text)
            pair = _score(page)
            # riichi, beside the score
            page.check("#score-context input[name='riichi']")
            _rescored(page, text)
            with_riichi = _score(page)
            shown.append(_shown(page))
            reads = reader.calls["read"]
    finally:
        context.close()
    assert sorted(candidates) == ["3m", "4m", "4s", "5m", "5p", "8p"]
    assert first[0] == "true" and first[2] == candidates[0]  # scored at once with the best one
    assert candidates[0] in guess and "Tap the tile that won" in guess
    assert tsumo[0] == "true" and tsumo[1] != first[1]
    assert west[0][0] == "true" and west[1] and "W" in summary and "self-draw" in summary  # settings follow
    assert won[2] == "4s" and pressed == ["4s"] and won_tiles == ["4s"]
    assert pair[2] == "5p" and with_riichi[0] == "true" and int(with_riichi[1]) == int(pair[1]) + 1
    assert reads == 1  # one photo, one read: every change rescored the same tiles
    for text in shown:
        assert not [w for w in FORBIDDEN if w in text], text
    assert not errors, errors


def _big_hand() -> dict:
    """The largest hand the page must fit: 18 tiles in one row, nearest the camera, an open kong
    and an open pung in a row behind it (each with its claimed tile sideways), eight flowers
    behind those."""
    w, h, pitch = 38, 52, 40

    def tile(code: str, x: float, y: float, side: bool = False) -> dict:
        bw, bh = (h, w) if side else (w, h)
        return {
            "code": code,
            "face_down": False,
            "orientation": "sideways" if side else "upright",
            "box": [x, y + h - bh, x + bw, y + h],
        }

    codes = [f"{n}m" for n in range(1, 10)] + [f"{n}p" for n in range(1, 10)]
    tiles = [tile(code, 20 + i * pitch, 460) for i, code in enumerate(codes)]
    x = 20.0
    for group in (("2s", "2s*", "2s", "2s"), ("7z", "7z*", "7z")):
        for code in group:
            tiles.append(tile(code[:2], x, 300, code.endswith("*")))
            x += (h if code.endswith("*") else w) + 2
        x += 60
    tiles += [tile(f"{i + 1}f", 20 + i * 60, 120) for i in range(8)]
    return {"tiles": tiles}


@pytest.mark.parametrize("width", WIDTHS)
def test_a_read_hand_fits_the_phone(browser, width: int) -> None:  # noqa: F811
    """No sideways scrolling with the example read in one row (candidates listed), nor with the
    largest hand: the hand's rows wrap, the tiles shrink a little, the photo scales."""
    from mahjong_camera_scorer.vision.web.app import create_app

    context, page, errors = _sized(browser, width)
    try:
        with Server(create_app(TruthReader(one_row_manifest()))) as base:
            _read(page, base)
            one_row = _fits(page)
            palette_closed = _fits(page)
        with Server(create_app(TruthReader(_big_hand()))) as base:
            _read(page, base)
            n_tiles = page.locator("#hand .tile").count()
            big = _fits(page)
            photo = page.evaluate("document.querySelector('#photo-wrap').getBoundingClientRect().right")
            page.locator("#hand .tile").first.click()
            page.wait_for_selector("#palette[open]")
            palette = _fits(page)
            shown = _shown(page)
    finally:
        context.close()
    for doc, win in (one_row, palette_closed, big, palette):
        assert doc <= win == width, (width, one_row, big, palette)
    assert n_tiles == 18 + 7 + 8 and photo <= width
    assert not [w for w in FORBIDDEN if w in shown], shown
    assert not errors, errors


@pytest.mark.models  # pairs the standard layout with the shipped models when they are there
@pytest.mark.parametrize("width", WIDTHS)
def test_the_teach_panel_fits_the_phone(browser, width: int, tmp_path: Path) -> None:  # noqa: F811
    """A new set's form, the teaching panel, and (with the shipped reader, which gives the taught
    crops their features) the pairing of the example's 15 tiles with their codes."""
    from mahjong_camera_scorer.vision.teach.store import SetStore
    from mahjong_camera_scorer.vision.web.app import create_app
    from tests.vision.support import models_present

    stand_in = TruthReader()
    if models_present():
        from mahjong_camera_scorer.vision.models import MODELS_DIR, reader

        stand_in.rdr = reader(str(MODELS_DIR))
    context, page, errors = _sized(browser, width)
    paired = None
    try:
        with Server(create_app(stand_in, sets=SetStore(tmp_path / "sets"))) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-sets-ready='true']")
            page.select_option("#set-picker", "__new__")
            page.wait_for_selector("#set-new:not([hidden])")
            new_set = _fits(page)
            page.fill("#set-name", "home")
            page.click("#set-create")
            page.wait_for_selector("#set-body:not([hidden]) #set-title:has-text('home')")
            page.wait_for_selector("#teach[open]")
            page.set_input_files("#teach-photo", str(EXAMPLE))
            page.fill("#teach-codes", "345m 55888p 44s | 4s | ?11p?")
            teach = _fits(page)
            if models_present():
                page.click("#teach-pair")
                page.wait_for_selector("#teach-result:not([hidden]) #teach-rows .pair")
                paired = _fits(page)
    finally:
        context.close()
    for seen in (new_set, teach, paired or teach):
        assert seen[0] <= seen[1] == width, (width, new_set, teach, paired)
    assert not errors, errors


@pytest.mark.parametrize("width", WIDTHS)
def test_the_table_mode_fits_the_phone(browser, width: int) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.web.app import create_app
    from tests.vision.web.test_table_browser import _add_draw, _add_typed_hand, _start_session

    context, page, errors = _sized(browser, width)
    try:
        with Server(create_app(TruthReader(one_row_manifest()))) as base:
            page.goto(base + "/")
            page.wait_for_selector("body[data-table-ready='true']")
            page.click("#mode-table")
            setup = _fits(page)
            page.fill("#t-tournament", "Riichi open")
            _start_session(page, "riichi")
            _add_typed_hand(page)
            _add_draw(page)
            sheet = _fits(page)
            # a photo of a hand in one row, in the table mode: scored with its candidates
            page.click("#t-kind button[data-value='hand']")
            page.click("#t-source button[data-value='photo']")
            page.set_input_files("#photo", str(EXAMPLE))
            page.wait_for_selector("#score[data-total]")
            photo = _fits(page)
            listed = page.locator("#candidates .cand").count()
            shown = _shown(page)
    finally:
        context.close()
    for doc, win in (setup, sheet, photo):
        assert doc <= win == width, (width, setup, sheet, photo)
    assert listed == 6
    assert not [w for w in FORBIDDEN if w in shown], shown
    assert not [e for e in errors if "400" not in e], errors
