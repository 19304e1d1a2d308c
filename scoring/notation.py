"""A one-line hand notation a person can type, built on the mpsz codes players already know.

    123m 406p 78s 11z [555z] (2222s) ron 9s seat=S round=E riichi dora=1z 2f

* bare mpsz tokens are the concealed tiles *without* the winning tile (what you hold while
  waiting); flowers and seasons (``f``) among them are bonus tiles;
* ``[...]`` is an open meld (chow, pung or kong, told apart by its tiles), ``(...)`` a concealed kong;
* ``ron <tile>`` or ``tsumo <tile>`` is the winning tile and how it came (``discard`` and
  ``self_draw`` are accepted too);
* ``key=value`` sets the situation: ``seat``, ``round`` (E/S/W/N), ``dora``, ``ura``
  (comma-separated tiles), ``honba``, ``sticks``, ``discarder`` (the seat that discarded the
  winning tile, for payments), ``pao`` (riichi: the seat liable for a Dai sangen / Dai suushii it
  fed), ``role`` (winner, fishing or loser, for systems where losers score), ``win`` (how a hand
  without its winning tile was won), ``option:NAME=VALUE``; each word is read as every front end
  reads it (:func:`scoring.context.context_from_dict`, :mod:`scoring.situation_words`);
* any other lowercase word is a flag (``riichi``, ``ippatsu``, ``last_tile``, …).

:func:`format_hand` prints the canonical form, and ``parse_hand(format_hand(h)) == h``.
"""

from __future__ import annotations

import re
from typing import Any

from mahjong_camera_scorer.scoring.context import context_from_dict
from mahjong_camera_scorer.scoring.hand import (
    JOKER_INDEX,
    JOKERS_FLAG,
    Hand,
    HandError,
    Jokers,
    Meld,
    declared_set,
    shown_codes,
)
from mahjong_camera_scorer.scoring.situation_words import WIN_BY_WORDS, counter_text, option_pairs
from mahjong_camera_scorer.scoring.tiles import Tile, TileError, format_tiles, parse_tiles

_FLAG_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_TILES_RE = re.compile(r"^[0-9mpszf?]+$")
#: the ``key=`` words → the situation's fields (``option:NAME`` aside)
KEYS = {
    "seat": "seat_wind",
    "round": "round_wind",
    "dora": "dora_indicators",
    "ura": "ura_dora_indicators",
    "honba": "honba",
    "sticks": "riichi_sticks",
    "discarder": "discarder",
    "pao": "pao",
    "role": "role",
    "win": "win_by",
    "win_by": "win_by",
}
#: far longer than any hand written out in full; longer input is refused before it is read
MAX_LENGTH = 1000


def _meld_from_tiles(
    tiles: list[Tile], is_open: bool, token: str, jokers: bool
) -> tuple[Meld, tuple[int, str] | None]:
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
    options: list[str] = []  # NAME=VALUE
    situation: dict[str, Any] = {}  # the situation's fields as written, read by the one parser
    winning: Tile | None = None
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
            elif low in WIN_BY_WORDS:  # ``ron 5p``, ``tsumo 5p``: how the tile that follows won
                if i + 1 >= len(tokens) or not _TILES_RE.match(tokens[i + 1]):
                    raise HandError(f"'{tok}' must be followed by the winning tile, e.g. '{tok} 5p'")
                if winning is not None:
                    raise HandError("two winning tiles given")
                ts = parse_tiles(tokens[i + 1])
                if len(ts) != 1:
                    raise HandError(f"'{tok} {tokens[i + 1]}': the winning tile is one tile")
                winning = ts[0]
                situation["win_by"] = WIN_BY_WORDS[low]
                i += 1
            elif "=" in tok:
                key, _, value = tok.partition("=")
                _set_field(key.lower(), value, situation, options, tok)
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
    if winning is not None:
        concealed.append(winning)
    context = context_from_dict(
        {
            **situation,
            "flags": sorted(flags),
            "winning_tile": winning.code if winning else None,
            "options": option_pairs(options, "option:"),
        },
        names={field: key for key, field in KEYS.items()},
        where="the hand",
    )
    melds: list[Meld] = []
    jokers: list[Jokers] = []
    for tiles, is_open, tok in shown:
        meld, held = _meld_from_tiles(tiles, is_open, tok, JOKERS_FLAG in context.flags)
        if held is not None:
            jokers.append(Jokers(len(melds), *held))
        melds.append(meld)
    return Hand(
        concealed=tuple(concealed),
        melds=tuple(melds),
        bonus_tiles=tuple(bonus),
        context=context,
        jokers=tuple(jokers),
    )


def says_how_won(text: str) -> bool:
    """Whether the notation says how the hand was won (``ron``/``tsumo`` before the winning
    tile, or ``win=``): if not, the hand's ``discard`` is the default, not the player's word."""
    return any(t.lower() in WIN_BY_WORDS or t.lower().startswith(("win=", "win_by=")) for t in text.split())


def _set_field(key: str, value: str, situation: dict[str, Any], options: list[str], tok: str) -> None:
    """One ``key=value`` word: the situation's field as written (read with the others), or an
    option; the counters are text here, read as the manifest reads its cells."""
    if key.startswith("option:"):
        options.append(key[len("option:") :] + "=" + value)
    elif key in ("dora", "ura"):
        situation[KEYS[key]] = [part for part in value.split(",") if part]
    elif key in ("honba", "sticks"):
        situation[KEYS[key]] = counter_text(value, key)
    elif key in KEYS:
        situation[KEYS[key]] = value
    else:
        raise HandError(
            f"{tok}: unknown key {key!r} "
            "(seat, round, dora, ura, honba, sticks, discarder, pao, role, win, option:NAME)"
        )


def format_hand(hand: Hand) -> str:
    """The canonical one-line form of a hand (round-trips through :func:`parse_hand`)."""
    concealed = list(hand.concealed)
    ctx = hand.context
    if ctx.winning_tile is not None and ctx.winning_tile in concealed:
        concealed.remove(ctx.winning_tile)
    parts = [format_tiles(concealed)] if concealed else []
    for m, code in zip(hand.melds, shown_codes(hand), strict=True):
        parts.append(f"[{code}]" if m.open else f"({code})")
    if ctx.winning_tile is not None:
        parts.append(f"{'ron' if ctx.win_by == 'discard' else 'tsumo'} {ctx.winning_tile.code}")
    elif ctx.win_by != "discard":
        parts.append(f"win={ctx.win_by}")
    parts.append(f"seat={ctx.seat_wind}")
    parts.append(f"round={ctx.round_wind}")
    parts.extend(sorted(ctx.flags))
    if ctx.dora_indicators:
        parts.append("dora=" + ",".join(t.code for t in ctx.dora_indicators))
    if ctx.ura_dora_indicators:
        parts.append("ura=" + ",".join(t.code for t in ctx.ura_dora_indicators))
    if ctx.honba:
        parts.append(f"honba={ctx.honba}")
    if ctx.riichi_sticks:
        parts.append(f"sticks={ctx.riichi_sticks}")
    parts.extend(f"{key}={getattr(ctx, key)}" for key in ("discarder", "pao") if getattr(ctx, key))
    if ctx.role != "winner":
        parts.append(f"role={ctx.role}")
    parts.extend(f"option:{k}={v}" for k, v in sorted(ctx.options.items()))
    if hand.bonus_tiles:
        parts.append(format_tiles(hand.bonus_tiles))
    return " ".join(parts)
