"""``mahjong-score photos``: every photo in a folder, one CSV row and one JSON line each.

A batch never stops on one bad photo: its row carries the error instead.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import TextIO

from scoring.cli import EXIT_OK, CliError, parse_options
from vision.annotate import draw
from vision.cli.options import add_context_options, context_of, load_reader
from vision.cli.photo import process
from vision.pipeline import IMAGE_SUFFIXES, PhotoError, load_image


def _progress(i: int, n: int, name: str, stream: TextIO) -> None:
    width = 30
    done = int(width * i / max(1, n))
    stream.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{n} {name[:40]:<40}")
    if i == n:
        stream.write("\n")
    stream.flush()


def cmd_photos(args: argparse.Namespace, out: TextIO) -> int:
    folder = Path(args.folder)
    if not folder.is_dir():
        raise CliError(f"no such folder: {folder}")
    options = parse_options(args.option)
    ctx = context_of(args)
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise CliError(f"no images ({', '.join(IMAGE_SUFFIXES)}) in {folder}")
    reader = load_reader(args)
    csv_path = Path(args.out)
    jsonl_path = Path(args.jsonl) if args.jsonl else csv_path.with_suffix(".jsonl")
    ann_dir = (
        None
        if args.no_annotate
        else (
            Path(args.annotate_dir) if args.annotate_dir else csv_path.parent / f"{csv_path.stem}-annotated"
        )
    )
    try:
        csv_path.parent.mkdir(parents=True, exist_ok=True)
        if ann_dir:
            ann_dir.mkdir(parents=True, exist_ok=True)
        fh_csv = csv_path.open("w", newline="", encoding="utf-8")
        fh_jsonl = jsonl_path.open("w", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write results: {exc}") from None
    ok = failed = 0
    with fh_csv, fh_jsonl:
        w = csv.writer(fh_csv)
        w.writerow(
            [
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
            ]
        )
        for i, path in enumerate(files):
            if not args.quiet:
                _progress(i, len(files), path.name, sys.stderr)
            result, rec = process(reader, path, args.rules, options, ctx)
            if result is not None and ann_dir:
                try:
                    draw(load_image(path), result.tiles, ann_dir / f"{path.stem}.jpg")
                except (OSError, ValueError, PhotoError) as exc:
                    rec["problems"] = [*rec.get("problems", []), f"annotation failed: {exc}"]
            score = rec.get("score", {})
            error = rec.get("error") or ("" if score.get("valid") else score.get("error", ""))
            hand = rec.get("hand", {})
            w.writerow(
                [
                    path.name,
                    " ".join(t["code"] for t in rec.get("tiles", [])),
                    hand.get("hand", ""),
                    " ".join(m["tiles"] for m in hand.get("melds", [])),
                    hand.get("winning_tile") or "",
                    " ".join(hand.get("bonus_tiles", [])),
                    score.get("valid", False),
                    score.get("total", ""),
                    score.get("unit", ""),
                    len(rec.get("flagged", [])),
                    len(rec.get("warnings", [])),
                    error,
                ]
            )
            fh_jsonl.write(json.dumps(rec, ensure_ascii=False) + "\n")
            fh_csv.flush()
            fh_jsonl.flush()
            ok += "error" not in rec
            failed += "error" in rec
        if not args.quiet:
            _progress(len(files), len(files), "done", sys.stderr)
    out.write(
        f"{len(files)} photos: {ok} read, {failed} unreadable → {csv_path}, {jsonl_path}"
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
