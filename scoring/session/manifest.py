"""A photo manifest: one CSV line per photo with the context the photo cannot show.

A referee's folder of photos comes with a manifest that says, for each photo, which table and
hand it is, who won (the seat), how (discard or self-draw, and who discarded), the situation flags,
and for riichi the declarations, dora indicators and counters::

    photo,table,hand,seat,round,win_by,discarder,flags,riichi,dora,ura,honba,sticks
    t3-h01.jpg,3,1,E,E,discard,S,,,,,,
    t3-h02.jpg,3,2,W,E,self_draw,,ippatsu,W,3m,,1,1

``mahjong-score photos DIR --manifest FILE`` reads each photo in its own context (one error row
for a line that cannot be used; the batch goes on), ``mahjong-score session --manifest FILE
--players ...`` turns one table's lines into that table's session. Parsing here is pure: each
line becomes a :class:`ManifestRow` whose ``error`` says what is wrong with it, if anything.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass, field

from mahjong_camera_scorer.scoring.clean_text import control_character, same_name
from mahjong_camera_scorer.scoring.payments import SEATS
from mahjong_camera_scorer.scoring.session.model import Player, Session, SessionEntry, SessionError
from mahjong_camera_scorer.scoring.session.numbers import whole_number
from mahjong_camera_scorer.scoring.situation_words import MAX_COUNTER, flag_names, option_pairs, win_by, wind
from mahjong_camera_scorer.scoring.tiles import TileError, parse_tiles

#: The manifest's columns; only ``photo`` is required.
MANIFEST_COLUMNS = (
    "photo",
    "table",
    "hand",
    "seat",
    "round",
    "win_by",
    "discarder",
    "flags",
    "riichi",
    "dora",
    "ura",
    "honba",
    "sticks",
    "winning_tile",
    "options",
    "confirmed",
    "note",
)
#: a manifest is a referee's sheet, not a data dump: refuse what cannot be one before parsing it
MAX_ROWS = 10_000
MAX_CELL = 200


class ManifestError(ValueError):
    """The manifest as a whole cannot be used (no ``photo`` column, an unknown column)."""


@dataclass(slots=True)
class ManifestRow:
    """One line of the manifest, its cells checked; ``error`` says what is wrong, if anything."""

    line: int
    photo: str = ""
    table: str = ""
    hand: str = ""  # the hand's number or name at its table (1, 2, … or E1), as on the sheet
    seat: str = ""  # the winner's seat wind: E, S, W or N ("" = not given)
    round: str = ""
    win_by: str = ""  # discard | self_draw | ""
    discarder: str = ""  # a seat (photos) or a player's name or seat (session)
    flags: list[str] = field(default_factory=list)
    riichi: list[str] = field(default_factory=list)  # who declared riichi: seats (or names in a session)
    dora: list[str] = field(default_factory=list)  # tile codes
    ura: list[str] = field(default_factory=list)
    honba: int | None = None
    sticks: int | None = None
    winning_tile: str = ""
    options: dict[str, str] = field(default_factory=dict)
    confirmed: bool = False
    note: str = ""
    error: str | None = None

    @property
    def where(self) -> str:
        return f"manifest line {self.line}"


def parse_manifest(text: str) -> list[ManifestRow]:
    """Every photo line of a manifest CSV, in order (empty lines and lines whose photo starts
    with ``#`` are left out); :class:`ManifestError` when the header cannot be used."""
    reader = csv.DictReader(io.StringIO(text))
    names = [(f or "").strip().lower() for f in reader.fieldnames or []]
    if "photo" not in names:
        raise ManifestError(
            "a photo manifest needs a header line with a 'photo' column "
            f"(columns: {', '.join(MANIFEST_COLUMNS)})"
        )
    unknown = [n for n in names if n and n not in MANIFEST_COLUMNS]
    if unknown:
        columns = ", ".join(MANIFEST_COLUMNS)
        raise ManifestError(f"unknown manifest column {unknown[0][:40]!r} (columns: {columns})")
    if len(set(names)) != len(names):
        raise ManifestError("a manifest column is named twice")
    reader.fieldnames = names
    rows: list[ManifestRow] = []
    seen: dict[str, int] = {}
    try:
        for record in reader:
            cells = {k: (v or "").strip() for k, v in record.items() if k and isinstance(v, str)}
            if not any(cells.values()) or cells.get("photo", "").startswith("#"):
                continue
            if len(rows) >= MAX_ROWS:
                raise ManifestError(f"the manifest has more than {MAX_ROWS} lines")
            row = _row(cells, reader.line_num, None in record)
            if row.photo and not row.error:
                if row.photo in seen:
                    row.error = f"{row.where}: {row.photo} is listed twice (first on line {seen[row.photo]})"
                else:
                    seen[row.photo] = row.line
            rows.append(row)
    except csv.Error as exc:
        raise ManifestError(f"the manifest is not valid CSV (line {reader.line_num}): {exc}") from None
    return rows


def _row(cells: dict[str, str], line: int, extra_cells: bool) -> ManifestRow:
    row = ManifestRow(line=line, photo=cells.get("photo", "")[:MAX_CELL])
    row.table, row.hand = cells.get("table", "")[:MAX_CELL], cells.get("hand", "")[:MAX_CELL]
    try:
        if extra_cells:
            raise ValueError("more cells than the header has columns")
        long = next((k for k, v in cells.items() if len(v) > MAX_CELL), None)
        if long:
            raise ValueError(f"{long}: longer than {MAX_CELL} characters")
        control = next(((k, c) for k, v in cells.items() if (c := control_character(v))), None)
        if control:  # an escape code in a photo's name or a note would reach the terminal and the sheet
            raise ValueError(f"{control[0]}: holds a control character ({control[1]}): write it without")
        if not row.photo:
            raise ValueError("no photo named (column 'photo')")
        row.note = cells.get("note", "")
        # the situation's words, read as every front end reads them (an empty cell: not given)
        row.seat = _given(cells, "seat", wind)
        row.round = _given(cells, "round", wind)
        row.win_by = _given(cells, "win_by", win_by)
        row.discarder = cells.get("discarder", "")
        row.flags = sorted(flag_names(cells.get("flags", ""), "flags"))
        row.riichi = _words(cells.get("riichi", ""))
        row.dora = _tiles(cells.get("dora", ""), "dora")
        row.ura = _tiles(cells.get("ura", ""), "ura")
        row.honba = _counter(cells.get("honba", ""), "honba")
        row.sticks = _counter(cells.get("sticks", ""), "sticks")
        if cells.get("winning_tile"):
            tiles = _tiles(cells["winning_tile"], "winning_tile")
            if len(tiles) != 1:
                raise ValueError(f"winning_tile: one tile code, not {cells['winning_tile']!r}")
            row.winning_tile = tiles[0]
        pairs = (p.strip() for p in cells.get("options", "").split(";"))  # NAME=VALUE; NAME=VALUE
        row.options = option_pairs(filter(None, pairs), "options")
        confirmed = cells.get("confirmed", "").lower()
        if confirmed not in ("", "yes", "no", "true", "false", "1", "0", "y", "n"):
            raise ValueError(f"confirmed: yes or no, not {confirmed!r}")
        row.confirmed = confirmed in ("yes", "true", "1", "y")
    except ValueError as exc:
        row.error = f"{row.where}: {exc}"
    return row


def _given(cells: dict[str, str], column: str, read: Callable[[str, str], str]) -> str:
    """A cell's word read by ``read`` (:mod:`scoring.situation_words`); "" when the cell is empty."""
    return read(cells[column], column) if cells.get(column) else ""


def _words(value: str) -> list[str]:
    return [w for w in value.replace(",", " ").split() if w]


def _tiles(value: str, column: str) -> list[str]:
    """Tile codes from ``3m 7z``, ``3m,7z`` or ``37m``, each checked."""
    try:
        return [t.code for part in _words(value) for t in parse_tiles(part)]
    except TileError as exc:
        raise ValueError(f"{column}: {exc}") from None


def _counter(value: str, column: str) -> int | None:
    """honba or sticks: a whole number 0..:data:`MAX_COUNTER` by the sessions' one number rule
    (:func:`scoring.session.numbers.whole_number`; "" = not given)."""
    return whole_number(value, column, 0, MAX_COUNTER)


# ------------------------------------------------------------------------------------------------
# a table's lines as its session
# ------------------------------------------------------------------------------------------------
def session_from_manifest(
    rows: list[ManifestRow], players: list[str], table: str | None = None, photos_dir: str = "."
) -> Session:
    """One table's photo lines as its session: ``players`` by the seat each takes at the first hand
    (East, South, West, North), the hands in the manifest's order, each winner named by the seat
    he holds at that hand (the ``seat`` column). The session moves the winds itself: the
    ``round`` column is for ``photos``. :class:`SessionError` names the line that cannot be used,
    as for a session file."""
    if len(players) != 4:
        raise SessionError(f"--players: name the four players in seat order E S W N, got {len(players)}")
    bad = next((c for c in map(control_character, players) if c), None)
    if bad:
        raise SessionError(f"--players: a name holds a control character ({bad}): write it without")
    players = [same_name(p) for p in players]  # look-alike names are one player, as in a session file
    tables = sorted({r.table for r in rows if not r.error})
    if table is not None:
        rows = [r for r in rows if r.table == table]
        if not rows:
            raise SessionError(f"the manifest has no photo of table {table!r} (tables: {', '.join(tables)})")
    elif len(tables) > 1:
        raise SessionError(
            f"the manifest has photos of several tables ({', '.join(tables)}): choose one with --table"
        )
    if not rows:
        raise SessionError("the manifest lists no photo")
    session_rows = []
    for r in rows:
        if r.error:
            raise SessionError(r.error)
        if not r.seat:
            raise SessionError(f"{r.where}: seat: give the winner's seat (E, S, W or N) at that hand")
        session_rows.append(
            SessionEntry(
                kind="hand",
                line=r.where,
                photo=r.photo,
                winner=r.seat,
                win_by=r.win_by or None,
                discarder=same_name(r.discarder) or None,
                flags=list(r.flags),
                dora=list(r.dora),
                ura=list(r.ura),
                riichi=[same_name(n) for n in r.riichi],
                honba=r.honba,
                sticks=r.sticks,
                winning_tile=r.winning_tile or None,
                options=dict(r.options),
                confirmed=r.confirmed,
                note=r.note,
            )
        )
    names = [Player(name, seat) for name, seat in zip(players, SEATS, strict=True)]
    name = table if table is not None else (tables[0] if tables else "")
    session = Session("", "", name, names, session_rows)
    session.base_dir = photos_dir
    return session
