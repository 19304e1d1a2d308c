"""The row type of the riichi yaku and yakuman tables, and set helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import product

from mahjong_camera_scorer.scoring.decompose import Decomposition
from mahjong_camera_scorer.scoring.riichi.context import RiichiContext
from mahjong_camera_scorer.scoring.tiles import DRAGONS, FIRST_HONOUR, N_KINDS, TERMINALS_AND_HONOURS, WINDS


@dataclass(slots=True)
class Shape:
    """A reading as the patterns look at it (set kinds by first tile), built once per reading and
    only read afterwards; what few rows ask is worked out when asked."""

    reading: Decomposition
    form: str
    wait: str | None
    chows: list[int]
    #: pungs and kongs
    pungs: list[int]
    #: the pair's kind in a standard hand, else None
    pair: int | None

    @property
    def kongs(self) -> int:
        return sum(1 for g in self.reading.groups if g.kind == "kong")

    @property
    def concealed_pungs(self) -> int:
        """Pungs/kongs concealed at the win (a pung completed by a discard is not: §4.1.1)."""
        return sum(1 for g in self.reading.groups if g.kind in ("pung", "kong") and g.concealed)

    @property
    def outside(self) -> bool:
        """Every set and the pair hold a terminal or an honour (standard form)."""
        return self.form == "standard" and all(
            (_OUTSIDE_CHOW if g.kind == "chow" else _OUTSIDE_SET)[g.first] for g in self.reading.groups
        )


#: first kind → whether a chow / a pung, kong or pair starting there holds a terminal or honour
_OUTSIDE_CHOW = tuple(k < FIRST_HONOUR and k % 9 in (0, 6) for k in range(N_KINDS))
_OUTSIDE_SET = tuple(k >= FIRST_HONOUR or k % 9 in (0, 8) for k in range(N_KINDS))


def shape(r: Decomposition) -> Shape:
    chows: list[int] = []
    pungs: list[int] = []
    pair = None
    for g in r.groups:
        kind = g.kind
        if kind == "chow":
            chows.append(g.first)
        elif kind == "pair":
            pair = g.first
        elif kind != "single":  # the single tiles of thirteen orphans are no set
            pungs.append(g.first)
    form = r.form
    return Shape(r, form, r.wait, chows, pungs, pair if form == "standard" else None)


#: A predicate says how many times a pattern applies to a reading (0 = not at all; True = once).
Predicate = Callable[[Shape, RiichiContext], int]

TERMINAL_OR_HONOUR = frozenset(TERMINALS_AND_HONOURS)
TERMINALS = frozenset(k for k in TERMINALS_AND_HONOURS if k < FIRST_HONOUR)
DRAGON_KINDS = frozenset(DRAGONS)
WIND_KINDS = frozenset(WINDS)


#: A screen is a cheap test of the whole hand that a row's pattern needs to hold (three sets of a
#: kind for Toitoi, one suit at most for Honitsu …): where it fails, no reading can match the row,
#: so the row is not tried. Screens only save work; tests check that each one is necessary.
Screen = Callable[[RiichiContext], bool]


def three_sets_of_a_kind(c: RiichiContext) -> bool:
    """Three or more kinds with three copies: three pungs or kongs are possible. Such a hand has
    at most 7 kinds (three sets of a kind, a chow, the pair), which is quicker to see."""
    if len(c.kinds) > 7:
        return False
    counts = c.counts
    return len(counts) - counts.count(0) - counts.count(1) - counts.count(2) >= 3


def honour_set_of_a_kind(c: RiichiContext) -> bool:
    """An honour with three copies: a pung or kong of winds or dragons is possible."""
    return c.has_honours and max(c.counts[FIRST_HONOUR:]) >= 3


def one_suit_at_most(c: RiichiContext) -> bool:
    return len(c.suits) <= 1


def terminals_and_honours_only(c: RiichiContext) -> bool:
    return c.kinds <= TERMINAL_OR_HONOUR


MIDDLE_KINDS = frozenset(k for k in range(FIRST_HONOUR) if k % 9 in (3, 4, 5))


def no_four_five_six(c: RiichiContext) -> bool:
    """No 4, 5 or 6: no chow, pung or pair holding one of them has a terminal or an honour, so
    only such hands can have a terminal or honour in every set and the pair."""
    return c.kinds.isdisjoint(MIDDLE_KINDS)


#: every screen the tables use, evaluated once per hand in this order
SCREENS: tuple[Screen, ...] = (
    three_sets_of_a_kind,
    honour_set_of_a_kind,
    one_suit_at_most,
    terminals_and_honours_only,
    no_four_five_six,
)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One row: the element key (as in the vectors), its fan concealed and open (None = closed
    only), the predicate, and where the seed defines it. ``per_hand`` rows look only at the tiles
    and flags, not at how a reading splits them, so they are checked once per hand; ``screen``
    (one of :data:`SCREENS`) is a hand-wide condition the pattern needs."""

    key: str
    closed: int
    open: int | None
    predicate: Predicate
    seed: str
    per_hand: bool = False
    screen: Screen | None = None


PatternRow = tuple[str, int, Predicate]
#: (flag, key, fan): a row that is exactly "the input's flags hold this flag"
FlagRow = tuple[str, str, int]


@dataclass(frozen=True, slots=True)
class Table:
    """A pattern table cut for one hand state (concealed or open): the rows that can score. Rows
    that only test a flag are apart; the other rows are kept per outcome of the :data:`SCREENS`
    (a tuple of booleans), as (key, fan, predicate), the per-hand ones apart."""

    flags: tuple[FlagRow, ...]
    by_screens: dict[tuple[bool, ...], tuple[tuple[PatternRow, ...], tuple[PatternRow, ...]]]


def cut(patterns: tuple[Pattern, ...]) -> dict[bool, Table]:
    """The table for a concealed (True) and an open (False) hand; closed-only rows drop out open."""
    outcomes = list(product((False, True), repeat=len(SCREENS)))
    out = {}
    for concealed in (True, False):
        offered = [(p, p.closed if concealed else p.open) for p in patterns]
        rows = [(p, fan) for p, fan in offered if fan]
        flags = tuple((p.predicate.flag, p.key, fan) for p, fan in rows if hasattr(p.predicate, "flag"))
        by_screens = {}
        for outcome in outcomes:
            passed = {screen for screen, ok in zip(SCREENS, outcome, strict=True) if ok}
            kept = [
                (p, fan)
                for p, fan in rows
                if not hasattr(p.predicate, "flag") and (p.screen is None or p.screen in passed)
            ]
            by_screens[outcome] = (
                tuple((p.key, fan, p.predicate) for p, fan in kept if p.per_hand),
                tuple((p.key, fan, p.predicate) for p, fan in kept if not p.per_hand),
            )
        out[concealed] = Table(flags, by_screens)
    return out


def apply(
    rows: tuple[PatternRow, ...], s: Shape | None, ctx: RiichiContext, out: dict[str, int]
) -> dict[str, int]:
    """Add key → fan to ``out`` for every row that applies (a predicate may apply several times)."""
    for key, fan, predicate in rows:
        times = predicate(s, ctx)  # type: ignore[arg-type]  # per-hand rows ignore the shape
        if times:
            out[key] = fan * times
    return out


def apply_flags(rows: tuple[FlagRow, ...], flags: frozenset[str], out: dict[str, int]) -> dict[str, int]:
    """Add key → fan to ``out`` for every flag row whose flag the input holds."""
    if flags:
        for name, key, fan in rows:
            if name in flags:
                out[key] = fan
    return out


def flag(name: str) -> Predicate:
    """A predicate true when the input's flags hold ``name`` (riichi, last_tile …); tables apply
    these rows by the flag (``predicate.flag``) without calling them."""

    def predicate(s: Shape, c: RiichiContext) -> bool:
        return name in c.flags

    predicate.flag = name  # type: ignore[attr-defined]  # the mark the tables read (a function attribute)
    return predicate
