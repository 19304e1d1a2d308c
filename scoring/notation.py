"""A one-line hand notation a person can type, built on the mpsz codes players already know.

    123m 406p 78s 11z [555z] (2222s) ron 9s seat=S round=E riichi dora=1z 2f

* bare mpsz tokens are the concealed tiles *without* the winning tile (what you hold while
  waiting); flowers and seasons (``f``) among them are bonus tiles;
* ``[...]`` is an open meld (chow, pung or kong, told apart by its tiles), ``(...)`` a concealed kong;
* ``ron <tile>`` or ``tsumo <tile>`` is the winning tile and how it came (``discard`` and
  ``self_draw`` are accepted too);
* ``key=value`` sets context: ``seat``, ``round`` (E/S/W/N), ``dora``, ``ura`` (comma-separated
  tiles), ``honba``, ``sticks``, ``discarder`` (the seat that discarded the winning tile, for
  payments), ``pao`` (riichi: the seat liable for a Dai sangen / Dai suushii it fed), ``role``
  (winner, fishing or loser, for systems where losers score),
  ``option:NAME=VALUE``;
* any other lowercase word is a flag (``riichi``, ``ippatsu``, ``last_tile``, …).

:func:`format_hand` prints the canonical form, and ``parse_hand(format_hand(h)) == h``.
"""

from __future__ import annotations

import re
from typing import Any

from scoring.hand import (
    JOKER_INDEX,
    JOKERS_FLAG,
    MAX_COUNTER,
    Hand,
    HandError,
    Meld,
    declared_set,
    shown_codes,
)
from scoring.tiles import Tile, TileError, format_tiles, parse_tiles

_WIN_WORDS = {"ron": "discard", "discard": "discard", "tsumo": "self_draw", "self_draw": "self_draw"}
_FLAG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_TILES_RE = re.compile(r"^[0-9mpszf?]+$")
_NUMBER_RE = re.compile(r"^[0-9]{1,4}$")  # ASCII digits only: '²'.isdigit() is true
#: far longer than any hand written out in full; longer input is refused before it is read
MAX_LENGTH = 1000


def _meld_from_tiles(tiles: list[Tile], is_open: bool, token: str,
                     jokers: bool) -> tuple[Meld, dict[str, object] | None]:
    """The set the tiles show, told apart by them; with Goulash jokers live (flag ``jokers``) a
    meld showing 2s of bamboo beside one other kind (``[5m22s]``) is a pung or kong of that kind."""
    kinds = sorted(t.index for t in tiles)
    real = {k for k in kinds if k != JOKER_INDEX}
    if len(tiles) == 4:
        kind = "kong"
    elif len(tiles) == 3 and (len(set(kinds)) == 1 or (jokers and len(real) == 1)):
        kind = "pung"
    elif len(tiles) == 3:
        kind = "chow"
    else:
        raise HandError(f"{token}: a meld has 3 or 4 tiles, this one has {len(tiles)}")
    if not is_open and kind != "kong":
        raise HandError(f"{token}: only a kong can be declared concealed; write a chow/pung in the hand")
    try:
        return declared_set(kind, tuple(tiles), is_open, jokers)
    except HandError as exc:
        raise HandError(f"{token}: {exc}") from None


def parse_hand(text: str) -> Hand:
    """Parse the one-line notation; raises :class:`HandError` naming the token at fault."""
    concealed: list[Tile] = []
    bonus: list[Tile] = []
    shown: list[tuple[list[Tile], bool, str]] = []  # the melds as written, read once the flags are known
    flags: set[str] = set()
    options: dict[str, str] = {}
    fields: dict[str, Any] = {}  # Hand's keyword arguments, each checked where it is read
    extra: dict[str, Any] = {}
    winning: Tile | None = None
    win_by = "discard"  # set by 'ron'/'tsumo'; 'win=' covers hands without a winning tile
    if len(text) > MAX_LENGTH:
        raise HandError(f"{len(text)} characters is too long for one hand (at most {MAX_LENGTH})")
    tokens = text.split()
    if not tokens:
        raise HandError("empty hand: type the tiles, e.g. '123m456p789s1122z ron 2z'")
    i = 0
    try:
        while i < len(tokens):
            tok = tokens[i]
            low = tok.lower()
            if tok.startswith("[") or tok.startswith("("):
                closer = "]" if tok[0] == "[" else ")"
                if not tok.endswith(closer):
                    raise HandError(f"{tok}: a meld must be closed with {closer!r} and have no spaces")
                shown.append((parse_tiles(tok[1:-1]), tok[0] == "[", tok))
            elif low in _WIN_WORDS:
                if i + 1 >= len(tokens) or not _TILES_RE.match(tokens[i + 1]):
                    raise HandError(f"'{tok}' must be followed by the winning tile, e.g. '{tok} 5p'")
                if winning is not None:
                    raise HandError("two winning tiles given")
                ts = parse_tiles(tokens[i + 1])
                if len(ts) != 1:
                    raise HandError(f"'{tok} {tokens[i + 1]}': the winning tile is one tile")
                winning, win_by = ts[0], _WIN_WORDS[low]
                i += 1
            elif "=" in tok:
                key, _, value = tok.partition("=")
                _set_field(key.lower(), value, fields, options, extra, tok)
            elif _TILES_RE.match(tok) or tok[0].isdigit():  # digits first: tiles, say what's wrong
                for t in parse_tiles(tok):
                    (bonus if t.is_bonus else concealed).append(t)
            elif _FLAG_RE.match(low) and not _TILES_RE.match(low):  # 'M' is no flag: it prints as tiles
                flags.add(low)
            else:
                raise HandError(f"cannot read {tok!r}: not tiles, a meld, a win, key=value or a flag")
            i += 1
    except TileError as exc:
        raise HandError(str(exc)) from None
    melds: list[Meld] = []
    for tiles, is_open, tok in shown:
        meld, held = _meld_from_tiles(tiles, is_open, tok, JOKERS_FLAG in flags)
        if held is not None:
            extra.setdefault("jokers", []).append({"meld": len(melds), **held})
        melds.append(meld)
    if winning is not None:
        concealed.append(winning)
        fields["win_by"] = win_by
    return Hand(concealed=tuple(concealed), melds=tuple(melds), winning_tile=winning,
                bonus_tiles=tuple(bonus), flags=frozenset(flags), options=options, extra=extra,
                **fields)


def _seat_letter(value: str) -> str:
    """'S', 'south', 'South' → 'S'; anything else (including 'ſ', whose upper case is 'S') → ''."""
    first = value.strip()[:1]
    return first.upper() if first and first in "ESWNeswn" else ""


def _set_field(key: str, value: str, fields: dict[str, object], options: dict[str, str],
               extra: dict[str, object], tok: str) -> None:
    if key in ("discarder", "pao"):
        v = _seat_letter(value)
        if v not in ("E", "S", "W", "N"):
            raise HandError(f"{tok}: the {'liable player' if key == 'pao' else key} is a seat: E, S, W or N")
        extra[key] = v
    elif key == "role":
        if value not in ("winner", "fishing", "loser"):
            raise HandError(f"{tok}: role is winner, fishing or loser")
        extra["role"] = value
    elif key in ("seat", "round"):
        v = _seat_letter(value)
        if v not in ("E", "S", "W", "N"):
            raise HandError(f"{tok}: {key} wind is E, S, W or N")
        fields[f"{key}_wind"] = v
    elif key in ("dora", "ura"):
        tiles = tuple(t for part in value.split(",") if part for t in parse_tiles(part))
        fields["dora_indicators" if key == "dora" else "ura_dora_indicators"] = tiles
    elif key in ("honba", "sticks"):
        if not _NUMBER_RE.match(value) or int(value) > MAX_COUNTER:
            raise HandError(f"{tok}: {key} is a whole number from 0 to {MAX_COUNTER}")
        fields["honba" if key == "honba" else "riichi_sticks"] = int(value)
    elif key in ("win", "win_by"):
        if value.lower() not in _WIN_WORDS:
            raise HandError(f"{tok}: win_by is discard or self_draw")
        fields["win_by"] = _WIN_WORDS[value.lower()]
    elif key.startswith("option:"):
        options[key[len("option:"):]] = value
    else:
        raise HandError(f"{tok}: unknown key {key!r} "
                        "(seat, round, dora, ura, honba, sticks, discarder, pao, role, option:NAME)")


def format_hand(hand: Hand) -> str:
    """The canonical one-line form of a hand (round-trips through :func:`parse_hand`)."""
    concealed = list(hand.concealed)
    if hand.winning_tile is not None and hand.winning_tile in concealed:
        concealed.remove(hand.winning_tile)
    parts = [format_tiles(concealed)] if concealed else []
    for m, code in zip(hand.melds, shown_codes(hand), strict=True):
        parts.append(f"[{code}]" if m.open else f"({code})")
    if hand.winning_tile is not None:
        parts.append(f"{'ron' if hand.win_by == 'discard' else 'tsumo'} {hand.winning_tile.code}")
    elif hand.win_by != "discard":
        parts.append(f"win={hand.win_by}")
    parts.append(f"seat={hand.seat_wind}")
    parts.append(f"round={hand.round_wind}")
    parts.extend(sorted(hand.flags))
    if hand.dora_indicators:
        parts.append("dora=" + ",".join(t.code for t in hand.dora_indicators))
    if hand.ura_dora_indicators:
        parts.append("ura=" + ",".join(t.code for t in hand.ura_dora_indicators))
    if hand.honba:
        parts.append(f"honba={hand.honba}")
    if hand.riichi_sticks:
        parts.append(f"sticks={hand.riichi_sticks}")
    for key in ("discarder", "pao", "role"):
        if key in hand.extra:
            parts.append(f"{key}={hand.extra[key]}")
    parts.extend(f"option:{k}={v}" for k, v in sorted(hand.options.items()))
    if hand.bonus_tiles:
        parts.append(format_tiles(hand.bonus_tiles))
    return " ".join(parts)
