"""What the photo commands and ``camera`` share: the rules, the context a photo cannot show
(parsed once into a :class:`scoring.context.HandContext`), and the models."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from mahjong_camera_scorer.scoring.cli import CliError, add_rules_options
from mahjong_camera_scorer.scoring.context import HandContext, context_from_dict
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.rules import check_context
from mahjong_camera_scorer.scoring.situation_words import MAX_COUNTER
from mahjong_camera_scorer.vision.detect import DETECTOR_CONF
from mahjong_camera_scorer.vision.models import (
    DETECTOR_FILE,
    MODELS_DIR,
    READER_FILE,
    ModelError,
    load_model,
    load_small_detector,
)
from mahjong_camera_scorer.vision.pipeline import PhotoReader


def context_of(args: argparse.Namespace) -> HandContext:
    """The hand's context from the command line, parsed once by :func:`context_from_dict` (a typo
    is a clear error naming the option); shared with the ``camera`` command, which takes the same
    options."""
    flags = list(args.flag or [])
    if args.riichi:
        flags.append("riichi")
    given = {
        "win_by": args.win_by,
        "seat_wind": args.seat,
        "round_wind": args.round,
        "flags": flags,
        "dora_indicators": args.dora or None,
        "ura_dora_indicators": args.ura_dora or None,
        "honba": args.honba,
        "winning_tile": getattr(args, "winning_tile", None) or None,
        "discarder": getattr(args, "discarder", None) or None,
    }
    try:
        return context_from_dict(given, names=OPTION_NAMES)
    except HandError as exc:
        raise CliError(str(exc)) from None


#: the context's fields as the command line names them, for its messages
OPTION_NAMES = {
    "win_by": "--win-by",
    "seat_wind": "--seat",
    "round_wind": "--round",
    "flags": "--flag",
    "dora_indicators": "--dora",
    "ura_dora_indicators": "--ura-dora",
    "honba": "--honba",
    "winning_tile": "--winning-tile",
    "discarder": "--discarder",
}


@dataclass(frozen=True)
class ReaderSpec:
    """How to load the models, small enough to send to a worker process, which loads its own
    reader once (:mod:`vision.cli.pool`). ``threads``: each model's threads (None: the default);
    ``tileset``: a taught set to read with, from ``profile`` (None: the user's folder of sets)."""

    models: str
    det_conf: float
    threads: int | None = None
    tileset: str | None = None
    profile: str | None = None

    def load(self) -> PhotoReader:
        try:
            if self.threads is None:
                reader = PhotoReader(self.models, conf=self.det_conf)
            else:
                folder = Path(self.models)
                reader = PhotoReader(
                    self.models,
                    det=load_model(folder / DETECTOR_FILE, self.threads),
                    rdr=load_model(folder / READER_FILE, self.threads),
                    conf=self.det_conf,
                    small_det=load_small_detector(folder, self.threads),
                )
        except ModelError as exc:
            raise CliError(str(exc)) from None
        return use_set(reader, self.tileset, self.profile)


def use_set(reader: PhotoReader, name: str | None, profile: str | None) -> PhotoReader:
    """``reader``, reading with the taught set ``name`` when one is given (a clear error when
    the set is missing or cannot be used with this reader)."""
    if name:
        from mahjong_camera_scorer.vision.teach.profile import SetError
        from mahjong_camera_scorer.vision.teach.store import SetStore
        from mahjong_camera_scorer.vision.teach.teaching import load_taught_reader

        try:
            load_taught_reader(SetStore(profile), name, reader)
        except (SetError, ValueError) as exc:
            raise CliError(str(exc)) from None
    return reader


def reader_spec(args: argparse.Namespace, threads: int | None = None) -> ReaderSpec:
    return ReaderSpec(
        str(args.models), args.det_conf, threads, getattr(args, "set", None), getattr(args, "profile", None)
    )


def check_rule_input(args: argparse.Namespace, options: dict[str, str]) -> None:
    """The rule options and flags given, checked before any photo is read: an unknown name or
    value is bad input (exit 2), not a hand that is no win."""
    try:
        check_context(args.rules, [*(args.flag or []), *(["riichi"] if args.riichi else [])], options)
    except HandError as exc:
        raise CliError(str(exc)) from None


def load_reader(args: argparse.Namespace) -> PhotoReader:
    return reader_spec(args).load()


def add_context_options(p: argparse.ArgumentParser) -> None:
    """The rules, the context a photo cannot show, and the models: shared by ``photo``, ``photos``
    and ``camera``."""
    add_rules_options(p)  # the scoring commands' own --rules and --option
    p.add_argument("--seat", default="E", help="seat wind of the winner: E, S, W or N (default E)")
    p.add_argument("--round", default="E", help="round (prevailing) wind: E, S, W or N (default E)")
    p.add_argument(
        "--win-by",
        default="discard",
        metavar="HOW",
        help="how the winning tile came: discard (ron) or self_draw (tsumo); default discard",
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
    p.add_argument("--discarder", metavar="SEAT", help="the seat that discarded the winning tile (who pays)")
    p.add_argument("--honba", type=int, default=0, help=f"honba counters (0 to {MAX_COUNTER})")
    add_model_options(p)


#: ``--set``'s help where the set is read with
SET_HELP = "read with this taught tile set (see 'mahjong-score teach')"


def add_model_options(p: argparse.ArgumentParser, set_help: str = SET_HELP) -> None:
    """The models and the taught set: every command that reads photos (``teach`` says what its
    ``--set`` is for in ``set_help``)."""
    p.add_argument("--models", default=str(MODELS_DIR), help="folder with detector.onnx and reader.onnx")
    p.add_argument("--det-conf", type=float, default=DETECTOR_CONF, help="detector confidence threshold")
    add_set_options(p, set_help)


def add_set_options(p: argparse.ArgumentParser, set_help: str = SET_HELP) -> None:
    """``--set NAME`` and ``--profile DIR`` (where the taught sets are)."""
    p.add_argument("--set", metavar="NAME", help=set_help)
    p.add_argument(
        "--profile",
        metavar="DIR",
        help="folder of taught sets (default: $MAHJONG_SETS, else the user's data folder)",
    )
