"""The scoring half of the ``mahjong-score`` command: ``hand``, ``hands``, ``table``
(:mod:`.hand`) and ``session`` (:mod:`.session`), with what they share in :mod:`.common`.

The photo commands live in :mod:`vision.cli`, which adds its own to :data:`SCORING_COMMANDS`
(and reuses :mod:`.common`: the errors, the exit statuses, the rules options); scoring never
imports vision, so ``python -m scoring`` works with the pure-Python package alone.

A run imports only the module of the command it runs (:func:`build_parser` with ``command``):
typing a hand is a blink, not the session sheet's, the camera's and the models' start-up
(:func:`command_of` finds the command in the arguments before anything is parsed). Help and a
mistyped command build the whole parser, so they list every command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TextIO

from mahjong_camera_scorer.scoring.clean_text import for_terminal
from mahjong_camera_scorer.scoring.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_A_WIN,
    EXIT_OK,
    CliError,
    Parser,
    add_rules_options,
    parse_options,
    read_text,
)

#: each command → ``module:function`` that registers it (with the commands it shares a module
#: with) on the subparsers; the module is imported only when its command runs
SCORING_COMMANDS: dict[str, str] = {
    "hand": "mahjong_camera_scorer.scoring.cli.hand:add_commands",
    "hands": "mahjong_camera_scorer.scoring.cli.hand:add_commands",
    "table": "mahjong_camera_scorer.scoring.cli.hand:add_commands",
    "session": "mahjong_camera_scorer.scoring.cli.session:add_commands",
}


def command_of(argv: Sequence[str] | None, commands: Mapping[str, str]) -> str | None:
    """The command ``argv`` runs (its first word that is not an option), when it is one of
    ``commands``; None for help, ``--version``, no command or a mistyped one."""
    args = sys.argv[1:] if argv is None else argv
    word = next((a for a in args if not a.startswith("-")), None)
    return word if word in commands else None


def build_parser(
    prog: str = "mahjong-score",
    *,
    command: str | None = None,
    commands: Mapping[str, str] = SCORING_COMMANDS,
) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """The parser of ``commands``: only ``command``'s (its module alone is imported), or all of
    them when ``command`` is None."""
    parser: argparse.ArgumentParser = Parser(  # errors one clean line
        prog=prog,
        description="Score mahjong hands under MCR, EMA Riichi, "
        "Zung Jung, Australian and Classical Italian rules.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    wanted = [commands[command]] if command is not None else commands.values()
    for target in dict.fromkeys(wanted):  # each registering function once, in the table's order
        module, _, function = target.partition(":")
        getattr(import_module(module), function)(sub)
    return parser, sub


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None, out: TextIO = sys.stdout) -> int:
    """Parse and dispatch; user errors become one 'error:' line and exit status 2."""
    args = parser.parse_args(argv)
    try:
        return int(args.func(args, out))
    except CliError as exc:
        print(f"{parser.prog}: error: {for_terminal(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser, _ = build_parser(command=command_of(argv, SCORING_COMMANDS))
    return run(parser, argv)


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_A_WIN",
    "EXIT_OK",
    "SCORING_COMMANDS",
    "CliError",
    "add_rules_options",
    "build_parser",
    "command_of",
    "main",
    "parse_options",
    "read_text",
    "run",
]
