"""The situation of a hand: what a photo (or a row of tiles) cannot show, as one typed object.

The seat and round wind, how the hand was won (and who discarded), the situation flags, the dora
indicators and counters, and the winning tile when it is not set apart: every front end (the
command line's flags, the photos manifest, the web API, the session) gives its input to
:func:`context_from_dict`, which owns every check of these fields, so a typo reads the same
everywhere. The field parsers are the structured form's (:mod:`scoring.structured`), so a hand's
own context fields are checked alike. :func:`score_or_invalid` is the one place where a hand is
scored without ever raising: an error becomes an invalid score with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.hand import Hand, HandError
from scoring.payments import SEATS
from scoring.result import Score
from scoring.rules import check_context, score_hand
from scoring.structured import (
    field_counter,
    field_names,
    field_tiles,
    field_win_by,
    field_wind,
    show,
)
from scoring.tile_counts import count_problem
from scoring.tiles import Tile, TileError, tile

#: the fields :func:`context_from_dict` reads, as the structured form names them
CONTEXT_FIELDS = (
    "win_by", "seat_wind", "round_wind", "flags", "dora_indicators", "ura_dora_indicators", "honba",
    "riichi_sticks", "winning_tile", "discarder",
)


@dataclass(frozen=True)
class HandContext:
    """What a photo cannot show: how the hand was won, the seat and round wind, situation flags,
    dora indicators and counters, and the winning tile when it is not set apart in the photo.
    Front ends parse their input into this once (:func:`context_from_dict`)."""

    win_by: str = "discard"  # discard | self_draw
    seat_wind: str = "E"
    round_wind: str = "E"
    flags: tuple[str, ...] = ()
    dora_indicators: tuple[Tile, ...] = ()
    ura_dora_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0
    #: overrides the layout's winning tile (none was set apart, or the wrong one)
    winning_tile: Tile | None = None
    #: the seat that discarded the winning tile (who pays, where the rules say)
    discarder: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The structured form's context fields; empty lists and zero sticks are left out."""
        out: dict[str, Any] = {
            "win_by": self.win_by,
            "seat_wind": self.seat_wind,
            "round_wind": self.round_wind,
        }
        if self.flags:
            out["flags"] = list(self.flags)
        if self.dora_indicators:
            out["dora_indicators"] = [t.code for t in self.dora_indicators]
        if self.ura_dora_indicators:
            out["ura_dora_indicators"] = [t.code for t in self.ura_dora_indicators]
        out["honba"] = self.honba
        if self.riichi_sticks:
            out["riichi_sticks"] = self.riichi_sticks
        if self.discarder:
            out["discarder"] = self.discarder
        return out

    def hand_fields(self) -> dict[str, Any]:
        """The context as :class:`Hand` fields (the winning tile aside: the caller knows whether
        the hand's own one or this one counts)."""
        return {
            "win_by": self.win_by,
            "seat_wind": self.seat_wind,
            "round_wind": self.round_wind,
            "flags": frozenset(self.flags),
            "dora_indicators": self.dora_indicators,
            "ura_dora_indicators": self.ura_dora_indicators,
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "extra": {"discarder": self.discarder} if self.discarder else {},
        }


def context_from_dict(
    data: Mapping[str, Any],
    base: HandContext | None = None,
    *,
    names: Mapping[str, str] | None = None,
    rules: str | None = None,
    options: Sequence[Mapping[str, str]] = (),
) -> HandContext:
    """The context in ``data`` (the structured form's fields, :data:`CONTEXT_FIELDS`), each
    checked; a field absent or None keeps ``base``'s value (a discarder given alone means a win on
    a discard). ``names``: how the front end calls a field in its messages (``--seat``);
    ``rules``: also check the flags and the rule ``options`` against that system
    (:func:`scoring.rules.check_context`). :class:`HandError` names the field at fault."""
    base = base or HandContext()
    unknown = sorted(k for k in data if k not in CONTEXT_FIELDS)
    if unknown:
        raise HandError(f"unknown context field {show(unknown[0])} (fields: {', '.join(CONTEXT_FIELDS)})")

    def name(key: str) -> str:
        return (names or {}).get(key, key)

    def tiles(key: str, default: tuple[Tile, ...]) -> tuple[Tile, ...]:
        if data.get(key) is None:
            return default
        try:
            return field_tiles(data[key], name(key))
        except TileError as exc:
            raise HandError(f"{name(key)}: {exc}") from None

    seat = field_wind(data.get("seat_wind"), name("seat_wind"), base.seat_wind)
    given = data.get("discarder")
    default_win = "discard" if given is not None else base.win_by
    win_by = field_win_by(data.get("win_by"), name("win_by"), default_win)
    discarder = base.discarder
    if given is not None:
        discarder = field_wind(given, name("discarder"), "")
        if given.strip().upper() not in (*SEATS, "EAST", "SOUTH", "WEST", "NORTH"):
            raise HandError(f"{name('discarder')}: a seat E, S, W or N, not {show(given)}")
    if discarder is not None:
        if discarder == seat:
            raise HandError(f"{name('discarder')}: {discarder} is the winner's own seat")
        if win_by == "self_draw":
            raise HandError(f"{name('discarder')}: it goes with a win on a discard, not a self-draw")
    flags = tuple(field_names(data["flags"], name("flags"))) if data.get("flags") is not None else base.flags
    winning = base.winning_tile
    if data.get("winning_tile") is not None:
        code = data["winning_tile"]
        try:
            winning = tile(code) if isinstance(code, str) else None
        except TileError as exc:
            raise HandError(f"{name('winning_tile')}: {exc}") from None
        if winning is None or winning.is_back:
            raise HandError(f"{name('winning_tile')}: one tile code, not {show(code)}")
    context = HandContext(
        win_by=win_by,
        seat_wind=seat,
        round_wind=field_wind(data.get("round_wind"), name("round_wind"), base.round_wind),
        flags=flags,
        dora_indicators=tiles("dora_indicators", base.dora_indicators),
        ura_dora_indicators=tiles("ura_dora_indicators", base.ura_dora_indicators),
        honba=_counter(data, "honba", name("honba"), base.honba),
        riichi_sticks=_counter(data, "riichi_sticks", name("riichi_sticks"), base.riichi_sticks),
        winning_tile=winning,
        discarder=discarder,
    )
    if rules is not None:
        check_context(rules, context.flags, *options)
    return context


def _counter(data: Mapping[str, Any], key: str, name: str, default: int) -> int:
    return default if data.get(key) is None else field_counter(data[key], name)


def score_or_invalid(
    hand: Hand | None,
    rules: str,
    options: Mapping[str, str] | None = None,
    *,
    hand_error: str | None = None,
    problems: Sequence[str] = (),
    on_bug: Callable[[Exception], None] | None = None,
) -> Score:
    """``hand``'s score under ``rules``, never an exception: a hand that could not be built
    (None, ``hand_error`` says why), a scorer's refusal or a scorer's bug is an invalid score with
    the reason; the layout's ``problems`` are added to an invalid score's reason, so the player
    sees why the tiles did not make a hand. ``on_bug``: told of a scorer's bug (the web app logs
    it with its traceback)."""
    if hand is None:
        score = Score.invalid(rules, hand_error or "no hand")
    else:
        try:
            score = score_hand(hand, rules, dict(options or {}))
        except HandError as exc:
            score = Score.invalid(rules, str(exc))
        except Exception as exc:  # a scorer bug must not stop a batch, the page or the camera
            if on_bug is not None:
                on_bug(exc)
            score = Score.invalid(rules, f"internal error while scoring: {type(exc).__name__}: {exc}")
        # tiles no winning tile completes (12 of them, a fifth 5m) are told so, not "say which
        # tile completed the hand"
        problem = count_problem(hand) if not score.valid and hand.winning_tile is None else None
        if problem:
            score = Score.invalid(rules, problem)
    return with_problems(score, problems)


def with_problems(score: Score, problems: Sequence[str]) -> Score:
    """An invalid score with the layout's problems added to its reason (a valid one as it is)."""
    if problems and not score.valid:
        return Score.invalid(score.rules, f"{score.error or 'not a win'}; layout: {'; '.join(problems)}")
    return score
