"""The structured hand form of the rule specs' test vectors, as YAML or JSON: the one parser.

Every entry point that takes a structured hand comes through :func:`hand_from_dict` (the
``hand``, ``hands`` and ``table`` commands, sessions, the web API, the table scorers), and every
document through :func:`parse_document` / :func:`parse_json`, so a hand reads the same way
everywhere, Goulash joker melds included.

Fields: the tiles (``hand``, ``melds``, ``bonus_tiles``) and the situation, read by
:func:`scoring.context.context_from_dict` (:data:`scoring.context.CONTEXT_FIELDS`: ``win_by``,
``seat_wind``, ``round_wind``, ``flags``, ``dora_indicators``, ``ura_dora_indicators``,
``honba``, ``riichi_sticks``, ``winning_tile``, ``discarder``, ``pao``, ``responsible``,
``role``, ``discards_played``, ``discards_in_window``, ``options``). Any other key is refused
with the list of the known ones (:class:`scoring.errors.UnknownKeyError`): a misspelled
``flag:`` or ``dora_indicator:`` read by nobody would change the score in silence. With the flag
``jokers`` (Goulash) a pung or kong may show 2s of bamboo as jokers (``5m2s2s``); what they stand
for is worked out here (:attr:`scoring.hand.Hand.jokers`).

Input is never trusted: each field is checked for its type before it is used, with a size bound
(:mod:`scoring.fields`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.context import CONTEXT_FIELDS, context_from_dict
from mahjong_camera_scorer.scoring.fields import check_keys, field_list, field_tiles, show
from mahjong_camera_scorer.scoring.hand import (
    JOKERS_FLAG,
    Hand,
    HandError,
    Jokers,
    Meld,
    declared_set,
    shown_codes,
)
from mahjong_camera_scorer.scoring.tiles import format_tiles

#: the tiles' own keys; the situation's are :data:`scoring.context.CONTEXT_FIELDS`
TILE_KEYS = ("hand", "melds", "bonus_tiles")
KNOWN_KEYS = (*TILE_KEYS, *CONTEXT_FIELDS)
#: a meld's keys: ``note`` is a comment for the reader (as a session row's), read by nobody
MELD_KEYS = ("type", "tiles", "open", "note")


def _meld(value: Any, i: int, jokers: bool) -> tuple[Meld, tuple[int, str] | None]:
    where = f"melds[{i}]"
    if not isinstance(value, Mapping):
        raise HandError(f"{where}: expected an object with type, tiles, open; got {show(value)}")
    check_keys(value, MELD_KEYS, where)
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


def hand_from_dict(data: Mapping[str, Any]) -> Hand:
    """Build a :class:`Hand` from the structured form; raises :class:`HandError` with the field."""
    if not isinstance(data, Mapping):
        raise HandError(f"a hand must be an object with a 'hand' field, got {type(data).__name__}")
    check_keys(data, KNOWN_KEYS, "the hand")
    context = context_from_dict({k: v for k, v in data.items() if k not in TILE_KEYS})
    melds: list[Meld] = []
    jokers: list[Jokers] = []
    raw_melds = data.get("melds")
    for i, m in enumerate(field_list(raw_melds, "melds") if raw_melds is not None else ()):
        meld, held = _meld(m, i, JOKERS_FLAG in context.flags)
        melds.append(meld)
        if held is not None:
            jokers.append(Jokers(i, *held))
    return Hand(
        concealed=field_tiles(data.get("hand"), "hand"),
        melds=tuple(melds),
        bonus_tiles=field_tiles(data.get("bonus_tiles"), "bonus_tiles"),
        context=context,
        jokers=tuple(jokers),
    )


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """The structured form of a hand (inverse of :func:`hand_from_dict`)."""
    ctx = hand.context
    out: dict[str, Any] = {
        "hand": format_tiles(hand.concealed),
        "melds": [
            {"type": m.kind, "tiles": code, "open": m.open}
            for m, code in zip(hand.melds, shown_codes(hand), strict=True)
        ],
        "winning_tile": ctx.winning_tile.code if ctx.winning_tile else None,
        "win_by": ctx.win_by,
        "seat_wind": ctx.seat_wind,
        "round_wind": ctx.round_wind,
        "bonus_tiles": [t.code for t in hand.bonus_tiles],
        "flags": sorted(ctx.flags),
        "dora_indicators": [t.code for t in ctx.dora_indicators],
        "ura_dora_indicators": [t.code for t in ctx.ura_dora_indicators],
        "honba": ctx.honba,
    }
    out.update(ctx.to_json())  # the situation's other fields, where they say something
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
