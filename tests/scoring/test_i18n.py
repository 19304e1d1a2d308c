"""The one catalog of sentences (:mod:`scoring.i18n`): complete, compiled and in step with its
source, its fields the English ones, a rule system's terms under their context."""

from __future__ import annotations

import gettext
import io
import re
import string
from pathlib import Path

import pytest

from mahjong_camera_scorer.scoring.candidates import SITUATION_WORDS
from mahjong_camera_scorer.scoring.classical.limits import POSSIBLE_LIMIT_HANDS
from mahjong_camera_scorer.scoring.decompose import WAIT_WORDS
from mahjong_camera_scorer.scoring.i18n import (
    CONTEXT_SEP,
    LOCALE_DIR,
    check_lang,
    compile_po,
    element_name,
    mo_path,
    msg,
    parse_po,
    term,
    translator,
)
from mahjong_camera_scorer.scoring.render import TYPED_HINT
from mahjong_camera_scorer.scoring.riichi.fu import (
    BASE_ITEMS,
    SET_ITEMS,
    SEVEN_PAIRS_ITEMS,
    WAIT_NAMES,
    item_words,
)
from mahjong_camera_scorer.scoring.session.penalties import INFRACTION_WORDS
from mahjong_camera_scorer.vision.render.camera import CAMERA_HINT
from mahjong_camera_scorer.vision.render.text import PHOTO_HINT
from mahjong_camera_scorer.vision.web.messages import page_messages
from tests.catalog_sources import code_sentences

ROOT = Path(__file__).resolve().parents[2]
PO = LOCALE_DIR / "it" / "LC_MESSAGES" / "messages.po"
#: every module that words what a player or a referee reads
SOURCES = sorted([*(ROOT / "scoring").rglob("*.py"), *(ROOT / "vision").rglob("*.py")])
#: words the sheets translate from data, not from a literal in the code
DATA_WORDS = (
    # line kinds and statuses
    "hand", "draw", "penalty", "scored", "confirm", "error", "void",
    # units
    "points", "han",
    # closing rows
    "Points", "Uma", "Final (points + uma)", "Punti Tavolo (4/2/1/0)", "Mini Punti",
    # ranking columns
    "final", "total", "table_points", "mini_punti", "uma",
    # the chombo row
    "chombo",
)  # fmt: skip
#: words a score's notes take from data (a wait's kind, a fu item, a payer, a role, a value)
NOTE_WORDS = {
    *WAIT_WORDS.values(),
    *WAIT_NAMES.values(),
    "self-draw",
    "open pinfu",
    *(name for name, _ in [*BASE_ITEMS.values(), *SEVEN_PAIRS_ITEMS]),
    *(item_words(name).text for rows in SET_ITEMS.values() for row in rows for name, _ in row),
    *(item_words(f"{pair} 5z").text for pair in ("dragon pair", "seat wind pair", "prevalent wind pair")),
    "discarder",
    "table",
    "pot",
    "winner",
    "loser",
    "fishing",
    "limit",
    "double limit",
    "half limit",
    *(name for name, _ in POSSIBLE_LIMIT_HANDS),
    "E",
    "S",
    "W",
    "N",
}


def _entries() -> dict[str, str]:
    return parse_po(PO.read_text(encoding="utf-8"))


def test_the_committed_mo_is_the_po_compiled() -> None:
    # a wheel and an editable install both read the .mo: it must be the .po as it is now
    # (after editing the .po: python -m scoring.i18n)
    assert mo_path("it").read_bytes() == compile_po(PO.read_text(encoding="utf-8"))


def test_the_compiled_catalog_reads_back_as_the_po_says() -> None:
    catalog = gettext.GNUTranslations(io.BytesIO(compile_po(PO.read_text(encoding="utf-8"))))
    for key, text in _entries().items():
        if key and CONTEXT_SEP in key:
            context, _, msgid = key.partition(CONTEXT_SEP)
            assert catalog.pgettext(context, msgid) == text
        elif key:
            assert catalog.gettext(key) == text
    assert catalog.gettext("not in the catalog") == "not in the catalog"


def test_a_context_keeps_one_english_name_two_italian_terms() -> None:
    po = 'msgid ""\nmsgstr ""\n\nmsgctxt "mcr"\nmsgid "Seven Pairs"\nmsgstr "Tutte Coppie"\n\n'
    po += 'msgctxt "zung-jung"\nmsgid "Seven Pairs"\nmsgstr "Sette Coppie"\n\n'
    po += 'msgid "Total"\nmsgstr "Totale"\n'
    entries = parse_po(po)
    assert entries[f"mcr{CONTEXT_SEP}Seven Pairs"] == "Tutte Coppie" and entries["Total"] == "Totale"
    catalog = gettext.GNUTranslations(io.BytesIO(compile_po(po)))
    assert catalog.pgettext("mcr", "Seven Pairs") == "Tutte Coppie"
    assert catalog.pgettext("zung-jung", "Seven Pairs") == "Sette Coppie"
    assert catalog.gettext("Seven Pairs") == "Seven Pairs"  # no context: not the mcr term


def test_every_sentence_the_code_and_the_page_say_is_in_italian() -> None:
    entries = _entries()
    wanted = code_sentences(SOURCES) | set(page_messages().values()) | set(DATA_WORDS)
    wanted |= set(INFRACTION_WORDS.values()) | set(SITUATION_WORDS.values())
    wanted |= {TYPED_HINT, PHOTO_HINT, CAMERA_HINT}  # how each front end asks for the tile that won
    wanted |= NOTE_WORDS
    assert len(wanted) > 400
    missing = sorted(i for i in wanted if _worded(i) and not entries.get(i) and not _in_a_context(i, entries))
    assert not missing, f"add to {PO.name} (then python -m mahjong_camera_scorer.scoring.i18n): {missing}"


def _worded(msgid: str) -> bool:
    """A message with words to translate (not a layout of fields: ``{seat:>7}``, ``  {line}``)."""
    return bool(re.search(r"[A-Za-z]{2}", re.sub(r"\{[^}]*\}", "", msgid)))


def _in_a_context(msgid: str, entries: dict[str, str]) -> bool:
    """A rule system's term (``term(lang, rules, name)``) has its Italian under a context."""
    return any(k.endswith(CONTEXT_SEP + msgid) and v for k, v in entries.items())


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_each_translation_keeps_the_fields_of_its_english() -> None:
    for key, text in _entries().items():
        if key:
            assert _fields(text) == _fields(key.rpartition(CONTEXT_SEP)[2]), (key, text)


def test_the_seeds_terms_are_kept_in_both_languages() -> None:
    it, en = translator("it"), translator("en")
    for word in ("Mini Punti", "uma", "chombo"):
        assert it(word) == en(word) == word
    assert "Punti Tavolo" in it("Punti Tavolo (4/2/1/0)") and "Punti Tavolo" in en("Punti Tavolo (4/2/1/0)")
    assert term("it", "riichi", "Pinfu") == "Pinfu"  # the seed keeps the yaku's Japanese names
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        check_lang("fr")


def test_a_message_waits_for_its_language() -> None:
    note = msg("exhaustive draw: tenpai {who}; East stays", who=msg("nobody"))
    assert str(note) == "exhaustive draw: tenpai nobody; East stays"
    assert note.render(translator("it")) == "a monte per esaurimento: tenpai nessuno; Est rimane"


def test_an_element_name_keeps_its_tiles_in_italian() -> None:
    # one catalog entry per element, its tiles a field: every pung of the seed's kind is worded
    assert element_name("it", "classical", "B5 Concealed pung of terminals/honours 555z").endswith(" 555z")
    assert element_name("it", "classical", "B5 Concealed pung of terminals/honours 555z") != (
        "B5 Concealed pung of terminals/honours 555z"
    )
    snake = "F8 Snake (serpente) 123m-456p-789s (doubles)"
    assert "123m-456p-789s" in element_name("it", "classical", snake) != snake
    assert element_name("en", "classical", snake) == snake  # English: the spec's name, as the JSON
    assert element_name("it", "mcr", "no such element 5z") == "no such element 5z"


#: the riichi yaku the seed keeps under their Japanese names (or its own English)
JAPANESE = {"Riichi", "Ippatsu", "Daburu riichi", "Pinfu", "Dora", "Ura dora"}


def _table_names() -> dict[str, set[str]]:
    """Every element name of the rule systems whose tables list them whole."""
    from mahjong_camera_scorer.scoring.mcr.elements import BY_NO
    from mahjong_camera_scorer.scoring.riichi.scorer import ORDER
    from mahjong_camera_scorer.scoring.zung_jung.combine import CHICKEN_HAND
    from mahjong_camera_scorer.scoring.zung_jung.patterns import PATTERNS

    mcr = {row.name for row in BY_NO.values()} | {"One Melded and One Concealed Kong"}
    zung_jung = {p.name for p in PATTERNS} | {CHICKEN_HAND}
    return {"mcr": mcr, "riichi": set(ORDER) - JAPANESE, "zung-jung": zung_jung}


def test_every_element_of_the_tables_has_its_seeds_italian_name() -> None:
    names = _table_names()
    assert {k: len(v) for k, v in names.items()} == {"mcr": 82, "riichi": 39, "zung-jung": 49}
    untranslated = {r: sorted(n for n in ns if element_name("it", r, n) == n) for r, ns in names.items()}
    assert untranslated == {"mcr": [], "riichi": [], "zung-jung": []}
    # one English name, the seed's own term under each system
    assert element_name("it", "mcr", "Seven Pairs") == "Tutte Coppie"
    assert element_name("it", "riichi", "Menzen tsumo") == "Tutto pescato"
    assert element_name("it", "zung-jung", "Value Honor") == "Onori con valore"
