"""The words of a hand's situation, each read by one function: winds and seats, how the hand was
won, flags, roles, counters and rule options.

Every front end reads them here (the command line's options, the one-line notation, the
structured form, the photos manifest, session files, the web), so a word means the same
everywhere and a word that means nothing is refused everywhere alike, with one message that
names the words accepted: ``Wrong`` is no more West than ``X`` is, and ``claim`` is no way of
winning on one front end and one on another. The values that come out are the canonical ones
:class:`scoring.context.HandContext` holds (``E``, ``self_draw``, ``riichi``…).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from mahjong_camera_scorer.scoring.errors import HandError
from mahjong_camera_scorer.scoring.fields import MAX_ITEMS, field_names, field_text, show
from mahjong_camera_scorer.scoring.payments import SEATS

#: a wind or a seat as written → its letter (upper case; ASCII only: 'ſ'.upper() is 'S')
WIND_WORDS: dict[str, str] = {
    **{s: s for s in SEATS},
    **dict(zip(("EAST", "SOUTH", "WEST", "NORTH"), SEATS, strict=True)),
    **{f"{i + 1}Z": s for i, s in enumerate(SEATS)},
}
WIND_HELP = "E, S, W or N (East, South, West, North)"
WIN_BY = ("discard", "self_draw")
#: how the hand was won, as players say it → the structured form's word (lower case, '-' as '_')
WIN_BY_WORDS: dict[str, str] = {
    "discard": "discard",
    "ron": "discard",
    "self_draw": "self_draw",
    "tsumo": "self_draw",
}
WIN_BY_HELP = "'discard' or 'self_draw' (ron or tsumo)"
#: who a hand's score is for, where losers score too (Australian, Classical)
ROLES = ("winner", "fishing", "loser")
#: Zung Jung: nobody pays the rest over 25 (the same-round immunity, seed 002 §4.5)
NOBODY = "nobody"
#: honba and riichi sticks: far above any real table, low enough that no payment overflows sense
MAX_COUNTER = 100
_FLAG = re.compile(r"[a-z][a-z0-9_]*")
_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def wind(value: Any, name: str) -> str:
    """A wind or a seat: E, S, W, N, a wind's name or its tile (1z..4z), in any case."""
    text = field_text(value, name).strip()
    letter = WIND_WORDS.get(text.upper()) if text.isascii() else None
    if letter is None:
        raise HandError(f"{name} must be {WIND_HELP}, not {show(value)}")
    return letter


def win_by(value: Any, name: str) -> str:
    """How the winning tile came: ``discard`` (ron) or ``self_draw`` (tsumo), in any case."""
    text = field_text(value, name).strip()
    word = WIN_BY_WORDS.get(text.lower().replace("-", "_")) if text.isascii() else None
    if word is None:
        raise HandError(f"{name} must be {WIN_BY_HELP}, not {show(value)}")
    return word


def flag_names(value: Any, name: str) -> frozenset[str]:
    """Situation flags: a list of words or one string of words (spaces or commas between), each
    a lowercase name (``riichi``, ``last_tile``); which ones a rule system knows is its own check
    (:func:`scoring.rules.check_context`)."""
    if isinstance(value, set | frozenset):
        value = sorted(value, key=str)
    words = field_names(value, name)
    bad = next((w for w in words if not (w.isascii() and _FLAG.fullmatch(w.lower()))), None)
    if bad is not None:
        raise HandError(
            f"{name}: {show(bad)} is not a flag name (lowercase words: riichi, ippatsu, last_tile, …)"
        )
    return frozenset(w.lower() for w in words)


def role(value: Any, name: str) -> str:
    """Whose hand it is at the table: winner, fishing or loser."""
    text = field_text(value, name).strip().lower()
    if text not in ROLES:
        raise HandError(f"{name} must be {', '.join(ROLES[:-1])} or {ROLES[-1]}, not {show(value)}")
    return text


def responsible(value: Any, name: str) -> str:
    """Zung Jung: the seat that pays the rest over 25, or ``nobody`` (``none`` too)."""
    text = field_text(value, name).strip()
    if text.lower() in (NOBODY, "none"):
        return NOBODY
    try:
        return wind(text, name)
    except HandError:
        raise HandError(f"{name} must be a seat {WIND_HELP} or nobody, not {show(value)}") from None


def counter(value: Any, name: str) -> int:
    """honba or riichi sticks as a structured form gives them: a whole number 0..MAX_COUNTER
    (true is no count, and neither is "3": a form's numbers are numbers)."""
    if type(value) is not int or not 0 <= value <= MAX_COUNTER:
        raise HandError(f"{name} must be a whole number from 0 to {MAX_COUNTER}, not {show(value)}")
    return value


def counter_text(value: str, name: str) -> int:
    """A counter written as text (the notation, a manifest's cell): ASCII digits only ('²' and
    '١' are digits to Python, not to a referee), then as :func:`counter`."""
    text = value.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 4):
        raise HandError(f"{name} must be a whole number from 0 to {MAX_COUNTER}, not {show(value)}")
    return counter(int(text), name)


def option_values(value: Mapping[Any, Any], name: str) -> dict[str, str]:
    """Rule options as a structured form gives them (NAME → text, number or true/false), as text;
    anything else is a :class:`HandError` (the values are names and numbers, never lists or
    objects). Which names and values a rule system takes is its own check
    (:func:`scoring.options.resolve`)."""
    if not isinstance(value, Mapping):
        raise HandError(f"{name} must be an object NAME: value, got {show(value)}")
    if len(value) > MAX_ITEMS:
        raise HandError(f"{name}: {len(value)} options is more than any rule system has")
    out = {}
    for k, v in value.items():
        if not isinstance(k, str) or not isinstance(v, str | int | float):  # bool is an int
            raise HandError(f"{name}: {show(k)}: {show(v)} is not NAME: value (text, number or true/false)")
        text = str(v).lower() if isinstance(v, bool) else field_text(str(v), f"{name}.{k}")
        out[field_text(k, name).strip()] = text.strip()
    return out


def option_pairs(pairs: Iterable[str], name: str) -> dict[str, str]:
    """Rule options written ``NAME=VALUE`` (the command line's ``--option``, a manifest's cell,
    the notation's ``option:NAME=VALUE``). The value is the reader's to check (a rule option's
    choices, a session setting's number rule), whatever its length: its source bounds it."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not _OPTION_NAME.fullmatch(key):
            raise HandError(f"{name}: NAME=VALUE, not {show(pair)}")
        out[key] = text.strip()
    return out
