"""``mahjong-score session FILE... --rules R``: a table's session sheet, and the ranking of several.

Registers itself like :func:`scoring.cli.hand.add_commands`. Exit status: 0 every row scored, 1 the
sheet has rows for the referee (a photo to confirm, a hand that could not be scored), 2 the file
cannot be followed (one ``error:`` line).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from mahjong_camera_scorer.scoring.cli.common import (
    CliError,
    add_lang_option,
    add_rules_options,
    check_rules,
    parse_options,
)
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.i18n import Translate, translator
from mahjong_camera_scorer.scoring.output_paths import (
    OutputError,
    default_sets_root,
    guarded_outputs,
    taught_set_paths,
    write_output,
)
from mahjong_camera_scorer.scoring.rules import check_context
from mahjong_camera_scorer.scoring.session.closing import SETTINGS, number, ranking, ranking_json
from mahjong_camera_scorer.scoring.session.engine import Sheet, run_session
from mahjong_camera_scorer.scoring.session.html import sheet_html
from mahjong_camera_scorer.scoring.session.load import load_session
from mahjong_camera_scorer.scoring.session.manifest import (
    ManifestError,
    parse_manifest,
    session_from_manifest,
)
from mahjong_camera_scorer.scoring.session.model import Session, SessionError
from mahjong_camera_scorer.scoring.session.numbers import session_key
from mahjong_camera_scorer.scoring.session.output import next_text, sheet_csv, sheet_json, sheet_text
from mahjong_camera_scorer.scoring.session.results import EMA_COLUMNS, ema_results

EXIT_OK, EXIT_PENDING, EXIT_BAD_INPUT = 0, 1, 2


def cmd_session(args: argparse.Namespace, out: TextIO) -> int:
    check_rules(args.rules)
    options = parse_options(args.option)
    settings = {k: v.strip().lower() for k, v in parse_options(args.setting).items()}
    try:
        check_context(args.rules, (), options)  # an unknown option is bad input (exit 2)
    except HandError as exc:
        raise CliError(str(exc)) from None
    try:
        sessions = _sessions(args, CliError)
    except SessionError as exc:
        raise CliError(str(exc)) from None
    # the outputs held against another run from their check to their writing
    with _guarded_outputs(args, sessions, CliError):
        return _sheets(args, out, sessions, options, settings)


def _sheets(
    args: argparse.Namespace,
    out: TextIO,
    sessions: list[Session],
    options: dict[str, str],
    settings: dict[str, str],
) -> int:
    try:
        sheets = _run_all(sessions, args.rules, options, settings)
    except SessionError as exc:
        raise CliError(str(exc)) from None
    if args.html and len(sheets) != 1:
        raise CliError("--html writes one table's sheet: give one session file")
    lang = args.lang
    docs = [sheet_json(s) for s in sheets]
    rank = ranking(docs) if len(docs) > 1 or args.results else []
    try:  # refused before anything is written: a federation's file or nothing
        results = ema_results(docs, rank) if args.results else ""
    except SessionError as exc:
        raise CliError(str(exc)) from None
    _write(args.csv, "".join(sheet_csv(s, lang) for s in sheets), CliError)
    _write(
        args.out_json, json.dumps(docs[0] if len(docs) == 1 else docs, ensure_ascii=False, indent=1), CliError
    )
    if args.html:
        _write(args.html, sheet_html(sheets[0], Path(args.html).parent, lang=lang), CliError)
    _write(args.results, results, CliError)
    if args.json:
        doc = docs[0] if len(docs) == 1 else {"sheets": docs, "ranking": ranking_json(rank)}
        json.dump(doc, out, ensure_ascii=False)
        out.write("\n")
    else:
        out.write("\n\n".join(sheet_text(s, lang) + "\n" + next_text(s, lang) for s in sheets) + "\n")
        if len(docs) > 1:
            tr = translator(lang)
            out.write("\n" + tr("Ranking") + ":\n" + "\n".join(_rank_line(r, tr) for r in rank) + "\n")
    return EXIT_OK if all(s.complete for s in sheets) else EXIT_PENDING


def _run_all(
    sessions: list[Session], rules: str, options: dict[str, str], settings: dict[str, str]
) -> list[Sheet]:
    """Every session's sheet, in the order given; MCR obstruction and time-wasting counts carried
    from each earlier session of the tournament to the next (seed 000 E 3.6: "Il conteggio delle
    penalità (per ogni giocatore) viene azzerato all'inizio di ogni sessione tranne che per
    l'ostruzione di gioco o la perdita di tempo"). Tables of one session carry nothing to each other."""
    sheets: dict[int, Sheet] = {}
    counts: dict[str, dict[str, int]] = {}
    groups: dict[tuple[int, Fraction, str], list[int]] = {}
    for i, s in enumerate(sessions):  # one pass over the files: every file is in exactly one group
        groups.setdefault(session_key(s.session), []).append(i)
    for key in sorted(groups):
        after: dict[str, dict[str, int]] = {}
        for j in groups[key]:
            names = {p.name for p in sessions[j].players}
            carried = {n: c for n, c in counts.items() if n in names} if rules == "mcr" else None
            sheets[j] = run_session(sessions[j], rules, options, carried=carried, settings=settings)
            # the sheet's counts include what it was given: they are the next session's start
            after.update({n: dict(sheets[j].carry.get(n, {})) for n in names})
        counts.update(after)
    return [sheets[j] for j in range(len(sessions))]


def _sessions(args: argparse.Namespace, error: type[Exception]) -> list[Session]:
    """The session files named, or one table's session from a photo manifest."""
    if not args.manifest:
        if args.players or args.table is not None or args.photos:
            raise error("--players, --table and --photos go with --manifest")
        if not args.file:
            raise error("give a session file, or --manifest FILE --players 'E S W N'")
        given: dict[Path, str] = {}
        for name in args.file:  # the same table counted twice would count each player twice
            first = given.setdefault(Path(name).resolve(), name)
            if first != name or list(args.file).count(name) > 1:
                raise error(f"{name} is given twice" + (f" (as {first})" if first != name else ""))
        sessions = [load_session(name) for name in args.file]
        tables: dict[tuple[str, str], str] = {}
        for name, session in zip(args.file, sessions, strict=True):
            key = (session.session, session.table)
            if all(key) and tables.setdefault(key, name) != name:
                raise error(f"{name} and {tables[key]} are both session {key[0]}, table {key[1]}")
        return sessions
    if args.file:
        raise error("give either session files or --manifest, not both")
    if not args.players:
        raise error("--manifest needs --players: the four names in seat order E S W N")
    path = Path(args.manifest)
    try:
        rows = parse_manifest(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {args.manifest}: {getattr(exc, 'strerror', None) or exc}") from None
    except ManifestError as exc:
        raise error(f"{args.manifest}: {exc}") from None
    photos = Path(args.photos) if args.photos else path.parent
    if not photos.is_dir():
        raise error(f"--photos {photos}: no such folder")
    players = [p for p in args.players.replace(",", " ").split() if p]
    return [session_from_manifest(rows, players, args.table, str(photos))]


def _rank_line(r: dict[str, Any], tr: Translate) -> str:
    keys = [k for k in ("table_points", "mini_punti", "points", "uma", "final", "total") if k in r]
    words = {"table_points": "Punti Tavolo", "mini_punti": "Mini Punti", "uma": "uma"}
    who = f"{r['player']} #{r['number']}" if r.get("number") else str(r["player"])  # two Annas: two lines
    return f"{r['rank']:>3}. {who:<16} " + "  ".join(f"{words.get(k) or tr(k)} {number(r[k])}" for k in keys)


@contextmanager
def _guarded_outputs(
    args: argparse.Namespace, sessions: list[Session], error: type[Exception]
) -> Iterator[None]:
    """The outputs by the rule every command that writes follows: never a session file, its
    manifest or one of its photos, never a device, a folder or a taught set's file, an existing
    file only with --force, none that another run is writing (held while the block runs)."""
    named = (
        ("--csv", args.csv),
        ("--out-json", args.out_json),
        ("--html", args.html),
        ("--results", args.results),
    )
    outputs = [(option, Path(value)) for option, value in named if value]
    inputs = [Path(f) for f in [*(args.file or []), args.manifest] if f]
    inputs += [Path(s.base_dir) / r.photo for s in sessions for r in s.rows if r.photo]
    try:
        with guarded_outputs(outputs, inputs, args.force, taught_set_paths(default_sets_root())):
            yield
    except OutputError as exc:
        raise error(str(exc)) from None


def _write(path: str | None, text: str, error: type[Exception]) -> None:
    if not path:
        return
    try:
        write_output(path, text.encode("utf-8"))
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror or exc}") from None


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``session`` on a subparser set (called from :func:`scoring.cli.build_parser`)."""
    p = sub.add_parser(
        "session",
        help="a table's session sheet: every hand settled, totals, table points",
        description="Score and settle every hand of a table's session file (YAML or CSV), "
        "keep the running totals and close the session as the rules say. Several files: "
        "one sheet each, then the ranking.",
    )
    p.add_argument("file", nargs="*", help="session file(s): .yaml/.yml/.json or .csv")
    add_rules_options(p)
    p.add_argument(
        "--manifest",
        metavar="CSV",
        help="a photo manifest (one line per photo, see 'photos --manifest') instead of a session file",
    )
    p.add_argument("--photos", metavar="DIR", help="the manifest's photos folder (default: the manifest's)")
    p.add_argument("--players", metavar="NAMES", help="with --manifest: the four players, seats E S W N")
    p.add_argument("--table", help="with --manifest: the table whose photos make the session")
    p.add_argument("--json", action="store_true", help="print the sheet as one JSON object")
    p.add_argument("--csv", metavar="OUT", help="write the sheet as CSV")
    p.add_argument("--out-json", metavar="OUT", help="write the sheet as JSON")
    p.add_argument("--html", metavar="OUT", help="write the printable sheet (HTML)")
    p.add_argument(
        "--results",
        metavar="OUT",
        help="write the tournament's results as the federation imports them (EMA layout: "
        + ", ".join(EMA_COLUMNS)
        + "); tables a federation would refuse are refused",
    )
    p.add_argument(
        "--setting",
        action="append",
        metavar="NAME=VALUE",
        help="a choice where tournaments differ, over the files' own 'settings': "
        + "; ".join(f"{k} ({v[0]}): {v[2]}, default {v[1]}" for k, v in SETTINGS.items()),
    )
    add_lang_option(p, "the sheets and messages")
    p.add_argument("--force", action="store_true", help="replace output files that exist already")
    p.set_defaults(func=cmd_session)
