"""The structured hand form of the rule specs' test vectors, as YAML or JSON.

Fields (all specs share them): ``hand``, ``melds``, ``winning_tile``, ``win_by``, ``seat_wind``,
``round_wind``, ``bonus_tiles``, ``flags``, ``dora_indicators``, ``ura_dora_indicators``,
``honba``; plus ``riichi_sticks`` and ``options`` (rule options, NAME → value). Any other key
(``role``, ``players``, ``discarder``, …) is kept in :attr:`Hand.extra` for the rule system that
reads it, so no information in the input is lost.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from scoring.hand import Hand, HandError, Meld
from scoring.tiles import Tile, TileError, format_tiles, parse_tiles, tile

KNOWN_KEYS = {
    "hand", "melds", "winning_tile", "win_by", "seat_wind", "round_wind", "bonus_tiles", "flags",
    "dora_indicators", "ura_dora_indicators", "honba", "riichi_sticks", "options",
}
_WIN_BY_ALIASES = {
    "discard": "discard", "ron": "discard", "claim": "discard",
    "self_draw": "self_draw", "self-draw": "self_draw", "selfdraw": "self_draw", "tsumo": "self_draw",
}


def _tiles_field(value: Any, name: str) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(parse_tiles(value))
    if isinstance(value, list | tuple):
        out: list[Tile] = []
        for item in value:
            if not isinstance(item, str):
                raise HandError(f"{name}: expected tile codes, got {item!r}")
            out.extend(parse_tiles(item))
        return tuple(out)
    raise HandError(f"{name}: expected a tile string or a list of tile codes, got {value!r}")


def _meld(value: Any, i: int) -> Meld:
    if not isinstance(value, Mapping):
        raise HandError(f"melds[{i}]: expected an object with type, tiles, open; got {value!r}")
    kind = value.get("type")
    tiles = _tiles_field(value.get("tiles"), f"melds[{i}].tiles")
    is_open = value.get("open", True)
    if not isinstance(is_open, bool):
        raise HandError(f"melds[{i}].open must be true or false")
    if not tiles:
        raise HandError(f"melds[{i}]: the {kind or 'meld'} lists no tiles")
    return Meld(str(kind), tiles, is_open)


def _wind(value: Any, name: str, default: str) -> str:
    if value is None:
        return default
    s = str(value).strip()
    if len(s) == 2 and s[1] == "z" and s[0] in "1234":
        return "ESWN"[int(s[0]) - 1]
    key = s[:1].upper()
    if key not in ("E", "S", "W", "N"):
        raise HandError(f"{name} must be E, S, W or N, not {value!r}")
    return key


def hand_from_dict(data: Mapping[str, Any]) -> Hand:
    """Build a :class:`Hand` from the structured form; raises :class:`HandError` with the field."""
    if not isinstance(data, Mapping):
        raise HandError(f"a hand must be an object with a 'hand' field, got {type(data).__name__}")
    try:
        concealed = _tiles_field(data.get("hand"), "hand")
        melds = tuple(_meld(m, i) for i, m in enumerate(data.get("melds") or []))
        wt = data.get("winning_tile")
        winning = tile(wt) if isinstance(wt, str) else None
        if wt is not None and not isinstance(wt, str):
            raise HandError(f"winning_tile must be a tile code or null, got {wt!r}")
        win_by_raw = str(data.get("win_by") or "discard").strip().lower()
        if win_by_raw not in _WIN_BY_ALIASES:
            raise HandError(f"win_by must be 'discard' or 'self_draw', not {data.get('win_by')!r}")
        flags = data.get("flags") or []
        if isinstance(flags, str):
            flags = [f for f in flags.replace(",", " ").split() if f]
        if not isinstance(flags, list | tuple | set | frozenset):
            raise HandError(f"flags must be a list of names, got {flags!r}")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise HandError(f"options must be an object NAME: value, got {options!r}")
        honba, sticks = data.get("honba") or 0, data.get("riichi_sticks") or 0
        if not isinstance(honba, int) or not isinstance(sticks, int):
            raise HandError("honba and riichi_sticks must be whole numbers")
        return Hand(
            concealed=concealed,
            melds=melds,
            winning_tile=winning,
            win_by=_WIN_BY_ALIASES[win_by_raw],
            seat_wind=_wind(data.get("seat_wind"), "seat_wind", "E"),
            round_wind=_wind(data.get("round_wind"), "round_wind", "E"),
            bonus_tiles=_tiles_field(data.get("bonus_tiles"), "bonus_tiles"),
            flags=frozenset(str(f) for f in flags),
            dora_indicators=_tiles_field(data.get("dora_indicators"), "dora_indicators"),
            ura_dora_indicators=_tiles_field(data.get("ura_dora_indicators"), "ura_dora_indicators"),
            honba=honba,
            riichi_sticks=sticks,
            options={str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()},
            extra={k: v for k, v in data.items() if k not in KNOWN_KEYS},
        )
    except TileError as exc:
        raise HandError(str(exc)) from None


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """The structured form of a hand (inverse of :func:`hand_from_dict`)."""
    out: dict[str, Any] = {
        "hand": format_tiles(hand.concealed),
        "melds": [{"type": m.kind, "tiles": m.code, "open": m.open} for m in hand.melds],
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
    out.update(hand.extra)
    return out


def parse_document(text: str) -> Any:
    """Parse JSON, or YAML when JSON fails (YAML is a superset, but JSON errors read better)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as json_error:
        try:
            import yaml
        except ImportError:  # pragma: no cover - pyyaml is a runtime dependency
            raise HandError(f"not valid JSON: {json_error}") from None
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise HandError(f"not valid JSON or YAML: {exc}") from None
