"""The ``mahjong-score`` command: the scoring commands plus the photo, web and camera commands.

Vision depends on scoring (photo → detections → tiles → hand → score), never the reverse, so
the full command line is assembled here from :func:`scoring.cli.add_commands` and the command
modules below, each exposing ``add_commands(subparsers)``. A module is imported only if present,
so a partial build still has every command it ships.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Sequence

from scoring.cli import build_parser, run

COMMAND_MODULES = ("vision.photo_cli", "vision.web.cli", "vision.camera_cli")


def main(argv: Sequence[str] | None = None) -> int:
    parser, sub = build_parser()
    for name in COMMAND_MODULES:
        try:
            present = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # parent package (e.g. vision.web) absent
            present = False
        if present:
            importlib.import_module(name).add_commands(sub)
    return run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
