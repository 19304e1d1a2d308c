"""The hand as every rule system sees it: its tiles (concealed, declared sets, bonus tiles) and
its situation (:class:`scoring.context.HandContext`).

This is the hub of the data flow (photo → detections → tiles → **hand** → score). It holds only
facts a referee could read off the table or be told; what those facts are worth is each rule
system's business. Two input forms produce it (:mod:`scoring.structured` and
:mod:`scoring.notation`), and :func:`check_tiles` rejects physically impossible hands with a
precise reason before any scorer runs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.errors import (
    HandError as HandError,  # raised and caught here by every front end
)
from mahjong_camera_scorer.scoring.tiles import Tile, format_tiles, parse_tiles, sort_key

MELD_KINDS = ("chow", "pung", "kong")


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: an open chow/pung/kong, or a concealed kong (``open=False``)."""

    kind: str
    tiles: tuple[Tile, ...]
    open: bool = True

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise HandError(f"meld type must be chow, pung or kong, not {self.kind!r}")
        n = {"chow": 3, "pung": 3, "kong": 4}[self.kind]
        if len(self.tiles) != n:
            raise HandError(f"a {self.kind} has {n} tiles, got {format_tiles(self.tiles)!r}")
        if any(t.is_bonus or t.is_back for t in self.tiles):
            raise HandError(f"a {self.kind} holds only suited or honour tiles: {format_tiles(self.tiles)!r}")
        if self.kind == "chow" and not self.open:
            raise HandError("a chow can only be declared open (a concealed chow stays in the hand)")
        if self.kind == "pung" and not self.open:
            raise HandError("a pung can only be declared open (a concealed pung stays in the hand)")
        kinds = sorted(t.index for t in self.tiles)
        if self.kind == "chow":
            first = kinds[0]
            if not (self.tiles[0].is_suited and first % 9 <= 6 and kinds == [first, first + 1, first + 2]):
                raise HandError(f"{format_tiles(self.tiles)!r} is not a chow (three consecutive of one suit)")
        elif len(set(kinds)) != 1:
            raise HandError(f"{format_tiles(self.tiles)!r} is not a {self.kind} (tiles must be identical)")
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=sort_key)))

    @property
    def first(self) -> int:
        """Kind index of the lowest tile (the set's identity for pattern matching)."""
        return min(t.index for t in self.tiles)

    @property
    def code(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True, slots=True)
class Jokers:
    """Goulash jokers standing in one declared set (:func:`declared_set`): the set is
    ``Hand.melds[meld]``, ``count`` of its tiles are 2s of bamboo, and ``shown`` are its own
    tiles as they lie on the table (codes), for the tile check and for printing it back."""

    meld: int
    count: int
    shown: str


@dataclass(frozen=True, slots=True)
class Hand:
    """A finished (or, for losers' scores, unfinished) hand: its tiles and its situation.

    ``concealed`` is the ``hand`` field of the specs: the concealed tiles *including* the winning
    tile when it joined the concealed part (always, for a discard, a self-draw or a robbed kong);
    which one it was is ``context.winning_tile``. It is kept sorted, so two inputs that list the
    same tiles in another order are the same hand.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus_tiles: tuple[Tile, ...] = ()
    context: HandContext = HandContext()  # noqa: RUF009 (frozen: one shared default is safe)
    #: the Goulash jokers in the declared sets (flag ``jokers``), one entry per set holding some
    jokers: tuple[Jokers, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed, key=sort_key)))
        object.__setattr__(self, "bonus_tiles", tuple(sorted(self.bonus_tiles, key=sort_key)))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "jokers", tuple(self.jokers))

    # -- derived facts ---------------------------------------------------------------------------
    @property
    def is_concealed(self) -> bool:
        """No open meld (a concealed kong keeps the hand concealed)."""
        return all(not m.open for m in self.melds)

    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand proper (concealed + melds), bonus tiles excluded."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    def with_changes(self, **changes: Any) -> Hand:
        """A copy with some tiles replaced (hands are immutable)."""
        return replace(self, **changes)

    def with_context(self, **changes: Any) -> Hand:
        """A copy in another situation: some of :class:`HandContext`'s fields replaced (each
        checked by its constructor)."""
        return replace(self, context=replace(self.context, **changes))


#: Goulash jokers (Australian, flag ``jokers``): "i quattro 2 di Bambù possono essere considerati
#: dei jolly" (seed 003 L69), so a pung or kong may show 2s of bamboo beside its own tile.
JOKERS_FLAG = "jokers"
JOKER_INDEX = 19  # the 2 of bamboo


def declared_set(
    kind: str, tiles: tuple[Tile, ...], is_open: bool, jokers: bool
) -> tuple[Meld, tuple[int, str] | None]:
    """A declared set from its tiles as shown at the table, for both input forms.

    With jokers live a pung or kong showing 2s of bamboo beside one other kind (``5m2s2s``) is the
    set of that kind (``555m``), so every rule sees the tile it represents (A-18); the jokers it
    holds come back as ``(count, shown)`` (the real tiles shown), for the tile check to count
    the real tiles on the table and for printing the meld back as it was shown (:class:`Jokers`).
    """
    if jokers and kind in ("pung", "kong") and len({t.index for t in tiles}) > 1:
        real = [t for t in tiles if t.index != JOKER_INDEX]
        if not real or len({t.index for t in real}) != 1:
            raise HandError(f"{format_tiles(tiles)!r} is not a {kind} even with the 2s of bamboo as jokers")
        meld = Meld(kind, (real[0].plain(),) * len(tiles), is_open)
        return meld, (len(tiles) - len(real), format_tiles(real))
    return Meld(kind, tiles, is_open), None


def shown_codes(hand: Hand) -> list[str]:
    """Each meld's tiles as shown at the table: a meld holding Goulash jokers shows its 2s
    (``5m22s``), the others their own tiles. Both input forms print melds with it."""
    codes = [m.code for m in hand.melds]
    for j in hand.jokers:
        shown = parse_tiles(j.shown) + [Tile(JOKER_INDEX)] * j.count
        codes[j.meld] = format_tiles(sorted(shown, key=sort_key))
    return codes


def check_tiles(hand: Hand, *, red_fives_in_set: int = 1, bonus_allowed: bool = True) -> str | None:
    """Why the tiles cannot be on one table, or None.

    A set has four copies of each kind; ``red_fives_in_set`` says how many of the four fives of
    each suit are red (EMA riichi: one; rule systems without red fives: zero, so a red five is a
    plain five there and never an error).
    """
    tiles = hand.all_tiles()
    if any(t.is_back for t in tiles):
        return "a face-down tile is in the hand: tell the scorer what it is (or declare the concealed kong)"
    if any(t.is_bonus for t in tiles):
        return "a flower or season is among the hand's tiles: list it as a bonus tile"
    winning = hand.context.winning_tile
    if winning is not None and (winning.is_bonus or winning.is_back):
        return f"the winning tile {winning.code} cannot be a bonus or face-down tile"
    kinds = Counter(t.index for t in tiles)
    for index, n in sorted(kinds.items()):
        if n > 4:
            return f"{n} copies of {Tile(index).code}: a set has only 4"
    if red_fives_in_set:
        reds = Counter(t.index for t in tiles if t.red)
        for index, n in sorted(reds.items()):
            if n > red_fives_in_set:
                return f"{n} red fives {Tile(index, True).code}: the set has only {red_fives_in_set}"
    bonus = Counter(hand.bonus_tiles)
    for t, n in bonus.items():
        if not t.is_bonus:
            return f"{t.code} is listed as a bonus tile but is not a flower or season"
        if n > 1:
            return f"bonus tile {t.code} listed {n} times: there is one of each"
    if hand.bonus_tiles and not bonus_allowed:
        return "this rule system plays without flowers and seasons"
    if winning is not None and winning not in hand.concealed:
        # the red flag matters: a red winning tile must be a red tile in the hand
        return f"the winning tile {winning.code} is not among the concealed tiles"
    return None
