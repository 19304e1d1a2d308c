"""What a session's sheet holds: one :class:`Line` per row, the totals, the closing, and the layout
of the system's own paper sheet (:class:`Layout`).

The engine writes lines; the renderers (:mod:`.output` for text and CSV, :mod:`.html` for the
printable page, the phone page's JSON) read them. The layout is each rulebook's
(:mod:`scoring.session.rulebooks`), so a renderer asks the sheet which columns it has, never which
system it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.session.model import Session
from mahjong_camera_scorer.scoring.session.penalties import Penalty

#: the headers most sheets have (Msg: rendered in the reader's language)
POINTS, ROUND_WIND, TOTAL = msg("Points"), msg("Round wind"), msg("Total")


@dataclass(frozen=True, slots=True)
class Layout:
    """The columns a system's paper sheet has, beside each player's result and total."""

    #: the header of the hand's value column (seed 000 App. B: PUNTI MAHJONG)
    value: Msg = POINTS
    #: the header of the printable sheet's round-wind column; None: the sheet has none (Zung Jung
    #: has no round wind; riichi names the hand by its round and dealer, "E1")
    round_column: Msg | None = ROUND_WIND
    #: the system has a round wind at all (the CSV's round column)
    round_wind: bool = True
    #: riichi's honba and riichi sticks columns (seed 001)
    counters: bool = False
    #: hands per turn, with a TOT TURNO row after each (seed 002's sheet: 4); 0: no turns
    turn: int = 0
    #: the printable sheet's CAMBIO POSTI beside the last hand of rounds 1-3 (seed 000 App. B)
    seat_changes: tuple[Mapping[str, str], ...] = ()
    #: the label of the totals row (seed 002: TOTALE GENERALE)
    total: Msg = TOTAL


@dataclass(slots=True)
class Line:
    """One line of the sheet."""

    kind: str  # hand, draw, penalty, chombo
    label: str  # the hand's number ("7") or name ("E2"); "" for a penalty
    source: str  # the row of the file
    winds: dict[str, str]
    round_wind: str
    status: str = "scored"  # scored, draw, penalty, confirm, error
    winner: str | None = None
    discarder: str | None = None
    win_by: str | None = None
    hand: str = ""
    photo: str | None = None
    value: int | str | None = None
    unit: str = ""
    elements: dict[str, int] = field(default_factory=dict)
    deltas: dict[str, int] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    honba: int | None = None
    sticks: int | None = None
    notes: list[str | Msg] = field(default_factory=list)  # Msg: rendered in the reader's language
    #: a hand settled as a whole table (Australian, Classical): the table's own lines as the
    #: ``table`` command prints them (each player's score, the payments, the net)
    table: list[str] = field(default_factory=list)
    #: the win was not a valid one: the hand is not over (riichi: a chombo, seed 001 §3.4.6)
    invalid: bool = False
    #: an invalid win settled by the row after it (status ``void``): "chombo" or "penalty"
    settled_by: str = ""
    #: Australian: this hand was a Goulash (it followed a dead hand, seed 003)
    goulash: bool = False
    #: the hand it belongs to (1, 2, …: a penalty belongs to the hand about to be played)
    hand_no: int = 0


@dataclass(slots=True)
class Sheet:
    session: Session
    rules: str
    lines: list[Line]
    penalties: list[Penalty]
    totals: dict[str, int]
    closing: dict[str, Any]
    hands_played: int
    #: the table after the last row: the next hand's label, winds, round wind, counters, the end
    next: dict[str, Any] = field(default_factory=dict)
    #: MCR: each player's obstruction and time-wasting counts to carry to the next session (E 3.6)
    carry: dict[str, dict[str, int]] = field(default_factory=dict)
    #: the columns of the system's paper sheet
    layout: Layout = field(default_factory=Layout)

    @property
    def pending(self) -> list[Line]:
        """Lines the referee must still settle: photos to confirm, hands that could not be scored
        (an invalid win stays pending until its penalty row is written: a riichi chombo, an MCR
        false Hu)."""
        return [line for line in self.lines if line.status in ("confirm", "error")]

    @property
    def complete(self) -> bool:
        return not self.pending
