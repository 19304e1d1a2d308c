"""The phone page's words: every sentence it shows, by key, in the language it asks for.

The sentences have one home, ``messages.json`` beside this module (key → English, sections by the
key's first word: ``notice`` what to check, ``score``, ``hand``, ``palette``, ``upload``,
``error``, ``sets`` the taught sets, ``table`` the table mode, ``seat`` one letter per wind,
``unit``…); the Italian is the one catalog's (:mod:`scoring.i18n`, the English is its message id),
and a penalty's name is the session's own (:data:`scoring.session.penalties.INFRACTION_WORDS`,
keyed ``infraction.<name>``). ``GET /api/messages?lang=it`` gives the page all of it, worded: the
page's scripts hold keys, never sentences (``static/messages.js`` fills in the fields).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, LANGS, translator
from mahjong_camera_scorer.scoring.session.penalties import INFRACTION_WORDS
from mahjong_camera_scorer.vision.web.errors import ApiError

MESSAGES_FILE = Path(__file__).with_name("messages.json")


@cache
def page_messages() -> dict[str, str]:
    """Key → English sentence of every text the page shows (``messages.json``)."""
    table = json.loads(MESSAGES_FILE.read_text(encoding="utf-8"))
    assert isinstance(table, dict) and all(isinstance(v, str) for v in table.values())
    return table


def page_words(lang: str) -> dict[str, str]:
    """Key → sentence in ``lang`` of everything the page shows: its own table and the penalties'
    names (a sentence the catalog lacks stays English)."""
    tr = translator(lang)
    words = {key: tr(text) for key, text in page_messages().items()}
    words.update({f"infraction.{name}": tr(text) for name, text in INFRACTION_WORDS.items()})
    return words


router = APIRouter()


@router.get("/api/messages", summary="The page's words in a language (en, it): key → text")
async def api_messages(lang: str = DEFAULT_LANG) -> JSONResponse:
    if lang not in LANGS:
        raise ApiError(400, f"unknown language {lang[:20]!r}: choose one of {', '.join(LANGS)}")
    return JSONResponse({"lang": lang, "messages": page_words(lang)})


__all__ = ["MESSAGES_FILE", "page_messages", "page_words", "router"]
