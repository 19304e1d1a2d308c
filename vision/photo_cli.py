"""The photo commands of ``mahjong-score``: ``photo`` (one picture) and ``photos`` (a folder).

What a photo cannot show (seat and round wind, discard or self-draw, riichi, dora indicators…)
comes from options. Tiles read with low confidence are listed with their alternatives on stderr
(and flagged in ``--json``) so the player checks them; they are never silently trusted.
A batch never stops on one bad photo: its row carries the error instead.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from scoring.cli import EXIT_BAD_INPUT, EXIT_NOT_A_WIN, EXIT_OK, CliError, describe_hand, parse_options
from scoring.rules import RULE_SYSTEMS
from scoring.tiles import TileError, parse_tiles, tile
from vision.annotate import draw
from vision.detect import DETECTOR_CONF
from vision.models import MODELS_DIR, ModelError
from vision.pipeline import IMAGE_SUFFIXES, PhotoError, PhotoReader, load_image
from vision.result import HandContext, HandResult


def context_of(args: argparse.Namespace) -> HandContext:
    """The hand's context from the command line, parsed once (a typo is a clear error); shared
    with the ``camera`` command, which takes the same options."""
    flags = list(args.flag or [])
    if args.riichi:
        flags.append("riichi")
    seat, round_wind = _wind(args.seat, "--seat"), _wind(args.round, "--round")
    if args.honba < 0:
        raise CliError(f"--honba must be 0 or more, not {args.honba}")
    try:
        return HandContext(
            win_by=WIN_BY[args.win_by],
            seat_wind=seat,
            round_wind=round_wind,
            flags=tuple(flags),
            dora_indicators=tuple(parse_tiles(args.dora)) if args.dora else (),
            ura_dora_indicators=tuple(parse_tiles(args.ura_dora)) if args.ura_dora else (),
            honba=args.honba,
            winning_tile=tile(args.winning_tile) if getattr(args, "winning_tile", None) else None,
        )
    except TileError as exc:
        raise CliError(str(exc)) from None


#: ``--win-by`` as the structured form spells it
WIN_BY = {"discard": "discard", "ron": "discard", "self_draw": "self_draw", "tsumo": "self_draw"}


def _wind(value: str, option: str) -> str:
    """E, S, W or N from a wind as typed (``w``, ``West``)."""
    wind = value.strip()[:1].upper()
    if wind not in ("E", "S", "W", "N"):
        raise CliError(f"{option} must be E, S, W or N, not {value!r}")
    return wind


def _reader(args: argparse.Namespace) -> PhotoReader:
    try:
        return PhotoReader(args.models, conf=args.det_conf)
    except ModelError as exc:
        raise CliError(str(exc)) from None


def _tile_line(result: HandResult) -> str:
    parts = []
    for r in sorted(result.tiles, key=lambda r: (r.box[1] // 1e9, r.box[0])):
        g = "🀫" if r.is_back else tile(r.code).glyph
        mark = "?" if r.flagged else ""
        turn = {"sideways": "⟲", "upside_down": "↕"}.get(r.orientation, "")
        parts.append(f"{r.code}{turn}{mark}{g}")
    return " ".join(parts)


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
    ctx = context_of(args)
    path = Path(args.image)
    reader = _reader(args)
    result, record = process(reader, path, args.rules, options, ctx)
    if result is None:
        raise CliError(record["error"])
    if args.annotate:
        try:
            draw(load_image(path), result.tiles, Path(args.annotate))
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot write {args.annotate}: {exc}") from None
    ignored = result.ignored
    if ignored:
        where = ", ".join(f"x={t.box[0]:.0f} y={t.box[1]:.0f}" for t in ignored)
        print(
            f"note: left out {len(ignored)} tile(s) lying apart from the hand's rows ({where})",
            file=sys.stderr,
        )
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
        out.write(f"Read:  {len(result.tiles)} tiles: {_tile_line(result)}\n")
        if result.hand is not None:
            out.write(describe_hand(result.hand) + "\n")
        out.write(score.render() + "\n")
    return EXIT_OK if score.valid else EXIT_NOT_A_WIN


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
    reader = _reader(args)
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


def add_context_options(p: argparse.ArgumentParser) -> None:
    """The rules, the context a photo cannot show, and the models: shared by ``photo``, ``photos``
    and ``camera``."""
    p.add_argument(
        "--rules", "-r", required=True, choices=list(RULE_SYSTEMS), help="rule system to score under"
    )
    p.add_argument("--option", "-o", action="append", metavar="NAME=VALUE", help="rule option (repeatable)")
    p.add_argument("--seat", default="E", help="seat wind of the winner: E, S, W or N (default E)")
    p.add_argument("--round", default="E", help="round (prevailing) wind: E, S, W or N (default E)")
    p.add_argument(
        "--win-by",
        default="discard",
        choices=["discard", "self_draw", "ron", "tsumo"],
        help="how the winning tile came (default discard)",
    )
    p.add_argument("--riichi", action="store_true", help="the winner declared riichi")
    p.add_argument(
        "--flag",
        action="append",
        metavar="NAME",
        help="another situation flag (repeatable): ippatsu, robbing_kong, last_of_kind, …",
    )
    p.add_argument("--dora", metavar="TILES", help="dora indicators, e.g. 3m7z")
    p.add_argument("--ura-dora", metavar="TILES", help="ura-dora indicators")
    p.add_argument("--honba", type=int, default=0, help="honba counters")
    p.add_argument("--models", default=str(MODELS_DIR), help="folder with detector.onnx and reader.onnx")
    p.add_argument("--det-conf", type=float, default=DETECTOR_CONF, help="detector confidence threshold")


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``photo`` and ``photos`` on the ``mahjong-score`` subparsers (called by vision.cli)."""
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
    p.add_argument("--annotate", metavar="OUT.jpg", help="write the photo with each box and its code")
    p.set_defaults(func=cmd_photo)

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


__all__ = ["EXIT_BAD_INPUT", "add_commands", "process"]
