"""``photos --resume``: go on with a batch that stopped, without reading a photo twice.

The CSV and the JSON lines are written a row at a time, in the same order, and flushed after
each row, so a batch that was stopped (Ctrl+C, a crash, a power cut) leaves two files that agree
on their first rows, one of them maybe a row longer, and at most a last line cut short. Resuming
keeps the rows both files hold whole, cuts each file back to them, and skips those photos.

What is not such a pair is not cut without ``--force``: JSON lines with no CSV beside them, or
more than the one row a stop can leave in one file only. And a batch goes on under the rules it
was scored with: rows of two rule systems in one file could not be told apart.
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from mahjong_camera_scorer.scoring.cli import CliError
from mahjong_camera_scorer.scoring.csv_cells import plain_cell


@dataclass(frozen=True)
class Done:
    """What a previous run left: the photos with a row (as the CSV's ``file`` column names them)
    and whether the CSV already has its header line."""

    names: frozenset[str]
    has_header: bool


def _csv_rows(path: Path) -> tuple[list[list[str]], list[int]]:
    """The CSV's whole records and the byte offset where each ends (a last line cut short,
    without its line end, is left out)."""
    data = path.read_bytes()
    text = data.decode("utf-8")
    lines = text.splitlines(keepends=True)
    ends, total = [], 0
    for line in lines:
        total += len(line.encode("utf-8"))
        ends.append(total)
    reader = csv.reader(io.StringIO(text))
    rows, offsets = [], []
    for record in reader:
        end_line = reader.line_num - 1
        if not lines[end_line].endswith("\n"):
            break  # the last line was cut short
        rows.append(record)
        offsets.append(ends[end_line])
    return rows, offsets


def _jsonl_rows(path: Path) -> tuple[list[dict[str, Any]], list[int]]:
    """The JSON lines' whole records and the byte offset where each ends."""
    rows, offsets, total = [], [], 0
    with path.open("rb") as fh:
        for raw in fh:
            if not raw.endswith(b"\n"):
                break
            try:
                record = json.loads(raw)
            except ValueError:
                break  # a line cut short and then overwritten: nothing after it is trusted
            if not isinstance(record, dict):
                break
            total += len(raw)
            rows.append(record)
            offsets.append(total)
    return rows, offsets


#: rows a stopped batch can have written to one of its two files only (it writes both, in turn)
ONE_FILE_ONLY = 1


def resume_point(
    csv_path: Path, jsonl_path: Path, header: tuple[str, ...], rules: str = "", force: bool = False
) -> Done:
    """The photos a previous run of the same batch wrote whole to both files; each file is cut
    back to those rows. :class:`CliError` when the files are not a previous run of this batch
    (other columns, other ``rules``, rows that disagree) or when cutting would drop more than a
    stop leaves behind, unless ``force``."""
    try:
        has_csv = csv_path.exists() and csv_path.stat().st_size > 0
        rows, csv_ends = _csv_rows(csv_path) if has_csv else ([], [])
        records, jsonl_ends = _jsonl_rows(jsonl_path) if jsonl_path.exists() else ([], [])
        jsonl_size = jsonl_path.stat().st_size if jsonl_path.exists() else 0
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise CliError(f"--resume: cannot read the previous results: {exc}") from None
    if not rows:  # no CSV, or not even its header line whole: the batch starts again
        if jsonl_size and not force:
            raise CliError(
                f"--resume: {jsonl_path} holds JSON lines but {csv_path} no rows to go on from: "
                "give --force to replace them, or another --out"
            )
        if has_csv:
            _cut(csv_path, 0)
        if jsonl_path.exists():
            _cut(jsonl_path, 0)
        return Done(frozenset(), False)
    if tuple(rows[0]) != header:
        raise CliError(
            f"--resume: {csv_path} does not have this batch's columns (a manifest adds table and "
            "hand_no): give another --out, or leave out --resume to start again"
        )
    rows, csv_ends = [[plain_cell(c) for c in r] for r in rows[1:]], csv_ends[1:]
    keep = min(len(rows), len(records))
    scored = {str(r["score"].get("rules")) for r in records[:keep] if isinstance(r.get("score"), dict)}
    other = sorted(scored - {rules}) if rules else []
    if other:
        raise CliError(
            f"--resume: {csv_path} holds a batch scored under {other[0]}, not {rules}: give --rules "
            f"{other[0]} to go on with it, or another --out to score under {rules}"
        )
    dropped = max(len(rows), len(records)) - keep
    if dropped > ONE_FILE_ONLY and not force:
        raise CliError(
            f"--resume: {csv_path} and {jsonl_path} differ by {dropped} rows, more than a stopped "
            "batch leaves: give --force to cut them back to the rows both hold, or another --out"
        )
    for i in range(keep):
        if PurePath(str(records[i].get("file", ""))).name != PurePath(rows[i][0]).name:
            raise CliError(
                f"--resume: {csv_path} and {jsonl_path} disagree at row {i + 1} "
                f"({rows[i][0]} / {records[i].get('file')}): leave out --resume to start again"
            )
    _cut(csv_path, csv_ends[keep - 1] if keep else _header_end(csv_path))
    if jsonl_path.exists():
        _cut(jsonl_path, jsonl_ends[keep - 1] if keep else 0)
    return Done(frozenset(r[0] for r in rows[:keep]), True)


def _header_end(path: Path) -> int:
    with path.open("rb") as fh:
        return len(fh.readline())


def _cut(path: Path, size: int) -> None:
    """Cut ``path`` back to ``size`` bytes, where a row was left cut short or written to one file
    only (our own output; the rows before it are kept as they are)."""
    if path.stat().st_size > size:
        try:
            os.truncate(path, size)
        except OSError as exc:
            raise CliError(f"--resume: cannot cut {path} back to its whole rows: {exc.strerror}") from None
