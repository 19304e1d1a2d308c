"""The structured hand form of the rule specs' test vectors, as YAML or JSON: the one parser.

Every entry point that takes a structured hand comes through :func:`hand_from_dict` (the
``hand``, ``hands`` and ``table`` commands, sessions, the web API, the table scorers), and every
document through :func:`parse_document` / :func:`parse_json`, so a hand reads the same way
everywhere, Goulash joker melds included.

Fields (all specs share them): ``hand``, ``melds``, ``winning_tile``, ``win_by``, ``seat_wind``,
``round_wind``, ``bonus_tiles``, ``flags``, ``dora_indicators``, ``ura_dora_indicators``,
``honba``; plus ``riichi_sticks`` and ``options`` (rule options, NAME → value). Any other key
(``role``, ``players``, ``discarder``, …) is kept in :attr:`Hand.extra` for the rule system that
reads it, so no information in the input is lost. With the flag ``jokers`` (Goulash) a pung or
kong may show 2s of bamboo as jokers (``5m2s2s``); what they stand for is worked out here and
kept in ``extra["jokers"]`` (derived from the melds: an input ``jokers`` key is not read).

Input is never trusted: each field is checked for its type before it is used, lists and strings
have a size bound (a YAML alias bomb expands to millions of items on iteration), and error
messages show a shortened ``repr`` of the bad value, never the whole of it.
"""

from __future__ import annotations

import json
import reprlib
from collections.abc import Mapping
from typing import Any

from scoring.hand import JOKERS_FLAG, MAX_COUNTER, Hand, HandError, Meld, declared_set, shown_codes
from scoring.tiles import Tile, TileError, format_tiles, parse_tiles, tile

KNOWN_KEYS = {
    "hand", "melds", "winning_tile", "win_by", "seat_wind", "round_wind", "bonus_tiles", "flags",
    "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks", "options", "jokers",
}
#: extra keys the rule systems read as one word (a seat or a role): text, checked here
SEAT_KEYS = ("discarder", "pao", "responsible", "role")
_WIN_BY_ALIASES = {
    "discard": "discard", "ron": "discard", "claim": "discard",
    "self_draw": "self_draw", "self-draw": "self_draw", "selfdraw": "self_draw", "tsumo": "self_draw",
}
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


def _text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise HandError(f"{name}: expected text, got {type(value).__name__} {show(value)}")
    if len(value) > MAX_TEXT:
        raise HandError(f"{name}: {len(value)} characters is too long for this field")
    return value


def _list(value: Any, name: str) -> list[Any] | tuple[Any, ...]:
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
        return [w for w in _text(value, name).replace(",", " ").split() if w]
    return [_text(w, f"{name}[{i}]").strip() for i, w in enumerate(_list(value, name))]


def field_tiles(value: Any, name: str) -> tuple[Tile, ...]:
    """Tiles as one string of codes or a list of them (None: none)."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_tiles(_text(value, name)))
    if isinstance(value, list | tuple):
        out: list[Tile] = []
        for i, item in enumerate(_list(value, name)):
            if not isinstance(item, str):
                raise HandError(f"{name}[{i}]: expected tile codes, got {show(item)}")
            out.extend(parse_tiles(_text(item, f"{name}[{i}]")))
        return tuple(out)
    raise HandError(f"{name}: expected a tile string or a list of tile codes, got {show(value)}")


def _meld(value: Any, i: int, jokers: bool) -> tuple[Meld, dict[str, Any] | None]:
    where = f"melds[{i}]"
    if not isinstance(value, Mapping):
        raise HandError(f"{where}: expected an object with type, tiles, open; got {show(value)}")
    kind = value.get("type")
    if not isinstance(kind, str):
        raise HandError(f"{where}.type: the meld type is chow, pung or kong, not {show(kind)}")
    tiles = field_tiles(value.get("tiles"), f"{where}.tiles")
    is_open = value.get("open", True)
    if not isinstance(is_open, bool):
        raise HandError(f"{where}.open must be true or false, not {show(is_open)}")
    if not tiles:
        raise HandError(f"{where}: the {kind} lists no tiles")
    try:
        return declared_set(kind, tiles, is_open, jokers)
    except HandError as exc:
        raise HandError(f"{where}: {exc}") from None


def field_wind(value: Any, name: str, default: str) -> str:
    """A wind or seat: E, S, W, N (a word that starts with one, or 1z..4z); None: ``default``."""
    if value is None:
        return default
    s = _text(value, name).strip()
    if len(s) == 2 and s[1] == "z" and s[0] in "1234":
        return "ESWN"[int(s[0]) - 1]
    key = s[:1].upper() if s[:1] and s[:1] in "ESWNeswn" else ""  # not 'ſ', whose upper case is 'S'
    if key not in ("E", "S", "W", "N"):
        raise HandError(f"{name} must be E, S, W or N, not {show(value)}")
    return key


def field_win_by(value: Any, name: str, default: str) -> str:
    """discard or self_draw, as the players say it (ron, tsumo, self-draw…); None: ``default``."""
    win_by = default if value is None else _text(value, name).strip().lower()
    if win_by not in _WIN_BY_ALIASES:
        raise HandError(f"{name} must be 'discard' or 'self_draw', not {show(value)}")
    return _WIN_BY_ALIASES[win_by]


def _flags(value: Any) -> frozenset[str]:
    if isinstance(value, set | frozenset):
        value = sorted(value, key=str)
    return frozenset(field_names(value, "flags"))


def field_counter(value: Any, name: str) -> int:
    """honba or riichi sticks: a whole number 0..MAX_COUNTER (None: 0)."""
    return 0 if value is None else field_number(value, name, MAX_COUNTER)


def _options(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise HandError(f"options must be an object NAME: value, got {show(value)}")
    return option_values(value, "options")


def option_values(value: Mapping[Any, Any], name: str) -> dict[str, str]:
    """Rule options as given (NAME → text, number or true/false), as text; anything else is a
    :class:`HandError` (the values are names and numbers, never lists or objects)."""
    if len(value) > MAX_ITEMS:
        raise HandError(f"{name}: {len(value)} options is more than any rule system has")
    out = {}
    for k, v in value.items():
        if not isinstance(k, str) or not isinstance(v, str | int):  # bool is an int
            raise HandError(f"{name}: {show(k)}: {show(v)} is not NAME: value (text, number or true/false)")
        out[_text(k, name)] = str(v).lower() if isinstance(v, bool) else _text(str(v), f"{name}.{k}")
    return out


def hand_from_dict(data: Mapping[str, Any]) -> Hand:
    """Build a :class:`Hand` from the structured form; raises :class:`HandError` with the field."""
    if not isinstance(data, Mapping):
        raise HandError(f"a hand must be an object with a 'hand' field, got {type(data).__name__}")
    try:
        flags = _flags(data.get("flags"))
        concealed = field_tiles(data.get("hand"), "hand")
        melds: list[Meld] = []
        jokers: list[dict[str, Any]] = []
        raw_melds = data.get("melds")
        for i, m in enumerate(_list(raw_melds, "melds") if raw_melds is not None else ()):
            meld, held = _meld(m, i, JOKERS_FLAG in flags)
            melds.append(meld)
            if held is not None:
                jokers.append({"meld": i, **held})
        wt = data.get("winning_tile")
        if wt is not None and not isinstance(wt, str):
            raise HandError(f"winning_tile must be a tile code or null, got {show(wt)}")
        winning = tile(_text(wt, "winning_tile")) if wt is not None else None
        extra = {k: v for k, v in data.items() if k not in KNOWN_KEYS}
        for key in SEAT_KEYS:
            if extra.get(key) is not None:
                _text(extra[key], key)
        if jokers:
            extra["jokers"] = jokers
        return Hand(
            concealed=concealed,
            melds=tuple(melds),
            winning_tile=winning,
            win_by=field_win_by(data.get("win_by"), "win_by", "discard"),
            seat_wind=field_wind(data.get("seat_wind"), "seat_wind", "E"),
            round_wind=field_wind(data.get("round_wind"), "round_wind", "E"),
            bonus_tiles=field_tiles(data.get("bonus_tiles"), "bonus_tiles"),
            flags=flags,
            dora_indicators=field_tiles(data.get("dora_indicators"), "dora_indicators"),
            ura_dora_indicators=field_tiles(data.get("ura_dora_indicators"), "ura_dora_indicators"),
            honba=field_counter(data.get("honba"), "honba"),
            riichi_sticks=field_counter(data.get("riichi_sticks"), "riichi_sticks"),
            options=_options(data.get("options")),
            extra=extra,
        )
    except TileError as exc:
        raise HandError(str(exc)) from None


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """The structured form of a hand (inverse of :func:`hand_from_dict`)."""
    out: dict[str, Any] = {
        "hand": format_tiles(hand.concealed),
        "melds": [{"type": m.kind, "tiles": code, "open": m.open}
                  for m, code in zip(hand.melds, shown_codes(hand), strict=True)],
        "winning_tile": hand.winning_tile.code if hand.winning_tile else None,
        "win_by": hand.win_by,
        "seat_wind": hand.seat_wind,
        "round_wind": hand.round_wind,
        "bonus_tiles": [t.code for t in hand.bonus_tiles],
        "flags": sorted(hand.flags),
        "dora_indicators": [t.code for t in hand.dora_indicators],
        "ura_dora_indicators": [t.code for t in hand.ura_dora_indicators],
        "honba": hand.honba,
    }
    if hand.riichi_sticks:
        out["riichi_sticks"] = hand.riichi_sticks
    if hand.options:
        out["options"] = dict(hand.options)
    out.update((k, v) for k, v in hand.extra.items() if k != "jokers")  # the melds show the jokers
    return out


def parse_json(text: str) -> Any:
    """One JSON document; :class:`HandError` for bad JSON, nesting too deep to read, or a number
    too long to convert (more than 4300 digits)."""
    return _read(json.loads, text, "JSON")


def parse_document(text: str) -> Any:
    """Parse JSON, or YAML when JSON fails (YAML is a superset, but JSON errors read better)."""
    try:
        return json.loads(text)
    except ValueError:  # JSONDecodeError, or a number too long to convert: try YAML
        pass
    except RecursionError:
        raise HandError("not a hand: the JSON is nested too deeply") from None
    import yaml

    return _read(yaml.safe_load, text, "JSON or YAML", (ValueError, yaml.YAMLError))


def _read(load: Any, text: str, what: str, errors: tuple[type[Exception], ...] = (ValueError,)) -> Any:
    try:
        return load(text)
    except RecursionError:
        raise HandError(f"not a hand: the {what} is nested too deeply") from None
    except errors as exc:
        raise HandError(f"not valid {what}: {one_line(str(exc))}") from None


def one_line(message: str, limit: int = 200) -> str:
    """A parser's message on one line, cut to ``limit`` characters."""
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"
