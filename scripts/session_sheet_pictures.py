"""The README's pictures of a session sheet, one per language: ``docs/session-sheet-{en,it}.png``.

Renders ``examples/session-mcr.yaml`` (MCR, the paper sheet of seed 000 App. B) with
:func:`scoring.session.html.sheet_html` in each language and photographs the page in headless
Chromium (``/usr/bin/chromium``, driven by playwright). Run from the repository root::

    python scripts/session_sheet_pictures.py [--chromium PATH] [--rules mcr] [--example FILE]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from mahjong_camera_scorer.scoring.i18n import LANGS
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.html import sheet_html
from mahjong_camera_scorer.scoring.session.load import load_session

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--example", default=str(ROOT / "examples" / "session-mcr.yaml"))
    ap.add_argument("--rules", default="mcr")
    ap.add_argument("--out", default=str(ROOT / "docs"), help="folder for session-sheet-LANG.png")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    sheet = run_session(load_session(args.example), args.rules)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium)
        page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
        for lang in LANGS:
            html = Path(tmp) / f"sheet-{lang}.html"
            html.write_text(sheet_html(sheet, Path(args.example).parent, lang=lang), encoding="utf-8")
            page.goto(html.as_uri())
            out = Path(args.out) / f"session-sheet-{lang}.png"
            page.screenshot(path=str(out), full_page=True)
            print(f"wrote {out}")
        browser.close()


if __name__ == "__main__":
    main()
