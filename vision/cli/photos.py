"""``mahjong-score photos``: every photo in a folder, one CSV row and one JSON line each.

A batch never stops on one bad photo: its row carries the error instead, and every entry that
looks like a photo but is not a file gets a row saying why it was skipped. Outputs that would
overwrite a photo or each other are refused before anything is read. Each entry becomes its row
on its own (:func:`photo_row`), so a pool of workers could map entries to rows.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO

from tqdm import tqdm

from mahjong_camera_scorer.scoring.clean_text import for_terminal
from mahjong_camera_scorer.scoring.cli import EXIT_OK, CliError, parse_options
from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.scoring.csv_cells import safe_writer
from mahjong_camera_scorer.scoring.output_paths import check_output_paths, taught_set_paths
from mahjong_camera_scorer.vision.annotate import draw
from mahjong_camera_scorer.vision.cli.entries import Entry, annotated_names, entries
from mahjong_camera_scorer.vision.cli.manifest import manifest_entries, read_manifest
from mahjong_camera_scorer.vision.cli.options import (
    add_context_options,
    check_rule_input,
    context_of,
    reader_spec,
)
from mahjong_camera_scorer.vision.cli.outputs import add_force_option, guarded, sets_root
from mahjong_camera_scorer.vision.cli.photo import process
from mahjong_camera_scorer.vision.cli.pool import (
    WorkerDied,
    available_cores,
    default_workers,
    map_in_order,
    threads_per_worker,
)
from mahjong_camera_scorer.vision.cli.resume import Done, resume_point
from mahjong_camera_scorer.vision.images import IMAGE_SUFFIXES
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.render.csv_row import CSV_COLUMNS, csv_cells
from mahjong_camera_scorer.vision.result import HandResult


def progress_bar(total: int, quiet: bool, stream: TextIO) -> tqdm[Any]:
    """The batch's progress bar on ``stream``, drawn only where it is a terminal: redirected to a
    file (or ``--quiet``) it writes nothing, so a log never fills with redrawn lines (tqdm's
    ``disable=None`` is its terminal check)."""
    return tqdm(
        total=total,
        file=stream,
        disable=True if quiet else None,
        unit="photo",
        dynamic_ncols=True,
        leave=True,
    )


#: The CSV's columns, one row per photo (or skipped entry): the result's cells (:mod:`vision.render.csv_row`)
CSV_HEADER = ("file", *CSV_COLUMNS, "error")


#: what a manifest's batch adds after ``file``: the photo's table and hand number, as the manifest says
MANIFEST_CSV_COLUMNS = ("table", "hand_no")


@dataclass
class PhotoRow:
    """What one entry gives: its CSV row, its JSON line, and whether it was read."""

    csv: list[Any]
    record: dict[str, Any]
    status: str  # read | unreadable | skipped | invalid (a manifest line that cannot be used)


def csv_row(
    entry: Entry, record: dict[str, Any], manifest: bool = False, result: HandResult | None = None
) -> list[Any]:
    """The entry's CSV row (with its table and hand number after the file in a manifest's batch):
    the result's cells (:func:`vision.render.csv_row.csv_cells`; empty for a photo not read) and the error."""
    score = record.get("score", {})
    error = record.get("error") or ("" if score.get("valid") else score.get("error", ""))
    return [
        entry.name,
        *([entry.table, entry.hand_no] if manifest else []),
        *csv_cells(result),
        error,
    ]


def csv_header(manifest: bool) -> tuple[str, ...]:
    return (CSV_HEADER[0], *MANIFEST_CSV_COLUMNS, *CSV_HEADER[1:]) if manifest else CSV_HEADER


def photo_row(
    reader: PhotoReader | None,
    entry: Entry,
    rules: str,
    options: dict[str, str],
    ctx: HandContext,
    annotated: Path | None,
    manifest: bool = False,
) -> PhotoRow:
    """One entry read, scored and rendered (its annotated image written, on the pixels already
    decoded): independent of every other entry, so entries may be mapped to rows in any order,
    in any process. A manifest line's own context and options replace ``ctx`` and ``options``."""
    where = {"file": str(entry.path)}
    if manifest:
        where.update(table=entry.table, hand_no=entry.hand_no)
    if entry.error or entry.skip:
        record: dict[str, Any] = {**where, "error": entry.error or f"skipped: {entry.skip}"}
        return PhotoRow(csv_row(entry, record, manifest), record, "invalid" if entry.error else "skipped")
    assert reader is not None
    result, record = process(reader, entry.path, rules, entry.options or options, entry.context or ctx)
    record = {**where, **record}
    if result is not None and annotated and result.image is not None:
        try:
            draw(result.image, result.tiles, annotated, factor=result.scale, warned=result.warned)
        except (OSError, ValueError) as exc:
            record["problems"] = [*record.get("problems", []), f"annotation failed: {exc}"]
    status = "read" if result is not None else "unreadable"
    return PhotoRow(csv_row(entry, record, manifest, result), record, status)


def _workers(value: str) -> int:
    """``--workers``: a whole number 1.., ``all`` (one per core) or ``auto`` (the cores filled
    with the models' threads: :func:`vision.cli.pool.default_workers`)."""
    if value == "auto":
        return default_workers()
    if value == "all":
        return available_cores()
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"a number of processes from 1 to {MAX_WORKERS}, 'all' or 'auto'")
    return int(value)


#: more worker processes than this only wait for each other (each holds both models)
MAX_WORKERS = 64


def cmd_photos(args: argparse.Namespace, out: TextIO) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise CliError(f"no such folder: {folder}")
    options = parse_options(args.option)
    check_rule_input(args, options)
    ctx = context_of(args)
    manifest = bool(args.manifest)
    if manifest:
        found = manifest_entries(folder, read_manifest(Path(args.manifest)), ctx, args.rules, options)
        if not found:
            raise CliError(f"--manifest {args.manifest} lists no photo")
    else:
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
    photos = [e.path for e in found if not (e.skip or e.error)]
    names = annotated_names(photos) if ann_dir else {}
    if ann_dir and ann_dir.exists() and not ann_dir.is_dir():
        raise CliError(f"--annotate-dir {ann_dir} is a file, not a folder")
    header = csv_header(manifest)
    inputs = [e.path for e in found] + ([Path(args.manifest)] if manifest else [])
    outputs = [("--out", csv_path), ("--jsonl", jsonl_path)]
    # a resumed batch appends to its CSV and JSON lines and rewrites none of the images made before
    appended = [csv_path, jsonl_path] if args.resume else []
    sets = sets_root(args)
    # the batch's files held against another run from their check to the last row
    held = [csv_path, jsonl_path, *([ann_dir] if ann_dir else [])]
    with guarded(outputs, inputs, args.force, may_exist=appended, sets=sets, lock=held):
        done = (
            resume_point(csv_path, jsonl_path, header, args.rules, args.force)
            if args.resume
            else Done(frozenset(), False)
        )
        again = {e.path for e in found if e.name not in done.names}
        pictures = [ann_dir / names[p] for p in photos if p in again] if ann_dir else []
        outputs += [("an annotated image", picture) for picture in pictures]
        check_output_paths(outputs, inputs, args.force, taught_set_paths(sets), appended)
        todo = [e for e in found if e.name not in done.names]
        counts = _batch(args, todo, names, ann_dir, csv_path, jsonl_path, done, ctx, options, manifest)
    out.write(
        f"{len(todo)} photos: {counts['read']} read, {counts['unreadable']} unreadable"
        + (f", {counts['skipped']} skipped" if counts["skipped"] else "")
        + (f", {counts['invalid']} manifest lines with errors" if counts["invalid"] else "")
        + (f" ({len(found) - len(todo)} done before, kept)" if args.resume else "")
        + f" → {csv_path}, {jsonl_path}"
        + (f", annotated in {ann_dir}" if ann_dir else "")
        + "\n"
    )
    return EXIT_OK


def _batch(
    args: argparse.Namespace,
    todo: list[Entry],
    names: dict[Path, str],
    ann_dir: Path | None,
    csv_path: Path,
    jsonl_path: Path,
    done: Done,
    ctx: HandContext,
    options: dict[str, str],
    manifest: bool,
) -> dict[str, int]:
    """Read the entries ``todo`` and write their rows; the count of each status."""
    reading = sum(1 for e in todo if not (e.skip or e.error))
    workers = max(1, min(args.workers, reading))
    annotated = {p: ann_dir / name for p, name in names.items()} if ann_dir else {}
    tasks = [(e, args.rules, options, ctx, annotated.get(e.path), manifest) for e in todo]
    spec = reader_spec(args, threads_per_worker(workers)) if reading else None
    counts = {"read": 0, "unreadable": 0, "skipped": 0, "invalid": 0}
    header = csv_header(manifest)
    try:
        # the first row is made before any output is opened: a model that cannot be loaded is one
        # error line, not a CSV cut short
        rows = _started(map_in_order(spec, photo_row, tasks, workers))
        with (
            _open_outputs(csv_path, jsonl_path, ann_dir, append=done.has_header) as (fh_csv, fh_jsonl),
            progress_bar(len(todo), args.quiet, sys.stderr) as bar,
        ):
            w = safe_writer(fh_csv)
            if not done.has_header:
                w.writerow(header)
                fh_csv.flush()
            for i, row in enumerate(rows):
                # a file named with an escape code or a CR cannot rewrite the line
                bar.set_postfix_str(for_terminal(todo[i].name, 40), refresh=False)
                w.writerow(row.csv)
                fh_jsonl.write(json.dumps(row.record, ensure_ascii=False) + "\n")
                fh_csv.flush()
                fh_jsonl.flush()
                counts[row.status] += 1
                bar.update()
    except WorkerDied as exc:
        raise CliError(f"{exc}; the rows written so far are kept: go on with --resume") from None
    return counts


def _started(rows: Iterator[PhotoRow]) -> Iterator[PhotoRow]:
    """``rows`` with its first row already made (so that loading the models, which comes first,
    fails before any output file is opened)."""
    first = next(rows, None)
    return rows if first is None else itertools.chain([first], rows)


@contextmanager
def _open_outputs(
    csv_path: Path, jsonl_path: Path, ann_dir: Path | None, append: bool
) -> Iterator[tuple[IO[str], IO[str]]]:
    mode = "a" if append else "w"
    try:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        jsonl_path.parent.mkdir(parents=True, exist_ok=True)
        if ann_dir:
            ann_dir.mkdir(parents=True, exist_ok=True)
        fh_csv = csv_path.open(mode, newline="", encoding="utf-8")
        fh_jsonl = jsonl_path.open(mode, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write results: {exc}") from None
    with fh_csv, fh_jsonl:
        yield fh_csv, fh_jsonl


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``photos`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "photos",
        help="read and score every photo in a folder (CSV + JSON lines)",
        description="Score every image in FOLDER (or the photos a manifest lists, each in its own "
        "context): one CSV row and one JSON line per photo, annotated images beside; a bad photo "
        "gets an error row and the batch goes on.",
    )
    p.add_argument("folder")
    add_context_options(p)
    p.add_argument(
        "--manifest",
        metavar="CSV",
        help="one line per photo with its own context (photo, table, hand, seat, win_by, discarder, "
        "flags, riichi, dora, …; empty cells take the options' values): see the README",
    )
    p.add_argument("--out", required=True, help="CSV file to write")
    p.add_argument("--jsonl", help="JSON lines file (default: the CSV's name with .jsonl)")
    p.add_argument(
        "--annotate-dir", help="folder for annotated images (default: <out>-annotated beside the CSV)"
    )
    p.add_argument("--no-annotate", action="store_true", help="write no annotated images")
    p.add_argument(
        "--workers",
        type=_workers,
        default="auto",
        metavar="N",
        help="processes reading photos at once, each loading the models once; 'all': one per "
        "core; default 'auto': one per 2 cores, whose 2 threads each fill every core. The output "
        "is the same for any number",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="go on with a batch that stopped: keep the rows already in --out and its JSON lines, "
        "read only the photos without a row, and append theirs",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_force_option(p)
    p.set_defaults(func=cmd_photos)
