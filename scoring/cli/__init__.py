"""The scoring half of the ``mahjong-score`` command: ``hand``, ``hands``, ``table``
(:mod:`.hand`) and ``session`` (:mod:`.session`), with what they share in :mod:`.common`.

The photo commands live in :mod:`vision.cli`, which adds itself to this parser (and reuses
:mod:`.common`: the errors, the exit statuses, the rules options); scoring never imports vision,
so ``python -m scoring`` works with the pure-Python package alone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from scoring.clean_text import for_terminal
from scoring.cli import hand, session
from scoring.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_A_WIN,
    EXIT_OK,
    CliError,
    Parser,
    add_rules_options,
    parse_options,
    read_text,
)


def build_parser(prog: str = "mahjong-score"
                 ) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    parser: argparse.ArgumentParser = Parser(  # errors one clean line
        prog=prog,
        description="Score mahjong hands under MCR, EMA Riichi, "
        "Zung Jung, Australian and Classical Italian rules.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    hand.add_commands(sub)
    session.add_commands(sub)  # the table's session sheet
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
    parser, _ = build_parser()
    return run(parser, argv)


__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_NOT_A_WIN",
    "EXIT_OK",
    "CliError",
    "add_rules_options",
    "build_parser",
    "main",
    "parse_options",
    "read_text",
    "run",
]
