"""A table's session, row by row: score each hand, settle it, move the winds, keep the totals.

The session gives each hand what a photo or a typed hand cannot know: the winner's seat and round
wind at that moment, who discarded, the riichi counters. Everything a system settles comes through
:func:`scoring.session.settle.hand_payments` (``Score.payments``); the closing (table points, uma) is
:mod:`.closing`. A hand that cannot be scored (an invalid hand, or a photo whose reading has to
be confirmed) stays on the sheet with its reason and no points, and the sheet says it is not
complete: nothing the referee wrote is dropped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scoring.hand import WINDS, Hand, HandError
from scoring.notation import format_hand, parse_hand
from scoring.payments import Payment, net_by_seat
from scoring.result import Score
from scoring.riichi.payments import RIICHI_STICK
from scoring.rules import RULE_SYSTEMS, score_hand, scorer
from scoring.session import closing
from scoring.session.model import Session, SessionEntry, SessionError
from scoring.session.penalties import Penalty, mcr_penalty, other_penalty, riichi_penalty
from scoring.session.photo import PhotoHand, PhotoHandReader, vision_reader
from scoring.session.seats import Seating
from scoring.session.settle import hand_payments
from scoring.structured import hand_from_dict, hand_to_dict

#: riichi chombo: a reversed mangan (spec §2.8)
CHOMBO_FROM_DEALER, CHOMBO_TO_DEALER, CHOMBO_TO_OTHER = 4000, 4000, 2000
#: riichi exhaustive draw: 3,000 from the noten players to the tenpai players (spec §2.9)
NOTEN_TOTAL = 3000
TABLE_SYSTEMS = ("australian", "classical")  # losers score too: the whole table is settled


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
    notes: list[str] = field(default_factory=list)


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

    @property
    def pending(self) -> list[Line]:
        """Lines the referee must still settle: photos to confirm, hands that could not be scored."""
        return [line for line in self.lines if line.status in ("confirm", "error")]

    @property
    def complete(self) -> bool:
        return not self.pending


def run_session(
    session: Session,
    rules: str,
    options: Mapping[str, str] | None = None,
    read_photo: PhotoHandReader | None = None,
) -> Sheet:
    """Score and settle every row of ``session`` under ``rules``; :class:`SessionError` for a file
    that cannot be followed (an unknown player, a row after the end of the game)."""
    if rules not in RULE_SYSTEMS:
        raise SessionError(f"unknown rules {rules!r}: choose one of {', '.join(RULE_SYSTEMS)}")
    if session.rules and session.rules != rules:
        raise SessionError(f"the session file is for {session.rules}, not {rules}")
    return _Run(session, rules, dict(options or {}), read_photo).run()


class _Run:
    def __init__(
        self, session: Session, rules: str, options: dict[str, str], read_photo: PhotoHandReader | None
    ) -> None:
        self.session, self.rules, self.options = session, rules, options
        self._read_photo = read_photo
        self.names = [p.name for p in session.players]
        self.seats = Seating(rules, {p.name: p.seat for p in session.players})
        self.totals = dict.fromkeys(self.names, 0)
        self.lines: list[Line] = []
        self.penalties: list[Penalty] = []
        self.honba = 0
        self.pot = 0  # riichi sticks on the table

    # -------------------------------------------------------------------------------------------
    def run(self) -> Sheet:
        rows = self.session.rows
        i = 0
        while i < len(rows):
            row = rows[i]
            if row.kind in ("hand", "draw", "chombo") and self.seats.over:
                raise SessionError(
                    f"{row.line}: the session is over ({self._end_text()}); this row cannot be played"
                )
            if row.same_discard:
                raise SessionError(f"{row.line}: same_discard follows a hand won on that discard")
            if row.kind == "hand":
                group = [row]
                while i + 1 < len(rows) and rows[i + 1].kind == "hand" and rows[i + 1].same_discard:
                    i += 1
                    group.append(rows[i])
                self._hands(group)
            else:
                {"draw": self._draw, "penalty": self._penalty, "chombo": self._chombo}[row.kind](row)
            i += 1
        disqualified = {p.player for p in self.penalties if p.disqualified}
        if self.rules == "mcr":
            close = closing.close_mcr(self.totals, disqualified)
        elif self.rules == "riichi":
            subs = {p.name: p.substitute for p in self.session.players if p.substitute}
            close = closing.close_riichi(self.totals, self.pot, subs, disqualified)
        else:
            close = {"totals": dict(self.totals)}
        return Sheet(
            self.session,
            self.rules,
            self.lines,
            self.penalties,
            dict(self.totals),
            close,
            self.seats.hands_played,
            self._next(),
        )

    def _next(self) -> dict[str, Any]:
        """Where the table stands for the next row: who holds which wind, the counters, the end."""
        out: dict[str, Any] = {
            "label": self.seats.label(),
            "winds": dict(self.seats.winds),
            "round_wind": self.seats.round_wind,
            "over": self.seats.over,
        }
        if self.rules == "riichi":
            out["honba"], out["sticks"] = self.honba, self.pot
        return out

    def _end_text(self) -> str:
        if self.rules == "riichi":
            return "the East and South rounds are played"
        return f"{self.seats.hands_played} hands played"

    # -------------------------------------------------------------------------------------------
    def who(self, value: str | None, row: SessionEntry, field_name: str) -> str:
        """A player named in a row: by name, or by the wind he holds at this hand."""
        if not value:
            raise SessionError(f"{row.line}: give '{field_name}' (a player's name or seat E/S/W/N)")
        if value in self.names:
            return value
        if value.upper() in WINDS:
            return self.seats.at(value.upper())
        raise SessionError(
            f"{row.line}.{field_name}: {value!r} is neither a player of this table "
            f"({', '.join(self.names)}) nor a seat E/S/W/N"
        )

    def new_line(self, row: SessionEntry, kind: str, label: str) -> Line:
        line = Line(kind, label, row.line, dict(self.seats.winds), self.seats.round_wind)
        if self.rules == "riichi" and kind != "penalty":
            line.honba, line.sticks = self.honba, self.pot
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

    def check_counters(self, row: SessionEntry) -> None:
        """The sheet's honba and sticks, when written, must be the session's own count."""
        if row.honba is not None and row.honba != self.honba:
            raise SessionError(
                f"{row.line}: the file says honba {row.honba}, the session counts {self.honba}"
            )
        if row.sticks is not None and row.sticks != self.pot:
            raise SessionError(
                f"{row.line}: the file says {row.sticks} riichi sticks on the table, "
                f"the session counts {self.pot}"
            )

    def declare_riichi(self, row: SessionEntry, deltas: dict[str, int]) -> list[str]:
        declarers = [self.who(n, row, "riichi") for n in row.riichi]
        if len(set(declarers)) != len(declarers):
            raise SessionError(f"{row.line}.riichi: a player is listed twice")
        if declarers and self.rules != "riichi":
            raise SessionError(f"{row.line}: riichi declarations are for the riichi rules")
        for n in declarers:
            deltas[n] = deltas.get(n, 0) - RIICHI_STICK
        self.pot += len(declarers)
        return declarers

    # -------------------------------------------------------------------------------------------
    def _penalty(self, row: SessionEntry) -> None:
        player = self.who(row.player, row, "player")
        at = self.seats.hands_played + 1
        if self.rules == "mcr":
            pen = mcr_penalty(row, player, at, [p for p in self.penalties])
        elif self.rules == "riichi":
            pen = riichi_penalty(row, player, at)
        else:
            pen = other_penalty(row, player, at)
        self.penalties.append(pen)
        line = self.new_line(row, "penalty", "")
        line.status = "penalty"
        line.winner = None
        line.notes = [f"{player}: {pen.infraction} — {pen.note}"]
        deltas = {player: -pen.points}
        if pen.each:
            deltas.update({n: pen.each for n in self.names if n != player})
        self.book(line, deltas)

    def _chombo(self, row: SessionEntry) -> None:
        if self.rules != "riichi":
            raise SessionError(
                f"{row.line}: chombo is a riichi penalty; under {self.rules} record a penalty row"
            )
        offender = self.who(row.player, row, "chombo")
        self.check_counters(row)
        dealer = self.seats.at("E")
        line = self.new_line(row, "chombo", self.seats.label())
        line.status = "penalty"
        if offender == dealer:
            deltas = {n: CHOMBO_FROM_DEALER for n in self.names if n != offender}
        else:
            deltas = {
                n: CHOMBO_TO_DEALER if n == dealer else CHOMBO_TO_OTHER for n in self.names if n != offender
            }
        deltas[offender] = -sum(deltas.values())
        line.notes = [
            f"chombo by {offender}: reversed mangan, the hand is replayed, no counter, "
            "East keeps the deal, riichi sticks go back (seed 001 §3.4.6-7)"
        ]
        self.penalties.append(
            Penalty(
                offender,
                self.seats.hands_played + 1,
                "chombo",
                -deltas[offender],
                note="reversed mangan paid to the others",
            )
        )
        self.book(line, deltas)

    def _draw(self, row: SessionEntry) -> None:
        self.check_counters(row)
        line = self.new_line(row, "draw", self.seats.label())
        line.status = "draw"
        deltas: dict[str, int] = {}
        keeps = False
        if self.rules == "riichi":
            declarers = self.declare_riichi(row, deltas)
            dealer = self.seats.at("E")
            if row.draw == "abortive":
                keeps = True
                line.notes.append("abortive draw: no noten payments, a counter is added, East stays (§3.4)")
            else:
                tenpai = [self.who(n, row, "tenpai") for n in row.tenpai]
                noten_riichi = [n for n in declarers if n not in tenpai]
                if noten_riichi:
                    raise SessionError(
                        f"{row.line}: {noten_riichi[0]} declared riichi but is not listed tenpai: "
                        "a noten riichi is a chombo (add a 'chombo' row instead)"
                    )
                if 0 < len(tenpai) < 4:
                    gain, loss = NOTEN_TOTAL // len(tenpai), NOTEN_TOTAL // (4 - len(tenpai))
                    for n in self.names:
                        deltas[n] = deltas.get(n, 0) + (gain if n in tenpai else -loss)
                keeps = dealer in tenpai
                line.notes.append(
                    f"exhaustive draw: tenpai {', '.join(tenpai) or 'nobody'}; "
                    f"East {'stays' if keeps else 'passes'}"
                )
            self.honba += 1
        else:
            line.notes.append("draw: no payments")
        self.book(line, deltas)
        self.seats.after_hand(dealer_keeps=keeps)

    # -------------------------------------------------------------------------------------------
    def _hands(self, rows: list[SessionEntry]) -> None:
        """One hand of play: a win, or (riichi, seed 001 §3.4.9; spec §5.5) several winners on one
        discard, each paid separately by the discarder with the full counters. Riichi sticks go to
        the winner (with several: each winner's own stick back to him, the others to the first winner
        in turn order after the discarder); East keeps the deal if he is among the winners."""
        if len(rows) > 1 and self.rules != "riichi":
            raise SessionError(f"{rows[1].line}: only riichi pays several winners on one discard")
        dealer = self.seats.at("E")
        for row in rows:
            self.check_counters(row)
        on_table = self.pot  # the sticks on the table when the hand started, for the sheet
        deltas: list[dict[str, int]] = [{} for _ in rows]
        declarers: list[str] = []
        for row, d in zip(rows, deltas, strict=True):
            declarers += self.declare_riichi(row, d) if self.rules == "riichi" else []
        if len(set(declarers)) != len(declarers):
            raise SessionError(f"{rows[0].line}.riichi: a player is listed twice")
        lines = [self._one_hand(row, d, declarers) for row, d in zip(rows, deltas, strict=True)]
        if self.rules == "riichi":
            for line in lines:
                line.sticks = on_table
        if self.rules != "riichi":
            self.book(lines[0], deltas[0])
            self.seats.after_hand()
            return
        winners = [line.winner for line in lines]
        if len(rows) > 1:
            discarders = {line.discarder for line in lines}
            if len(set(winners)) != len(winners) or len(discarders) != 1 or None in discarders:
                raise SessionError(
                    f"{rows[1].line}: several winners on one discard need distinct winners "
                    "and the same discarder"
                )
        # each hand line has its winner (_one_hand): paid line → winner
        won = {i: line.winner for i, line in enumerate(lines)
               if line.status in ("scored", "confirm") and line.winner is not None}
        paid = list(won)
        if self.pot and paid:  # sticks are not the hand's value: a hand to confirm still takes them
            if len(lines) > 1:
                for i in paid:
                    if won[i] in declarers:
                        deltas[i][won[i]] = deltas[i].get(won[i], 0) + RIICHI_STICK
                        self.pot -= 1
                assert lines[0].discarder is not None  # several winners have one discarder (above)
                order = "ESWN" * 2
                after = order[order.index(self.seats.winds[lines[0].discarder]) + 1 :][:3]
                first = min(paid, key=lambda i: after.index(self.seats.winds[won[i]]))
            else:
                first = paid[0]
            if self.pot:
                winner = won[first]
                deltas[first][winner] = deltas[first].get(winner, 0) + RIICHI_STICK * self.pot
                lines[first].notes.append(f"{winner} takes {self.pot} riichi stick(s)")
                self.pot = 0
        keeps = dealer in winners
        self.honba = self.honba + 1 if keeps else 0
        for line, d in zip(lines, deltas, strict=True):
            self.book(line, d)
        self.seats.after_hand(dealer_keeps=keeps)

    def _one_hand(self, row: SessionEntry, deltas: dict[str, int], declarers: list[str]) -> Line:
        """Score and settle one won hand into ``deltas``; the counters and the deal move later."""
        winner = self.who(row.winner, row, "winner")
        line = self.new_line(row, "hand", self.seats.label())
        line.winner, line.photo = winner, row.photo
        hand: Hand | None
        score: Score | None
        try:
            hand, score, photo = self._score(row, winner, declarers)
        except HandError as exc:
            line.status, line.notes = "error", [f"not scored: {exc}"]
            hand = score = photo = None
        if photo is not None and line.status != "error":
            line.notes += [f"check: {f}" for f in photo.flagged] + [f"check: {w}" for w in photo.warnings]
            if photo.needs_confirmation and not row.confirmed:
                line.status = "confirm"
                line.notes.insert(
                    0,
                    "photo reading to confirm: the hand is not scored until the referee "
                    "confirms it (confirmed: true) or types it",
                )
        if hand is not None:
            line.hand = format_hand(hand)
            line.win_by = hand.win_by
            line.discarder = self.seats.at(hand.extra["discarder"]) if hand.extra.get("discarder") else None
        if score is not None and line.status == "scored":
            line.value, line.unit, line.elements = score.total, score.unit, dict(score.elements)
            if not score.valid:
                line.status, line.notes = "error", [f"not a valid win: {score.error}", *line.notes]
            else:
                try:
                    pays = hand_payments(score)
                except HandError as exc:
                    line.status, line.notes = "error", [f"not settled: {exc}", *line.notes]
                else:
                    for n, v in self.seat_deltas(pays).items():
                        deltas[n] = deltas.get(n, 0) + v
        return line

    def _pao(self, row: SessionEntry) -> str | None:
        if row.pao is None:
            return None
        if self.rules != "riichi":
            raise HandError("pao (liability) is a riichi rule")
        return self.seats.winds[self.who(row.pao, row, "pao")]

    def photo_reader(self) -> PhotoHandReader:
        if self._read_photo is None:
            self._read_photo = vision_reader()
        return self._read_photo

    def _base(self, row: SessionEntry) -> tuple[dict[str, Any], PhotoHand | None]:
        """The hand as typed or as the photo shows it, before the session's context."""
        if isinstance(row.hand, str):
            return hand_to_dict(parse_hand(row.hand)), None
        if isinstance(row.hand, Mapping):
            return dict(row.hand), None
        # a photo read elsewhere (the phone page) is checked as any photo read here
        photo = row.reading if row.reading is not None else self._read_file(row)
        if photo.hand is None:
            raise HandError(f"the photo could not be read: {photo.error or 'no hand found'}")
        return dict(photo.hand), photo

    def _read_file(self, row: SessionEntry) -> PhotoHand:
        assert row.photo is not None
        path = Path(self.session.base_dir) / row.photo
        if not path.is_file():
            raise HandError(f"no such photo: {path}")
        return self.photo_reader()(path)

    def _score(
        self, row: SessionEntry, winner: str, declarers: list[str]
    ) -> tuple[Hand, Score, PhotoHand | None]:
        data, photo = self._base(row)
        if row.winning_tile:
            data["winning_tile"] = row.winning_tile
        data["seat_wind"] = self.seats.winds[winner]
        data["round_wind"] = self.seats.round_wind
        if row.win_by:
            data["win_by"] = row.win_by
        if row.discarder:
            discarder = self.who(row.discarder, row, "discarder")
            if discarder == winner:
                raise HandError("the discarder cannot be the winner")
            data["discarder"] = self.seats.winds[discarder]
            if not row.win_by:
                data["win_by"] = "discard"
        liable = self._pao(row)
        if liable is not None:
            data["pao"] = liable  # the riichi scorer re-divides the payment (§3.3.6)
        flags = list(data.get("flags") or []) + [f for f in row.flags if f not in (data.get("flags") or [])]
        if winner in declarers and "riichi" not in flags and "double_riichi" not in flags:
            flags.append("riichi")
        data["flags"] = flags
        if row.dora:
            data["dora_indicators"] = row.dora
        if row.ura:
            data["ura_dora_indicators"] = row.ura
        if self.rules == "riichi":
            data["honba"], data["riichi_sticks"] = self.honba, 0  # the session pays the sticks itself
        if row.options:
            data["options"] = {**(data.get("options") or {}), **row.options}
        hand = hand_from_dict(data)
        if self.rules in TABLE_SYSTEMS:
            return hand, self._score_table(row, winner, data), photo
        if hand.win_by == "discard" and not hand.extra.get("discarder") and self.rules != "zung-jung":
            raise HandError("a hand won on a discard needs 'discarder' to be settled")
        return hand, score_hand(hand, self.rules, self.options), photo

    def _score_table(self, row: SessionEntry, winner: str, data: dict[str, Any]) -> Score:
        players: dict[str, Any] = {self.seats.winds[winner]: {**data, "role": "winner"}}
        for key, entry in row.others.items():
            who = self.who(str(key), row, "others")
            wind = self.seats.winds[who]
            if who == winner or wind in players:
                raise HandError(f"others: {who} is listed twice (or is the winner)")
            if isinstance(entry, bool) or not isinstance(entry, int | str | Mapping):
                raise HandError(f"others.{key}: give a score, a hand in notation or a structured hand")
            if isinstance(entry, int):
                players[wind] = {"role": "loser", "score": entry}
            elif isinstance(entry, str):
                players[wind] = {**hand_to_dict(parse_hand(entry)), "seat_wind": wind, "role": "loser"}
            else:
                players[wind] = {"role": "loser", "seat_wind": wind, **entry}
        missing = [self.seats.at(w) for w in WINDS if w not in players]
        if missing:
            raise HandError(
                f"others: give the hand or score of {', '.join(missing)} "
                f"({self.rules} scores the losers' hands too)"
            )
        table = {"round_wind": self.seats.round_wind, "players": players}
        result: Score = scorer(self.rules).score_table(table, self.options)
        return result
