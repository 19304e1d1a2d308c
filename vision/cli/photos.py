"""``mahjong-score photos``: every photo in a folder, one CSV row and one JSON line each.

A batch never stops on one bad photo: its row carries the error instead, and every entry that
looks like a photo but is not a file gets a row saying why it was skipped. Outputs that would
overwrite a photo or each other are refused before anything is read. Each entry becomes its row
on its own (:func:`photo_row`), so a pool of workers could map entries to rows.
"""

from __future__ import annotations

import argparse
import csv
import json
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from scoring.cli import EXIT_OK, CliError, parse_options
from vision.annotate import draw
from vision.cli.options import add_context_options, context_of, load_reader
from vision.cli.outputs import check_outputs
from vision.cli.photo import process
from vision.images import IMAGE_SUFFIXES
from vision.pipeline import PhotoReader
from vision.result import HandContext


def _progress(i: int, n: int, name: str, stream: TextIO) -> None:
    width = 30
    done = int(width * i / max(1, n))
    stream.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{n} {name[:40]:<40}")
    if i == n:
        stream.write("\n")
    stream.flush()


#: The CSV's columns, one row per photo (or skipped entry).
CSV_HEADER = (
    "file",
    "tiles",
    "hand",
    "melds",
    "winning_tile",
    "bonus_tiles",
    "valid",
    "total",
    "unit",
    "flagged",
    "mended",
    "error",
)


@dataclass(frozen=True)
class Entry:
    """A folder entry that looks like a photo; ``skip`` says why it is not read, if it is not."""

    path: Path
    skip: str | None = None


@dataclass
class PhotoRow:
    """What one entry gives: its CSV row, its JSON line, and whether it was read."""

    csv: list[Any]
    record: dict[str, Any]
    status: str  # read | unreadable | skipped


def entries(folder: Path) -> list[Entry]:
    """Every entry of ``folder`` with a photo's extension, by name. What is not a regular file (a
    folder named ``x.jpg``, a FIFO, a device, a broken link) is kept with the reason it is
    skipped, so it gets a row; a link to a photo is read."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        try:
            mode = path.stat().st_mode  # follows a link
        except OSError:
            out.append(Entry(path, "a broken link" if path.is_symlink() else "cannot be read"))
            continue
        what = (
            None
            if stat.S_ISREG(mode)
            else "a folder"
            if stat.S_ISDIR(mode)
            else "a FIFO (named pipe)"
            if stat.S_ISFIFO(mode)
            else "a socket"
            if stat.S_ISSOCK(mode)
            else "a device"
        )
        if what:
            link = "a link to " if path.is_symlink() else ""
            out.append(Entry(path, f"{link}{what}, not a photo file"))
        else:
            out.append(Entry(path))
    return out


def annotated_names(paths: list[Path]) -> dict[Path, str]:
    """Each photo's annotated image name: its stem with ``.jpg``, or, where two photos share a
    stem (``a.jpg`` and ``a.png``), the later ones with their extension too (``a-png.jpg``)."""
    out: dict[Path, str] = {}
    used: set[str] = set()
    for p in paths:
        name = f"{p.stem}.jpg"
        if name.lower() in used:
            name = f"{p.stem}-{p.suffix[1:]}.jpg"
            k = 2
            while name.lower() in used:
                name, k = f"{p.stem}-{p.suffix[1:]}-{k}.jpg", k + 1
        used.add(name.lower())
        out[p] = name
    return out


def csv_row(name: str, record: dict[str, Any]) -> list[Any]:
    score = record.get("score", {})
    error = record.get("error") or ("" if score.get("valid") else score.get("error", ""))
    hand = record.get("hand", {})
    return [
        name,
        " ".join(t["code"] for t in record.get("tiles", [])),
        hand.get("hand", ""),
        " ".join(m["tiles"] for m in hand.get("melds", [])),
        hand.get("winning_tile") or "",
        " ".join(hand.get("bonus_tiles", [])),
        score.get("valid", False),
        score.get("total", ""),
        score.get("unit", ""),
        len(record.get("flagged", [])),
        len(record.get("warnings", [])),
        error,
    ]


def photo_row(
    reader: PhotoReader,
    entry: Entry,
    rules: str,
    options: dict[str, str],
    ctx: HandContext,
    annotated: Path | None,
) -> PhotoRow:
    """One entry read, scored and rendered (its annotated image written, on the pixels already
    decoded): independent of every other entry, so entries may be mapped to rows in any order."""
    if entry.skip:
        record = {"file": str(entry.path), "error": f"skipped: {entry.skip}"}
        return PhotoRow(csv_row(entry.path.name, record), record, "skipped")
    result, record = process(reader, entry.path, rules, options, ctx)
    if result is not None and annotated and result.image is not None:
        try:
            draw(result.image, result.tiles, annotated, factor=result.scale, warned=result.warned)
        except (OSError, ValueError) as exc:
            record["problems"] = [*record.get("problems", []), f"annotation failed: {exc}"]
    status = "read" if result is not None else "unreadable"
    return PhotoRow(csv_row(entry.path.name, record), record, status)


def cmd_photos(args: argparse.Namespace, out: TextIO) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise CliError(f"no such folder: {folder}")
    options = parse_options(args.option)
    ctx = context_of(args)
    found = entries(folder)
    if not found:
        raise CliError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {folder}")
    csv_path = Path(args.out)
    jsonl_path = Path(args.jsonl) if args.jsonl else csv_path.with_suffix(".jsonl")
    ann_dir = (
        None
        if args.no_annotate
        else (
            Path(args.annotate_dir) if args.annotate_dir else csv_path.parent / f"{csv_path.stem}-annotated"
        )
    )
    photos = [e.path for e in found if not e.skip]
    names = annotated_names(photos) if ann_dir else {}
    outputs = [("--out", csv_path), ("--jsonl", jsonl_path)]
    outputs += [("an annotated image", ann_dir / names[p]) for p in photos] if ann_dir else []
    check_outputs(outputs, [e.path for e in found])
    if ann_dir and ann_dir.exists() and not ann_dir.is_dir():
        raise CliError(f"--annotate-dir {ann_dir} is a file, not a folder")
    reader = load_reader(args)
    try:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        if ann_dir:
            ann_dir.mkdir(parents=True, exist_ok=True)
        fh_csv = csv_path.open("w", newline="", encoding="utf-8")
        fh_jsonl = jsonl_path.open("w", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write results: {exc}") from None
    counts = {"read": 0, "unreadable": 0, "skipped": 0}
    with fh_csv, fh_jsonl:
        w = csv.writer(fh_csv)
        w.writerow(CSV_HEADER)
        for i, entry in enumerate(found):
            if not args.quiet:
                _progress(i, len(found), entry.path.name, sys.stderr)
            annotated = ann_dir / names[entry.path] if ann_dir and entry.path in names else None
            row = photo_row(reader, entry, args.rules, options, ctx, annotated)
            w.writerow(row.csv)
            fh_jsonl.write(json.dumps(row.record, ensure_ascii=False) + "\n")
            fh_csv.flush()
            fh_jsonl.flush()
            counts[row.status] += 1
        if not args.quiet:
            _progress(len(found), len(found), "done", sys.stderr)
    out.write(
        f"{len(found)} photos: {counts['read']} read, {counts['unreadable']} unreadable"
        + (f", {counts['skipped']} skipped" if counts["skipped"] else "")
        + f" → {csv_path}, {jsonl_path}"
        + (f", annotated in {ann_dir}" if ann_dir else "")
        + "\n"
    )
    return EXIT_OK


def add_command(sub: argparse._SubParsersAction) -> None:
    """Register ``photos`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "photos",
        help="read and score every photo in a folder (CSV + JSON lines)",
        description="Score every image in FOLDER: one CSV row and one JSON line per photo, "
        "annotated images beside; a bad photo gets an error row and the batch goes on.",
    )
    p.add_argument("folder")
    add_context_options(p)
    p.add_argument("--out", required=True, help="CSV file to write")
    p.add_argument("--jsonl", help="JSON lines file (default: the CSV's name with .jsonl)")
    p.add_argument(
        "--annotate-dir", help="folder for annotated images (default: <out>-annotated beside the CSV)"
    )
    p.add_argument("--no-annotate", action="store_true", help="write no annotated images")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_photos)
