"""``mahjong-score teach``: teach the reader a tile set (yours), list, remove, export and import sets.

    mahjong-score teach --set club PHOTO "123456789m / 123456789p / 123456789s / 1234567z"
    mahjong-score teach --set club --standard PHOTO          (one of each kind, in the standard rows)
    mahjong-score teach --set club --from DIR                (PHOTO.txt beside each photo)
    mahjong-score teach --list [--set club]
    mahjong-score teach --set club --remove | --remove-tile ID
    mahjong-score teach --set club --export club.mjset
    mahjong-score teach --import club.mjset [--set NEW-NAME] [--replace]

Every photo is paired before anything is saved: a photo whose rows do not match its codes is
reported row by row and the command exits 2 with the set unchanged.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TextIO

from mahjong_camera_scorer.scoring.clean_text import for_terminal
from mahjong_camera_scorer.scoring.cli import EXIT_OK, CliError
from mahjong_camera_scorer.scoring.output_paths import what_is
from mahjong_camera_scorer.vision.cli.options import add_model_options, reader_spec
from mahjong_camera_scorer.vision.cli.outputs import add_force_option, guarded, image_output
from mahjong_camera_scorer.vision.images import IMAGE_SUFFIXES, PhotoError
from mahjong_camera_scorer.vision.pipeline import PhotoReader
from mahjong_camera_scorer.vision.teach.codes import STANDARD_TEXT, CodesError, parse_rows
from mahjong_camera_scorer.vision.teach.pairing import PairingError
from mahjong_camera_scorer.vision.teach.profile import SetError, TileSet
from mahjong_camera_scorer.vision.teach.store import SetStore, read_export
from mahjong_camera_scorer.vision.teach.teaching import (
    SetReport,
    TaughtPhoto,
    add_new,
    added_line,
    annotate_found,
    check_set,
    pair_photo,
)

#: Exit status when a photo's rows do not match its codes (bad input, like every user error).
EXIT_PAIRING = 2


def _jobs(args: argparse.Namespace) -> list[tuple[Path, list[list[str]] | None]]:
    """(photo, code rows or None for the standard layout) for each photo, every code parsed
    before any photo is read."""
    items = list(args.items or [])
    jobs: list[tuple[Path, list[list[str]] | None]] = []
    try:
        if args.from_dir:
            if items:
                raise CliError("give photos either with --from DIR or on the command line, not both")
            folder = Path(args.from_dir)
            if not folder.is_dir():
                raise CliError(f"--from {folder}: no such folder")
            photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
            if not photos:
                raise CliError(f"--from {folder}: no photos there")
            for photo in photos:
                codes_file = photo.with_suffix(".txt")
                if args.standard:
                    jobs.append((photo, None))
                elif codes_file.is_file():
                    jobs.append((photo, parse_rows(_read_text(codes_file))))
                else:
                    raise CliError(f"{photo.name} has no {codes_file.name} beside it (its codes)")
        elif args.standard:
            if not items:
                raise CliError("--standard needs one or more photos")
            jobs = [(Path(p), None) for p in items]
        else:
            if not items or len(items) % 2:
                raise CliError(
                    'give each photo with its codes: teach --set NAME PHOTO "CODES" [PHOTO "CODES" ...]'
                )
            jobs = [(Path(items[k]), parse_rows(items[k + 1])) for k in range(0, len(items), 2)]
    except CodesError as exc:
        raise CliError(str(exc)) from None
    return jobs


#: A codes file holds a photo's rows (a few hundred bytes); anything far larger is not one.
MAX_CODES_BYTES = 64 << 10
#: A photo whose rows do not match is reported in at most this many lines of this length.
MAX_REPORT_LINES, MAX_LINE = 20, 300


def _read_text(path: Path) -> str:
    kind = what_is(path)
    if kind:
        raise CliError(f"{path} is {kind}, not a codes file")
    try:
        if path.stat().st_size > MAX_CODES_BYTES:
            raise CliError(
                f"{path} is too large for a codes file ({path.stat().st_size >> 10} KB; limit 64 KB)"
            )
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def _base_reader(args: argparse.Namespace) -> PhotoReader:
    """The reader as shipped, not reading with the set: the set is what is being taught."""
    return replace(reader_spec(args), tileset=None).load()


def _rows(photo: TaughtPhoto) -> str:
    n = photo.pairs[-1].row if photo.pairs else 0
    return f"{n} row{'' if n == 1 else 's'}"


def _show(photo: TaughtPhoto, out: TextIO) -> None:
    """The pairing, row by row: each tile's code, and ``code(read)`` where the reader read another."""
    taught = photo.taught
    out.write(f"{photo.source}: {len(photo.pairs)} tiles in {_rows(photo)}, ")
    out.write(f"{len(taught)} taught, {len(photo.disagreeing)} read otherwise by the reader\n")
    row = 0
    for p in photo.pairs:
        if p.row != row:
            if row:
                out.write("\n")
            row = p.row
            out.write(f"  row {row}:")
        out.write(f" {'-' if p.negative else p.code}" + (f"({p.tile.code})" if p.disagrees else ""))
        out.write("+" if p.found else "")
    out.write("\n")
    for line in photo.recovery_lines():
        out.write(f"  {line}\n")


def _report(report: SetReport, out: TextIO, err: TextIO) -> None:
    ts = report.tileset
    counts = ts.codes()
    out.write(f"set {ts.name!r}: {len(ts)} taught tiles, {len(counts)} codes: ")
    out.write(" ".join(f"{c}×{n}" for c, n in counts.items()) + "\n")
    for s in report.suspects:
        print(f"warning: {for_terminal(s.message)}", file=err)


#: The actions, one a run (argparse refuses two with exit 2); without one, photos are taught.
ACTIONS = ("list", "remove", "remove_tile", "export", "import_file")


def _check_action(args: argparse.Namespace) -> None:
    """What the chosen action cannot go with: photos, --from, --standard, --annotate."""
    action = next((a for a in ACTIONS if getattr(args, a)), None)
    if action is None:
        if args.replace:
            raise CliError("--replace goes with --import")
        return
    option = "--" + {"import_file": "import"}.get(action, action).replace("_", "-")
    extra = [
        o
        for o, v in (
            ("photos", args.items),
            ("--from", args.from_dir),
            ("--standard", args.standard),
            ("--annotate", args.annotate),
            ("--replace", args.replace and action != "import_file"),
        )
        if v
    ]
    if extra:
        raise CliError(f"{option} does not go with {', '.join(extra)}: nothing was done")


def cmd_teach(args: argparse.Namespace, out: TextIO) -> int:
    store = SetStore(args.profile)
    _check_action(args)
    try:
        if args.list:
            return _list(store, args, out)
        if args.import_file:
            return _import(store, args, out)
        if not args.set:
            raise CliError("name the set: --set NAME (see --list for the sets there are)")
        if args.remove:
            ts = store.load(args.set)
            if args.dry_run:
                out.write(
                    f"dry run: set {args.set!r} ({len(ts)} taught tiles) would be removed; nothing removed\n"
                )
                return EXIT_OK
            store.remove(args.set)
            out.write(f"removed set {args.set!r} from {store.root}\n")
            return EXIT_OK
        if args.remove_tile:
            ids = args.remove_tile
            if args.dry_run:
                gone = store.load(args.set).remove(ids)
            else:
                _, gone = store.update(args.set, lambda ts: ts.remove(ids))
            out.write(f"{'dry run: would remove' if args.dry_run else 'removed'} {len(ids)} taught tile(s) ")
            known = {e.id: e.code for e in gone}
            out.write(
                f"from {args.set!r}: " + ", ".join(f"{i} ({known.get(i, 'unreadable')})" for i in ids) + "\n"
            )
            return EXIT_OK
        if args.export:
            dest = Path(args.export)
            # never a set's file (its set.json, a crop, its lock), even with --force
            with guarded([("--export", dest)], [], args.force, sets=store.root):
                if args.dry_run:
                    out.write(f"dry run: set {args.set!r} would be exported to {dest}\n")
                    return EXIT_OK
                path = store.export(args.set, dest)
            out.write(f"exported set {args.set!r} to {path}\n")
            return EXIT_OK
        return _teach(store, args, out)
    except SetError as exc:
        raise CliError(str(exc)) from None


def _annotations(
    store: SetStore, args: argparse.Namespace, jobs: list[tuple[Path, list[list[str]] | None]]
) -> AbstractContextManager[dict[Path, Path]]:
    """Each photo's annotated picture, held by the rule every output follows while the run
    writes them: never a photo taught or its codes, never a set's file, never in --from's folder
    (whose next run would take the pictures for photos to teach), an existing file only with
    --force, none another run is writing."""
    if not args.annotate:
        return nullcontext({})
    annotate = Path(args.annotate)
    one = len(jobs) == 1 and bool(annotate.suffix) and not annotate.is_dir()
    if one:
        image_output(str(annotate), "--annotate")
    targets = {p: annotate if one else annotate / f"{p.stem}-taught.jpg" for p, _ in jobs}
    inputs = [p for p, _ in jobs] + [p.with_suffix(".txt") for p, _ in jobs]
    protected = [store.folder(args.set)] + ([Path(args.from_dir)] if args.from_dir else [])
    outputs = [("--annotate", t) for t in targets.values()]
    lock = [annotate]  # the picture, or the folder of pictures
    return _held(guarded(outputs, inputs, args.force, protected, sets=store.root, lock=lock), targets)


@contextmanager
def _held(guard: AbstractContextManager[None], targets: dict[Path, Path]) -> Iterator[dict[Path, Path]]:
    with guard:
        yield targets


def _teach(store: SetStore, args: argparse.Namespace, out: TextIO) -> int:
    jobs = _jobs(args)
    with _annotations(store, args, jobs) as targets:
        return _teach_photos(store, args, out, jobs, targets)


def _teach_photos(
    store: SetStore,
    args: argparse.Namespace,
    out: TextIO,
    jobs: list[tuple[Path, list[list[str]] | None]],
    targets: dict[Path, Path],
) -> int:
    start = time.perf_counter()
    TileSet(args.set)  # the name checked before any photo is read
    reader = _base_reader(args)
    photos: list[TaughtPhoto] = []
    failed = 0
    for photo, codes in jobs:
        try:
            paired = pair_photo(reader, photo, codes, name=photo.name)
        except PhotoError as exc:
            print(for_terminal(f"error: {photo}: {exc}"), file=sys.stderr)
            failed += 1
            continue
        except PairingError as exc:
            print(for_terminal(f"error: {photo}: the tiles found do not match the codes:"), file=sys.stderr)
            for line in exc.lines[:MAX_REPORT_LINES]:
                print(f"  {for_terminal(line, MAX_LINE)}", file=sys.stderr)
            if len(exc.lines) > MAX_REPORT_LINES:
                print(f"  … and {len(exc.lines) - MAX_REPORT_LINES} more rows", file=sys.stderr)
            if codes is None:
                print(f"  the standard layout: {STANDARD_TEXT}", file=sys.stderr)
            failed += 1
            if photo in targets and exc.image is not None:
                target = targets[photo]
                _write_picture(partial(annotate_found, exc.image, exc.rows), target)
                print(for_terminal(f"  the tiles found, numbered by row: {target}"), file=sys.stderr)
            continue
        _show(paired, out)
        photos.append(paired)
        if paired.unpaired:  # taught what paired; the rest said, and drawn with --annotate
            rows = ", ".join(str(u.row) for u in paired.unpaired)
            print(
                f"warning: {photo}: row(s) {rows} did not pair with their codes and are not taught "
                f"(fix their codes or the photo and teach it again"
                + ("" if photo in targets else "; --annotate OUT draws them")
                + ")",
                file=sys.stderr,
            )
        if photo in targets:
            _write_picture(paired.annotate, targets[photo])
    if failed:
        print(
            f"error: {failed} of {len(jobs)} photo(s) could not be paired with their codes: nothing was "
            f"taught (fix the codes or the photo and run again; --annotate OUT draws what was found)",
            file=sys.stderr,
        )
        return EXIT_PAIRING
    examples = [e for p in photos for e in p.examples(reader.rdr.imgsz[0])]
    if args.dry_run:
        out.write(f"dry run: {len(examples)} tiles would be taught to {args.set!r}; nothing saved\n")
        return EXIT_OK
    ts, done = store.update(args.set, lambda ts: add_new(ts, examples), create=True)
    _report(check_set(ts, reader, store), out, sys.stderr)
    seconds = time.perf_counter() - start
    out.write(f"{added_line(done, seconds)}; saved in {store.folder(ts.name)}\n")
    return EXIT_OK


def _write_picture(write: Callable[[Path], None], target: Path) -> None:
    try:
        write(target)
    except (OSError, ValueError) as exc:
        raise CliError(f"cannot write {target}: {exc}") from None


def _broken(ts: TileSet, err: TextIO) -> None:
    for b in ts.broken:
        print(
            for_terminal(
                f"warning: taught tile {b['id']} ({b.get('code', '?')}) is skipped: "
                f"{b['problem']} (remove it: --set {ts.name} --remove-tile {b['id']})"
            ),
            file=err,
        )


def _list(store: SetStore, args: argparse.Namespace, out: TextIO) -> int:
    if args.set:
        ts = store.load(args.set)
        _broken(ts, sys.stderr)
        reader = _base_reader(args)
        _report(check_set(ts, reader, store), out, sys.stderr)
        if ts.note:
            out.write(f"  note: {for_terminal(ts.note)}\n")
        for e in ts.examples:
            # an imported set's text bounded and escaped: its 'added' may be 3 MB of escape codes
            how, added = for_terminal(e.how, 10), for_terminal(e.added, 32)
            source = for_terminal(e.source, 200)
            out.write(f"  {e.id}  {e.code:4} {how:10} {added}  {source}\n")
        return EXIT_OK
    names, skipped = store.entries()
    for line in skipped:
        print(f"warning: {for_terminal(line)}", file=sys.stderr)
    if not names:
        out.write(f"no taught sets in {store.root}\n")
        return EXIT_OK
    out.write(f"taught sets in {store.root}:\n")
    for name in names:
        try:
            ts = store.load(name)
        except SetError as exc:  # one bad set is reported, the others listed
            print(for_terminal(f"warning: set {name!r} cannot be read (skipped): {exc}"), file=sys.stderr)
            continue
        bad = f", {len(ts.broken)} unreadable (see --list --set {name})" if ts.broken else ""
        out.write(f"  {name}: {len(ts)} tiles, {len(ts.codes())} codes{bad}\n")
    return EXIT_OK


def _import(store: SetStore, args: argparse.Namespace, out: TextIO) -> int:
    ts = read_export(args.import_file)
    if args.set:
        ts.name = args.set
        TileSet(ts.name)  # the name checked
    if store.exists(ts.name) and not args.replace:
        raise CliError(
            f"a set {ts.name!r} exists already: give --set ANOTHER-NAME, or --replace to replace it"
        )
    if args.dry_run:
        out.write(f"dry run: set {ts.name!r} ({len(ts)} taught tiles) would be imported; nothing saved\n")
        return EXIT_OK
    store.replace(ts)  # the new set whole before the old goes
    out.write(f"imported set {ts.name!r} ({len(ts)} taught tiles) into {store.root}\n")
    return EXIT_OK


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``teach`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "teach",
        help="teach the reader your own tile set (and list, remove, export, import sets)",
        description="Lay your tiles in rows, take a photo, type the codes row by row (rows separated "
        "by ' / ' or a new line; '|' gaps and '*'/'^' marks are ignored; 'x' is a tile not to teach, "
        "'-' a box that is no tile: the set learns to drop boxes like it). A row the detector found short "
        "takes in the tiles it missed (faint boxes, gaps at the row's pitch); a photo of a hand on a table "
        "is taught from the hand's codes. "
        f"--standard needs no codes: {STANDARD_TEXT}.",
    )
    p.add_argument("items", nargs="*", metavar="PHOTO CODES", help="photos, each followed by its codes")
    p.add_argument(
        "--from", dest="from_dir", metavar="DIR", help="teach every photo in DIR (codes in PHOTO.txt)"
    )
    p.add_argument("--standard", action="store_true", help="the photos show the standard layout (no codes)")
    p.add_argument(
        "--annotate", metavar="OUT", help="write each photo with the codes paired (a file, or a folder)"
    )
    p.add_argument(
        "--dry-run", action="store_true", help="pair and show (or say what would be done), save nothing"
    )
    act = p.add_mutually_exclusive_group()
    act.add_argument(
        "--list", action="store_true", help="list the sets (with --set: that set's taught tiles)"
    )
    act.add_argument("--remove", action="store_true", help="remove the set named by --set")
    act.add_argument(
        "--remove-tile", action="append", metavar="ID", help="remove one taught tile (repeatable)"
    )
    act.add_argument("--export", metavar="FILE", help="write the set named by --set to one file")
    act.add_argument(
        "--import",
        dest="import_file",
        metavar="FILE",
        help="add an exported set (named as in the file, or --set)",
    )
    p.add_argument("--replace", action="store_true", help="with --import: replace a set of the same name")
    add_force_option(p)
    add_model_options(p, set_help="the set to teach, list, remove or export (created when new)")
    p.set_defaults(func=cmd_teach)
