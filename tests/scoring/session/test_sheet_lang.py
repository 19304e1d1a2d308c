"""The session sheets in Italian and English: every sheet (text, CSV, HTML) in each language, its
own words translated (the catalog itself is tested in tests/scoring/test_i18n.py)."""

from __future__ import annotations

import re

import pytest

from mahjong_camera_scorer.scoring.session.engine import run_session
from mahjong_camera_scorer.scoring.session.html import sheet_html
from mahjong_camera_scorer.scoring.session.load import parse_yaml
from mahjong_camera_scorer.scoring.session.output import sheet_csv, sheet_text

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
