"""The ``mahjong-score`` command: the scoring commands plus ``photo``, ``photos``, ``camera``,
``serve``, ``teach`` (a player's own tile set) and ``examples``; ``--version``.

Vision depends on scoring (photo → detections → tiles → hand → score), never the reverse, so the
full command line is built here: :func:`scoring.cli.build_parser` gives the scoring commands
(``hand``, ``hands``, ``table``, ``session``), each module of this package adds its own.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from scoring.cli import build_parser as build_scoring_parser
from scoring.cli import run
from vision.cli import camera, examples, photo, photos, serve, teach
from vision.cli.version import VersionAction


def build_parser(
) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """The whole command line: the scoring commands and the vision ones."""
    parser, sub = build_scoring_parser()
    parser.add_argument("--version", action=VersionAction)
    for module in (photo, photos, camera, serve, teach, examples):
        module.add_command(sub)
    return parser, sub


def main(argv: Sequence[str] | None = None) -> int:
    parser, _ = build_parser()
    return run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
