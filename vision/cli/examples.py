"""``mahjong-score examples [DIR]``: copy the bundled examples out of the installed package.

The README's commands read ``examples/hand.jpg``, ``examples/session-riichi.yaml`` and the like;
a checkout has them, an installed tool carries them as package data. ``mahjong-score examples``
writes them into ``./examples`` (or ``DIR``), so those commands work as printed from there.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from mahjong_camera_scorer.scoring.cli import EXIT_OK, CliError
from mahjong_camera_scorer.scoring.output_paths import OutputError
from mahjong_camera_scorer.vision.examples import copy_examples


def cmd_examples(args: argparse.Namespace, out: TextIO) -> int:
    dest = Path(args.dir)
    try:
        done = copy_examples(dest)
    except OSError as exc:  # a file where the folder should be, no permission, no bundled examples
        raise CliError(f"cannot copy the examples to {dest}: {exc.strerror or exc}") from None
    except OutputError as exc:  # a dangling link or a folder where an example goes: nothing written
        raise CliError(str(exc)) from None
    for path in done.written:
        out.write(f"wrote {path}\n")
    for path in done.kept:
        out.write(f"kept  {path} (already there; not overwritten)\n")
    photo = dest / "hand.jpg"
    out.write(f"try: mahjong-score photo {photo} --rules riichi --seat W --win-by self_draw\n")
    return EXIT_OK


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``examples`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "examples",
        help="copy the bundled example photo, hands, tables and session sheets into a folder",
        description="Copy the examples the README's commands use (examples/hand.jpg, the session "
        "sheets, the tables) into DIR. Files already there are kept, never overwritten.",
    )
    p.add_argument("dir", nargs="?", default="examples", help="folder to copy into (default: ./examples)")
    p.set_defaults(func=cmd_examples)
