"""Zung Jung settlement of one win (seed SCHEMA DI PAGAMENTO), as pure functions.

* 1–2: only the winner collects, always 3 × the hand value; no dealer or self-draw bonus.
* 3: "Tutti pagano nel caso di vincita pescata": on a self-draw each other player pays the value.
* 4: "Per le mani alte, chi scarta paga": on a discard, hands up to 25 are paid by everyone alike;
  "Per mani dai 26 punti in su ogni giocatore paga inizialmente 25 punti, poi il giocatore
  responsabile paga il resto" — so the responsible player pays 3V − 50.
* 5: same-round immunity decides who is responsible (see :func:`responsible_player`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mahjong_camera_scorer.scoring.fields import MAX_ITEMS, show
from mahjong_camera_scorer.scoring.payments import FOR_HAND, FOR_RESPONSIBILITY, SEATS, Payment
from mahjong_camera_scorer.scoring.tiles import Tile, tile

#: Seed rule 4: "Assumendo 25 punti come un valore standard".
PAR = 25


def _seat(value: str, name: str) -> str:
    if value not in SEATS:
        raise ValueError(f"{name} must be one of E, S, W, N, not {show(value)}")
    return value


def responsible_player(
    winner: str,
    discarder: str,
    winning_tile: Tile | str | None = None,
    discards_in_window: Sequence[str] | None = None,
    *,
    immunity_before_first_discard: str = "hand_start",
) -> str | None:
    """Who is responsible for a discard win, or None when nobody is.

    Seed rule 5 ("Regola di immunità nello stesso round"): the window runs from the winner's
    previous discard (inclusive) up to the winning discard (exclusive), written ``SEAT:tile``.
    If the winner discarded the winning tile there, nobody is responsible; otherwise the first
    player who discarded it there is; otherwise the discarder. A window not opened by the winner's
    own discard means the winner has not discarded yet (A6): by default it runs from the start of
    the hand; with ``immunity_before_first_discard="discarder"`` no immunity applies then.
    """
    winner, discarder = _seat(winner, "winner"), _seat(discarder, "discarder")
    if discarder == winner:
        raise ValueError(f"the discarder {discarder} cannot be the winner")
    if not discards_in_window:
        return discarder
    if isinstance(discards_in_window, str) or not isinstance(discards_in_window, Sequence):
        raise ValueError(f"discards_in_window is a list of 'SEAT:tile', not {show(discards_in_window)}")
    if len(discards_in_window) > MAX_ITEMS:
        raise ValueError(f"discards_in_window: {len(discards_in_window)} discards is more than one go-round")
    if winning_tile is None:
        raise ValueError("discards_in_window needs the winning tile")
    win_kind = (tile(winning_tile) if isinstance(winning_tile, str) else winning_tile).index
    entries = []
    for entry in discards_in_window:
        seat, sep, code = entry.partition(":") if isinstance(entry, str) else ("", "", "")
        if not sep:
            raise ValueError(f"discards_in_window entries are 'SEAT:tile', not {show(entry)}")
        entries.append((_seat(seat.strip(), "discards_in_window seat"), tile(code.strip()).index))
    if any(seat == winner for seat, _ in entries[1:]):
        raise ValueError("the winner's previous discard can only be the first of discards_in_window")
    if entries[0][0] != winner and immunity_before_first_discard == "discarder":
        return discarder
    for seat, kind in entries:
        if kind == win_kind:
            return None if seat == winner else seat
    return discarder


def settle(winner: str, win_by: str, value: int, responsible: str | None) -> list[Payment]:
    """What each other seat pays the winner (they always add up to 3 × ``value``): the hand, and
    over par on a discard the responsible player's rest."""
    winner = _seat(winner, "winner")
    if win_by not in ("discard", "self_draw"):
        raise ValueError(f"win_by must be 'discard' or 'self_draw', not {win_by!r}")
    if value < 1:
        raise ValueError(f"a winning hand is worth at least 1 point, not {value}")
    others = [s for s in SEATS if s != winner]
    if responsible is not None and responsible not in others:
        raise ValueError(f"the responsible player must be one of {', '.join(others)}, not {responsible!r}")
    if win_by == "self_draw" or value <= PAR or responsible is None:
        return [Payment(s, winner, value, FOR_HAND) for s in others]
    return [
        *(Payment(s, winner, PAR, FOR_HAND) for s in others),
        Payment(responsible, winner, 3 * value - 3 * PAR, FOR_RESPONSIBILITY),
    ]
