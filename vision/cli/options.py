"""What the photo commands and ``camera`` share: the rules, the context a photo cannot show
(parsed once into a :class:`vision.result.HandContext`), and the models."""

from __future__ import annotations

import argparse

from scoring.cli import CliError
from scoring.rules import RULE_SYSTEMS
from scoring.tiles import TileError, parse_tiles, tile
from vision.detect import DETECTOR_CONF
from vision.models import MODELS_DIR, ModelError
from vision.pipeline import PhotoReader
from vision.result import HandContext


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


def load_reader(args: argparse.Namespace) -> PhotoReader:
    try:
        return PhotoReader(args.models, conf=args.det_conf)
    except ModelError as exc:
        raise CliError(str(exc)) from None


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
