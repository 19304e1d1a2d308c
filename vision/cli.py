"""The ``mahjong-score`` command: the scoring commands plus the photo commands.

Vision depends on scoring (photo → detections → tiles → hand → score), never the reverse, so
the full command line is assembled here from :func:`scoring.cli.add_commands` and this package's
own commands.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Sequence

from scoring.cli import build_parser, run


def main(argv: Sequence[str] | None = None) -> int:
    parser, sub = build_parser()
    if importlib.util.find_spec("vision.photo_cli") is not None:  # photo commands, once built
        importlib.import_module("vision.photo_cli").add_commands(sub)
    return run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
