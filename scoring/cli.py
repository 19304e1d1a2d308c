"""The scoring half of the ``mahjong-score`` command: ``hand``, ``hands`` and ``table``.

The photo commands live in :mod:`vision.cli`, which adds itself to this parser; scoring never
imports vision, so ``python -m scoring`` works with the pure-Python package alone.

Exit status: 0 a valid win was scored (or a batch ran), 1 the hand is not a valid win,
2 the input could not be read. Errors go to stderr as one line, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from scoring.candidates import Candidate, best, candidates
from scoring.candidates import render as render_candidates
from scoring.context import score_or_invalid
from scoring.hand import Hand, HandError
from scoring.notation import format_hand, parse_hand
from scoring.result import Score
from scoring.rules import RULE_SYSTEMS, RulesNotBuilt, check_context, score_hand, scorer
from scoring.structured import hand_from_dict, parse_document, parse_json
from scoring.tiles import format_tiles, glyphs

EXIT_OK, EXIT_NOT_A_WIN, EXIT_BAD_INPUT = 0, 1, 2


class CliError(Exception):
    """A user-facing error: printed as 'error: <message>' with exit status 2."""


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``--option NAME=VALUE`` (repeatable) → dict; malformed pairs are a clear error."""
    out: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise CliError(f"--option expects NAME=VALUE, got {pair!r}")
        out[name.strip()] = value.strip()
    return out


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


def describe_hand(hand: Hand) -> str:
    """Two lines a player can check against the table: the tiles as codes and as glyphs."""
    tiles = list(hand.concealed)
    glyph_melds = " ".join(glyphs(m.tiles) for m in hand.melds)
    lines = [f"Hand:  {format_hand(hand)}", f"Tiles: {glyphs(tiles)}  {glyph_melds}".rstrip()]
    if hand.bonus_tiles:
        lines.append(f"Bonus: {glyphs(hand.bonus_tiles)} ({format_tiles(hand.bonus_tiles)})")
    return "\n".join(lines)


def _rules_arg(parser: argparse.ArgumentParser) -> None:
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


def _check_rules(rules: str) -> None:
    try:
        scorer(rules)
    except RulesNotBuilt as exc:
        raise CliError(str(exc)) from None


def _check_options(rules: str, *given: Mapping[str, str]) -> None:
    """Options are checked before any scoring: an unknown name or value is bad input (exit 2),
    not a hand that failed to win (exit 1)."""
    check_context(rules, (), *given)


# ------------------------------------------------------------------------------------------------
# commands
# ------------------------------------------------------------------------------------------------
def cmd_hand(args: argparse.Namespace, out: TextIO) -> int:
    _check_rules(args.rules)
    options = parse_options(args.option)
    try:
        hand = read_hand(args.hand)
        check_context(args.rules, hand.flags, hand.options, options)  # a typo is bad input: exit 2
    except HandError as exc:
        if args.json:
            json.dump(Score.invalid(args.rules, str(exc)).to_json(), out, ensure_ascii=False)
            out.write("\n")
            return EXIT_BAD_INPUT
        raise CliError(str(exc)) from None
    score = score_hand(hand, args.rules, options)
    found: list[Candidate] = []
    if not score.valid and hand.winning_tile is None:
        # typed without the winning tile: every tile that could have won, the best one scored
        found = candidates(hand, args.rules, options)
        chosen = best(found)
        score = chosen.score if chosen is not None else score
    if args.json:
        record = score.to_json()
        if found:
            chosen = best(found)
            record["scored_winning_tile"] = chosen.tile.code if chosen else None
            record["candidates"] = [c.to_json() for c in found]
        json.dump(record, out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write(describe_hand(hand) + "\n")
        if found:
            out.write(render_candidates(found, "write 'ron TILE' or 'tsumo TILE' to say which") + "\n")
        out.write(score.render() + "\n")
    return EXIT_OK if score.valid else EXIT_NOT_A_WIN


def _lines(source: str) -> Iterator[bytes | str]:
    """The input's lines as bytes: each is decoded on its own, so that one line that is not UTF-8
    is one invalid result and the rest of the batch is still scored."""
    if source == "-":
        yield from getattr(sys.stdin, "buffer", sys.stdin)
        return
    try:
        path = Path(source)
        if not path.is_file():
            raise CliError(f"no such file: {source}")
        fh = path.open("rb")
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot read {source!r}: {getattr(exc, 'strerror', None) or exc}") from None
    with fh:
        yield from fh


def score_line(line: str | bytes, rules: str, options: dict[str, str]) -> dict[str, Any]:
    """One JSON line in, one JSON object out; a bad line is an invalid result, never an exception."""
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
    return score_or_invalid(hand, rules, options).to_json()  # a scorer bug is reported on its line


def cmd_hands(args: argparse.Namespace, out: TextIO) -> int:
    _check_rules(args.rules)
    options = parse_options(args.option)
    try:
        _check_options(args.rules, options)
    except HandError as exc:
        raise CliError(str(exc)) from None
    for line in _lines(args.file):
        json.dump(score_line(line, args.rules, options), out, ensure_ascii=False)
        out.write("\n")
        out.flush()
    return EXIT_OK


def cmd_table(args: argparse.Namespace, out: TextIO) -> int:
    _check_rules(args.rules)
    module = scorer(args.rules)
    if not hasattr(module, "score_table"):
        raise CliError(
            f"the {args.rules} rules have no losers' scores: 'table' is for australian and classical"
        )
    options = parse_options(args.option)
    text = read_text(args.file)
    try:
        _check_options(args.rules, options)
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
        out.write(score.render() + "\n")
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
    _rules_arg(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_hand)

    p = sub.add_parser("hands", help="score JSON lines (structured form) from a file or '-' (stdin)")
    p.add_argument("file")
    _rules_arg(p)
    p.set_defaults(func=cmd_hands)

    p = sub.add_parser("table", help="score all four hands of a table and settle payments")
    p.add_argument("file", help="JSON/YAML file with 'players' (or '-' for stdin)")
    _rules_arg(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_table)


def build_parser(prog: str = "mahjong-score"
                 ) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Score mahjong hands under MCR, EMA Riichi, "
        "Zung Jung, Australian and Classical Italian rules.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_commands(sub)
    from scoring.session.cli import add_commands as add_session_commands  # the table's session sheet

    add_session_commands(sub)
    return parser, sub


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None, out: TextIO = sys.stdout) -> int:
    """Parse and dispatch; user errors become one 'error:' line and exit status 2."""
    args = parser.parse_args(argv)
    try:
        return int(args.func(args, out))
    except CliError as exc:
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    parser, _ = build_parser()
    return run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
