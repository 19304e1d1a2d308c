"""Where the tests find the sentences that need Italian: the code's ``tr``/``msg``/``Msg``/``term``
calls (read with :mod:`ast`, nothing imported), the keys the page's scripts name, the labels of
its HTML.

Test support only: the project itself never reads its own source (the page's sentences are one JSON
table the server reads, :mod:`vision.web.messages`).
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

#: a key of the page's table in a script (``msg("sets.title", {name})``, or a map of keys such as
#: ``{faint: "sets.found_faint"}``): a string literal that is nothing but a key of a known section
#: (not a file name: ``"photo.jpg"``)
_PAGE_KEY = re.compile(r'"([a-z]+\.(?!(?:jpe?g|png|webp)")[a-z_]+)"')
#: a label of the page's HTML worded by that table (``<h2 data-msg="hand.title">Hand</h2>``)
_DATA_MSG = re.compile(r'data-msg="([\w.]+)"[^>]*>([^<]*)<')
#: the calls whose first argument is a sentence of the catalog (``term``: its third)
_CALLS = {"tr": 0, "msg": 0, "Msg": 0, "term": 2}
_CALLED = re.compile(r"\b(?:tr|msg|Msg|term)\(")


def page_keys(script: Path, sections: set[str]) -> set[str]:
    """The keys of the page's table a script names: string literals shaped ``section.name`` for a
    section of the table (a misspelt name is kept, for the test to find)."""
    keys = _PAGE_KEY.findall(script.read_text(encoding="utf-8"))
    return {key for key in keys if key.split(".")[0] in sections}


def page_labels(page: Path) -> dict[str, str]:
    """Key → text of each element of the page's HTML marked ``data-msg`` (whitespace folded, as the
    browser shows it): the label the table words in the page's language."""
    text = page.read_text(encoding="utf-8")
    return {key: " ".join(html.unescape(label).split()) for key, label in _DATA_MSG.findall(text)}


def code_sentences(paths: list[Path]) -> set[str]:
    """Every sentence the Python code translates: the literal sentence argument of ``tr(...)``,
    ``msg(...)``, ``Msg(...)`` and ``term(lang, rules, ...)`` (both branches of a conditional)."""
    found: set[str] = set()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        if not _CALLED.search(text):
            continue
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            at = _CALLS.get(name)
            if at is None or len(node.args) <= at:
                continue
            arg = node.args[at]
            options = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            found |= {o.value for o in options if isinstance(o, ast.Constant) and isinstance(o.value, str)}
    return found
