"""Goulash jokers: "i quattro 2 di Bambù possono essere considerati dei jolly" (L69).

A joker takes "qualsiasi valore il possessore desideri", which allows "due tris dello stesso pezzo".
In the structured form a meld holding jokers lists its real tiles and its 2s, e.g. a pung
``5m2s2s`` (flags ``goulash`` and ``jokers``). :func:`hand_from_dict` turns such a meld into the
set it stands for (``555m``) and records the jokers in ``extra["jokers"]``, so every rule sees the
represented tile (A-18) while the tile check still counts the real tiles on the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.hand import Hand, HandError, check_tiles
from scoring.structured import hand_from_dict as core_hand_from_dict
from scoring.tiles import Tile, TileError, counts34, format_tiles, parse_tiles

JOKER = 19  # the 2 of bamboo


def _flags(data: Mapping[str, Any]) -> set[str]:
    flags = data.get("flags") or []
    if isinstance(flags, str):
        flags = flags.replace(",", " ").split()
    return {str(f) for f in flags}


def hand_from_dict(data: Mapping[str, Any]) -> Hand:
    """The core structured form, plus Goulash melds holding jokers (flag ``jokers``)."""
    if not isinstance(data, Mapping) or "jokers" not in _flags(data):
        return core_hand_from_dict(data)
    melds = []
    jokers = []
    for i, m in enumerate(data.get("melds") or []):
        tiles = m.get("tiles") if isinstance(m, Mapping) else None
        try:
            parsed = parse_tiles(tiles) if isinstance(tiles, str) else None
        except TileError as exc:
            raise HandError(f"melds[{i}].tiles: {exc}") from None
        if parsed and m.get("type") in ("pung", "kong") and len({t.index for t in parsed}) > 1:
            real = [t for t in parsed if t.index != JOKER]
            if not real or len({t.index for t in real}) != 1:
                raise HandError(f"melds[{i}]: {tiles!r} is not a {m.get('type')} even with the 2s as jokers")
            melds.append({**m, "tiles": format_tiles([real[0].plain()] * len(parsed))})
            jokers.append({"meld": i, "count": len(parsed) - len(real), "shown": format_tiles(real)})
        else:
            melds.append(m)
    return core_hand_from_dict({**data, "melds": melds, "jokers": jokers})


def joker_melds(hand: Hand) -> dict[int, tuple[int, str]]:
    """Meld index → (jokers in it, the real tiles shown)."""
    return {int(j["meld"]): (int(j["count"]), str(j["shown"])) for j in hand.extra.get("jokers") or []}


def tiles_error(hand: Hand) -> str | None:
    """The core tile check, made on the real tiles when melds hold jokers."""
    jokers = joker_melds(hand)
    if not jokers:
        return check_tiles(hand, red_fives_in_set=0)
    plain = hand.with_changes(melds=tuple(m for i, m in enumerate(hand.melds) if i not in jokers))
    error = check_tiles(plain, red_fives_in_set=0)
    if error:
        return error
    counts = counts34(plain.all_tiles())
    for _i, (n, shown) in jokers.items():
        counts[JOKER] += n
        for t in parse_tiles(shown):
            counts[t.index] += 1
    for k, n in enumerate(counts):
        if n > 4:
            return f"{n} copies of {Tile(k).code} (jokers counted as 2 of bamboo): a set has only 4"
    return None
