"""``hand``, ``hands`` and ``table``: score one typed hand, a file of JSON lines, a whole table.

Exit status: 0 a valid win was scored (or a batch ran), 1 the hand is not a valid win,
2 the input could not be read (:mod:`scoring.cli.common`).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from mahjong_camera_scorer.scoring.candidates import score_or_best
from mahjong_camera_scorer.scoring.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NOT_A_WIN,
    EXIT_OK,
    CliError,
    add_lang_option,
    add_rules_options,
    check_options,
    check_rules,
    parse_options,
    read_text,
)
from mahjong_camera_scorer.scoring.hand import Hand, HandError
from mahjong_camera_scorer.scoring.incomplete import named
from mahjong_camera_scorer.scoring.notation import parse_hand
from mahjong_camera_scorer.scoring.render import typed_lines, typed_record
from mahjong_camera_scorer.scoring.result import Score
from mahjong_camera_scorer.scoring.rules import check_context, score_or_invalid, scorer
from mahjong_camera_scorer.scoring.structured import hand_from_dict, parse_document, parse_json


def read_hand(text: str) -> Hand:
    """A hand from the command line: structured JSON/YAML (``{...}`` or a file path) or notation."""
    stripped = text.strip()
    if not stripped.startswith("{") and stripped.endswith((".json", ".yaml", ".yml")):
        stripped = read_text(stripped)
    if stripped.startswith("{") or "\n" in stripped:
        data = parse_document(stripped)
        if isinstance(data, list) and len(data) == 1:
            data = data[0]
        return hand_from_dict(data)
    return parse_hand(stripped)


# ------------------------------------------------------------------------------------------------
# commands
# ------------------------------------------------------------------------------------------------
def cmd_hand(args: argparse.Namespace, out: TextIO) -> int:
    check_rules(args.rules)
    options = parse_options(args.option)
    try:
        hand = read_hand(args.hand)
        # a typo is bad input: exit 2
        check_context(args.rules, hand.context.flags, hand.context.options, options)
    except HandError as exc:
        if args.json:
            json.dump(Score.invalid(args.rules, str(exc)).to_json(), out, ensure_ascii=False)
            out.write("\n")
            return EXIT_BAD_INPUT
        raise CliError(str(exc)) from None
    # typed without the winning tile: every tile that could have won, the best one scored
    scored = score_or_best(hand, args.rules, options)
    if args.json:
        json.dump(typed_record(scored), out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(typed_lines(hand, scored, args.lang) + "\n")
    return EXIT_OK if scored.score.valid else EXIT_NOT_A_WIN


#: the longest line ``hands`` reads (bytes): a hand's JSON is a few hundred; a longer line is one
#: invalid result, skipped without being held (a 1 GB line took 3.1 GB before it was refused)
MAX_LINE = 64 << 10


def bounded_lines(stream: IO[Any], limit: int = MAX_LINE) -> Iterator[bytes | str | None]:
    """The lines of ``stream``, each at most ``limit`` long; None for a longer one, whose rest is
    read through in pieces of ``limit`` and dropped, never held whole."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit:
            yield line
            continue
        end = "\n" if isinstance(line, str) else b"\n"
        while line and not line.endswith(end):  # the rest of the line, a piece at a time
            line = stream.readline(limit)
        yield None


def _lines(source: str) -> Iterator[bytes | str | None]:
    """The input's lines as bytes: each is decoded on its own, so that one line that is not UTF-8
    is one invalid result and the rest of the batch is still scored (None: a line too long)."""
    if source == "-":
        yield from bounded_lines(getattr(sys.stdin, "buffer", sys.stdin))
        return
    try:
        path = Path(source)
        if not path.is_file():
            raise CliError(f"no such file: {source}")
        fh = path.open("rb")
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot read {source!r}: {getattr(exc, 'strerror', None) or exc}") from None
    with fh:
        yield from bounded_lines(fh)


def score_line(line: str | bytes | None, rules: str, options: dict[str, str]) -> dict[str, Any]:
    """One JSON line in, one JSON object out; a bad line is an invalid result, never an exception
    (None: a line longer than :data:`MAX_LINE`)."""
    if line is None:
        return Score.invalid(rules, f"a line longer than {MAX_LINE >> 10} KB is not one hand").to_json()
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            return Score.invalid(rules, f"not UTF-8 text (byte {exc.start})").to_json()
    if not line.strip():
        return Score.invalid(rules, "empty line").to_json()
    try:
        hand = hand_from_dict(parse_json(line))
    except HandError as exc:
        return Score.invalid(rules, str(exc)).to_json()
    # a scorer bug is reported on its line; a hand of the wrong size says so
    return named(score_or_invalid(hand, rules, options), hand).to_json()


def cmd_hands(args: argparse.Namespace, out: TextIO) -> int:
    check_rules(args.rules)
    options = parse_options(args.option)
    try:
        check_options(args.rules, options)
    except HandError as exc:
        raise CliError(str(exc)) from None
    for line in _lines(args.file):
        json.dump(score_line(line, args.rules, options), out, ensure_ascii=False)
        out.write("\n")
        out.flush()
    return EXIT_OK


def cmd_table(args: argparse.Namespace, out: TextIO) -> int:
    check_rules(args.rules)
    module = scorer(args.rules)
    if not hasattr(module, "score_table"):
        raise CliError(
            f"the {args.rules} rules have no losers' scores: 'table' is for australian and classical"
        )
    options = parse_options(args.option)
    text = read_text(args.file)
    try:
        check_options(args.rules, options)
        data = parse_document(text)
        if not isinstance(data, dict):
            raise CliError("a table file is an object with 'players': {E: {...}, S: {...}, ...}")
        score = module.score_table(data, options)
    except HandError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        json.dump(score.to_json(), out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(score.render(args.lang) + "\n")
    return EXIT_OK if score.valid else EXIT_NOT_A_WIN


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``hand``, ``hands`` and ``table`` on a subparser set (shared with vision.cli)."""
    p = sub.add_parser(
        "hand",
        help="score one hand typed in notation or given as JSON/YAML",
        description="Score one hand. HAND is the one-line notation "
        "(e.g. '123m456p789s1z 22z ron 1z seat=S riichi'), a JSON object, "
        "or a .json/.yaml file.",
    )
    p.add_argument("hand")
    add_rules_options(p)
    add_lang_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("hands", help="score JSON lines (structured form) from a file or '-' (stdin)")
    p.add_argument("file")
    add_rules_options(p)
    p.set_defaults(func=cmd_hands)

    p = sub.add_parser("table", help="score all four hands of a table and settle payments")
    p.add_argument("file", help="JSON/YAML file with 'players' (or '-' for stdin)")
    add_rules_options(p)
    add_lang_option(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_table)
