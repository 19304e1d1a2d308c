"""``photos --manifest``: each photo read in the context its manifest line gives.

The manifest (:mod:`scoring.session.manifest`) names the photos, in order, and what each photo
cannot show; a cell left empty takes the command line's value (``--seat``, ``--dora``, …). A line
that cannot be used becomes an error row and the batch goes on; photos of the folder that the
manifest does not name get a ``skipped`` row, so that none is forgotten without a word.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from mahjong_camera_scorer.scoring.cli import CliError
from mahjong_camera_scorer.scoring.context import HandContext, context_from_dict
from mahjong_camera_scorer.scoring.hand import HandError
from mahjong_camera_scorer.scoring.rules import check_context
from mahjong_camera_scorer.scoring.session.manifest import ManifestError, ManifestRow, parse_manifest
from mahjong_camera_scorer.scoring.situation_words import wind
from mahjong_camera_scorer.vision.cli.entries import Entry, entries, not_a_photo_file


def read_manifest(path: Path) -> list[ManifestRow]:
    """The manifest's lines; a file that cannot be one is a :class:`CliError`."""
    if not path.is_file():
        raise CliError(f"--manifest {path}: no such file")
    try:
        return parse_manifest(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"--manifest {path}: cannot be read ({getattr(exc, 'reason', None) or exc})") from None
    except ManifestError as exc:
        raise CliError(f"--manifest {path}: {exc}") from None


def manifest_entries(
    folder: Path, rows: list[ManifestRow], base: HandContext, rules: str, options: dict[str, str]
) -> list[Entry]:
    """One entry per manifest line, in the manifest's order (its photos relative to ``folder``),
    then a ``skipped`` entry for each photo of ``folder`` the manifest does not name."""
    out: list[Entry] = []
    named: set[Path] = set()
    for row in rows:
        path = folder / row.photo if row.photo else folder / f"(line {row.line})"
        entry = Entry(path, label=row.photo or f"(line {row.line})", table=row.table, hand_no=row.hand)
        named.add(path.resolve())
        if row.error:
            out.append(replace(entry, error=row.error))
            continue
        try:
            context = row_context(row, base)
            row_options = {**options, **row.options}
            check_context(rules, context.flags, row_options)
        except (ValueError, HandError) as exc:  # TileError and HandError are ValueErrors too
            out.append(replace(entry, error=f"{row.where}: {exc}"))
            continue
        out.append(replace(entry, skip=not_a_photo_file(path), context=context, options=row_options))
    for extra in entries(folder):
        if extra.path.resolve() not in named:
            out.append(replace(extra, skip=extra.skip or "not in the manifest"))
    return out


def row_context(row: ManifestRow, base: HandContext) -> HandContext:
    """The line's context: its cells, the command line's values where a cell is empty (checked by
    :func:`scoring.context.context_from_dict`; the seats that declared riichi add the flag)."""
    cells = {
        "seat_wind": row.seat,
        "round_wind": row.round,
        "win_by": row.win_by,
        "discarder": row.discarder,
        "flags": row.flags,
        "dora_indicators": row.dora,
        "ura_dora_indicators": row.ura,
        "winning_tile": row.winning_tile,
    }
    given: dict[str, object] = {k: v for k, v in cells.items() if v}
    given.update(honba=row.honba, riichi_sticks=row.sticks)
    context = context_from_dict(given, base, names=COLUMN_NAMES)
    declared = {wind(w, "riichi") for w in row.riichi}  # seats here: names need a session
    if context.seat_wind in declared and not {"riichi", "double_riichi"} & set(context.flags):
        context = replace(context, flags=context.flags | {"riichi"})
    return context


#: the context's fields as the manifest's columns name them, for its messages
COLUMN_NAMES = {
    "seat_wind": "seat",
    "round_wind": "round",
    "dora_indicators": "dora",
    "ura_dora_indicators": "ura",
    "riichi_sticks": "sticks",
}
