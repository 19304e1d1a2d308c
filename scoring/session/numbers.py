"""Numbers in a session, one parser for all of them: every count (honba, sticks, minutes, points,
carried counts), every setting (``oka``) and the session number that orders a tournament.

Python's ``int()`` and ``float()`` take far more than a referee writes: ``float("nan")`` (a
session numbered ``nan`` never equals itself, and grouping sessions by it never ended),
``int("١٢")`` and ``int("１２")`` (Arabic-Indic and fullwidth digits), ``int("1_000")``, and
``int()`` of 5,001 digits raises an error of its own. The notation refuses all of these, and so
does a session: a number is ASCII digits with an optional sign, at most :data:`MAX_DIGITS` of them,
checked by pattern before anything converts it; a session number is such a number (or a decimal)
or a name, never a spelling of NaN or infinity, and its sort key is exact (a :class:`Fraction`).
"""

from __future__ import annotations

import re
import unicodedata
from fractions import Fraction
from typing import Any

from mahjong_camera_scorer.scoring.fields import show
from mahjong_camera_scorer.scoring.session.model import SessionError

#: the most digits a session's number may have: far above any count or penalty (points stop at
#: 100,000, oka at :data:`MAX_OKA`), far below what makes ``int()`` slow or refuse
MAX_DIGITS = 9
#: a whole number: ASCII digits only (``[0-9]``, not ``\d``, which matches every script's digits)
_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
#: a session number: whole or decimal (1, 2, 2.5), ASCII digits
_SESSION_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}(?:\.[0-9]{{1,{MAX_DIGITS}}})?")
#: how NaN and infinity are spelled where Python or YAML would read them as numbers
_NON_FINITE = re.compile(r"[+-]?\.?(?:nan|inf|infinity)", re.IGNORECASE)


def _foreign_digits(text: str) -> bool:
    """Digits of another script (Arabic-Indic ١٢, fullwidth １２, …): ``int()`` reads them, the
    notation and a referee's sheet do not."""
    return any(not c.isascii() and unicodedata.category(c) == "Nd" for c in text)


def whole_number(value: Any, where: str, low: int | None = None, high: int | None = None) -> int | None:
    """A whole number written in a session (an int, or text of ASCII digits with an optional
    sign), within ``low``..``high`` when given; None when absent (``None`` or empty text);
    :class:`SessionError` naming ``where`` otherwise (a float, NaN, ``1_000``, ``١٢``, 5,001
    digits)."""
    if value is None or value == "":
        return None
    wanted = (
        "expected a whole number, got"
        if low is None and high is None
        else f"a whole number {_range(low, high)}, not"
    )
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise SessionError(f"{where}: {wanted} {show(value)}")
    if isinstance(value, str):
        text = value.strip()
        if not _WHOLE.fullmatch(text):
            raise SessionError(f"{where}: {wanted} {show(value)}{_why(text)}")
        n = int(text)
    else:
        n = value
    if (low is not None and n < low) or (high is not None and n > high):
        shown = f"{n}" if len(str(abs(n))) <= MAX_DIGITS else f"a number of {len(str(abs(n)))} digits"
        raise SessionError(f"{where}: a whole number {_range(low, high)}, not {shown}")
    return n


def _range(low: int | None, high: int | None) -> str:
    return f"{'' if low is None else low}..{'' if high is None else high}"


def _why(text: str) -> str:
    """What makes ``text`` no number, where it looks like one."""
    if _NON_FINITE.fullmatch(text):
        return " (not a number: write the number itself)"
    if _foreign_digits(text):
        return " (write it in the digits 0-9)"
    if "_" in text and text.replace("_", "").isdigit():
        return " (write it without '_')"
    if text.lstrip("+-").isdigit() and len(text.lstrip("+-")) > MAX_DIGITS:
        return f" ({len(text.lstrip('+-'))} digits; at most {MAX_DIGITS})"
    return ""


def session_label(value: str, where: str) -> str:
    """A session's or table's number or name as written, refused when it spells NaN or infinity
    (``nan``, ``.nan``, ``-inf``) or uses digits other than 0-9: it orders and groups sessions."""
    text = value.strip()
    if _NON_FINITE.fullmatch(text):
        raise SessionError(f"{where}: a number (1, 2, …) or a name, not {show(value)}")
    if _foreign_digits(text):
        raise SessionError(f"{where}: write the number in the digits 0-9, not {show(value)}")
    return value


def session_key(session: str) -> tuple[int, Fraction, str]:
    """Sessions of a tournament in the order they were played: by their number when they have one
    (1 < 2 < 10; 2.5 between 2 and 3), then by name. Exact, so equal sessions are equal: the
    key of a tournament's grouping can never be NaN."""
    text = session.strip()
    if _SESSION_NUMBER.fullmatch(text):
        return (0, Fraction(text), "")
    return (1, Fraction(0), text)


_LOADER: Any = None


def strict_yaml_loader() -> Any:
    """PyYAML's safe loader with the notation's numbers: YAML 1.1 reads ``1_000`` as 1000,
    ``0x1F`` as 31, ``1:30`` as 90 and ``.nan`` as NaN; here only plain decimal numbers are
    numbers, and everything else stays text for :func:`whole_number` to refuse by name."""
    global _LOADER
    if _LOADER is None:
        import yaml  # imported when a YAML session is read, not by every command

        int_tag, float_tag = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"

        class StrictNumbers(yaml.SafeLoader):
            pass

        StrictNumbers.yaml_implicit_resolvers = {
            first: [(tag, rx) for tag, rx in resolvers if tag not in (int_tag, float_tag)]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
        }
        StrictNumbers.add_implicit_resolver(
            int_tag, re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$"), list("-+0123456789")
        )
        StrictNumbers.add_implicit_resolver(
            float_tag,
            re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$"),
            list("-+.0123456789"),
        )
        _LOADER = StrictNumbers
    return _LOADER
