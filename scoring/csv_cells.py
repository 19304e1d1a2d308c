"""CSV cells a spreadsheet will not run: a text cell starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return is a formula to Excel and LibreOffice (a player named ``=HYPERLINK(…)``
on a referee's sheet), so it is written with a leading apostrophe, the usual neutralisation,
which the spreadsheet shows as text. Numbers (``-5``, ``+3.5``) stay as they are. One writer for
every CSV the project writes: the photos batch, the session sheet, the page's export."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def safe_cell(value: Any) -> Any:
    """``value``, with a leading apostrophe when it is text a spreadsheet would take for a formula."""
    if isinstance(value, str) and value.startswith(_TRIGGERS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def plain_cell(value: str) -> str:
    """A cell as :func:`safe_cell` was given it (reading back a CSV this project wrote)."""
    return value[1:] if value.startswith("'") and value[1:].startswith(_TRIGGERS) else value


class SafeWriter:
    """:func:`csv.writer` whose rows go through :func:`safe_cell`."""

    def __init__(self, f: Any, **kw: Any) -> None:
        self._w = csv.writer(f, **kw)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._w.writerow([safe_cell(v) for v in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def safe_writer(f: Any, **kw: Any) -> SafeWriter:
    return SafeWriter(f, **kw)
