"""Reading one field of untrusted structured input: text, lists, tiles, numbers, objects, keys.

Every structured form (a hand, a table, a session row, the web's context) reads its fields with
these, so a field is checked for its type before it is used, lists and strings have a size bound
(a YAML alias bomb expands to millions of items on iteration), messages show a shortened ``repr``
of the bad value, never the whole of it, and a key nobody reads is refused with the keys the form
knows (:func:`check_keys`). The words of a hand's situation (winds, ways to win, flags, options)
are read in :mod:`scoring.situation_words`, on top of these.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

from mahjong_camera_scorer.scoring.errors import HandError, UnknownKeyError
from mahjong_camera_scorer.scoring.tiles import Tile, TileError, parse_tiles

#: Bounds far above any real hand, so that hostile input is refused before it is walked.
MAX_ITEMS = 64  # tiles, melds, flags, options in one field
MAX_TEXT = 256  # characters of one string field
_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 40
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 4
_SHORT.maxlevel = 1


def show(value: Any) -> str:
    """A short ``repr`` of an input value for an error message (bounded in size and depth)."""
    return _SHORT.repr(value)


def field_text(value: Any, name: str) -> str:
    """A string of at most :data:`MAX_TEXT` characters, or a :class:`HandError` naming the field."""
    if not isinstance(value, str):
        raise HandError(f"{name}: expected text, got {type(value).__name__} {show(value)}")
    if len(value) > MAX_TEXT:
        raise HandError(f"{name}: {len(value)} characters is too long for this field")
    return value


def field_list(value: Any, name: str) -> list[Any] | tuple[Any, ...]:
    """A list of at most :data:`MAX_ITEMS` items (its items are the caller's to check)."""
    if not isinstance(value, list | tuple):
        raise HandError(f"{name}: expected a list, got {type(value).__name__} {show(value)}")
    if len(value) > MAX_ITEMS:
        raise HandError(f"{name}: {len(value)} items is more than a hand can hold")
    return value


def field_mapping(value: Any, name: str) -> Mapping[Any, Any]:
    """An object field (a table's ``players``, ``scores``…), or a :class:`HandError` naming it."""
    if not isinstance(value, Mapping):
        raise HandError(f"{name} must be an object, not {type(value).__name__} {show(value)}")
    if len(value) > MAX_ITEMS:
        raise HandError(f"{name}: {len(value)} entries is more than a table holds")
    return value


def field_number(value: Any, name: str, maximum: int = 10**9) -> int:
    """A whole number from 0 to ``maximum`` (a score, chips, a stake); true/false are not numbers."""
    if type(value) is not int or not 0 <= value <= maximum:
        raise HandError(f"{name} must be a whole number from 0 to {maximum}, not {show(value)}")
    return value


def field_names(value: Any, name: str) -> list[str]:
    """A list of short words (flags, winners' seats); a string of words separated by spaces or
    commas is accepted too."""
    if value is None:
        return []
    if isinstance(value, str):
        return [w for w in field_text(value, name).replace(",", " ").split() if w]
    return [field_text(w, f"{name}[{i}]").strip() for i, w in enumerate(field_list(value, name))]


def field_tiles(value: Any, name: str) -> tuple[Tile, ...]:
    """Tiles as one string of codes or a list of them (None: none); a bad code is a
    :class:`HandError` naming the field."""
    if value is None:
        return ()
    try:
        if isinstance(value, str):
            return tuple(parse_tiles(field_text(value, name)))
        if isinstance(value, list | tuple):
            out: list[Tile] = []
            for i, item in enumerate(field_list(value, name)):
                if not isinstance(item, str):
                    raise HandError(f"{name}[{i}]: expected tile codes, got {show(item)}")
                out.extend(parse_tiles(field_text(item, f"{name}[{i}]")))
            return tuple(out)
    except TileError as exc:
        raise HandError(f"{name}: {exc}") from None
    raise HandError(f"{name}: expected a tile string or a list of tile codes, got {show(value)}")


def check_keys(
    data: Mapping[Any, Any], known: Iterable[str], where: str, error: type[HandError] = UnknownKeyError
) -> None:
    """Refuse a key nobody reads (a misspelling: ``flag`` for ``flags``): read by no one, it would
    change the result in silence. The message lists the keys the form knows; ``error`` is the
    caller's kind of :class:`UnknownKeyError` (a session's is a session error too)."""
    names = set(known)
    unknown = sorted(str(k) for k in data if k not in names)
    if unknown:
        raise error(f"{where}: unknown key {show(unknown[0])} (known keys: {', '.join(sorted(names))})")
