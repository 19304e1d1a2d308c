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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from scoring.context import context_from_dict
from scoring.fields import field_names
from scoring.hand import Hand, HandError
from scoring.notation import format_hand, parse_hand, says_how_won
from scoring.payments import SEATS, Payment, net_by_seat
from scoring.result import Score
from scoring.riichi.payments import RIICHI_STICK
from scoring.rules import RULE_SYSTEMS, score_hand, scorer
from scoring.session import closing
from scoring.session.i18n import Msg, msg
from scoring.session.model import Session, SessionEntry, SessionError
from scoring.session.penalties import (
    CARRIED,
    Penalty,
    australian_false_mah_jong,
    mcr_penalty,
    other_penalty,
    riichi_penalty,
)
from scoring.session.photo import PhotoHand, PhotoHandReader, vision_reader
from scoring.session.seats import Seating
from scoring.session.settle import hand_payments
from scoring.situation_words import NOBODY
from scoring.structured import hand_from_dict, hand_to_dict

#: riichi chombo: a reversed mangan (spec §2.8)
CHOMBO_FROM_DEALER, CHOMBO_TO_DEALER, CHOMBO_TO_OTHER = 4000, 4000, 2000
#: riichi exhaustive draw: 3,000 from the noten players to the tenpai players (spec §2.9)
NOTEN_TOTAL = 3000
TABLE_SYSTEMS = ("australian", "classical")  # losers score too: the whole table is settled
#: the systems that pay several winners on one discard: riichi (seed 001 §3.4.9, each paid by the
#: discarder) and Classical (seed 004: "Se c'è più di un mah jong contemporaneamente i giocatori che
#: hanno chiuso riscuotono da quelli che non hanno chiuso e tra loro regolano la differenza")
SEVERAL_WINNERS = ("riichi", "classical")
#: a row's own words for the situation's fields, for the parser's messages
ROW_NAMES = {"dora_indicators": "dora", "ura_dora_indicators": "ura"}


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
    #: the win was not a valid one: the hand is not over (riichi: a chombo, seed 001 §3.4.6)
    invalid: bool = False
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

    @property
    def pending(self) -> list[Line]:
        """Lines the referee must still settle: photos to confirm, hands that could not be scored
        (an invalid win stays pending until its chombo row is written: riichi)."""
        return [line for line in self.lines if line.status in ("confirm", "error")]

    @property
    def complete(self) -> bool:
        return not self.pending


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
    if (session.carry or carried) and rules != "mcr":
        raise SessionError("carried infraction counts are MCR's (seed 000 E 3.6)")
    chosen = {**session.settings, **(settings or {})}
    closing.check_settings(chosen, rules)
    carry: dict[str, dict[str, int]] = {}
    for source in (session.carry, carried or {}):
        for name, counts in source.items():
            for kind, n in counts.items():
                carry.setdefault(name, {})[kind] = carry.get(name, {}).get(kind, 0) + n
    names = {p.name for p in session.players}
    stranger = next((n for n in session.carry if n not in names), None)
    if stranger is not None:
        raise SessionError(f"carry: {stranger!r} is not a player of this table")
    return _Run(session, rules, dict(options or {}), read_photo, carry, chosen).run()


class _Run:
    def __init__(
        self,
        session: Session,
        rules: str,
        options: dict[str, str],
        read_photo: PhotoHandReader | None,
        carry: dict[str, dict[str, int]],
        settings: dict[str, str],
    ) -> None:
        self.session, self.rules, self.options = session, rules, options
        self.carry, self.settings = carry, settings
        self.dead: set[str] = set()  # riichi: players whose hand is dead in this hand (§3.4.7)
        self.goulash = False  # Australian: the next hand is a Goulash (it follows a dead hand)
        self.goulash_pot = 0  # Australian: a pot carried from a Goulash that ended dead
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
            close = closing.close_mcr(self.totals, disqualified, self.settings)
        elif self.rules == "riichi":
            subs = {p.name: p.substitute for p in self.session.players if p.substitute}
            close = closing.close_riichi(self.totals, self.pot, subs, disqualified, self.settings)
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
            self._carry_out(),
        )

    def _carry_out(self) -> dict[str, dict[str, int]]:
        """The counts the next session starts from: carried ones plus this session's (E 3.6)."""
        if self.rules != "mcr":
            return {}
        out = {n: {k: self.carry.get(n, {}).get(k, 0) for k in CARRIED} for n in self.names}
        for p in self.penalties:
            if p.infraction in CARRIED:
                out[p.player][p.infraction] += 1
        return {n: counts for n, counts in out.items() if any(counts.values())}

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
        if self.rules == "australian":
            out["goulash"] = self.goulash
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
        if value.upper() in SEATS:
            return self.seats.at(value.upper())
        raise SessionError(
            f"{row.line}.{field_name}: {value!r} is neither a player of this table "
            f"({', '.join(self.names)}) nor a seat E/S/W/N"
        )

    def new_line(self, row: SessionEntry, kind: str, label: str | None) -> Line:
        line = Line(kind, label or "", row.line, dict(self.seats.winds), self.seats.round_wind)
        line.hand_no = self.seats.hands_played + 1
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
            carried = self.carry.get(player, {}).get(row.infraction, 0)
            pen = mcr_penalty(row, player, at, list(self.penalties), carried)
        elif self.rules == "riichi":
            pen = riichi_penalty(row, player, at)
            if pen.infraction == "dead_hand":
                self.dead.add(player)
        elif self.rules == "australian" and row.infraction == "false_mah_jong":
            pen = australian_false_mah_jong(row, player, at, self.options, dict(self.seats.winds))
        else:
            pen = other_penalty(row, player, at)
        self.penalties.append(pen)
        line = self.new_line(row, "penalty", "")
        line.status = "penalty"
        line.winner = None
        line.notes = [
            msg(
                "{player}: {infraction} — {note}",
                player=player,
                infraction=msg(pen.infraction),
                note=pen.note,
            )
        ]
        deltas = {player: -pen.points}
        if pen.paid:
            deltas.update(dict(pen.paid))
        elif pen.each:
            deltas.update({n: pen.each for n in self.names if n != player})
        self.book(line, deltas)

    def _chombo(self, row: SessionEntry) -> None:
        if self.rules != "riichi":
            raise SessionError(
                f"{row.line}: chombo is a riichi penalty; under {self.rules} record a penalty row"
            )
        offender = self.who(row.player, row, "chombo")
        self.check_counters(row)
        self.dead.clear()  # the hand is replayed
        last = self.lines[-1] if self.lines else None
        if last is not None and last.invalid and last.status == "error" and last.winner == offender:
            # "dichiarare una chiusura non valida" is a chombo (§3.4.6): the invalid win is settled
            last.status = "void"
            last.notes.append(msg("settled by the chombo below: the hand is replayed"))
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
            msg(
                "chombo by {player}: reversed mangan, the hand is replayed, no counter, "
                "East keeps the deal, riichi sticks go back (seed 001 §3.4.6-7)",
                player=offender,
            )
        ]
        self.penalties.append(
            Penalty(
                offender,
                self.seats.hands_played + 1,
                "chombo",
                -deltas[offender],
                note=msg("reversed mangan paid to the others"),
            )
        )
        self.book(line, deltas)

    def _draw(self, row: SessionEntry) -> None:
        self.check_counters(row)
        line = self.new_line(row, "draw", self.seats.label())
        line.status = "draw"
        deltas: dict[str, int] = {}
        keeps = False
        if row.tenpai and self.rules != "riichi":
            raise SessionError(f"{row.line}: tenpai at a draw is for the riichi rules")
        if row.draw == "abortive" and self.rules != "riichi":
            raise SessionError(f"{row.line}: an abortive draw is for the riichi rules")
        if self.rules == "riichi":
            declarers = self.declare_riichi(row, deltas)
            dealer = self.seats.at("E")
            if row.draw == "abortive":
                keeps = True
                line.notes.append(
                    msg("abortive draw: no noten payments, a counter is added, East stays (§3.4)")
                )
            else:
                tenpai = [self.who(n, row, "tenpai") for n in row.tenpai]
                if len(set(tenpai)) != len(tenpai):
                    raise SessionError(f"{row.line}.tenpai: a player is listed twice")
                dead = [n for n in tenpai if n in self.dead]
                if dead:
                    raise SessionError(
                        f"{row.line}: {dead[0]} has a dead hand, which 'non può mai essere considerato "
                        "tenpai' (seed 001 §3.4.7): he pays noten"
                    )
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
                    msg(
                        "exhaustive draw: tenpai {who}; East stays"
                        if keeps
                        else "exhaustive draw: tenpai {who}; East passes",
                        who=", ".join(tenpai) or msg("nobody"),
                    )
                )
            self.honba += 1
            self.dead.clear()
        elif self.rules == "australian":
            keeps = self._australian_dead_hand(line, deltas)
        else:
            if self.rules == "classical" and self._option("classical", "no_winner_settlement") != "none":
                raise SessionError(
                    f"{row.line}: no_winner_settlement={self._option('classical', 'no_winner_settlement')} "
                    "settles the hands' scores at a draw: give the hand as a table (mahjong-score table)"
                )
            line.notes.append(msg("draw: no payments"))
        self.book(line, deltas)
        self.seats.after_hand(dealer_keeps=keeps)

    def _option(self, rules: str, name: str) -> str:
        from scoring.options import resolve

        return resolve(scorer(rules).OPTIONS, {}, self.options)[name]

    def _australian_dead_hand(self, line: Line, deltas: dict[str, int]) -> bool:
        """Seed 003: "Se il muro si esaurisce senza un vincitore (mano morta), ne viene rigiocata una
        con regole particolari, detta Goulash" and "Per il Goulash le posizioni dei giocatori non
        ruotano"; after a Goulash "a prescindere da chi vince" they rotate. A Goulash that ends
        dead is a dead hand too: the seats rotate (it was a Goulash) and a Goulash follows."""
        was_goulash = self.goulash
        line.goulash = was_goulash
        self.goulash = True
        if not was_goulash:
            line.notes.append(
                msg("dead hand: no payments; the next hand is a Goulash, seats stay (seed 003)")
            )
            return True
        if self._option("australian", "goulash_dead_pot") == "carry":
            stake = int(self._option("australian", "goulash_stake"))
            for n in self.names:
                deltas[n] = -stake
            self.goulash_pot += 4 * stake
            line.notes.append(
                msg(
                    "the Goulash ends dead: each puts {stake} in the pot, {pot} carried to the next Goulash "
                    "(goulash_dead_pot=carry); seats rotate",
                    stake=stake,
                    pot=self.goulash_pot,
                )
            )
        else:
            line.notes.append(
                msg("the Goulash ends dead: stakes returned; seats rotate; another Goulash follows")
            )
        return False

    # -------------------------------------------------------------------------------------------
    def _hands(self, rows: list[SessionEntry]) -> None:
        """One hand of play: a win, or several winners on one discard (riichi, seed 001 §3.4.9:
        each paid separately by the discarder with the full counters; Classical, seed 004: the
        winners collect from the others and settle their differences). Riichi sticks go to the
        winner (with several: each winner's own stick back to him, the others to the first winner
        in turn order after the discarder); East keeps the deal if he is among the winners.
        A win that is not valid does not end the hand: nothing moves (riichi: it is a chombo)."""
        if len(rows) > 1 and self.rules not in SEVERAL_WINNERS:
            raise SessionError(
                f"{rows[1].line}: only riichi and Classical pay several winners on one discard"
            )
        if self.rules == "classical" and len(rows) > 1:
            self._classical_winners(rows)
            return
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
        if all(line.invalid for line in lines):
            # not a win: the hand goes on (or, riichi, is replayed after the chombo); no stick is
            # booked, no counter or wind moves
            self.pot = on_table
            for line in lines:
                line.notes.append(
                    msg(
                        "a chombo (seed 001 §3.4.6, 'dichiarare una chiusura non valida'): add the chombo row"
                    )
                    if self.rules == "riichi"
                    else msg("not a win: the hand is not over; record the false win as a penalty row")
                )
                self.book(line, {})
            return
        if self.rules == "riichi":
            for line in lines:
                line.sticks = on_table
        if self.rules != "riichi":
            self.book(lines[0], deltas[0])
            self.goulash = False  # a Goulash, won, is followed by an ordinary hand
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
                lines[first].notes.append(
                    msg("{winner} takes {n} riichi stick(s)", winner=winner, n=self.pot)
                )
                self.pot = 0
        keeps = dealer in winners
        self.honba = self.honba + 1 if keeps else 0
        self.dead.clear()
        for line, d in zip(lines, deltas, strict=True):
            self.book(line, d)
        self.seats.after_hand(dealer_keeps=keeps)

    def _classical_winners(self, rows: list[SessionEntry]) -> None:
        """Several mah jong on one discard, settled as one table (seed 004): the first line holds
        the whole table's payments, each further winner's line says it is settled there."""
        winners = [self.who(row.winner, row, "winner") for row in rows]
        if len(set(winners)) != len(winners):
            raise SessionError(f"{rows[1].line}: several winners on one discard need distinct winners")
        lines = [self.new_line(row, "hand", self.seats.label()) for row in rows]
        hands: list[Hand] = []
        try:
            for row, winner, line in zip(rows, winners, lines, strict=True):
                hand, photo = self._hand_in_context(row, winner, [])
                if hand.context.win_by != "discard":
                    raise SessionError(f"{row.line}: several mah jong are won on one discard, not self-drawn")
                self._photo_notes(line, row, photo)
                line.winner, line.photo, line.hand, line.win_by = (
                    winner,
                    row.photo,
                    format_hand(hand),
                    "discard",
                )
                line.discarder = self.seats.at(hand.context.discarder) if hand.context.discarder else None
                hands.append(hand)
            discarders = {line.discarder for line in lines}
            if len(discarders) != 1 or None in discarders:
                raise SessionError(f"{rows[1].line}: several winners on one discard need the same discarder")
            score = self._score_table(rows, winners, hands)
        except SessionError:
            raise
        except HandError as exc:
            lines[0].status, lines[0].notes = (
                "error",
                [msg("not scored: {reason}", reason=str(exc)), *lines[0].notes],
            )
            score = None
        deltas: dict[str, int] = {}
        unsure = any(line.status == "confirm" for line in lines)  # a photo to confirm: nothing paid yet
        if score is not None and not score.valid:
            lines[0].status, lines[0].notes = (
                "error",
                [msg("not a valid win: {reason}", reason=score.error), *lines[0].notes],
            )
            for line in lines:
                line.invalid = True
        elif score is not None and not unsure:
            for n, v in self.seat_deltas(hand_payments(score)).items():
                deltas[n] = deltas.get(n, 0) + v
            capped = score.details.get("capped_scores", {})
            for line, winner in zip(lines, winners, strict=True):
                line.value, line.unit = capped.get(self.seats.winds[winner]), score.unit
            lines[0].notes.append(
                msg(
                    "several mah jong on one discard: the winners collect from the others and settle "
                    "their differences (seed 004)"
                )
            )
        self.book(lines[0], deltas)
        for line in lines[1:]:
            line.notes.append(msg("settled with the first winner's line (one table, seed 004)"))
            if lines[0].status == "error":
                line.status = "error"
            self.book(line, {})
        if not lines[0].invalid:  # a win that is not valid ends nothing
            self.seats.after_hand()

    def _one_hand(self, row: SessionEntry, deltas: dict[str, int], declarers: list[str]) -> Line:
        """Score and settle one won hand into ``deltas``; the counters and the deal move later."""
        winner = self.who(row.winner, row, "winner")
        if winner in self.dead:
            raise SessionError(
                f"{row.line}: {winner} has a dead hand and 'non può dichiarare mahjong' (seed 001 §3.4.7)"
            )
        line = self.new_line(row, "hand", self.seats.label())
        line.winner, line.photo, line.goulash = winner, row.photo, self.goulash
        hand: Hand | None
        score: Score | None
        try:
            hand, score, photo = self._score(row, winner, declarers)
        except SessionError:
            raise  # the file cannot be followed (an unknown player, a contradiction): exit 2
        except HandError as exc:
            line.status, line.notes = "error", [msg("not scored: {reason}", reason=str(exc))]
            hand = score = photo = None
        if line.status != "error":
            self._photo_notes(line, row, photo)
        if hand is not None:
            line.hand = format_hand(hand)
            line.win_by = hand.context.win_by
            line.discarder = self.seats.at(hand.context.discarder) if hand.context.discarder else None
        if score is not None and line.status == "scored":
            line.value, line.unit, line.elements = score.total, score.unit, dict(score.elements)
            if not score.valid:
                line.status, line.notes = (
                    "error",
                    [msg("not a valid win: {reason}", reason=score.error), *line.notes],
                )
                line.invalid = True
            else:
                try:
                    pays = hand_payments(score)
                except HandError as exc:
                    line.status, line.notes = (
                        "error",
                        [msg("not settled: {reason}", reason=str(exc)), *line.notes],
                    )
                else:
                    for n, v in self.seat_deltas(pays).items():
                        deltas[n] = deltas.get(n, 0) + v
                if self.goulash_pot and self.rules == "australian":
                    deltas[winner] = deltas.get(winner, 0) + self.goulash_pot
                    line.notes.append(
                        msg(
                            "{winner} takes the pot carried from a dead Goulash ({pot})",
                            winner=winner,
                            pot=self.goulash_pot,
                        )
                    )
                    self.goulash_pot = 0
        return line

    def _photo_notes(self, line: Line, row: SessionEntry, photo: PhotoHand | None) -> None:
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

    def _pao(self, row: SessionEntry) -> str | None:
        if row.pao is None:
            return None
        if self.rules != "riichi":
            raise SessionError(f"{row.line}: pao (liability) is a riichi rule")
        return self.seats.winds[self.who(row.pao, row, "pao")]

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
        if not path.is_file():
            raise HandError(f"no such photo: {path}")
        return self.photo_reader()(path)

    def _score(
        self, row: SessionEntry, winner: str, declarers: list[str]
    ) -> tuple[Hand, Score, PhotoHand | None]:
        hand, photo = self._hand_in_context(row, winner, declarers)
        if self.rules in TABLE_SYSTEMS:
            return hand, self._score_table([row], [winner], [hand]), photo
        if hand.context.win_by == "discard" and hand.context.discarder is None and self.rules != "zung-jung":
            raise HandError("a hand won on a discard needs 'discarder' to be settled")
        return hand, score_hand(hand, self.rules, self.options), photo

    def _hand_in_context(
        self, row: SessionEntry, winner: str, declarers: list[str]
    ) -> tuple[Hand, PhotoHand | None]:
        """The hand with the session's context (seat, round, discarder, counters), checked against
        the row: a hand that says ``tsumo`` with a ``discarder`` is refused, never settled as a
        discard win. The situation is built by the one parser every front end uses
        (:func:`scoring.context.context_from_dict`), over the hand's own."""
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
        if row.responsible is not None:
            situation["responsible"] = self._responsible(row, winner, win_by)
        situation["pao"] = self._pao(row)  # the riichi scorer re-divides the payment (§3.3.6)
        flags = set(hand.context.flags) | set(row.flags)
        if winner in declarers and "riichi" not in flags and "double_riichi" not in flags:
            flags.add("riichi")
        if self.rules == "australian":
            if "goulash" in flags and not self.goulash:
                raise SessionError(
                    f"{row.line}: a Goulash follows a dead hand (seed 003); the hand before was not one"
                )
            if self.goulash:
                flags.add("goulash")  # the Goulash follows the dead hand by itself
        situation.update(
            seat_wind=self.seats.winds[winner],
            round_wind=self.seats.round_wind,
            win_by=win_by,
            flags=sorted(flags),
            winning_tile=row.winning_tile or None,
            dora_indicators=row.dora or None,
            ura_dora_indicators=row.ura or None,
            options=row.options,
        )
        if self.rules == "riichi":
            situation.update(honba=self.honba, riichi_sticks=0)  # the session pays the sticks itself
        context = context_from_dict(situation, hand.context, names=ROW_NAMES, where=row.line)
        return replace(hand, context=context), photo

    @staticmethod
    def _win_by_said(row: SessionEntry, hand: Hand) -> str | None:
        """How the hand itself says it was won: ``tsumo``/``ron`` in the notation, ``win_by`` in the
        structured form; None when it does not say."""
        if isinstance(row.hand, str):
            return hand.context.win_by if says_how_won(row.hand) else None
        if isinstance(row.hand, Mapping):
            return hand.context.win_by if "win_by" in row.hand else None
        return None

    def _responsible(self, row: SessionEntry, winner: str, win_by: str) -> str:
        """Zung Jung: who pays the rest over 25 on a discard (seed 002 §4.4-4.5: with the same-round
        immunity the responsible player may not be the discarder); ``none``: nobody is."""
        if self.rules != "zung-jung":
            raise SessionError(f"{row.line}: 'responsible' is a Zung Jung payment rule (seed 002 §4.4)")
        if win_by != "discard":
            raise SessionError(f"{row.line}: 'responsible' is for a win on a discard (tsumo: everybody pays)")
        assert row.responsible is not None
        if row.responsible.lower() in ("none", NOBODY):
            return NOBODY
        who = self.who(row.responsible, row, "responsible")
        if who == winner:
            raise SessionError(f"{row.line}: the winner cannot be responsible for his own win")
        return self.seats.winds[who]

    def _score_table(self, rows: list[SessionEntry], winners: list[str], hands: list[Hand]) -> Score:
        players: dict[str, Any] = {
            self.seats.winds[w]: {**hand_to_dict(h), "role": "winner"}
            for w, h in zip(winners, hands, strict=True)
        }
        for row in rows:
            for key, entry in row.others.items():
                who = self.who(str(key), row, "others")
                wind = self.seats.winds[who]
                if wind in players:
                    raise SessionError(f"{row.line}.others: {who} is listed twice (or is a winner)")
                if isinstance(entry, bool) or not isinstance(entry, int | str | Mapping):
                    raise SessionError(
                        f"{row.line}.others.{key}: give a score, a hand in notation or a structured hand"
                    )
                if isinstance(entry, int):
                    if entry < 0:
                        raise SessionError(f"{row.line}.others.{key}: a score is 0 or more, got {entry}")
                    players[wind] = {"role": "loser", "score": entry}
                elif isinstance(entry, str):
                    players[wind] = {**hand_to_dict(parse_hand(entry)), "seat_wind": wind, "role": "loser"}
                else:
                    players[wind] = {"role": "loser", "seat_wind": wind, **entry}
        missing = [self.seats.at(w) for w in SEATS if w not in players]
        if missing:
            raise SessionError(
                f"{rows[0].line}.others: give the hand or score of {', '.join(missing)} "
                f"({self.rules} scores the losers' hands too)"
            )
        table: dict[str, Any] = {"round_wind": self.seats.round_wind, "players": players}
        if self.rules == "australian" and self.goulash:
            table["flags"] = ["goulash"]
        result: Score = scorer(self.rules).score_table(table, self.options)
        return result
