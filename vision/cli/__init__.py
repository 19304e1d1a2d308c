"""The ``mahjong-score`` command: the scoring commands plus ``photo``, ``photos``, ``camera``,
``serve``, ``teach`` (a player's own tile set) and ``examples``; ``--version``.

Vision depends on scoring (photo → detections → tiles → hand → score), never the reverse, so the
full command line is built here: :data:`COMMANDS` is the scoring commands' table
(:data:`scoring.cli.SCORING_COMMANDS`) and the photo ones. A run imports only its own command's
module (:func:`scoring.cli.build_parser`): ``hand``, ``hands``, ``table`` and a session of typed
hands never load OpenCV, NumPy, onnxruntime, the camera, the web app or the teaching code.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from mahjong_camera_scorer.scoring.cli import SCORING_COMMANDS, command_of, run
from mahjong_camera_scorer.scoring.cli import build_parser as build_scoring_parser
from mahjong_camera_scorer.vision.cli.version import VersionAction

#: every command → ``module:function`` that registers it (imported only when it runs)
COMMANDS: dict[str, str] = {
    **SCORING_COMMANDS,
    "photo": "mahjong_camera_scorer.vision.cli.photo:add_command",
    "photos": "mahjong_camera_scorer.vision.cli.photos:add_command",
    "camera": "mahjong_camera_scorer.vision.cli.camera:add_command",
    "serve": "mahjong_camera_scorer.vision.cli.serve:add_command",
    "teach": "mahjong_camera_scorer.vision.cli.teach:add_command",
    "examples": "mahjong_camera_scorer.vision.cli.examples:add_command",
}


def build_parser(
    command: str | None = None,
) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """The command line: ``command``'s parser alone, or every command's (None)."""
    parser, sub = build_scoring_parser(command=command, commands=COMMANDS)
    parser.add_argument("--version", action=VersionAction)
    return parser, sub


def main(argv: Sequence[str] | None = None) -> int:
    parser, _ = build_parser(command_of(argv, COMMANDS))
    return run(parser, argv)


if __name__ == "__main__":
    sys.exit(main())
