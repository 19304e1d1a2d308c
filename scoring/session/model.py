"""What a table's session file holds: who sat where, then every row in the order it happened.

A row is a hand (typed or photographed), a draw, or a penalty (chombo included): the paper sheet
has them in one column, and so does the file, so that the order of events (a penalty between
hands 6 and 7) is never lost. Players are named in rows by name; a seat letter (E/S/W/N) names
whoever holds that wind *at that hand*, as a referee reading the table would say it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mahjong_camera_scorer.scoring.errors import UnknownKeyError
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.payments import SEATS


class SessionError(HandError):
    """The session file cannot be used as it is; the message names the row and the field."""


class SessionKeyError(SessionError, UnknownKeyError):
    """A key of a session file (or row, or player) that nobody reads: a session error whose cause
    is the file's own form, as a misspelled key of any structured form (the web answers 422)."""


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    seat: str  # the wind held at the first hand
    number: str = ""  # the player's tournament number (the sheet's N°)
    substitute: str = ""  # "" / "from_start" / "joined" (riichi uma, seed 001 §5.7)


@dataclass(slots=True)
class SessionEntry:
    """One line of the session: ``kind`` is hand, draw, penalty or chombo.

    ``line`` is where it came from (YAML index or CSV line), for error messages.
    """

    kind: str
    line: str
    hand: Any = None  # notation string or structured dict
    photo: str | None = None
    winner: str | None = None
    win_by: str | None = None
    discarder: str | None = None
    flags: list[str] = field(default_factory=list)
    dora: list[str] = field(default_factory=list)
    ura: list[str] = field(default_factory=list)
    riichi: list[str] = field(default_factory=list)  # players who declared riichi this hand
    tenpai: list[str] = field(default_factory=list)  # at an exhaustive draw (riichi)
    draw: str = ""  # exhaustive / abortive (riichi)
    honba: int | None = None  # as written on the sheet: checked
    sticks: int | None = None
    pao: str | None = None  # the liable player (riichi)
    others: dict[str, Any] = field(default_factory=dict)  # losers' hands/scores (australian, classical)
    player: str | None = None  # the penalised player
    infraction: str = ""
    points: int | None = None
    minutes: int | None = None
    note: str = ""
    confirmed: bool = False  # a referee confirmed a photo's reading
    same_discard: bool = False  # won on the previous hand row's discard too (several winners)
    responsible: str | None = None  # Zung Jung: who pays the rest over 25 (seed 002 §4.4-4.5)
    serious: bool = False  # riichi obstruction: a serious, repeated case (seed 001 §5.5)
    opponents_exposed: bool = False  # Australian false mah jong: an opponent had shown tiles (L330)
    options: dict[str, str] = field(default_factory=dict)
    #: the winning tile when the photo does not set it apart (a photo manifest's ``winning_tile``)
    winning_tile: str | None = None
    #: a photo read elsewhere (the phone page): a :class:`scoring.session.photo.PhotoHand` whose
    #: flagged tiles and warnings the referee must still confirm, as for a photo path
    reading: Any = None


@dataclass(slots=True)
class Session:
    tournament: str
    session: str
    table: str
    players: list[Player]
    rows: list[SessionEntry]
    rules: str | None = None
    base_dir: str = "."  # photos are relative to the session file
    #: MCR infraction counts carried from earlier sessions (seed 000 E 3.6): player → kind → count
    carry: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the tournament's choices where the seeds are silent or tournaments differ (ties, oka)
    settings: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.players) != 4:
            raise SessionError(f"a table has four players, the file lists {len(self.players)}")
        seats = sorted(p.seat for p in self.players)
        if seats != sorted(SEATS):
            raise SessionError(f"the players' starting seats must be E, S, W and N once each, got {seats}")
        names = [p.name for p in self.players]
        if len(set(names)) != 4:
            raise SessionError(f"two players have the same name: {names}")
        bad = [n for n in names if n in SEATS]
        if bad:
            raise SessionError(f"a player cannot be named like a seat ({bad[0]!r}): seats name winds in rows")

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise SessionError(f"no player {name!r} at this table ({', '.join(p.name for p in self.players)})")
