"""``mahjong-score photo``: read and score one picture, render its :class:`vision.result.HandResult`.

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

from scoring.candidates import render as render_candidates
from scoring.cli import EXIT_NOT_A_WIN, EXIT_OK, CliError, describe_hand, parse_options
from scoring.tiles import tile
from vision.annotate import draw
from vision.cli.options import add_context_options, check_rule_input, context_of, load_reader
from vision.cli.outputs import add_force_option, check_outputs, image_output
from vision.pipeline import PhotoError, PhotoReader
from vision.result import HandContext, HandResult

#: How the note on tiles left out of the hand names each reason (vision.table.LeftOut.why).
LEFT_OUT = {
    "apart": "lying apart from the hand's rows",
    "wall": "in a wall (face down)",
    "other row": "in other rows (discards, other players' hands)",
    "bonus apart": "flowers or seasons beside other players' tiles",
}


def tile_line(result: HandResult) -> str:
    """The tiles read: ``?`` marks a low-confidence reading, ``!`` a tile a check names."""
    parts = []
    warned = result.warned
    for r in sorted(result.tiles, key=lambda r: (r.box[1] // 1e9, r.box[0])):
        g = "🀫" if r.is_back else tile(r.code).glyph
        mark = ("?" if r.flagged else "") + ("!" if r.index in warned else "")
        turn = {"sideways": "⟲", "upside_down": "↕"}.get(r.orientation, "")
        parts.append(f"{r.code}{turn}{mark}{g}")
    return " ".join(parts)


def left_out_notes(result: HandResult, most: int = 6) -> list[str]:
    """One note per reason tiles were left out of the hand (never scored), with where they lie."""
    notes = []
    for why, label in LEFT_OUT.items():
        tiles = [t for lo in result.layout.left_out if lo.why == why for t in lo.tiles]
        if tiles:
            where = ", ".join(f"x={t.box[0]:.0f} y={t.box[1]:.0f}" for t in tiles[:most])
            more = f" and {len(tiles) - most} more" if len(tiles) > most else ""
            notes.append(f"note: left out {len(tiles)} tile(s) {label} ({where}{more})")
    return notes


def process(
    reader: PhotoReader, path: Path, rules: str, options: dict[str, str], ctx: HandContext
) -> tuple[HandResult | None, dict[str, Any]]:
    """Read and score one photo: its result (None when unreadable) and its JSON record; every
    failure becomes an ``error`` field, never an exception."""
    try:
        result = reader.read_and_score(path, ctx, rules, options)
    except PhotoError as exc:
        return None, {"file": str(path), "error": str(exc)}
    return result, {"file": str(path), **result.to_json()}


def cmd_photo(args: argparse.Namespace, out: TextIO) -> int:
    options = parse_options(args.option)
    check_rule_input(args, options)
    ctx = context_of(args)
    path = Path(args.image)
    annotate = image_output(args.annotate, "--annotate") if args.annotate else None
    if annotate:
        check_outputs([("--annotate", annotate)], [path], args.force)
    reader = load_reader(args)
    result, record = process(reader, path, args.rules, options, ctx)
    if result is None:
        raise CliError(record["error"])
    if annotate and result.image is not None:
        try:
            draw(result.image, result.tiles, annotate, factor=result.scale, warned=result.warned)
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot write {args.annotate}: {exc}") from None
    for note in left_out_notes(result):
        print(note, file=sys.stderr)
    for note in result.warnings:
        print(f"warning: {note}", file=sys.stderr)
    for r in result.flagged:
        alts = ", ".join(f"{c} {p:.2f}" for c, p in r.alternatives)
        print(
            f"warning: tile at x={r.box[0]:.0f} y={r.box[1]:.0f} read as {r.code} with confidence "
            f"{r.confidence:.2f} (check it; candidates {alts})",
            file=sys.stderr,
        )
    for p in result.problems:
        print(f"warning: {p}", file=sys.stderr)
    score = result.score
    assert score is not None  # scored under args.rules
    if args.json:
        json.dump(record, out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(f"Read:  {len(result.tiles)} tiles: {tile_line(result)}\n")
        if result.hand is not None:
            out.write(describe_hand(result.hand) + "\n")
        if result.candidates and result.winning_from not in ("given", "photo"):
            hint = "give the one that won with --winning-tile"
            out.write(render_candidates(result.candidates, hint) + "\n")
        out.write(score.render() + "\n")
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
    p.add_argument(
        "--annotate",
        metavar="OUT.jpg",
        help="write the photo with each box and its code (.jpg, .png, .webp, .bmp or .tif; at the "
        "size the photo was read at)",
    )
    add_force_option(p)
    p.set_defaults(func=cmd_photo)
