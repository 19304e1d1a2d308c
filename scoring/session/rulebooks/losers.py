"""What the systems that score the losers too share (Australian, seed 003; Classical, seed 004):
each hand is the whole table, settled by the scorer's ``score_table`` as the ``table`` command
settles it, from the winner's hand and each other player's hand or score (the row's ``others``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.hand import Hand
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.payments import SEATS
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import scorer
from mahjong_camera_scorer.scoring.session.model import SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.rulebook import Rulebook
from mahjong_camera_scorer.scoring.session.sheet import Line
from mahjong_camera_scorer.scoring.structured import hand_to_dict


class LosersScoredRulebook(Rulebook):
    """A rulebook whose hands are settled as a whole table."""

    scores_losers = True

    def score(self, row: SessionEntry, winner: str, hand: Hand) -> Score:
        return self.score_table([row], [winner], [hand])

    def describe(self, line: Line, score: Score) -> None:
        """The winner's own elements, and the table as ``table`` prints it (its rendering, less the
        rules line the sheet already names): each player's score, the payments and the net, so
        that a referee can check each result ("gli altri giocatori calcolano il proprio punteggio
        e tra loro regolano le differenze", seed 004)."""
        super().describe(line, score)
        if line.winner is not None:
            wind = self.table.seats.winds[line.winner]
            line.elements = dict(score.details.get("hands", {}).get(wind, {}).get("elements", {}))
        if score.valid:  # its notes: the rendering less the rules line, each worded for the reader
            line.table = list(score.notes)

    def table_flags(self) -> list[str]:
        """The table's own flags (Australian: a Goulash)."""
        return []

    def score_table(self, rows: list[SessionEntry], winners: list[str], hands: list[Hand]) -> Score:
        t = self.table
        players: dict[str, Any] = {
            t.seats.winds[w]: {**hand_to_dict(h), "role": "winner"}
            for w, h in zip(winners, hands, strict=True)
        }
        for row in rows:
            for key, entry in row.others.items():
                who = t.who(str(key), row, "others")
                wind = t.seats.winds[who]
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
        missing = [t.seats.at(w) for w in SEATS if w not in players]
        if missing:
            raise SessionError(
                f"{rows[0].line}.others: give the hand or score of {', '.join(missing)} "
                f"({self.name} scores the losers' hands too)"
            )
        table: dict[str, Any] = {"round_wind": t.seats.round_wind, "players": players}
        flags = self.table_flags()
        if flags:
            table["flags"] = flags
        result: Score = scorer(self.name).score_table(table, t.options)
        return result
