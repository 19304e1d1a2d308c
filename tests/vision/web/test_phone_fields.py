"""The phone page usable from 320 to 430 px, in English and Italian, in real headless Chromium
(issue 38 items 1 and 2): not only no sideways scrolling, but every field of the table mode wide
enough to type in, each label's words beside or above its own field; the Winner picker asked
again for every hand; after a read, the verdict and the score first, below the sticky top bar;
the settings chip and the tile-set picker showing their whole text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.vision.support import EXAMPLE, TruthReader
from tests.vision.web.test_browser import CHROMIUM, Server, _page, browser  # noqa: F401 (fixture)
from tests.vision.web.test_table_browser import _add_typed_hand, _start_session

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason=f"no chromium at {CHROMIUM}: run scripts/install_browser.sh (apt-get install chromium)",
)

WIDTHS = (320, 360, 390, 430)
#: the narrowest a field may be: room for a name or a number of a few digits
MIN_FIELD_PX = 64

#: every visible field under ``root``, with the box of its label's own words (the text of the
#: label it sits in, the field itself left out); a field labelled only by aria-label has none
FIELDS_JS = """(root) => {
  const out = [];
  const typed = 'input:not([type=checkbox]):not([type=radio]):not([type=file])';
  for (const f of document.querySelectorAll(`${root} ${typed}, ${root} select`)) {
    const r = f.getBoundingClientRect();
    if (!r.width || !r.height || f.closest('[hidden]')) continue;
    const label = f.closest('label');
    let words = null;
    if (label) {
      const range = document.createRange();
      const rects = [];
      const walk = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
      for (let n = walk.nextNode(); n; n = walk.nextNode()) {
        if (!n.textContent.trim() || f.contains(n)) continue;
        range.selectNodeContents(n);
        for (const q of range.getClientRects()) if (q.width) rects.push(q);
      }
      if (rects.length) {
        words = {left: Math.min(...rects.map(q => q.left)), right: Math.max(...rects.map(q => q.right)),
                 top: Math.min(...rects.map(q => q.top)), bottom: Math.max(...rects.map(q => q.bottom)),
                 text: label.textContent.replace(f.textContent || '', '').trim().slice(0, 40)};
      }
    }
    out.push({id: f.id || f.name || f.getAttribute('aria-label'), left: r.left, right: r.right, top: r.top,
              bottom: r.bottom, width: r.width, words});
  }
  return {fields: out, viewport: document.documentElement.clientWidth,
          scroll: document.documentElement.scrollWidth};
}"""


def _check_fields(page: Any, root: str, where: str) -> int:
    """Each field of ``root`` wide enough, on screen, its label's words before or above it."""
    got = page.evaluate(FIELDS_JS, root)
    vw = got["viewport"]
    assert got["scroll"] <= vw, f"{where}: the page scrolls sideways ({got['scroll']} > {vw})"
    assert got["fields"], f"{where}: no field found under {root}"
    for f in got["fields"]:
        name = f"{where} {f['id']}"
        assert f["width"] >= MIN_FIELD_PX, f"{name}: {f['width']:.0f} px wide"
        off = f"{name}: off the screen ({f['left']:.0f}-{f['right']:.0f})"
        assert f["left"] >= 0 and f["right"] <= vw + 0.5, off
        w = f["words"]
        if w is None:
            continue
        assert w["left"] >= 0 and w["right"] <= vw + 0.5, f"{name}: its label {w['text']!r} is off the screen"
        beside = w["right"] <= f["left"] + 1 and w["bottom"] > f["top"] and w["top"] < f["bottom"]
        above = w["bottom"] <= f["top"] + 2 and w["left"] < f["right"] and w["right"] > f["left"]
        assert beside or above, f"{name}: its label {w['text']!r} is neither before nor above it ({w}, {f})"
    return len(got["fields"])


def _open(browser: Any, base: str, width: int, lang: str, ready: str) -> tuple[Any, Any, list[str]]:  # noqa: F811
    """The page at ``width`` px in ``lang``, once ``body[data-READY]`` says its part is ready."""
    context, page, errors = _page(browser, {"width": width, "height": 800})
    page.goto(base + "/")
    page.wait_for_selector(f"body[data-{ready}='true']")
    page.click(f"#lang-switch button[data-lang='{lang}']")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    return context, page, errors


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "it"])
def test_table_mode_fields_are_usable_at_every_phone_width(browser: Any, lang: str) -> None:  # noqa: F811
    from mahjong_camera_scorer.vision.web.app import create_app

    with Server(create_app(TruthReader())) as base:
        for width in WIDTHS:
            context, page, errors = _open(browser, base, width, lang, "table-ready")
            try:
                page.click("#mode-table")
                page.wait_for_selector("#t-setup:not([hidden])")
                where = f"{lang} {width}px setup"
                # tournament, session, table, rules, four players and their numbers
                assert _check_fields(page, "#t-setup", where) >= 8
                _start_session(page, "riichi")
                page.click("#t-kind button[data-value='hand']")
                page.click("#t-source button[data-value='typed']")
                _check_fields(page, "#t-add", f"{lang} {width}px hand")  # winner, discarder, dora, ura, tiles
                page.click("#t-kind button[data-value='penalty']")
                _check_fields(page, "#t-add", f"{lang} {width}px penalty")
                assert not errors, errors
            finally:
                context.close()


def test_the_winner_is_asked_again_for_every_hand(browser: Any) -> None:  # noqa: F811
    """A hand credited to the last row's winner was a wrong row on the sheet: the picker empties."""
    from mahjong_camera_scorer.vision.web.app import create_app

    with Server(create_app(TruthReader())) as base:
        context, page, errors = _open(browser, base, 390, "en", "table-ready")
        try:
            page.click("#mode-table")
            _start_session(page, "riichi")
            page.click("#t-kind button[data-value='hand']")
            assert page.eval_on_selector("#t-winner", "s => s.value") == ""  # none chosen yet
            _add_typed_hand(page)  # Bruno's
            assert page.eval_on_selector("#t-winner", "s => s.value") == ""
            assert page.eval_on_selector("#t-discarder", "s => s.value") == ""
            page.fill("#t-typed", "234m55p12345678s tsumo 9s")
            page.click("#t-add-row")  # no winner chosen: refused, nothing added
            page.wait_for_selector("#t-message:not([hidden])")
            assert "winner" in page.inner_text("#t-message").lower()
            assert page.locator("#t-sheet tr[data-row='1']").count() == 0
            assert not errors, errors
        finally:
            context.close()


#: the page has stopped scrolling (a smooth scroll ends)
STILL_JS = """() => { const y = window.scrollY;
  return new Promise(r => setTimeout(() => r(window.scrollY === y), 300)); }"""

#: does an element's text fit it (no "…"); for a select, its chosen option's text
FITS_JS = """(sel) => {
  const e = document.querySelector(sel);
  if (e.tagName !== 'SELECT') return {fits: e.scrollWidth <= e.clientWidth + 1, text: e.textContent};
  const probe = document.createElement('span');
  const cs = getComputedStyle(e);
  probe.style.font = cs.font;
  probe.style.whiteSpace = 'pre';
  probe.style.position = 'absolute';
  probe.textContent = e.options[e.selectedIndex].text;
  document.body.append(probe);
  const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 18;  // 18: the arrow
  const need = probe.getBoundingClientRect().width + pad;
  probe.remove();
  return {fits: need <= e.getBoundingClientRect().width + 1, text: e.options[e.selectedIndex].text, need,
          width: e.getBoundingClientRect().width};
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "it"])
def test_after_a_read_the_score_comes_first_and_the_chip_and_picker_show_their_text(
    browser: Any,  # noqa: F811
    lang: str,
    tmp_path: Path,
) -> None:
    from mahjong_camera_scorer.vision.teach.store import SetStore
    from mahjong_camera_scorer.vision.web.app import create_app

    with Server(create_app(TruthReader(), sets=SetStore(tmp_path / "sets"))) as base:
        for width in WIDTHS:
            context, page, errors = _open(browser, base, width, lang, "sets-ready")
            try:
                for sel in ("#summary", "#set-picker"):
                    fit = page.evaluate(FITS_JS, sel)
                    assert fit["fits"], f"{lang} {width}px: {sel} cut short: {fit}"
                page.set_input_files("#photo", str(EXAMPLE))
                page.wait_for_selector("#result:not([hidden]) #score h2")
                order = page.evaluate(
                    "() => ['#verdict', '#score', '#photo-wrap', '#hand'].map(s => document.querySelector(s))"
                    ".map(e => e.compareDocumentPosition(document.querySelector('#photo-wrap')))"
                )
                # the score (and its verdict slot) before the photo and the tiles
                assert order[1] & 4 and order[0] & 4, order  # 4: #photo-wrap follows
                # the page scrolled to the result: its top below the sticky bar, not under it
                page.wait_for_function(STILL_JS)
                bar = page.evaluate("() => document.querySelector('.topbar').getBoundingClientRect().bottom")
                top = page.evaluate("() => document.querySelector('#result').getBoundingClientRect().top")
                score = page.evaluate("() => document.querySelector('#score').getBoundingClientRect().top")
                assert top >= bar - 1 and score >= bar - 1, (lang, width, bar, top, score)
                assert score < 800, f"{lang} {width}px: the score is below the fold ({score:.0f})"
                fit = page.evaluate(FITS_JS, "#summary")
                assert fit["fits"], f"{lang} {width}px: the settings chip cut short: {fit}"
                assert not errors, errors
            finally:
                context.close()


def test_a_hand_one_tile_short_shows_what_each_wait_would_score(browser: Any) -> None:  # noqa: F811
    """The example left in one row, its 3m taken out as "not a tile": 13 tiles, ready on 3m and
    6m; the score card says so and lists both waits with their scores (issue 38 item 3)."""
    from mahjong_camera_scorer.vision.web.app import create_app
    from tests.vision.support import one_row_manifest
    from tests.vision.web.test_browser import _set_context

    with Server(create_app(TruthReader(one_row_manifest()))) as base:
        context, page, errors = _open(browser, base, 390, "en", "ready")
        try:
            _set_context(page)
            page.set_input_files("#photo", str(EXAMPLE))
            page.wait_for_selector("#score[data-valid='true']")
            assert page.locator("#waits").count() == 0  # a won hand has no waits
            page.locator("#hand .tile[data-code='3m']").first.click()
            page.wait_for_selector("#palette[open]")
            page.click("#palette-remove")
            page.wait_for_selector("#score[data-valid='false'] #waits .cand")
            each = "es => es.map(e => [e.dataset.code, e.innerText])"
            waits = page.eval_on_selector_all("#waits .cand", each)
            assert sorted(code for code, _ in waits) == ["3m", "6m"]
            assert all("han" in text for _, text in waits), waits
            notice = page.inner_text("#score p[data-kind='ready']")
            assert "13 tiles" in notice and "one short" in notice
            assert not errors, errors
        finally:
            context.close()
