"""The row type of the riichi yaku and yakuman tables, and set helpers they share."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from scoring.decompose import Reading
from scoring.riichi.context import Context
from scoring.tiles import DRAGONS, FIRST_HONOUR, TERMINALS_AND_HONOURS, WINDS

#: A predicate says how many times a pattern applies to a reading (0 = not at all; True = once).
Predicate = Callable[[Reading, Context], int]

TERMINAL_OR_HONOUR = frozenset(TERMINALS_AND_HONOURS)
TERMINALS = frozenset(k for k in TERMINALS_AND_HONOURS if k < FIRST_HONOUR)
DRAGON_KINDS = frozenset(DRAGONS)
WIND_KINDS = frozenset(WINDS)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One row: the element key (as in the vectors), its fan concealed and open (None = closed
    only), the predicate over a reading, and where the seed defines it."""

    key: str
    closed: int
    open: int | None
    predicate: Predicate
    seed: str

    def value(self, reading: Reading, ctx: Context) -> int:
        """The fan this row adds to the reading (0 when it does not apply)."""
        fan = self.closed if ctx.concealed else self.open
        if fan is None:
            return 0
        times = self.predicate(reading, ctx)
        return fan * int(times)


def pung_firsts(r: Reading) -> list[int]:
    return [g.first for g in r.groups if g.kind in ("pung", "kong")]


def chow_firsts(r: Reading) -> list[int]:
    return [g.first for g in r.groups if g.kind == "chow"]


def flag(name: str) -> Predicate:
    """A predicate true when the input's flags hold ``name`` (riichi, last_tile …)."""
    def predicate(r: Reading, c: Context) -> bool:
        return name in c.flags
    return predicate
