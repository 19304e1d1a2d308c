"""Penalties as the seeds' tournament sections list them, each a row a referee can check.

MCR (seed 000 App. D and App. E §2-3, MERS; spec mcr §6): false Hu with the tiles shown pays 10
(four sets and a pair under 8 points) or 20 (an invalid hand) to **each** other player; late
arrival −10 (≤ 10 min) or −20 (≤ 15 min), more is disqualification; forgetting to put the winning
tile with the hand −10; repeated infractions warning → 5 → 10 → 20 → 30 → … (App. D (1); the step
after 30 is not stated, A26: we go on by 10), counted per player and infraction within the
session; referee decisions at the referee's discretion. Deductions leave the sheet's zero sum.

EMA Riichi (seed 001 §5.5-5.6; spec §7): late arrival −1,000 a minute up to 10 minutes, obstruction
8,000 or 12,000 (serious cases 12,000-48,000), referee decisions; only the offender loses points.
A chombo is a row of its own (a reversed mangan, paid to the others: :mod:`.engine`).

Zung Jung, Australian, Classical: the seeds give no tournament penalties; a referee's deduction
(``referee`` with its points) is recorded as given.
"""

from __future__ import annotations

from dataclasses import dataclass

from mahjong_camera_scorer.scoring.i18n import Msg, msg
from mahjong_camera_scorer.scoring.session.model import SessionEntry, SessionError

#: MCR repeated-infraction scale (App. D note (1)); 0 is the warning
MCR_SCALE = (0, 5, 10, 20, 30)
MCR_REPEATED = (
    "wrong_call",
    "wrong_tile_taken",
    "exposure_error",
    "passing_information",
    "wall_destroyed",
    "knocked_tiles",
    "infraction",
    "obstruction",
    "time_wasting",
)
#: the MCR infractions whose count is not reset at a new session: "Il conteggio delle penalità (per
#: ogni giocatore) viene azzerato all'inizio di ogni sessione tranne che per l'ostruzione di gioco o
#: la perdita di tempo." (seed 000 E 3.6, App. D)
CARRIED = ("obstruction", "time_wasting")
#: riichi obstruction (seed 001 §5.5): "8.000 o 12.000 punti di penalità (come il chombo), o in casi
#: gravi e ripetuti con punti di penalità tra 12.000 e 48.000"
OBSTRUCTION_POINTS = (8000, 12000)
SERIOUS_OBSTRUCTION = (12000, 48000)
#: the infractions a penalty row may name under each system, as the functions below accept them
#: (what the phone page offers; a test feeds each one to the engine)
INFRACTIONS: dict[str, tuple[str, ...]] = {
    "mcr": (
        "false_hu_short",
        "false_hu_invalid",
        "false_hu_hidden",
        "late",
        "forgotten_winning_tile",
        *MCR_REPEATED,
        "referee",
        "disqualified",
    ),
    "riichi": ("late", "obstruction", "dead_hand", "referee", "disqualified"),
    "zung-jung": ("referee", "disqualified"),
    "australian": ("false_mah_jong", "referee", "disqualified"),
    "classical": ("referee", "disqualified"),
}


#: each infraction as a sheet and the page name it: the English message of the catalog
#: (:mod:`scoring.i18n`, which has its Italian); the name on the left is what a session file writes,
#: never what a player reads
INFRACTION_WORDS: dict[str, str] = {
    "false_hu_short": "false Hu (under 8 points)",
    "false_hu_invalid": "false Hu (invalid hand)",
    "false_hu_hidden": "false Hu (tiles not shown)",
    "late": "late",
    "forgotten_winning_tile": "winning tile not added",
    "wrong_call": "wrong call",
    "wrong_tile_taken": "wrong tile taken",
    "exposure_error": "exposure error",
    "passing_information": "passing information",
    "wall_destroyed": "wall destroyed",
    "knocked_tiles": "knocked tiles",
    "infraction": "infraction",
    "obstruction": "obstruction",
    "time_wasting": "time wasting",
    "referee": "referee",
    "disqualified": "disqualified",
    "dead_hand": "dead hand",
    "false_mah_jong": "false mah jong",
}


def infraction_words(name: str) -> Msg:
    """The infraction ``name`` as a reader sees it, translated when rendered."""
    return msg(INFRACTION_WORDS.get(name, name))


@dataclass(frozen=True, slots=True)
class Penalty:
    """One stored penalty: who, at which hand, what, and what it does to the scores."""

    player: str
    hand: int  # the hand it happened at (the hand about to be played, or just played)
    infraction: str
    points: int  # deducted from the offender (> 0), or paid in total when ``each`` > 0
    each: int = 0  # paid to each other player (MCR false Hu)
    note: str | Msg = ""
    disqualified: bool = False
    #: who receives what when not ``each`` alike (Australian, East doubled): (player, points)
    paid: tuple[tuple[str, int], ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "hand": self.hand,
            "infraction": self.infraction,
            "points": self.points,
            "kind": "payment to each" if self.each else "deduction",
            "each": self.each,
            "note": str(self.note),
            "disqualified": self.disqualified,
        }


def mcr_penalty(
    row: SessionEntry, player: str, hand: int, earlier: list[Penalty], carried: int = 0
) -> Penalty:
    """``carried``: this player's count of this infraction from earlier sessions (E 3.6)."""
    kind = row.infraction
    if kind == "false_hu_short":
        return Penalty(
            player, hand, kind, 30, each=10, note=msg("false Hu, 4 sets and a pair under 8 points (E 2.10.2)")
        )
    if kind == "false_hu_invalid":
        return Penalty(player, hand, kind, 60, each=20, note=msg("false Hu, invalid hand (E 2.10.2)"))
    if kind == "false_hu_hidden":
        return Penalty(
            player, hand, kind, 0, note=msg("false Hu, tiles not shown: dead hand only (E 2.10.1)")
        )
    if kind == "late":
        if row.minutes is None:
            raise SessionError(f"{row.line}: a late arrival needs 'minutes'")
        if row.minutes > 15:
            return Penalty(
                player,
                hand,
                kind,
                0,
                note=msg(
                    "{minutes} min late: disqualified for the session, no table points (E 2.3)",
                    minutes=row.minutes,
                ),
                disqualified=True,
            )
        points = 10 if row.minutes <= 10 else 20
        return Penalty(
            player, hand, kind, points, note=msg("{minutes} min late (E 2.3)", minutes=row.minutes)
        )
    if kind == "forgotten_winning_tile":
        return Penalty(player, hand, kind, 10, note=msg("winning tile not put with the hand (E 2.9.7)"))
    if kind in MCR_REPEATED:
        n = sum(1 for p in earlier if p.player == player and p.infraction == kind)
        n += carried if kind in CARRIED else 0
        points = MCR_SCALE[n] if n < len(MCR_SCALE) else MCR_SCALE[-1] + 10 * (n - len(MCR_SCALE) + 1)
        step = msg("warning") if points == 0 else msg("{points} points", points=points)
        note = msg("repeated infraction no. {n}: {step} (App. D (1))", n=n + 1, step=step)
        if kind in CARRIED and carried:
            note = msg(
                "repeated infraction no. {n}: {step} (App. D (1)), {carried} from earlier sessions (E 3.6)",
                n=n + 1,
                step=step,
                carried=carried,
            )
        return Penalty(player, hand, kind, points, note=note)
    if kind in ("referee", "disqualified"):
        return _referee(row, player, hand, disqualified=kind == "disqualified")
    raise SessionError(
        f"{row.line}: unknown MCR penalty {kind!r} (false_hu_short, false_hu_invalid, "
        f"false_hu_hidden, late, forgotten_winning_tile, {', '.join(MCR_REPEATED)}, referee, "
        "disqualified)"
    )


def riichi_penalty(row: SessionEntry, player: str, hand: int) -> Penalty:
    kind = row.infraction
    if kind == "late":
        if row.minutes is None:
            raise SessionError(f"{row.line}: a late arrival needs 'minutes'")
        if row.minutes > 10:
            raise SessionError(
                f"{row.line}: more than 10 minutes late: the player is replaced by a "
                "substitute (seed 001 §5.6); list the substitute with 'substitute: from_start'"
            )
        return Penalty(
            player,
            hand,
            kind,
            1000 * row.minutes,
            note=msg("{minutes} min late, 1,000 a minute (§5.6)", minutes=row.minutes),
        )
    if kind == "obstruction":
        low, high = SERIOUS_OBSTRUCTION
        if row.serious:
            if row.points is None or not low <= row.points <= high:
                raise SessionError(
                    f"{row.line}: a serious, repeated obstruction costs {low}-{high} points (§5.5): "
                    f"give 'points', not {row.points}"
                )
            return Penalty(player, hand, kind, row.points, note=msg("serious, repeated obstruction (§5.5)"))
        if row.points not in OBSTRUCTION_POINTS:
            raise SessionError(
                f"{row.line}: obstruction costs 8000 or 12000 points (§5.5), not {row.points}; "
                f"{low}-{high} only in serious, repeated cases ('serious: true')"
            )
        return Penalty(player, hand, kind, row.points, note=msg("obstruction (§5.5)"))
    if kind == "dead_hand":
        return Penalty(
            player,
            hand,
            kind,
            0,
            note=msg("dead hand: cannot win, never tenpai, pays noten at a draw (§3.4.7)"),
        )
    if kind in ("referee", "disqualified"):
        return _referee(row, player, hand, disqualified=kind == "disqualified")
    raise SessionError(
        f"{row.line}: unknown riichi penalty {kind!r} (late, obstruction, dead_hand, referee, "
        "disqualified; a chombo is a row 'chombo: NAME')"
    )


def australian_false_mah_jong(
    row: SessionEntry, player: str, hand: int, options: dict[str, str], winds: dict[str, str]
) -> Penalty:
    """Seed 003 L330 (spec §4.6): the caller of a false mah jong pays half the limit to each
    opponent, if an opponent had already exposed tiles; the same sum as ``table`` settles it."""
    from mahjong_camera_scorer.scoring.australian.options import OPTIONS
    from mahjong_camera_scorer.scoring.options import resolve

    if not row.opponents_exposed:
        raise SessionError(
            f"{row.line}: a false mah jong costs nothing unless an opponent had exposed tiles (L330): "
            "say 'opponents_exposed: true', or record no row"
        )
    opts = resolve(OPTIONS, {}, options)
    half = int(opts["limit"]) // 2
    double = opts["false_mahjong_east_double"] == "true"
    east = winds.get(player) == "E"
    paid = tuple(
        (name, half * (2 if double and (east or wind == "E") else 1))
        for name, wind in winds.items()
        if name != player
    )
    return Penalty(
        player,
        hand,
        "false_mah_jong",
        sum(v for _, v in paid),
        each=half,
        note=msg("false mah jong: {half} to each opponent (L330)", half=half),
        paid=paid,
    )


def other_penalty(row: SessionEntry, player: str, hand: int) -> Penalty:
    if row.infraction in ("referee", "disqualified"):
        return _referee(row, player, hand, disqualified=row.infraction == "disqualified")
    raise SessionError(
        f"{row.line}: this rule system's seed lists no tournament penalties: record the "
        f"referee's decision as 'penalty: referee' with its 'points', not {row.infraction!r}"
    )


def _referee(row: SessionEntry, player: str, hand: int, disqualified: bool) -> Penalty:
    if row.points is None and not disqualified:
        raise SessionError(f"{row.line}: a referee's penalty needs 'points'")
    points = row.points or 0
    if points < 0:
        raise SessionError(f"{row.line}: penalty points are written as a positive deduction, got {points}")
    return Penalty(
        player,
        hand,
        row.infraction,
        points,
        note=row.note or msg("referee's decision"),
        disqualified=disqualified,
    )
