"""Zung Jung's session rules (seed 002; spec zung-jung §2.7, §4).

The winds move after every hand, won or drawn ("Est diventa Sud; Sud diventa Ovest; Ovest diventa
Nord; Nord diventa Est"); there is no round wind. On a discard the discarder pays, or the player
responsible for the rest over 25 when the same-round immunity applies (seed 002 §4.4-4.5: the row's
``responsible``). The sheet has TURNO 1-4 of four hands each, a TOT TURNO after each, and the
TOTALE GENERALE.
"""

from __future__ import annotations

from mahjong_camera_scorer.scoring.i18n import Msg
from mahjong_camera_scorer.scoring.session.model import SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.rulebook import RowContext, Rulebook
from mahjong_camera_scorer.scoring.session.sheet import Layout
from mahjong_camera_scorer.scoring.situation_words import NOBODY


class ZungJungRulebook(Rulebook):
    name = "zung-jung"
    # seed 002's sheet: TURNO, MANO, TOT TURNO, TOTALE GENERALE; no round wind
    layout = Layout(round_column=None, round_wind=False, turn=4, total=Msg("TOTALE GENERALE"))
    needs_discarder = False  # 'responsible' may stand in for the discarder

    def situation(self, ctx: RowContext) -> None:
        if ctx.row.responsible is not None:
            ctx.situation["responsible"] = self._responsible(ctx.row, ctx.winner, ctx.win_by)
        self.refuse_pao(ctx.row)

    def _responsible(self, row: SessionEntry, winner: str, win_by: str) -> str:
        """Who pays the rest over 25 on a discard (seed 002 §4.4-4.5: with the same-round immunity
        the responsible player may not be the discarder); ``none``: nobody is."""
        if win_by != "discard":
            raise SessionError(f"{row.line}: 'responsible' is for a win on a discard (tsumo: everybody pays)")
        assert row.responsible is not None
        if row.responsible.lower() in ("none", NOBODY):
            return NOBODY
        who = self.table.who(row.responsible, row, "responsible")
        if who == winner:
            raise SessionError(f"{row.line}: the winner cannot be responsible for his own win")
        return self.table.seats.winds[who]
