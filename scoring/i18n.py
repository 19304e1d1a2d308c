"""Every sentence a player or a referee reads, in English and Italian: one gettext catalog.

The English text in the code (or in the page's table of messages, ``vision/web/messages.json``)
is the message id; the Italian is ``locale/it/LC_MESSAGES/messages.po`` beside this module,
compiled to ``messages.mo`` by :func:`compile_po` (``python -m scoring.i18n`` rewrites it; a test
checks that the committed ``.mo`` is the ``.po`` compiled, so a wheel and an editable install read
the same catalog). The seeds' own terms (Punti Tavolo, Mini Punti, chombo, uma, the riichi yaku)
are kept in both languages.

A rule system's terms (its elements, its limits) are looked up with the system as the message's
context (:func:`term`: ``msgctxt "mcr"``), since one English name is a different Italian term in
two seeds ("Seven Pairs": MCR's *Tutte Coppie*, Zung Jung's *Sette Coppie*).

A :class:`Msg` is a sentence with its fields, rendered when the language is known: the engine
writes notes once, each front end shows them in its reader's language. Pure standard library, so
any module of :mod:`scoring` may import it.
"""

from __future__ import annotations

import ast
import gettext
import re
import struct
import sys
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

DOMAIN = "messages"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGS = ("en", "it")
DEFAULT_LANG = "en"

Translate = Callable[[str], str]
#: how a .mo file keys a message with a context: ``context + CONTEXT_SEP + msgid``
CONTEXT_SEP = "\x04"


def check_lang(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGS`, else a ValueError naming them."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGS)}")
    return lang


@cache
def _translations(lang: str) -> gettext.NullTranslations:
    if check_lang(lang) == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])


def translator(lang: str = DEFAULT_LANG) -> Translate:
    """``gettext`` for ``lang`` (English is the message ids themselves)."""
    return _translations(lang).gettext


def term(lang: str, context: str, text: str) -> str:
    """``text`` as ``context`` (a rule system) words it in ``lang``: the catalog's entry with that
    context, else the sentence without one, else the English."""
    found = _translations(lang).pgettext(context, text)
    return found if found != text else _translations(lang).gettext(text)


#: a group of tiles inside an element's name (``555z``, ``123m-456p-789s``, ``1f``): kept as it is
_TILES = re.compile(r"\b\d+[mpszf](?:-\d+[mpszf])*\b")


def element_words(rules: str, name: str) -> Msg:
    """A scoring element's name (the spec's English, the key of ``Score.elements``) as a message
    that ``rules``' seed words in each language. A name that carries its tiles (``Concealed pung
    555z``) is the message ``Concealed pung {tiles}`` (then ``{tiles2}``…), so one catalog entry
    words every instance; a name the catalog lacks stays as it is."""
    groups: dict[str, str] = {}

    def field_of(m: re.Match[str]) -> str:
        key = "tiles" if not groups else f"tiles{len(groups) + 1}"
        groups[key] = m.group(0)
        return "{" + key + "}"

    return Msg(_TILES.sub(field_of, name.replace("{", "{{").replace("}", "}}")), groups, context=rules)


def element_name(lang: str, rules: str, name: str) -> str:
    """:func:`element_words` in ``lang`` (English: the name itself)."""
    return name if lang == DEFAULT_LANG else element_words(rules, name).render(translator(lang))


class Msg(str):
    """A sentence in English with ``{fields}``, translated when rendered; fields that are
    themselves :class:`Msg` are translated too, and a field that is a tuple is a list, each item
    rendered and joined by ``sep`` (``"E -21, S +37"``). ``context``: a rule system whose term
    this is (:func:`term`).

    A message *is* its English sentence (a ``str``): code that joins, compares or prints notes
    as text gets the English as before, and JSON carries it; a front end that knows its reader's
    language calls :meth:`render` (or :func:`render`)."""

    text: str
    args: Mapping[str, Any]
    sep: str
    context: str | None

    def __new__(
        cls, text: str, args: Mapping[str, Any] | None = None, sep: str = ", ", context: str | None = None
    ) -> Msg:
        fields = dict(args or {})
        self = super().__new__(cls, _worded(text, fields, sep, context, _english))
        self.text, self.args, self.sep, self.context = text, fields, sep, context
        return self

    def __getnewargs__(self) -> tuple[str, Mapping[str, Any], str, str | None]:  # type: ignore[override]
        return self.text, self.args, self.sep, self.context

    def render(self, tr: Translate) -> str:
        return _worded(self.text, self.args, self.sep, self.context, tr)

    def __repr__(self) -> str:
        return f"Msg({self.text!r}, {dict(self.args)!r})"


def _english(text: str) -> str:
    return text


def _worded(text: str, args: Mapping[str, Any], sep: str, context: str | None, tr: Translate) -> str:
    def value(v: Any) -> Any:
        if isinstance(v, tuple):
            return sep.join(render(item, tr) for item in v)
        return v.render(tr) if isinstance(v, Msg) else v

    worded = tr(text)
    if context is not None:  # a compiled catalog keys a term by context + CONTEXT_SEP + text
        key = context + CONTEXT_SEP + text
        found = tr(key)
        worded = found if found != key else worded
    return worded.format(**{k: value(v) for k, v in args.items()})


def msg(text: str, **args: Any) -> Msg:
    return Msg(text, args)


def term_msg(context: str, name: str) -> Msg:
    """A rule system's term (an element's name) that waits for its language, as :func:`term`."""
    return Msg(name, context=context)


def render(value: Any, tr: Translate) -> str:
    """A note or a word: a :class:`Msg` translated, anything else as it is."""
    return value.render(tr) if isinstance(value, Msg) else str(value)


# ------------------------------------------------------------------------------------------------
# .po → .mo (the few lines of msgfmt this catalog needs: contexts, no plural forms)
# ------------------------------------------------------------------------------------------------
def parse_po(text: str) -> dict[str, str]:
    """msgid → msgstr of a .po file (the header is the entry with the empty msgid); a message with
    a ``msgctxt`` is keyed ``context + CONTEXT_SEP + msgid``, as in the compiled catalog."""
    out: dict[str, str] = {}
    key: str | None = None
    current: list[str] = []
    msgid = ""
    context: str | None = None

    def flush() -> None:
        nonlocal msgid, context
        if key == "msgstr":
            out[msgid if context is None else context + CONTEXT_SEP + msgid] = "".join(current)
            context = None

    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("msgctxt "):
            flush()
            key, current = "msgctxt", [ast.literal_eval(line[8:])]
        elif line.startswith("msgid "):
            if key == "msgctxt":
                context = "".join(current)
            else:
                flush()
            key, current = "msgid", [ast.literal_eval(line[6:])]
        elif line.startswith("msgstr "):
            msgid = "".join(current)
            key, current = "msgstr", [ast.literal_eval(line[7:])]
        elif line.startswith('"'):
            current.append(ast.literal_eval(line))
        else:
            raise ValueError(f"not a .po line: {raw!r}")
    flush()
    return out


def compile_po(text: str) -> bytes:
    """The GNU .mo bytes of a .po text (the format :mod:`gettext` reads), entries sorted by id."""
    entries = {k: v for k, v in parse_po(text).items() if v or not k}
    ids = sorted(entries)
    keys = [k.encode("utf-8") for k in ids]
    values = [entries[k].encode("utf-8") for k in ids]
    n = len(ids)
    start = 7 * 4 + 16 * n
    ids_blob = b"".join(k + b"\0" for k in keys)
    offsets = []
    pos = start
    for k in keys:
        offsets += [len(k), pos]
        pos += len(k) + 1
    voffsets = []
    for v in values:
        voffsets += [len(v), pos]
        pos += len(v) + 1
    header = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return (
        header
        + struct.pack(f"<{2 * n}I", *offsets)
        + struct.pack(f"<{2 * n}I", *voffsets)
        + ids_blob
        + b"".join(v + b"\0" for v in values)
    )


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def main(argv: list[str] | None = None) -> int:
    """Compile every catalog's .po beside it (``python -m scoring.i18n``)."""
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        po.with_suffix(".mo").write_bytes(compile_po(po.read_text(encoding="utf-8")))
        print(f"compiled {po.with_suffix('.mo')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
