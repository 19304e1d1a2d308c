"""The situation of a hand: everything about it that is not its tiles, as one typed object.

How the hand was won and who discarded, the seat and round wind, the situation flags, the dora
indicators and counters, the winning tile (which of the hand's tiles came last: a photo cannot
show it unless it is set apart), whose hand it is at a table that scores losers too, who is liable
or responsible where a rule system asks, and the rule options chosen for it. A
:class:`scoring.hand.Hand` is its tiles plus one :class:`HandContext` (as the ``mahjong``
library keeps its ``HandConfig`` apart from the tiles), so no field is kept twice.

Every front end builds it with :func:`context_from_dict` (the command line's options, the
notation's ``key=value`` words, the structured form, the photos manifest, a session's rows, the
web): one parser, whose words are :mod:`scoring.situation_words`, so a typo reads the same
everywhere. The constructor itself checks every value it is given, so no front end can build a
situation the parser would refuse for its words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from mahjong_camera_scorer.scoring.errors import HandError
from mahjong_camera_scorer.scoring.fields import check_keys, field_list, field_text, field_tiles, show
from mahjong_camera_scorer.scoring.payments import SEATS
from mahjong_camera_scorer.scoring.situation_words import (
    MAX_COUNTER,
    NOBODY,
    ROLES,
    WIN_BY,
    counter,
    flag_names,
    option_values,
    responsible,
    role,
    win_by,
    wind,
)
from mahjong_camera_scorer.scoring.tiles import Tile, TileError, tile

#: the fields :func:`context_from_dict` reads, as the structured form names them
CONTEXT_FIELDS = (
    "win_by",
    "seat_wind",
    "round_wind",
    "flags",
    "dora_indicators",
    "ura_dora_indicators",
    "honba",
    "riichi_sticks",
    "winning_tile",
    "discarder",
    "pao",
    "responsible",
    "role",
    "discards_played",
    "discards_in_window",
    "options",
)


@dataclass(frozen=True, slots=True)
class HandContext:
    """What the tiles do not say. Each field holds its canonical value (seats are letters,
    ``win_by`` is ``discard`` or ``self_draw``); :func:`context_from_dict` reads the words."""

    win_by: str = "discard"
    seat_wind: str = "E"
    round_wind: str = "E"
    flags: frozenset[str] = frozenset()
    dora_indicators: tuple[Tile, ...] = ()
    ura_dora_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    #: which tile completed the hand (one of the concealed tiles); None: not known
    winning_tile: Tile | None = None
    #: the seat that discarded the winning tile (who pays, where the rules say)
    discarder: str | None = None
    #: riichi: the seat liable for a Dai sangen / Dai suushii it fed (pao, §3.3.6)
    pao: str | None = None
    #: Zung Jung: the seat that pays the rest over 25, or :data:`NOBODY`; None: the discarder
    responsible: str | None = None
    #: whose hand this is, where losers score too (Australian, Classical)
    role: str = "winner"
    #: Classical: discards made before the win (the winning discard included), for "within 15"
    discards_played: int | None = None
    #: Zung Jung: the discards since the winner's previous one, ``SEAT:tile`` (same-round immunity)
    discards_in_window: tuple[str, ...] = ()
    #: rule options chosen for this hand (NAME → value), over the rule system's defaults
    options: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        for name in ("flags", "dora_indicators", "ura_dora_indicators", "discards_in_window"):
            if not isinstance(getattr(self, name), tuple | list | set | frozenset):
                raise HandError(f"{name} is a list, not {show(getattr(self, name))}")
        object.__setattr__(self, "flags", frozenset(self.flags))
        object.__setattr__(self, "dora_indicators", tuple(self.dora_indicators))
        object.__setattr__(self, "ura_dora_indicators", tuple(self.ura_dora_indicators))
        object.__setattr__(self, "discards_in_window", tuple(self.discards_in_window))
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))
        if self.win_by not in WIN_BY:
            raise HandError(f"win_by must be 'discard' or 'self_draw', not {show(self.win_by)}")
        for name in ("seat_wind", "round_wind"):
            if getattr(self, name) not in SEATS:
                raise HandError(f"{name} must be one of E, S, W, N, not {show(getattr(self, name))}")
        for name, allowed in (("discarder", SEATS), ("pao", SEATS), ("responsible", (*SEATS, NOBODY))):
            if getattr(self, name) not in (None, *allowed):
                raise HandError(f"{name} must be a seat E, S, W or N, not {show(getattr(self, name))}")
        if self.discarder is not None:  # as the parser says it, naming the front end's field
            if self.discarder == self.seat_wind:
                raise HandError(f"discarder: {self.discarder} is the winner's own seat")
            if self.win_by == "self_draw":
                raise HandError("discarder: it goes with a win on a discard, not a self-draw")
        if self.role not in ROLES:
            raise HandError(f"role must be one of {', '.join(ROLES)}, not {show(self.role)}")
        for name in ("honba", "riichi_sticks"):
            if type(getattr(self, name)) is not int or not 0 <= getattr(self, name) <= MAX_COUNTER:
                raise HandError(f"honba and riichi_sticks are whole numbers from 0 to {MAX_COUNTER}")
        played = self.discards_played
        if played is not None and (type(played) is not int or played < 0):
            raise HandError(f"discards_played must be a whole number of discards, not {show(played)}")
        if not all(isinstance(d, str) for d in self.discards_in_window):
            raise HandError(
                f"discards_in_window is a list of 'SEAT:tile', not {show(self.discards_in_window)}"
            )

    def __hash__(self) -> int:  # the options mapping is not hashable; the rest identifies well enough
        return hash((self.win_by, self.seat_wind, self.round_wind, self.flags, self.winning_tile))

    def __reduce__(self) -> tuple[type[HandContext], tuple[Any, ...]]:
        """Pickled as its constructor's arguments (the read-only options view cannot be): the
        photo commands send the context to their worker processes."""
        values = (getattr(self, f.name) for f in fields(self))
        return (HandContext, tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in values))

    @property
    def self_drawn(self) -> bool:
        return self.win_by == "self_draw"

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == "E"

    def to_json(self) -> dict[str, Any]:
        """The structured form's situation fields: win_by, the winds and honba always, the others
        when they say something (an empty list, no discarder, the role of a winner)."""
        out: dict[str, Any] = {
            "win_by": self.win_by,
            "seat_wind": self.seat_wind,
            "round_wind": self.round_wind,
        }
        if self.flags:
            out["flags"] = sorted(self.flags)
        if self.dora_indicators:
            out["dora_indicators"] = [t.code for t in self.dora_indicators]
        if self.ura_dora_indicators:
            out["ura_dora_indicators"] = [t.code for t in self.ura_dora_indicators]
        out["honba"] = self.honba
        if self.riichi_sticks:
            out["riichi_sticks"] = self.riichi_sticks
        if self.winning_tile is not None:
            out["winning_tile"] = self.winning_tile.code
        for name in ("discarder", "pao", "responsible", "discards_played"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.role != "winner":
            out["role"] = self.role
        if self.discards_in_window:
            out["discards_in_window"] = list(self.discards_in_window)
        if self.options:
            out["options"] = dict(self.options)
        return out


def context_from_dict(
    data: Mapping[str, Any],
    base: HandContext | None = None,
    *,
    names: Mapping[str, str] | None = None,
    where: str = "context",
) -> HandContext:
    """The situation in ``data`` (the structured form's fields, :data:`CONTEXT_FIELDS`), each
    checked; a field absent or None keeps ``base``'s value (a discarder given alone means a win on
    a discard). ``names``: how the front end calls a field in its messages (``--seat``);
    ``where``: what ``data`` is, for a key that is none of the fields
    (:class:`scoring.errors.UnknownKeyError`). :class:`HandError` names the field at fault."""
    base = base or HandContext()
    check_keys(data, CONTEXT_FIELDS, where)
    given = {k: v for k, v in data.items() if v is not None}

    def name(key: str) -> str:
        return (names or {}).get(key, key)

    def read(key: str, parse: Any, default: Any) -> Any:
        return parse(given[key], name(key)) if key in given else default

    seat = read("seat_wind", wind, base.seat_wind)
    default_win = "discard" if "discarder" in given else base.win_by
    won_by = read("win_by", win_by, default_win)
    discarder = read("discarder", wind, base.discarder)
    if "discarder" in given:
        if discarder == seat:
            raise HandError(f"{name('discarder')}: {discarder} is the winner's own seat")
        if won_by == "self_draw":
            raise HandError(f"{name('discarder')}: it goes with a win on a discard, not a self-draw")
    return HandContext(
        win_by=won_by,
        seat_wind=seat,
        round_wind=read("round_wind", wind, base.round_wind),
        flags=read("flags", flag_names, base.flags),
        dora_indicators=read("dora_indicators", field_tiles, base.dora_indicators),
        ura_dora_indicators=read("ura_dora_indicators", field_tiles, base.ura_dora_indicators),
        honba=read("honba", counter, base.honba),
        riichi_sticks=read("riichi_sticks", counter, base.riichi_sticks),
        winning_tile=read("winning_tile", _one_tile, base.winning_tile),
        discarder=discarder,
        pao=read("pao", wind, base.pao),
        responsible=read("responsible", responsible, base.responsible),
        role=read("role", role, base.role),
        discards_played=read("discards_played", _discards, base.discards_played),
        discards_in_window=read("discards_in_window", _window, base.discards_in_window),
        options={**base.options, **read("options", option_values, {})},
    )


def _one_tile(value: Any, name: str) -> Tile:
    try:
        found = tile(field_text(value, name).strip())
    except TileError as exc:
        raise HandError(f"{name}: {exc}") from None
    if found.is_back:
        raise HandError(f"{name}: one tile code, not {show(value)}")
    return found


def _discards(value: Any, name: str) -> int:
    if type(value) is not int or value < 0:
        raise HandError(f"{name} must be a whole number of discards, not {show(value)}")
    return value


def _window(value: Any, name: str) -> tuple[str, ...]:
    if isinstance(value, str):
        raise HandError(f"{name} is a list of 'SEAT:tile', not {show(value)}")
    return tuple(field_text(d, f"{name}[{i}]").strip() for i, d in enumerate(field_list(value, name)))
