"""EMA Riichi's session rules (seed 001 §3.4-3.6, §5.5-5.7; spec riichi §2.8-2.9, §5.5, §5.8, §7).

Riichi sticks are put on the table by each declaration and taken by the next winner (§3.4.4); the
honba counters grow after a win of East's, a draw or an abortive draw and go when another player
wins (§3.4.10); East keeps the deal after his win, a tenpai exhaustive draw, an abortive draw or a
chombo (§3.4.12). An exhaustive draw pays 3,000 from the noten players to the tenpai ones (§3.4.2);
a chombo is a reversed mangan and the hand is replayed (§3.4.6); a dead hand can neither win nor
be tenpai (§3.4.7). Several winners on one discard are each paid by the discarder with the full
counters (§3.4.9).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.riichi.payments import RIICHI_STICK
from mahjong_camera_scorer.scoring.riichi.scorer import NAGASHI
from mahjong_camera_scorer.scoring.session import closing
from mahjong_camera_scorer.scoring.session.model import SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.penalties import Penalty, riichi_penalty
from mahjong_camera_scorer.scoring.session.rulebook import Play, RowContext, Rulebook, Table
from mahjong_camera_scorer.scoring.session.sheet import Layout, Line

#: riichi chombo: a reversed mangan (spec §2.8)
CHOMBO_FROM_DEALER, CHOMBO_TO_DEALER, CHOMBO_TO_OTHER = 4000, 4000, 2000
#: riichi exhaustive draw: 3,000 from the noten players to the tenpai players (spec §2.9)
NOTEN_TOTAL = 3000


class RiichiRulebook(Rulebook):
    name = "riichi"
    layout = Layout(value=msg("Value"), round_column=None, counters=True)
    several_winners = True
    false_win_penalties = ()  # a chombo row settles it (§3.4.6)

    def __init__(self, table: Table, carry: Mapping[str, Mapping[str, int]] | None = None) -> None:
        super().__init__(table, carry)
        self.honba = 0
        self.pot = 0  # riichi sticks on the table
        self.on_table = 0  # the sticks on the table when the hand being settled started
        self.dead: set[str] = set()  # players whose hand is dead in this hand (§3.4.7)

    # ------------------------------------------------------------------------------------------
    def hands(self, rows: list[SessionEntry]) -> None:
        self.on_table = self.pot
        super().hands(rows)

    def stamp(self, line: Line) -> None:
        if line.kind != "penalty":
            line.honba, line.sticks = self.honba, self.pot

    def check_counters(self, row: SessionEntry) -> None:
        if row.honba is not None and row.honba != self.honba:
            raise SessionError(
                f"{row.line}: the file says honba {row.honba}, the session counts {self.honba}"
            )
        if row.sticks is not None and row.sticks != self.pot:
            raise SessionError(
                f"{row.line}: the file says {row.sticks} riichi sticks on the table, "
                f"the session counts {self.pot}"
            )

    def declare(self, row: SessionEntry, deltas: dict[str, int]) -> list[str]:
        declarers = [self.table.who(n, row, "riichi") for n in row.riichi]
        if len(set(declarers)) != len(declarers):
            raise SessionError(f"{row.line}.riichi: a player is listed twice")
        for n in declarers:
            deltas[n] = deltas.get(n, 0) - RIICHI_STICK
        self.pot += len(declarers)
        return declarers

    def check_winner(self, row: SessionEntry, winner: str) -> None:
        if winner in self.dead:
            raise SessionError(
                f"{row.line}: {winner} has a dead hand and 'non può dichiarare mahjong' (seed 001 §3.4.7)"
            )

    def situation(self, ctx: RowContext) -> None:
        row, flags = ctx.row, ctx.flags
        self.refuse_responsible(row)
        if ctx.winner in ctx.declarers and "riichi" not in flags and "double_riichi" not in flags:
            flags.add("riichi")
        if row.pao is not None:
            # the riichi scorer re-divides the payment (§3.3.6)
            ctx.situation["pao"] = self.table.seats.winds[self.table.who(row.pao, row, "pao")]
        ctx.situation.update(honba=self.honba, riichi_sticks=0)  # the session pays the sticks

    def score(self, row: SessionEntry, winner: str, hand: Hand) -> Score:
        """The hand scored; a ``pao`` that cannot apply to a valid win is the file's error, never a
        chombo: seed 001 §3.4.6 makes a chombo only of "dichiarare una chiusura non valida"."""
        score = super().score(row, winner, hand)
        if score.valid or hand.context.pao is None:
            return score
        alone = super().score(row, winner, hand.with_context(pao=None))
        if alone.valid:
            raise SessionError(
                f"{row.line}.pao: {score.error} (the win is valid without 'pao': correct or remove it)"
            )
        return score

    def not_a_win(self) -> None:
        self.pot = self.on_table

    def false_win_note(self) -> Msg:
        return msg("a chombo (seed 001 §3.4.6, 'dichiarare una chiusura non valida'): add the chombo row")

    def after_win(self, play: Play) -> bool:
        """Riichi sticks go to the winner (with several: each winner's own stick back to him, the
        others to the first winner in turn order after the discarder); East keeps the deal if he is
        among the winners, and a counter is added; another winner clears them."""
        rows, lines, deltas, declarers = play.rows, play.lines, play.deltas, play.declarers
        seats = self.table.seats
        dealer = seats.at("E")
        for line in lines:
            line.sticks = self.on_table
        winners = [line.winner for line in lines]
        if len(rows) > 1:
            discarders = {line.discarder for line in lines}
            if len(set(winners)) != len(winners) or len(discarders) != 1 or None in discarders:
                raise SessionError(
                    f"{rows[1].line}: several winners on one discard need distinct winners "
                    "and the same discarder"
                )
        # each hand line has its winner (one_hand): paid line → winner
        won = {
            i: line.winner
            for i, line in enumerate(lines)
            if line.status in ("scored", "confirm") and line.winner is not None
        }
        paid = list(won)
        if self.pot and paid:  # sticks are not the hand's value: a hand to confirm still takes them
            if len(lines) > 1:
                for i in paid:
                    if won[i] in declarers:
                        deltas[i][won[i]] = deltas[i].get(won[i], 0) + RIICHI_STICK
                        self.pot -= 1
                assert lines[0].discarder is not None  # several winners have one discarder (above)
                order = "ESWN" * 2
                after = order[order.index(seats.winds[lines[0].discarder]) + 1 :][:3]
                first = min(paid, key=lambda i: after.index(seats.winds[won[i]]))
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
        nagashi = all(NAGASHI in line.elements for line in lines)
        if nagashi and self.option("nagashi_counters") == "draw":
            # the hand went "a monte per esaurimento": "viene messo un gettone" (§3.4.2); nobody
            # "ha chiuso la mano" (§3.4.10), so the counters stay
            self.honba += 1
        else:
            self.honba = self.honba + 1 if keeps else 0
        self.dead.clear()
        return keeps

    def settle_draw(self, row: SessionEntry, line: Line, deltas: dict[str, int]) -> bool:
        t = self.table
        declarers = self.declare(row, deltas)
        dealer = t.seats.at("E")
        if row.draw == "abortive":
            keeps = True
            line.notes.append(msg("abortive draw: no noten payments, a counter is added, East stays (§3.4)"))
        else:
            tenpai = [t.who(n, row, "tenpai") for n in row.tenpai]
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
                for n in t.names:
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
        return keeps

    def make_penalty(self, row: SessionEntry, player: str, at: int) -> Penalty:
        pen = riichi_penalty(row, player, at)
        if pen.infraction == "dead_hand":
            self.dead.add(player)
        return pen

    def chombo(self, row: SessionEntry) -> None:
        """A reversed mangan paid to the others; the hand is replayed, no counter, East keeps the
        deal (§3.4.6-7). "dichiarare una chiusura non valida" is a chombo: the invalid win of the
        same player just before is settled by it."""
        t = self.table
        offender = t.who(row.player, row, "chombo")
        self.check_counters(row)
        self.dead.clear()  # the hand is replayed
        self.settle_false_win(offender, "chombo", msg("settled by the chombo below: the hand is replayed"))
        dealer = t.seats.at("E")
        line = t.new_line(row, "chombo", t.seats.label())
        line.status = "penalty"
        if offender == dealer:
            deltas = {n: CHOMBO_FROM_DEALER for n in t.names if n != offender}
        else:
            deltas = {
                n: CHOMBO_TO_DEALER if n == dealer else CHOMBO_TO_OTHER for n in t.names if n != offender
            }
        deltas[offender] = -sum(deltas.values())
        line.notes = [
            msg(
                "chombo by {player}: reversed mangan, the hand is replayed, no counter, "
                "East keeps the deal, riichi sticks go back (seed 001 §3.4.6-7)",
                player=offender,
            )
        ]
        t.penalties.append(
            Penalty(
                offender,
                t.seats.hands_played + 1,
                "chombo",
                -deltas[offender],
                note=msg("reversed mangan paid to the others"),
            )
        )
        t.book(line, deltas)

    # ------------------------------------------------------------------------------------------
    def closing(self) -> dict[str, Any]:
        t = self.table
        disqualified = {p.player for p in t.penalties if p.disqualified}
        subs = {p.name: p.substitute for p in t.session.players if p.substitute}
        return closing.close_riichi(t.totals, self.pot, subs, disqualified, t.settings)

    def counters(self) -> dict[str, Any]:
        return {"honba": self.honba, "sticks": self.pot}

    def end_text(self) -> str:
        return "the East and South rounds are played"
