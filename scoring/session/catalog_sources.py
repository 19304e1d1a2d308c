"""Where the catalog's sentences come from: the code's ``tr``/``msg``/``Msg`` calls, the phone
page's messages table and labels, the table mode's ``t("…")`` calls, the keys of that table the
taught sets' script names, and the infraction names.

The catalog test (tests/scoring/session/test_i18n.py) asks this module for every sentence and fails on
one without its Italian. Kept apart from :mod:`scoring.session.i18n`, which the rules' messages import,
so that reading the penalties' names here makes no import circle."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

from scoring.session.penalties import INFRACTIONS

_JS_CALL = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')
#: an entry of the phone page's messages table (``"notice.gap": "A tile may be missing…",``)
_PAGE_ENTRY = re.compile(r'^\s*"([\w.]+)":\s*"((?:[^"\\]|\\.)*)",?\s*$', re.MULTILINE)
#: a key of that table in a script that words its texts with it (``msg("sets.title", {name})``, or a
#: map of keys such as ``{faint: "sets.found_faint"}``): a string literal that is nothing but a key
#: (not a file name: ``"photo.jpg"``)
_PAGE_KEY = re.compile(r'"([a-z]+\.(?!(?:jpe?g|png|webp)")[a-z_]+)"')
#: a label of the page's HTML worded by that table (``<h2 data-msg="hand.title">Hand</h2>``)
_DATA_MSG = re.compile(r'data-msg="([\w.]+)"[^>]*>([^<]*)<')
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
)  # fmt: skip


def page_messages(path: Path) -> dict[str, str]:
    """Key → English sentence of the phone page's one table of messages (``static/messages.js``):
    the English is the catalog's message id, as for every other sentence."""
    text = path.read_text(encoding="utf-8")
    return {key: json.loads(f'"{value}"') for key, value in _PAGE_ENTRY.findall(text)}


def page_keys(path: Path) -> set[str]:
    """The keys of the page's messages table (``messages.js`` beside it) that a script of the page
    (``static/sets.js``) words its texts with: string literals shaped ``section.name`` for a section
    of the table (a misspelt name is kept, for the test to find)."""
    sections = {key.split(".")[0] for key in page_messages(path.with_name("messages.js"))}
    keys = _PAGE_KEY.findall(path.read_text(encoding="utf-8"))
    return {key for key in keys if key.split(".")[0] in sections}


def page_labels(path: Path) -> dict[str, str]:
    """Key → text of each element of the page's HTML marked ``data-msg`` (whitespace folded, as the
    browser shows it): the label the messages table words in the page's language."""
    text = path.read_text(encoding="utf-8")
    return {key: " ".join(html.unescape(label).split()) for key, label in _DATA_MSG.findall(text)}


def message_ids(paths: list[Path]) -> set[str]:
    """Every sentence the code translates: the first argument of ``tr(...)``, ``msg(...)`` and
    ``Msg(...)`` where it is a literal (in a .js file: ``t("…")`` and the sentences of the
    messages table's keys it names; the phone page's messages table, every sentence; in an .html
    file, the ``data-msg`` labels), and the infraction names
    and :data:`DATA_WORDS`."""
    found = set(DATA_WORDS) | {name for names in INFRACTIONS.values() for name in names} | {"chombo"}
    for path in paths:
        if path.name == "messages.js":  # the one-hand page: every sentence of its table
            found |= set(page_messages(path).values())
            continue
        if path.suffix == ".html":
            found |= set(page_labels(path).values())
            continue
        if path.suffix == ".js":  # the table mode: t("…") with a literal; the sets: the table's keys
            found |= {json.loads(f'"{m}"') for m in _JS_CALL.findall(path.read_text(encoding="utf-8"))}
            table = page_messages(path.with_name("messages.js"))
            found |= {table[key] for key in page_keys(path) if key in table}
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if name in ("tr", "msg", "Msg") and literal and isinstance(first, ast.Constant):
                found.add(str(first.value))
            elif name in ("tr", "msg") and isinstance(first, ast.IfExp):
                found |= {
                    b.value
                    for b in (first.body, first.orelse)
                    if isinstance(b, ast.Constant) and isinstance(b.value, str)
                }
    return found
