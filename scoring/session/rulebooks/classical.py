"""Classical Italian's session rules (seed 004; spec classical D-18).

Each hand is the whole table (:class:`.losers.LosersScoredRulebook`): "gli altri giocatori
calcolano il proprio punteggio e tra loro regolano le differenze". "Se c'è più di un mah jong
contemporaneamente i giocatori che hanno chiuso riscuotono da quelli che non hanno chiuso e tra
loro regolano la differenza": several winners on one discard are one table, settled on the first
winner's line. The seed is silent on draws: no payments (``no_winner_settlement=none``).
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.i18n import msg
from mahjong_camera_scorer.scoring.notation import format_hand
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.session.model import SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.rulebooks.losers import LosersScoredRulebook
from mahjong_camera_scorer.scoring.session.settle import hand_payments
from mahjong_camera_scorer.scoring.session.sheet import Line


class ClassicalRulebook(LosersScoredRulebook):
    name = "classical"
    several_winners = True

    def hands(self, rows: list[SessionEntry]) -> None:
        if len(rows) > 1:
            self._several_winners(rows)
        else:
            super().hands(rows)

    def _several_winners(self, rows: list[SessionEntry]) -> None:
        """Several mah jong on one discard, settled as one table (seed 004): the first line holds
        the whole table's payments, each further winner's line says it is settled there."""
        t = self.table
        winners = [t.who(row.winner, row, "winner") for row in rows]
        if len(set(winners)) != len(winners):
            raise SessionError(f"{rows[1].line}: several winners on one discard need distinct winners")
        lines = [t.new_line(row, "hand", t.seats.label()) for row in rows]
        hands: list[Hand] = []
        score: Score | None
        try:
            for row, winner, line in zip(rows, winners, lines, strict=True):
                hand, photo = t.hand_in_context(row, winner, [])
                if hand.context.win_by != "discard":
                    raise SessionError(f"{row.line}: several mah jong are won on one discard, not self-drawn")
                t.photo_notes(line, row, photo)
                line.winner, line.photo, line.hand, line.win_by = (
                    winner,
                    row.photo,
                    format_hand(hand),
                    "discard",
                )
                discarder = hand.context.discarder
                line.discarder = t.seats.at(discarder) if discarder else None
                hands.append(hand)
            discarders = {line.discarder for line in lines}
            if len(discarders) != 1 or None in discarders:
                raise SessionError(f"{rows[1].line}: several winners on one discard need the same discarder")
            score = self.score_table(rows, winners, hands)
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
            for n, v in t.seat_deltas(hand_payments(score)).items():
                deltas[n] = deltas.get(n, 0) + v
            capped = score.details.get("capped_scores", {})
            for line, winner in zip(lines, winners, strict=True):
                self.describe(line, score)
                line.value = capped.get(t.seats.winds[winner])
            for line in lines[1:]:
                line.table = []  # the table's lines are the first winner's
            lines[0].notes.append(
                msg(
                    "several mah jong on one discard: the winners collect from the others and settle "
                    "their differences (seed 004)"
                )
            )
        t.book(lines[0], deltas)
        for line in lines[1:]:
            line.notes.append(msg("settled with the first winner's line (one table, seed 004)"))
            if lines[0].status == "error":
                line.status = "error"
            t.book(line, {})
        if not lines[0].invalid:  # a win that is not valid ends nothing
            t.seats.after_hand()

    def settle_draw(self, row: SessionEntry, line: Line, deltas: dict[str, int]) -> bool:
        self.refuse_riichi_draw(row)
        settlement = self.option("no_winner_settlement")
        if settlement != "none":
            raise SessionError(
                f"{row.line}: no_winner_settlement={settlement} "
                "settles the hands' scores at a draw: give the hand as a table (mahjong-score table)"
            )
        return super().settle_draw(row, line, deltas)
