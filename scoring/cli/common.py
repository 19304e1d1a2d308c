"""What every ``mahjong-score`` command shares: the exit statuses, the one user-facing error, the
rules options and their checks, reading a whole input file.

Exit status: 0 done (a valid win, a batch that ran), 1 the hand is not a valid win (or a sheet has
rows for the referee), 2 the input could not be read. Errors go to stderr as one line, never as a
traceback (:func:`scoring.cli.run`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from mahjong_camera_scorer.scoring.clean_text import for_terminal
from mahjong_camera_scorer.scoring.errors import HandError
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG, LANGS
from mahjong_camera_scorer.scoring.rules import RULE_SYSTEMS, RulesNotBuilt, check_context, scorer
from mahjong_camera_scorer.scoring.situation_words import option_pairs

EXIT_OK, EXIT_NOT_A_WIN, EXIT_BAD_INPUT = 0, 1, 2


class CliError(Exception):
    """A user-facing error: printed as 'error: <message>' with exit status 2."""


#: argparse's word for what it did not take (its messages are English whatever the locale)
_UNRECOGNIZED = "unrecognized arguments: "


class Parser(argparse.ArgumentParser):
    """argparse's parser with errors that stay one clean line (an argument holding an escape code
    is shown escaped) and say what to do with an argument that begins with '-' but is no option:
    teach's codes ``-123m`` ('-' is a box that is no tile) go after ``--``, as in any command."""

    def error(self, message: str) -> NoReturn:
        if message.startswith(_UNRECOGNIZED) and any(
            a.startswith("-") and a != "-" for a in message[len(_UNRECOGNIZED) :].split()
        ):
            message += (
                "; an argument beginning with '-' that is no option (codes such as '-123m') "
                "goes after '--': mahjong-score teach --set NAME -- PHOTO '-123m'"
            )
        super().error(for_terminal(message))


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``--option NAME=VALUE`` (repeatable) → dict, read as every front end reads options
    (:func:`scoring.situation_words.option_pairs`); a malformed pair is a clear error."""
    try:
        return option_pairs(pairs or (), "--option")
    except HandError as exc:
        raise CliError(str(exc)) from None


def read_text(source: str) -> str:
    """A whole input file ('-' is stdin) as text; every way it cannot be read is one clear error."""
    if source == "-":
        stdin = getattr(sys.stdin, "buffer", None)  # a text stream without bytes (tests, embedding)
        data = stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
    else:
        try:
            path = Path(source)
            if not path.is_file():
                raise CliError(f"no such file: {source}")
            data = path.read_bytes()
        except (OSError, ValueError) as exc:  # permission, a name too long, a NUL in the name
            raise CliError(f"cannot read {source!r}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CliError(f"{source}: not UTF-8 text (byte {exc.start})") from None


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """``--rules`` and ``--option NAME=VALUE``: every command that scores (the photo commands too)."""
    parser.add_argument(
        "--rules", "-r", required=True, choices=list(RULE_SYSTEMS), help="rule system to score under"
    )
    parser.add_argument(
        "--option",
        "-o",
        action="append",
        metavar="NAME=VALUE",
        help="rule option (repeatable); see the rule system's documented options",
    )


def add_lang_option(parser: argparse.ArgumentParser, what: str = "the score's lines") -> None:
    """``--lang en|it``: the language of what a player reads (``what``). Given on the command line
    only, never taken from the environment (``LANG``): a script that reads the text gets the same
    bytes on every machine. JSON and CSV keys have no language."""
    parser.add_argument(
        "--lang", choices=LANGS, default=DEFAULT_LANG, help=f"{what} in English or Italian (default en)"
    )


def check_rules(rules: str) -> None:
    """A rule system this version has built (argparse already refused an unknown one)."""
    try:
        scorer(rules)
    except RulesNotBuilt as exc:
        raise CliError(str(exc)) from None


def check_options(rules: str, *given: Mapping[str, str]) -> None:
    """Options are checked before any scoring: an unknown name or value is bad input (exit 2),
    not a hand that failed to win (exit 1)."""
    check_context(rules, (), *given)
