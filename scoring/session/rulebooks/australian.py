"""Australian's session rules (seed 003; spec australian §4.6, A-16).

Each hand is the whole table (:class:`.losers.LosersScoredRulebook`). "Se il muro si esaurisce
senza un vincitore (mano morta), ne viene rigiocata una con regole particolari, detta Goulash", and
"Per il Goulash le posizioni dei giocatori non ruotano"; after a Goulash "a prescindere da chi
vince" they rotate. A false mah jong costs half the limit to each opponent when an opponent had
shown his tiles (L330).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mahjong_camera_scorer.scoring.i18n import msg
from mahjong_camera_scorer.scoring.session.model import SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.penalties import Penalty, australian_false_mah_jong
from mahjong_camera_scorer.scoring.session.rulebook import Play, RowContext, Table
from mahjong_camera_scorer.scoring.session.rulebooks.losers import LosersScoredRulebook
from mahjong_camera_scorer.scoring.session.sheet import Line


class AustralianRulebook(LosersScoredRulebook):
    name = "australian"
    false_win_penalties = ("false_mah_jong", "referee")

    def __init__(self, table: Table, carry: Mapping[str, Mapping[str, int]] | None = None) -> None:
        super().__init__(table, carry)
        self.goulash = False  # the next hand is a Goulash (it follows a dead hand)
        self.goulash_pot = 0  # a pot carried from a Goulash that ended dead

    def one_hand(self, row: SessionEntry, deltas: dict[str, int], declarers: list[str]) -> Line:
        line = super().one_hand(row, deltas, declarers)
        line.goulash = self.goulash
        return line

    def situation(self, ctx: RowContext) -> None:
        super().situation(ctx)
        if "goulash" in ctx.flags and not self.goulash:
            raise SessionError(
                f"{ctx.row.line}: a Goulash follows a dead hand (seed 003); the hand before was not one"
            )
        if self.goulash:
            ctx.flags.add("goulash")  # the Goulash follows the dead hand by itself

    def table_flags(self) -> list[str]:
        return ["goulash"] if self.goulash else []

    def won(self, line: Line, winner: str, deltas: dict[str, int]) -> None:
        if self.goulash_pot:
            deltas[winner] = deltas.get(winner, 0) + self.goulash_pot
            line.notes.append(
                msg(
                    "{winner} takes the pot carried from a dead Goulash ({pot})",
                    winner=winner,
                    pot=self.goulash_pot,
                )
            )
            self.goulash_pot = 0

    def after_win(self, play: Play) -> bool:
        self.goulash = False  # a Goulash, won, is followed by an ordinary hand
        return False

    def settle_draw(self, row: SessionEntry, line: Line, deltas: dict[str, int]) -> bool:
        """A dead hand: no payments and a Goulash on the same seats follows. A Goulash that ends
        dead is a dead hand too: the seats rotate (it was a Goulash) and a Goulash follows."""
        self.refuse_riichi_draw(row)
        was_goulash = self.goulash
        line.goulash = was_goulash
        self.goulash = True
        if not was_goulash:
            line.notes.append(
                msg("dead hand: no payments; the next hand is a Goulash, seats stay (seed 003)")
            )
            return True
        if self.option("goulash_dead_pot") == "carry":
            stake = int(self.option("goulash_stake"))
            for n in self.table.names:
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

    def make_penalty(self, row: SessionEntry, player: str, at: int) -> Penalty:
        if row.infraction == "false_mah_jong":
            return australian_false_mah_jong(
                row, player, at, self.table.options, dict(self.table.seats.winds)
            )
        return super().make_penalty(row, player, at)

    def counters(self) -> dict[str, Any]:
        return {"goulash": self.goulash}
