"""``mahjong-score photo``: read and score one picture, render its :class:`vision.result.HandResult`
(:mod:`vision.render.text`, :mod:`vision.render.records`).

What a photo cannot show (seat and round wind, discard or self-draw, riichi, dora indicators…)
comes from options. Tiles read with low confidence are listed with their alternatives on stderr
(and flagged in ``--json``) so the player checks them; they are never silently trusted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from mahjong_camera_scorer.scoring.cli import EXIT_NOT_A_WIN, EXIT_OK, CliError, parse_options
from mahjong_camera_scorer.scoring.cli.common import add_lang_option
from mahjong_camera_scorer.scoring.context import HandContext
from mahjong_camera_scorer.vision.annotate import draw
from mahjong_camera_scorer.vision.cli.options import (
    add_context_options,
    check_rule_input,
    context_of,
    load_reader,
)
from mahjong_camera_scorer.vision.cli.outputs import add_force_option, guarded, image_output, sets_root
from mahjong_camera_scorer.vision.pipeline import PhotoError, PhotoReader
from mahjong_camera_scorer.vision.render.records import photo_json
from mahjong_camera_scorer.vision.render.text import check_lines, text_lines
from mahjong_camera_scorer.vision.result import HandResult


def process(
    reader: PhotoReader, path: Path, rules: str, options: dict[str, str], ctx: HandContext
) -> tuple[HandResult | None, dict[str, Any]]:
    """Read and score one photo: its result (None when unreadable) and its JSON record; every
    failure becomes an ``error`` field, never an exception."""
    try:
        result = reader.read_and_score(path, ctx, rules, options)
    except PhotoError as exc:
        return None, {"file": str(path), "error": str(exc)}
    return result, {"file": str(path), **photo_json(result)}


def cmd_photo(args: argparse.Namespace, out: TextIO) -> int:
    options = parse_options(args.option)
    check_rule_input(args, options)
    ctx = context_of(args)
    path = Path(args.image)
    annotate = image_output(args.annotate, "--annotate") if args.annotate else None
    if not annotate:
        return _photo(args, out, path, None, ctx, options)
    # the picture held against another run from its check to its writing; never a set's file
    with guarded([("--annotate", annotate)], [path], args.force, sets=sets_root(args)):
        return _photo(args, out, path, annotate, ctx, options)


def _photo(
    args: argparse.Namespace,
    out: TextIO,
    path: Path,
    annotate: Path | None,
    ctx: HandContext,
    options: dict[str, str],
) -> int:
    reader = load_reader(args)
    result, record = process(reader, path, args.rules, options, ctx)
    if result is None:
        raise CliError(record["error"])
    if annotate and result.image is not None:
        try:
            draw(result.image, result.tiles, annotate, factor=result.scale, warned=result.warned)
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot write {args.annotate}: {exc}") from None
    for line in check_lines(result):
        print(line, file=sys.stderr)
    score = result.score
    assert score is not None  # scored under args.rules
    if args.json:
        json.dump(record, out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write("\n".join(text_lines(result, args.lang)) + "\n")
    return EXIT_OK if score.valid else EXIT_NOT_A_WIN


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``photo`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "photo",
        help="read and score a photo of a finished hand",
        description="Read the tiles in a photo of a finished hand, lay out the hand and score it.",
    )
    p.add_argument("image")
    add_context_options(p)
    p.add_argument(
        "--winning-tile", metavar="CODE", help="the winning tile, when it is not set apart in the photo"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object: tiles, hand, score")
    add_lang_option(p)
    p.add_argument(
        "--annotate",
        metavar="OUT.jpg",
        help="write the photo with each box and its code (.jpg, .png, .webp, .bmp or .tif; at the "
        "size the photo was read at)",
    )
    add_force_option(p)
    p.set_defaults(func=cmd_photo)
