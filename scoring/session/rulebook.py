"""One interface for what a rule system's session rules say: :class:`Rulebook`.

The engine (:mod:`.engine`) walks the session's rows and hands each one to the table's rulebook:
a won hand (or several on one discard), a draw, a penalty, a chombo. The rulebook settles it (who
pays whom, the counters, the dealer's deal, the penalties) and tells the sheet its columns; the
engine keeps what every system shares: the players and their winds, the running totals, the hand
as the row gives it in the session's context (:class:`Table`).

This base class is the ordinary session: every win settled by its own scorer's payments, a draw
that pays nothing, the penalties a referee decides. Each system's rulebook
(:mod:`scoring.session.rulebooks`) changes only what its seed says otherwise, as each scorer
(``scoring/<system>/``) scores only its own hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.notation import format_hand
from mahjong_camera_scorer.scoring.payments import Payment
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import score_hand
from mahjong_camera_scorer.scoring.session.model import Session, SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.penalties import Penalty, infraction_words, other_penalty
from mahjong_camera_scorer.scoring.session.photo import PhotoHand
from mahjong_camera_scorer.scoring.session.seats import Seating
from mahjong_camera_scorer.scoring.session.settle import hand_payments
from mahjong_camera_scorer.scoring.session.sheet import Layout, Line

#: the row's fields only riichi reads: the counters, the declarations, the dora indicators
RIICHI_FIELDS = ("honba", "sticks", "riichi", "dora", "ura")


@dataclass(slots=True)
class RowContext:
    """A won hand's context as the engine builds it from its row, for the rulebook to complete
    (:meth:`Rulebook.situation`): the flags the hand will carry and the situation's other fields
    (the discarder, riichi's liable player and counters, Zung Jung's responsible player), which
    the engine reads with the row's by the one parser (:func:`scoring.context.context_from_dict`)."""

    row: SessionEntry
    winner: str
    win_by: str
    #: the players who declared riichi on this hand
    declarers: list[str]
    flags: set[str]
    #: the situation's fields by their structured-form names (``pao``, ``honba``…)
    situation: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class Play:
    """One hand of play as it is settled: its rows (several winners on one discard), their lines,
    each line's results and the players who declared riichi."""

    rows: list[SessionEntry]
    lines: list[Line]
    deltas: list[dict[str, int]]
    declarers: list[str]


class Table(Protocol):
    """What a rulebook reads and writes of the session being walked (the engine's run)."""

    session: Session
    names: list[str]
    seats: Seating
    options: dict[str, str]
    settings: dict[str, str]
    lines: list[Line]
    penalties: list[Penalty]
    totals: dict[str, int]

    def who(self, value: str | None, row: SessionEntry, field_name: str) -> str:
        """A player named in a row: by name, or by the wind he holds at this hand."""
        ...

    def new_line(self, row: SessionEntry, kind: str, label: str | None) -> Line:
        """A line of the sheet for ``row``, at the table as it stands (winds, counters)."""
        ...

    def book(self, line: Line, deltas: Mapping[str, int]) -> None:
        """Write ``line`` on the sheet with each player's result, and add it to the totals."""
        ...

    def seat_deltas(self, payments: list[Payment]) -> dict[str, int]:
        """Each player's net result from payments between seat winds."""
        ...

    def hand_in_context(
        self, row: SessionEntry, winner: str, declarers: list[str]
    ) -> tuple[Hand, PhotoHand | None]:
        """The row's hand (typed or read from its photo) with the session's context."""
        ...

    def photo_notes(self, line: Line, row: SessionEntry, photo: PhotoHand | None) -> None:
        """The photo's flagged tiles and warnings on ``line``; a reading to confirm holds it."""
        ...


class Rulebook:
    """A rule system's session rules, for one table's session (a new one per run: it keeps the
    system's own counts, such as riichi's honba and sticks)."""

    #: the rule system (a key of :data:`scoring.rules.RULE_SYSTEMS`)
    name: ClassVar[str] = ""
    #: the columns of the system's paper sheet
    layout: ClassVar[Layout] = Layout()
    #: several winners on one discard are paid (riichi, Classical)
    several_winners: ClassVar[bool] = False
    #: the losers' hands are scored and settled too (Australian, Classical: ``others``)
    scores_losers: ClassVar[bool] = False
    #: a win on a discard is settled only when the discarder is named
    needs_discarder: ClassVar[bool] = True
    #: the infractions whose counts carry from one session to the next (MCR E 3.6)
    carried: ClassVar[tuple[str, ...]] = ()
    #: the penalty rows that settle the invalid win of their player just before them (the seeds
    #: of Zung Jung and Classical list no penalties: the referee's decision settles it)
    false_win_penalties: ClassVar[tuple[str, ...]] = ("referee",)

    def __init__(self, table: Table, carry: Mapping[str, Mapping[str, int]] | None = None) -> None:
        self.table = table

    # ------------------------------------------------------------------------------------------
    # the rows
    # ------------------------------------------------------------------------------------------
    def hands(self, rows: list[SessionEntry]) -> None:
        """One hand of play: a win, or several on one discard (``same_discard``). A win that is not
        valid ends nothing: no stick is booked, no counter or wind moves."""
        t = self.table
        if len(rows) > 1 and not self.several_winners:
            raise SessionError(
                f"{rows[1].line}: only riichi and Classical pay several winners on one discard"
            )
        for row in rows:
            self.check_counters(row)
        deltas: list[dict[str, int]] = [{} for _ in rows]
        declarers: list[str] = []
        for row, d in zip(rows, deltas, strict=True):
            declarers += self.declare(row, d)
        if len(set(declarers)) != len(declarers):
            raise SessionError(f"{rows[0].line}.riichi: a player is listed twice")
        lines = [self.one_hand(row, d, declarers) for row, d in zip(rows, deltas, strict=True)]
        if all(line.invalid for line in lines):
            self.not_a_win()
            for line in lines:
                line.notes.append(self.false_win_note())
                t.book(line, {})
            return
        keeps = self.after_win(Play(rows, lines, deltas, declarers))
        for line, d in zip(lines, deltas, strict=True):
            t.book(line, d)
        t.seats.after_hand(dealer_keeps=keeps)

    def one_hand(self, row: SessionEntry, deltas: dict[str, int], declarers: list[str]) -> Line:
        """Score and settle one won hand into ``deltas``; the counters and the deal move later."""
        t = self.table
        winner = t.who(row.winner, row, "winner")
        self.check_winner(row, winner)
        line = t.new_line(row, "hand", t.seats.label())
        line.winner, line.photo = winner, row.photo
        hand: Hand | None
        score: Score | None
        photo: PhotoHand | None
        try:
            hand, photo = t.hand_in_context(row, winner, declarers)
            score = self.score(row, winner, hand)
        except SessionError:
            raise  # the file cannot be followed (an unknown player, a contradiction): exit 2
        except HandError as exc:
            line.status, line.notes = "error", [msg("not scored: {reason}", reason=str(exc))]
            hand = score = photo = None
        if line.status != "error":
            t.photo_notes(line, row, photo)
        if hand is not None:
            line.hand = format_hand(hand)
            line.win_by = hand.context.win_by
            discarder = hand.context.discarder
            line.discarder = t.seats.at(discarder) if discarder else None
        if score is not None and line.status == "scored":
            self.describe(line, score)
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
                    for n, v in t.seat_deltas(pays).items():
                        deltas[n] = deltas.get(n, 0) + v
                self.won(line, winner, deltas)
        return line

    def draw(self, row: SessionEntry) -> None:
        """A hand that nobody won: settled as the system says, then the winds move."""
        t = self.table
        self.check_counters(row)
        line = t.new_line(row, "draw", t.seats.label())
        line.status = "draw"
        deltas: dict[str, int] = {}
        keeps = self.settle_draw(row, line, deltas)
        t.book(line, deltas)
        t.seats.after_hand(dealer_keeps=keeps)

    def penalty(self, row: SessionEntry) -> None:
        """A penalty row: stored with its player, hand and infraction, and booked on the sheet."""
        t = self.table
        player = t.who(row.player, row, "player")
        pen = self.make_penalty(row, player, t.seats.hands_played + 1)
        t.penalties.append(pen)
        if pen.infraction in self.false_win_penalties:
            self.settle_false_win(player, "penalty", msg("settled by the penalty below"))
        line = t.new_line(row, "penalty", "")
        line.status = "penalty"
        line.notes = [
            msg(
                "{player}: {infraction} — {note}",
                player=player,
                infraction=infraction_words(pen.infraction),
                note=pen.note,
            )
        ]
        deltas = {player: -pen.points}
        if pen.paid:
            deltas.update(dict(pen.paid))
        elif pen.each:
            deltas.update({n: pen.each for n in t.names if n != player})
        t.book(line, deltas)

    def settle_false_win(self, player: str, by: str, note: Msg) -> None:
        """The invalid win of ``player`` just before is settled by this row (``by``: "chombo" or
        "penalty"): it stays on the sheet, moves nothing, and is no longer left for the referee."""
        last = self.table.lines[-1] if self.table.lines else None
        if last is not None and last.invalid and last.status == "error" and last.winner == player:
            last.status, last.settled_by = "void", by
            last.notes.append(note)

    def chombo(self, row: SessionEntry) -> None:
        raise SessionError(f"{row.line}: chombo is a riichi penalty; under {self.name} record a penalty row")

    # ------------------------------------------------------------------------------------------
    # the end of the session
    # ------------------------------------------------------------------------------------------
    def closing(self) -> dict[str, Any]:
        """The session's closing (MCR: table points; riichi: points, uma and final)."""
        return {"totals": dict(self.table.totals)}

    def carry_out(self) -> dict[str, dict[str, int]]:
        """The counts the next session starts from (MCR E 3.6); none elsewhere."""
        return {}

    def counters(self) -> dict[str, Any]:
        """The system's own counts where the table stands (the next hand's riichi counters)."""
        return {}

    def end_text(self) -> str:
        """Why no further hand can be played."""
        return f"{self.table.seats.hands_played} hands played"

    # ------------------------------------------------------------------------------------------
    # what a system changes (the hooks the rows above call)
    # ------------------------------------------------------------------------------------------
    def stamp(self, line: Line) -> None:
        """Write the table's counters on a new line (riichi: honba and sticks)."""

    def check_counters(self, row: SessionEntry) -> None:
        """The row's counters and declarations, checked against the session's own (riichi). A
        system without them refuses them: a value nobody reads would be dropped in silence (a
        photo manifest's riichi columns under MCR)."""
        written = [name for name in RIICHI_FIELDS if getattr(row, name) not in (None, [])]
        if written:
            raise SessionError(
                f"{row.line}.{written[0]}: {', '.join(written)} "
                f"{'is' if len(written) == 1 else 'are'} riichi's; {self.name} has no counters, "
                "declarations or dora (leave the field empty)"
            )

    def declare(self, row: SessionEntry, deltas: dict[str, int]) -> list[str]:
        """The players who declared riichi on this row (riichi books their sticks)."""
        return []

    def check_winner(self, row: SessionEntry, winner: str) -> None:
        """Refuse a winner the rules forbid to win (riichi: a dead hand)."""

    def situation(self, ctx: RowContext) -> None:
        """What the system adds to the hand's context: the liable player, the counters, the flags
        the session knows (the winner's riichi among ``declarers``, a Goulash); the row's fields
        another system reads are refused."""
        self.refuse_responsible(ctx.row)
        self.refuse_pao(ctx.row)

    @staticmethod
    def refuse_responsible(row: SessionEntry) -> None:
        if row.responsible is not None:
            raise SessionError(f"{row.line}: 'responsible' is a Zung Jung payment rule (seed 002 §4.4)")

    @staticmethod
    def refuse_pao(row: SessionEntry) -> None:
        if row.pao is not None:
            raise SessionError(f"{row.line}: pao (liability) is a riichi rule")

    def score(self, row: SessionEntry, winner: str, hand: Hand) -> Score:
        """The winner's hand scored (a :class:`HandError` when it cannot be settled as written)."""
        if hand.context.win_by == "discard" and hand.context.discarder is None and self.needs_discarder:
            raise HandError("a hand won on a discard needs 'discarder' to be settled")
        return score_hand(hand, self.name, self.table.options)

    def describe(self, line: Line, score: Score) -> None:
        """What the sheet shows of a scored hand: its value and its elements."""
        line.value, line.unit, line.elements = score.total, score.unit, dict(score.elements)

    def won(self, line: Line, winner: str, deltas: dict[str, int]) -> None:
        """What a valid win takes besides its payments (Australian: a dead Goulash's pot)."""

    def not_a_win(self) -> None:
        """Undo what the hand booked before its win proved not valid (riichi: the sticks)."""

    def false_win_note(self) -> Msg:
        return msg("not a win: the hand is not over; record the false win as a penalty row")

    def after_win(self, play: Play) -> bool:
        """The counters after a won hand; True when the dealer keeps the deal."""
        return False

    def settle_draw(self, row: SessionEntry, line: Line, deltas: dict[str, int]) -> bool:
        """A draw's payments and notes into ``deltas`` and ``line``; True when the dealer keeps."""
        self.refuse_riichi_draw(row)
        line.notes.append(msg("draw: no payments"))
        return False

    @staticmethod
    def refuse_riichi_draw(row: SessionEntry) -> None:
        if row.tenpai:
            raise SessionError(f"{row.line}: tenpai at a draw is for the riichi rules")
        if row.draw == "abortive":
            raise SessionError(f"{row.line}: an abortive draw is for the riichi rules")

    def make_penalty(self, row: SessionEntry, player: str, at: int) -> Penalty:
        """The penalty a row gives ``player`` at hand ``at``, as the system's seed lists them."""
        return other_penalty(row, player, at)

    def option(self, name: str) -> str:
        """A rule option's value for this session (the command line's over the default)."""
        from mahjong_camera_scorer.scoring.options import resolve
        from mahjong_camera_scorer.scoring.rules import scorer

        return resolve(scorer(self.name).OPTIONS, {}, self.table.options)[name]
