"""No internal identifier reaches what a player or a referee reads, in English or Italian.

An identifier (``dual_pung``, ``false_hu_short``, ``self_draw``, ``winning_tile``) is how the code,
the JSON and the input forms name a thing; a reader gets its words (``dual pung``, ``false Hu
(under 8 points)``, ``self-draw``). This scans, in both languages: the text of ``hand``,
``table`` and ``photo`` (and the camera's lines), the words of the phone page's payload and its
table of messages, and the session sheets (text, CSV, HTML) of the bundled sessions and of one with
penalties, for any snake_case word. The hand's notation is left out: it is the input's own syntax
(``win=self_draw``), printed so that it can be typed back.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import cv2
import pytest

from mahjong_camera_scorer.scoring import cli
from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.i18n import LANGS
from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.html import sheet_html
from mahjong_camera_scorer.scoring.session.load import load_session, parse_yaml
from mahjong_camera_scorer.scoring.session.output import sheet_csv, sheet_text
from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.vision.render.camera import breakdown_rows, live_lines
from mahjong_camera_scorer.vision.render.page import page_json
from mahjong_camera_scorer.vision.render.text import text_lines
from mahjong_camera_scorer.vision.session_photo import photo_hand
from mahjong_camera_scorer.vision.web.messages import page_words
from tests.vision.support import EXAMPLE, TruthReader, one_row_manifest

ROOT = Path(__file__).resolve().parents[1]
#: a word of letters and digits joined by underscores
IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")

HANDS = [
    ("mcr", "123m456p789s5556z ron 6z seat=S discarder=E"),
    ("mcr", "12345678m999p55s tsumo 9m"),
    ("mcr", "123m456p789s1234z ron 5z"),
    ("riichi", "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m honba=2 sticks=1"),
    ("riichi", "222m444p666s88s33p ron 8s seat=W discarder=N"),
    ("riichi", "345m55888p444s (1111p) win=self_draw seat=W"),
    ("riichi", "19m19p19s1234567z ron 1z discarder=S"),
    ("zung-jung", "11223344556677m"),
    ("zung-jung", "123m456p789s5556z ron 6z discarder=S"),
    ("australian", "111z999m468p9s"),
    ("australian", "22277799p66z [444p] ron 9p"),
    ("australian", "111222333444m5z tsumo 5z seat=S"),
    ("classical", "111m999p111s1115z ron 5z seat=W"),
    ("classical", "123m456p789s5556z tsumo 6z seat=E"),
]
TABLES = [("australian", "examples/table-australian.yaml"), ("classical", "examples/table-classical.yaml")]
SESSIONS = [
    ("mcr", "examples/session-mcr.yaml"),
    ("riichi", "examples/session-riichi.yaml"),
    ("zung-jung", "examples/session-zung-jung.csv"),
]
PENALTIES = """
players: {Anna: E, Bruno: S, Carla: W, Dario: N}
hands:
  - {hand: "123m456p789s5556z ron 6z", winner: Anna, discarder: Bruno}
  - {penalty: false_hu_short, player: Carla}
  - {penalty: forgotten_winning_tile, player: Dario}
  - {penalty: wrong_tile_taken, player: Bruno}
  - {hand: "12345678m999p55s tsumo 9m", winner: Carla}
  - {penalty: time_wasting, player: Anna}
"""


def identifiers(text: str) -> list[str]:
    return sorted(set(IDENTIFIER.findall(text)))


def _without_notation(text: str) -> str:
    """The text less the hand's notation lines (``Hand:  … win=self_draw``, ``Mano: …``)."""
    return "\n".join(ln for ln in text.splitlines() if not re.match(r"\s*(Hand|Mano):", ln))


def _run(argv: list[str]) -> str:
    out = io.StringIO()
    parser, _ = cli.build_parser()
    cli.run(parser, argv, out)
    return out.getvalue()


@pytest.mark.parametrize("lang", LANGS)
def test_the_score_lines_name_no_identifier(lang: str) -> None:
    texts = [_run(["hand", hand, "--rules", rules, "--lang", lang]) for rules, hand in HANDS]
    texts += [_run(["table", str(ROOT / path), "--rules", rules, "--lang", lang]) for rules, path in TABLES]
    found = {t.splitlines()[0]: identifiers(_without_notation(t)) for t in texts}
    assert {k: v for k, v in found.items() if v} == {}
    assert "dual pung" in "".join(texts) or "due coppie" in "".join(texts)  # the wait, in words


@pytest.fixture(scope="module")
def results() -> list[Any]:
    image = cv2.imread(str(EXAMPLE))
    ctx = HandContext(win_by="self_draw", seat_wind="W")
    return [
        TruthReader().read_and_score(image, ctx, "riichi", {}),
        TruthReader(one_row_manifest()).read_and_score(image, ctx, "riichi", {}),
        # the winner sits South: East's discard (East discarding to East is no situation, refused when made)
        TruthReader(low=(2, 5)).read_and_score(image, HandContext(seat_wind="S", discarder="E"), "mcr", {}),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_photo_and_the_camera_name_no_identifier(results: list[Any], lang: str) -> None:
    for result in results:
        text = "\n".join(text_lines(result, lang))
        camera = live_lines(15, True, 0.0, 12.5, result, "riichi", lang)
        camera += [f"{a} {b}" for a, b in breakdown_rows(result, lang)]
        assert identifiers(_without_notation(text)) == []
        assert identifiers("\n".join(camera)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_words_name_no_identifier(results: list[Any], lang: str) -> None:
    shown = list(page_words(lang).values())
    for result in results:
        payload = page_json(result, lang=lang)
        words = payload["score"]["words"]
        shown += [name for name, _ in words["elements"]] + words["notes"]
        shown += [words["unit"], words["limit"] or ""]
        shown += [str(n.get("detail") or "") for n in payload["notices"]]
    assert identifiers("\n".join(shown)) == []


def _photo(path: Path) -> PhotoHand:
    """A session's photo read by the stand-in reader (the example's own tiles, no models)."""
    return photo_hand(TruthReader().read_and_score(cv2.imread(str(path))))


def _sheets(lang: str) -> dict[str, str]:
    sheets = {
        path: run_session(load_session(ROOT / path), rules, read_photo=_photo) for rules, path in SESSIONS
    }
    sheets["penalties"] = run_session(parse_yaml(PENALTIES), "mcr")
    out = {}
    for name, sheet in sheets.items():
        rows = list(csv.reader(io.StringIO(sheet_csv(sheet, lang))))
        notation = rows[0].index({"en": "hand notation", "it": "notazione della mano"}[lang])
        out[f"{name} csv"] = "\n".join(",".join(r[:notation] + r[notation + 1 :]) for r in rows)
        out[f"{name} html"] = re.sub(r"<code>.*?</code>", "", sheet_html(sheet, lang=lang), flags=re.DOTALL)
        out[f"{name} text"] = sheet_text(sheet, lang)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_the_session_sheets_name_no_identifier(lang: str) -> None:
    found = {name: identifiers(text) for name, text in _sheets(lang).items()}
    assert {k: v for k, v in found.items() if v} == {}


def test_the_scan_finds_an_identifier() -> None:
    """The check itself: a snake_case word is found, a hyphenated or spaced one is not."""
    found = identifiers("Reading: 123m  wait: dual_pung; Carla: false_hu_short")
    assert found == ["dual_pung", "false_hu_short"]
    assert identifiers("wait: dual pung, two-sided; E→W 800") == []
    assert _without_notation("Hand:  345m (1111p) win=self_draw\nRules: riichi") == "Rules: riichi"
