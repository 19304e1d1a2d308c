"""One cleaner for the names a file or a folder brings in and the terminal and the sheets show.

Two jobs, one module, so that every front end does them the same way:

- :func:`same_name`: a player's name as the session compares it. "Bruno", "Bru\u200bno" (a
  zero-width space), "Ｂｒｕｎｏ" (fullwidth letters) and the same name in another Unicode normal
  form look alike on paper and on screen, so they are one player: NFKC, the invisible characters
  taken out, runs of spaces made one.
- :func:`for_terminal`: any text shown on a terminal line (an error, a warning, the progress bar,
  a sheet): control characters and the other invisible ones are written as escapes (``\\x1b``),
  so a name holding an escape code cannot clear the screen, set the window title or overwrite a
  line with a carriage return, and a one-line message stays one line.

:func:`control_character` finds what a name must not hold even once cleaned (an escape, a
carriage return): a session refuses such a name with its field, rather than guessing.
"""

from __future__ import annotations

import unicodedata

#: characters that show nothing and are not format characters (Unicode's Default_Ignorable
#: code points outside category Cf): the combining grapheme joiner, the Hangul fillers, the
#: Khmer inherent vowels, the variation selectors
_IGNORABLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)


def invisible(c: str) -> bool:
    """A character that shows nothing: a format character (zero-width space and joiners, the
    byte-order mark, bidirectional marks and overrides, the soft hyphen) or another ignorable."""
    return unicodedata.category(c) == "Cf" or ord(c) in _IGNORABLE


def same_name(text: str) -> str:
    """``text`` as names are compared: NFKC (fullwidth letters and other compatibility forms
    become the plain ones, every normal form the same), invisible characters out, whitespace
    runs one space, no space at the ends."""
    folded = unicodedata.normalize("NFKC", text)
    return " ".join("".join(c for c in folded if not invisible(c)).split())


def control_character(text: str) -> str | None:
    """The first character of ``text`` a terminal would act on or that is no character at all
    (C0/C1 controls such as ESC and CR, line and paragraph separators, surrogates, private use),
    as an escape (``'\\x1b'``); None when there is none."""
    for c in text:
        if unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp"):
            return _escape(c)
    return None


def for_terminal(text: str, limit: int | None = None) -> str:
    """``text`` safe to write on a terminal line: every character that is not printable (controls,
    invisible and format characters, separators other than the space) written as its escape, then
    cut to ``limit`` characters (with "…") when given."""
    out = "".join(c if c.isprintable() else _escape(c) for c in str(text))
    if limit is not None and len(out) > limit:
        out = out[: max(0, limit - 1)] + "…"
    return out


def _escape(c: str) -> str:
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
