"""Tiles: the 34 kinds, red fives, flowers and seasons, and the face-down marker.

A tile is a small immutable value: its *kind index* and a red flag. Kind indices follow the
34-slot layout every mahjong engine uses (0–8 characters, 9–17 circles, 18–26 bamboo, 27–33
honours), so a hand can be turned into a 34-long count vector for decomposition. Bonus tiles take
indices 34–41 and the face-down marker 42; they never enter a count vector.

A red five is a five with ``red=True``: it *is* a five for every pattern, and only the scorers that
pay for red fives look at the flag. That is why equality and hashing keep the flag (two hands that
differ only by a red five are different hands) while :attr:`Tile.index` ignores it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

SUITS = "mps"
HONOUR_SUIT = "z"
BONUS_SUIT = "f"
BACK_CODE = "?"

N_KINDS = 34
FIRST_HONOUR = 27
FIRST_BONUS = 34
BACK_INDEX = 42

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
WIND_LETTERS = "ESWN"

#: Unicode glyphs, indexed by kind (U+1F000 block). Flowers in Unicode order plum, orchid, bamboo,
#: chrysanthemum; our codes 1f..4f are plum, orchid, chrysanthemum, bamboo, hence the permutation.
_GLYPHS: tuple[str, ...] = (
    tuple(chr(0x1F007 + n) for n in range(9))  # characters
    + tuple(chr(0x1F019 + n) for n in range(9))  # circles
    + tuple(chr(0x1F010 + n) for n in range(9))  # bamboo
    + tuple(chr(c) for c in (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004))
    + tuple(chr(c) for c in (0x1F022, 0x1F023, 0x1F025, 0x1F024, 0x1F026, 0x1F027, 0x1F028, 0x1F029))
    + (chr(0x1F02B),)
)

HONOUR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
BONUS_NAMES = ("Plum", "Orchid", "Chrysanthemum", "Bamboo", "Spring", "Summer", "Autumn", "Winter")
SUIT_NAMES = {"m": "characters", "p": "circles", "s": "bamboo"}


class TileError(ValueError):
    """A tile code or tile string that cannot be read; the message says which character and why."""


class Tile(NamedTuple):
    """One physical tile: kind index (0–33 kinds, 34–41 bonus, 42 face-down) and the red flag."""

    index: int  # type: ignore[assignment]  # the field shadows tuple.index(), which no caller uses
    red: bool = False

    # -- classification -------------------------------------------------------------------------
    @property
    def suit(self) -> str:
        """'m', 'p', 's', 'z', 'f', or '?' for a face-down tile."""
        if self.index < FIRST_HONOUR:
            return SUITS[self.index // 9]
        if self.index < FIRST_BONUS:
            return HONOUR_SUIT
        if self.index < BACK_INDEX:
            return BONUS_SUIT
        return BACK_CODE

    @property
    def number(self) -> int:
        """1–9 for suited tiles, 1–7 for honours, 1–8 for bonus tiles, 0 for face-down."""
        if self.index < FIRST_HONOUR:
            return self.index % 9 + 1
        if self.index < FIRST_BONUS:
            return self.index - FIRST_HONOUR + 1
        if self.index < BACK_INDEX:
            return self.index - FIRST_BONUS + 1
        return 0

    @property
    def is_suited(self) -> bool:
        return self.index < FIRST_HONOUR

    @property
    def is_honour(self) -> bool:
        return FIRST_HONOUR <= self.index < FIRST_BONUS

    @property
    def is_terminal(self) -> bool:
        return self.index < FIRST_HONOUR and self.index % 9 in (0, 8)

    @property
    def is_terminal_or_honour(self) -> bool:
        return self.is_terminal or self.is_honour

    @property
    def is_simple(self) -> bool:
        return self.index < FIRST_HONOUR and self.index % 9 not in (0, 8)

    @property
    def is_bonus(self) -> bool:
        return FIRST_BONUS <= self.index < BACK_INDEX

    @property
    def is_back(self) -> bool:
        return self.index == BACK_INDEX

    @property
    def is_wind(self) -> bool:
        return EAST <= self.index <= NORTH

    @property
    def is_dragon(self) -> bool:
        return WHITE <= self.index <= RED

    # -- text -----------------------------------------------------------------------------------
    @property
    def code(self) -> str:
        """The mpsz code: '5m', '0p' (red five), '7z', '3f', or '?' for face-down."""
        if self.is_back:
            return BACK_CODE
        return f"{0 if self.red else self.number}{self.suit}"

    @property
    def glyph(self) -> str:
        """The Unicode mahjong glyph (a red five shares the five's glyph)."""
        return _GLYPHS[self.index]

    @property
    def name(self) -> str:
        """A human name: '5 circles (red)', 'East', 'Chrysanthemum'."""
        if self.is_back:
            return "face-down tile"
        if self.is_honour:
            return HONOUR_NAMES[self.number - 1]
        if self.is_bonus:
            return BONUS_NAMES[self.number - 1]
        return f"{self.number} {SUIT_NAMES[self.suit]}" + (" (red)" if self.red else "")

    def plain(self) -> Tile:
        """The same tile without the red flag (for comparing kinds)."""
        return Tile(self.index) if self.red else self

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code!r})"


BACK = Tile(BACK_INDEX)


def tile(code: str) -> Tile:
    """Parse one tile code ('5m', '0s', '7z', '2f', '?')."""
    tiles = parse_tiles(code)
    if len(tiles) != 1:
        raise TileError(f"expected one tile, got {len(tiles)} in {code!r}")
    return tiles[0]


def _make(digit: int, suit: str, text: str) -> Tile:
    if suit in SUITS:
        base = SUITS.index(suit) * 9
        if digit == 0:
            return Tile(base + 4, True)
        return Tile(base + digit - 1)
    if suit == HONOUR_SUIT:
        if not 1 <= digit <= 7:
            raise TileError(f"honour tiles are 1z..7z, got {digit}z in {_quote(text)}")
        return Tile(FIRST_HONOUR + digit - 1)
    if not 1 <= digit <= 8:
        raise TileError(f"bonus tiles are 1f..8f, got {digit}f in {_quote(text)}")
    return Tile(FIRST_BONUS + digit - 1)


def _describe(ch: str) -> str:
    """A character as an error names it: its repr, and for a non-ASCII one its Unicode name."""
    if ch.isascii():
        return repr(ch)
    why = ": only the digits 0-9 number a tile" if ch.isnumeric() else ""
    return f"{ch!r} ({unicodedata.name(ch, f'U+{ord(ch):04X}')}{why})"


def _quote(text: str, limit: int = 60) -> str:
    """The input quoted for an error message, cut to ``limit`` characters."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def parse_tiles(text: str) -> list[Tile]:
    """Parse an mpsz string ('123m0p55z', '1f', '??') into tiles, in order.

    Digits are buffered until their suit letter arrives, as in the usual mpsz notation; spaces are
    ignored; '?' is a face-down tile and stands on its own. Only the ASCII digits 0-9 are tile
    numbers: '²' or an Arabic-Indic '١' is an error naming the character, never a number.
    """
    out: list[Tile] = []
    pending: list[int] = []
    for ch in text:
        if "0" <= ch <= "9":
            pending.append(ord(ch) - 48)
        elif ch in "mpszf":
            if not pending:
                raise TileError(f"suit letter {ch!r} with no digits before it in {_quote(text)}")
            out.extend(_make(d, ch, text) for d in pending)
            pending.clear()
        elif ch == BACK_CODE:
            if pending:
                raise TileError(f"digits {''.join(map(str, pending))} have no suit letter in {_quote(text)}")
            out.append(BACK)
        elif ch.isspace():
            continue
        else:
            raise TileError(f"unexpected character {_describe(ch)} in tile string {_quote(text)}")
    if pending:
        digits = "".join(map(str, pending))
        raise TileError(f"digits {digits} at the end of {_quote(text)} have no suit letter")
    return out


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact mpsz form: consecutive tiles of one suit share a letter ('123m456p'). Order is kept."""
    parts: list[str] = []
    run: list[str] = []
    run_suit = ""
    for t in tiles:
        if t.is_back:
            if run:
                parts.append("".join(run) + run_suit)
                run, run_suit = [], ""
            parts.append(BACK_CODE)
            continue
        if t.suit != run_suit and run:
            parts.append("".join(run) + run_suit)
            run = []
        run_suit = t.suit
        run.append(str(0 if t.red else t.number))
    if run:
        parts.append("".join(run) + run_suit)
    return "".join(parts)


def glyphs(tiles: Iterable[Tile]) -> str:
    """The tiles as Unicode glyphs, for terminals and web pages."""
    return "".join(t.glyph for t in tiles)


def sort_key(t: Tile) -> tuple[int, int]:
    """Order by kind, a red five just after the plain fives' position (stable, readable)."""
    return (t.index, 1 if t.red else 0)


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """Count vector over the 34 kinds (red fives count as fives; bonus and backs are skipped)."""
    c = [0] * N_KINDS
    for t in tiles:
        if t.index < N_KINDS:
            c[t.index] += 1
    return c


def wind_index(letter: str) -> int:
    """'E'/'S'/'W'/'N' (or 'East', '1z') → kind index of that wind."""
    s = letter.strip()
    if len(s) == 2 and s[1] == "z" and s[0] in "1234":
        return FIRST_HONOUR + int(s[0]) - 1
    key = s[:1].upper()
    if key not in WIND_LETTERS or not s:
        raise TileError(f"not a wind: {letter!r} (use E, S, W or N)")
    return FIRST_HONOUR + WIND_LETTERS.index(key)


ALL_KINDS: tuple[Tile, ...] = tuple(Tile(i) for i in range(N_KINDS))
RED_FIVES: tuple[Tile, ...] = (Tile(4, True), Tile(13, True), Tile(22, True))
BONUS_TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(FIRST_BONUS, BACK_INDEX))
TERMINALS_AND_HONOURS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, *range(FIRST_HONOUR, N_KINDS))
