"""MCR's session rules (seed 000 §3.5-3.7, App. B, App. D, App. E; spec mcr §2.4, §5-6).

Every hand is settled by the scorer's payments (8 points from each player, the hand's value from
the discarder or from each on a self-draw); a draw pays nothing. The penalties are the MERS
tournament's (:func:`scoring.session.penalties.mcr_penalty`), repeated infractions counted per
player within the session, obstruction and time-wasting carried from one session to the next
(E 3.6). The closing is App. B's: Mini Punti and Punti Tavolo 4/2/1/0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.i18n import msg
from mahjong_camera_scorer.scoring.session import closing
from mahjong_camera_scorer.scoring.session.model import SessionEntry
from mahjong_camera_scorer.scoring.session.penalties import CARRIED, Penalty, mcr_penalty
from mahjong_camera_scorer.scoring.session.rulebook import Rulebook, Table
from mahjong_camera_scorer.scoring.session.seats import MCR_SEAT_CHANGES
from mahjong_camera_scorer.scoring.session.sheet import Layout


class MCRRulebook(Rulebook):
    name = "mcr"
    # seed 000 App. B: PUNTI MAHJONG, the round, CAMBIO POSTI
    layout = Layout(value=msg("Mahjong points (Punti Mahjong)"), seat_changes=MCR_SEAT_CHANGES)

    carried = CARRIED
    #: E 2.10: the false Hu penalties
    false_win_penalties = ("false_hu_short", "false_hu_invalid", "false_hu_hidden")

    def __init__(self, table: Table, carry: Mapping[str, Mapping[str, int]] | None = None) -> None:
        super().__init__(table, carry)
        #: each player's obstruction and time-wasting counts from earlier sessions (E 3.6)
        self.carry = {name: dict(counts) for name, counts in (carry or {}).items()}

    def make_penalty(self, row: SessionEntry, player: str, at: int) -> Penalty:
        carried = self.carry.get(player, {}).get(row.infraction, 0)
        return mcr_penalty(row, player, at, list(self.table.penalties), carried)

    def closing(self) -> dict[str, Any]:
        t = self.table
        disqualified = {p.player for p in t.penalties if p.disqualified}
        return closing.close_mcr(t.totals, disqualified, t.settings)

    def carry_out(self) -> dict[str, dict[str, int]]:
        """The counts the next session starts from: carried ones plus this session's (E 3.6)."""
        names = self.table.names
        out = {n: {k: self.carry.get(n, {}).get(k, 0) for k in CARRIED} for n in names}
        for p in self.table.penalties:
            if p.infraction in CARRIED:
                out[p.player][p.infraction] += 1
        return {n: counts for n, counts in out.items() if any(counts.values())}
