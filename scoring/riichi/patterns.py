"""The row type of the riichi yaku and yakuman tables, and set helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.decompose import Reading
from scoring.riichi.context import Context
from scoring.tiles import DRAGONS, FIRST_HONOUR, TERMINALS_AND_HONOURS, WINDS


@dataclass(frozen=True, slots=True)
class Shape:
    """A reading as the patterns look at it, computed once per reading (set kinds by first tile)."""

    reading: Reading
    form: str
    wait: str | None
    chows: tuple[int, ...]
    #: pungs and kongs
    pungs: tuple[int, ...]
    kongs: int
    #: pungs/kongs concealed at the win (a pung completed by a discard is not: §4.1.1)
    concealed_pungs: int
    #: the pair's kind in a standard hand, else None
    pair: int | None
    #: every set and the pair hold a terminal or an honour (standard form)
    outside: bool


def shape(r: Reading) -> Shape:
    chows, pungs = [], []
    kongs = concealed = 0
    pair = None
    outside = r.form == "standard"
    for g in r.groups:
        kind = g.kind
        if kind == "chow":
            chows.append(g.first)
        elif kind == "pair":
            pair = g.first
        elif kind != "single":  # the single tiles of thirteen orphans are no set
            pungs.append(g.first)
            kongs += kind == "kong"
            concealed += g.concealed
        if outside and not g.has_terminal_or_honour:
            outside = False
    return Shape(r, r.form, r.wait, tuple(chows), tuple(pungs), kongs, concealed,
                 pair if r.form == "standard" else None, outside)


#: A predicate says how many times a pattern applies to a reading (0 = not at all; True = once).
Predicate = Callable[[Shape, Context], int]

TERMINAL_OR_HONOUR = frozenset(TERMINALS_AND_HONOURS)
TERMINALS = frozenset(k for k in TERMINALS_AND_HONOURS if k < FIRST_HONOUR)
DRAGON_KINDS = frozenset(DRAGONS)
WIND_KINDS = frozenset(WINDS)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One row: the element key (as in the vectors), its fan concealed and open (None = closed
    only), the predicate, and where the seed defines it. ``per_hand`` rows look only at the tiles
    and flags, not at how a reading splits them, so they are checked once per hand."""

    key: str
    closed: int
    open: int | None
    predicate: Predicate
    seed: str
    per_hand: bool = False


Row = tuple[str, int, Predicate]


@dataclass(frozen=True, slots=True)
class Table:
    """A pattern table cut for one hand state (concealed or open): the rows that can score, as
    (key, fan, predicate), the per-hand ones apart."""

    per_hand: tuple[Row, ...]
    per_reading: tuple[Row, ...]


def cut(patterns: tuple[Pattern, ...]) -> dict[bool, Table]:
    """The table for a concealed (True) and an open (False) hand; closed-only rows drop out open."""
    out = {}
    for concealed in (True, False):
        rows = [(p, p.closed if concealed else p.open) for p in patterns]
        out[concealed] = Table(tuple((p.key, fan, p.predicate) for p, fan in rows if fan and p.per_hand),
                               tuple((p.key, fan, p.predicate) for p, fan in rows if fan and not p.per_hand))
    return out


def apply(rows: tuple[Row, ...], s: Shape | None, ctx: Context) -> dict[str, int]:
    """key → fan for every row that applies (a predicate may apply several times)."""
    out: dict[str, int] = {}
    for key, fan, predicate in rows:
        times = predicate(s, ctx)  # type: ignore[arg-type]  # per-hand rows ignore the shape
        if times:
            out[key] = fan * times
    return out


def flag(name: str) -> Predicate:
    """A predicate true when the input's flags hold ``name`` (riichi, last_tile …)."""
    def predicate(s: Shape, c: Context) -> bool:
        return name in c.flags
    return predicate
