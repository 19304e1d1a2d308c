"""A table's session, row by row: the engine walks the rows and the table's rulebook settles each.

The session gives each hand what a photo or a typed hand cannot know: the winner's seat and round
wind at that moment, who discarded, the counters. The engine keeps what every system shares (the
players and their winds, the running totals, the hand as its row gives it); what a system's rules
say (settlement, the dealer's deal, counters, penalties, the closing, the sheet's columns) is its
rulebook's (:mod:`scoring.session.rulebooks`, one interface: :class:`.rulebook.Rulebook`). Every
payment comes through :func:`scoring.session.settle.hand_payments` (``Score.payments``). A hand
that cannot be scored (an invalid hand, or a photo whose reading has to be confirmed) stays on the
sheet with its reason and no points, and the sheet says it is not complete: nothing the referee
wrote is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from mahjong_camera_scorer.scoring.context import context_from_dict
from mahjong_camera_scorer.scoring.fields import field_names
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import msg
from mahjong_camera_scorer.scoring.notation import parse_hand, says_how_won
from mahjong_camera_scorer.scoring.output_paths import what_is
from mahjong_camera_scorer.scoring.payments import SEATS, Payment, net_by_seat
from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS
from mahjong_camera_scorer.scoring.session import closing
from mahjong_camera_scorer.scoring.session.model import Session, SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.penalties import Penalty
from mahjong_camera_scorer.scoring.session.photo import PhotoHand, PhotoHandReader, vision_reader
from mahjong_camera_scorer.scoring.session.rulebook import RowContext, Rulebook
from mahjong_camera_scorer.scoring.session.rulebooks import RULEBOOKS, rulebook
from mahjong_camera_scorer.scoring.session.seats import Seating
from mahjong_camera_scorer.scoring.session.sheet import Line, Sheet
from mahjong_camera_scorer.scoring.structured import hand_from_dict

__all__ = ["SEVERAL_WINNERS", "TABLE_SYSTEMS", "Line", "Sheet", "run_session"]

#: the systems whose losers score too: the whole table is settled (Australian, Classical)
TABLE_SYSTEMS = tuple(name for name, book in RULEBOOKS.items() if book.scores_losers)
#: the systems that pay several winners on one discard (riichi, Classical)
SEVERAL_WINNERS = tuple(name for name, book in RULEBOOKS.items() if book.several_winners)
#: a row's own words for the situation's fields, for the parser's messages
ROW_NAMES = {"dora_indicators": "dora", "ura_dora_indicators": "ura"}


def run_session(
    session: Session,
    rules: str,
    options: Mapping[str, str] | None = None,
    read_photo: PhotoHandReader | None = None,
    carried: Mapping[str, Mapping[str, int]] | None = None,
    settings: Mapping[str, str] | None = None,
) -> Sheet:
    """Score and settle every row of ``session`` under ``rules``; :class:`SessionError` for a file
    that cannot be followed (an unknown player, a row after the end of the game).

    ``carried``: MCR obstruction and time-wasting counts from the tournament's earlier sessions
    (added to the file's own ``carry``); ``settings``: the tournament's choices (ties, oka),
    over the file's own ``settings``."""
    if rules not in RULE_SYSTEMS:
        raise SessionError(f"unknown rules {rules!r}: choose one of {', '.join(RULE_SYSTEMS)}")
    if session.rules and session.rules != rules:
        raise SessionError(f"the session file is for {session.rules}, not {rules}")
    if (session.carry or carried) and not rulebook(rules).carried:
        raise SessionError("carried infraction counts are MCR's (seed 000 E 3.6)")
    chosen = {**session.settings, **(settings or {})}
    closing.check_settings(chosen, rules)
    names = {p.name for p in session.players}
    stranger = next((n for n in session.carry if n not in names), None)
    if stranger is not None:
        raise SessionError(f"carry: {stranger!r} is not a player of this table")
    carry = merge_carry(session.carry, carried or {})
    return _Run(session, rules, dict(options or {}), read_photo, carry, chosen).run()


def merge_carry(
    written: Mapping[str, Mapping[str, int]], given: Mapping[str, Mapping[str, int]]
) -> dict[str, dict[str, int]]:
    """The counts a session starts from. ``written``: the file's ``carry``, the count from every
    earlier session as the README asks it; ``given``: the count from the earlier sessions given
    with this one, which the file's already holds (counted once, never added); a file that counts
    fewer than the sessions given is refused."""
    out: dict[str, dict[str, int]] = {}
    for name in {*written, *given}:
        for kind in {*written.get(name, {}), *given.get(name, {})}:
            mine, theirs = written.get(name, {}).get(kind, 0), given.get(name, {}).get(kind, 0)
            if mine and mine < theirs:
                raise SessionError(
                    f"carry: {name} {kind} {mine}, but the sessions given before this one count {theirs} "
                    "(the file's carry is the count from every earlier session)"
                )
            out.setdefault(name, {})[kind] = max(mine, theirs)
    return out


class _Run:
    """One walk through a session's rows (the :class:`.rulebook.Table` its rulebook works on)."""

    def __init__(
        self,
        session: Session,
        rules: str,
        options: dict[str, str],
        read_photo: PhotoHandReader | None,
        carry: dict[str, dict[str, int]],
        settings: dict[str, str],
    ) -> None:
        self.session, self.rules, self.options, self.settings = session, rules, options, settings
        self._read_photo = read_photo
        self.names = [p.name for p in session.players]
        self.seats = Seating(rules, {p.name: p.seat for p in session.players})
        self.totals = dict.fromkeys(self.names, 0)
        self.lines: list[Line] = []
        self.penalties: list[Penalty] = []
        self.rulebook: Rulebook = rulebook(rules)(self, carry)

    def run(self) -> Sheet:
        book = self.rulebook
        rows = self.session.rows
        i = 0
        while i < len(rows):
            row = rows[i]
            if row.kind in ("hand", "draw", "chombo") and self.seats.over:
                raise SessionError(
                    f"{row.line}: the session is over ({book.end_text()}); this row cannot be played"
                )
            if row.same_discard:
                raise SessionError(f"{row.line}: same_discard follows a hand won on that discard")
            if row.kind == "hand":
                group = [row]
                while i + 1 < len(rows) and rows[i + 1].kind == "hand" and rows[i + 1].same_discard:
                    i += 1
                    group.append(rows[i])
                book.hands(group)
            else:
                {"draw": book.draw, "penalty": book.penalty, "chombo": book.chombo}[row.kind](row)
            i += 1
        return Sheet(
            self.session,
            self.rules,
            self.lines,
            self.penalties,
            dict(self.totals),
            book.closing(),
            self.seats.hands_played,
            self._next(),
            book.carry_out(),
            book.layout,
        )

    def _next(self) -> dict[str, Any]:
        """Where the table stands for the next row: who holds which wind, the counters, the end."""
        out: dict[str, Any] = {
            "label": self.seats.label(),
            "winds": dict(self.seats.winds),
            "round_wind": self.seats.round_wind,
            "over": self.seats.over,
        }
        out.update(self.rulebook.counters())
        return out

    # -------------------------------------------------------------------------------------------
    # what the rulebooks use (:class:`scoring.session.rulebook.Table`)
    # -------------------------------------------------------------------------------------------
    def who(self, value: str | None, row: SessionEntry, field_name: str) -> str:
        """A player named in a row: by name, or by the wind he holds at this hand."""
        if not value:
            raise SessionError(f"{row.line}: give '{field_name}' (a player's name or seat E/S/W/N)")
        if value in self.names:
            return value
        if value.upper() in SEATS:
            return self.seats.at(value.upper())
        raise SessionError(
            f"{row.line}.{field_name}: {value!r} is neither a player of this table "
            f"({', '.join(self.names)}) nor a seat E/S/W/N"
        )

    def new_line(self, row: SessionEntry, kind: str, label: str | None) -> Line:
        line = Line(kind, label or "", row.line, dict(self.seats.winds), self.seats.round_wind)
        line.hand_no = self.seats.hands_played + 1
        self.rulebook.stamp(line)
        return line

    def book(self, line: Line, deltas: Mapping[str, int]) -> None:
        line.deltas = {n: int(deltas.get(n, 0)) for n in self.names}
        for n in self.names:
            self.totals[n] += line.deltas[n]
        line.totals = dict(self.totals)
        self.lines.append(line)

    def seat_deltas(self, payments: list[Payment]) -> dict[str, int]:
        net = net_by_seat(payments)
        return {self.seats.at(w): v for w, v in net.items()}

    def photo_notes(self, line: Line, row: SessionEntry, photo: PhotoHand | None) -> None:
        if photo is None:
            return
        line.notes += [msg("check: {what}", what=f) for f in [*photo.flagged, *photo.warnings]]
        if photo.needs_confirmation and not row.confirmed:
            line.status = "confirm"
            line.notes.insert(
                0,
                msg(
                    "photo reading to confirm: the hand is not scored until the referee "
                    "confirms it (confirmed: true) or types it"
                ),
            )

    def hand_in_context(
        self, row: SessionEntry, winner: str, declarers: list[str]
    ) -> tuple[Hand, PhotoHand | None]:
        """The hand with the session's context (seat, round, discarder, the rulebook's counters and
        flags), checked against the row: a hand that says ``tsumo`` with a ``discarder`` is refused,
        never settled as a discard win."""
        hand, photo = self._base(row)
        said = self._win_by_said(row, hand)
        if row.win_by and said and said != row.win_by:
            raise SessionError(f"{row.line}: the hand says {said}, the row says win_by {row.win_by}")
        win_by = row.win_by or said or hand.context.win_by
        situation: dict[str, Any] = {}
        if row.discarder:
            if win_by == "self_draw":
                raise SessionError(
                    f"{row.line}: the hand is self-drawn (tsumo) and the row names a discarder: "
                    "remove one of them"
                )
            discarder = self.who(row.discarder, row, "discarder")
            if discarder == winner:
                raise SessionError(f"{row.line}: the discarder cannot be the winner")
            situation["discarder"] = self.seats.winds[discarder]
            win_by = "discard"
        if row.same_discard and win_by == "self_draw":
            raise SessionError(f"{row.line}: same_discard is a win on a discard, not a self-drawn one")
        ctx = RowContext(row, winner, win_by, declarers, set(hand.context.flags) | set(row.flags), situation)
        self.rulebook.situation(ctx)
        situation.update(
            seat_wind=self.seats.winds[winner],
            round_wind=self.seats.round_wind,
            win_by=win_by,
            flags=sorted(ctx.flags),
            winning_tile=row.winning_tile or None,
            dora_indicators=row.dora or None,
            ura_dora_indicators=row.ura or None,
            options=row.options,
        )
        # the situation built by the one parser every front end uses, over the hand's own
        context = context_from_dict(situation, hand.context, names=ROW_NAMES, where=row.line)
        return replace(hand, context=context), photo

    # -------------------------------------------------------------------------------------------
    def photo_reader(self) -> PhotoHandReader:
        if self._read_photo is None:
            self._read_photo = vision_reader()
        return self._read_photo

    def _base(self, row: SessionEntry) -> tuple[Hand, PhotoHand | None]:
        """The hand as typed or as the photo shows it, before the session's context (a typed
        hand's own flags with the row's: a Goulash's jokers change how its melds read)."""
        if isinstance(row.hand, str):
            return parse_hand(row.hand), None
        if isinstance(row.hand, Mapping):
            flags = [*field_names(row.hand.get("flags"), "flags"), *row.flags]
            return hand_from_dict({**row.hand, "flags": flags} if flags else row.hand), None
        # a photo read elsewhere (the phone page) is checked as any photo read here
        photo = row.reading if row.reading is not None else self._read_file(row)
        if photo.hand is None:
            raise HandError(f"the photo could not be read: {photo.error or 'no hand found'}")
        return photo.hand, photo

    def _read_file(self, row: SessionEntry) -> PhotoHand:
        assert row.photo is not None
        path = Path(self.session.base_dir) / row.photo
        if not path.is_file():  # a FIFO, a device or a folder is named as what it is
            kind = what_is(path)
            raise HandError(f"{path} is {kind}, not a photo" if kind else f"no such photo: {path}")
        return self.photo_reader()(path)

    @staticmethod
    def _win_by_said(row: SessionEntry, hand: Hand) -> str | None:
        """How the hand itself says it was won: ``tsumo``/``ron`` in the notation, ``win_by`` in the
        structured form; None when it does not say."""
        if isinstance(row.hand, str):
            return hand.context.win_by if says_how_won(row.hand) else None
        if isinstance(row.hand, Mapping):
            return hand.context.win_by if "win_by" in row.hand else None
        return None
