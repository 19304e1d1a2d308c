"""The ``mahjong-score`` console script is :func:`vision.cli.main`, and it holds every command."""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import mahjong_camera_scorer.vision.cli
from mahjong_camera_scorer.scoring.cli import command_of
from mahjong_camera_scorer.vision.cli import build_parser

CLI_DIR = Path(mahjong_camera_scorer.vision.cli.__file__).parent
EXAMPLES = CLI_DIR.parents[1] / "examples"


def test_the_console_script_is_vision_cli_main() -> None:
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "mahjong-score"]
    assert (
        script.value == "mahjong_camera_scorer.vision.cli:main"
        and script.load() is mahjong_camera_scorer.vision.cli.main
    )


def test_every_command_is_registered() -> None:
    _, sub = build_parser()
    assert {"hand", "hands", "table", "session", "photo", "photos", "camera", "serve"} <= set(sub.choices)


def test_the_command_table_names_each_module_that_registers_its_commands() -> None:
    """Command modules are imported by name when their command runs (typing a hand loads no
    camera): every module the table names imports at once and registers exactly the commands the
    table gives it, and every command module of this package is in the table, so none can
    silently disappear from the command line."""
    registered: dict[str, str] = {}
    for target in dict.fromkeys(mahjong_camera_scorer.vision.cli.COMMANDS.values()):
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        module, _, function = target.partition(":")
        getattr(importlib.import_module(module), function)(sub)
        registered.update((name, target) for name in sub.choices)
    assert registered == mahjong_camera_scorer.vision.cli.COMMANDS
    registering = {
        f"mahjong_camera_scorer.vision.cli.{path.stem}"
        for path in CLI_DIR.glob("*.py")
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef) and node.name == "add_command"
    }
    named = {t.partition(":")[0] for t in mahjong_camera_scorer.vision.cli.COMMANDS.values()}
    assert registering == {m for m in named if m.startswith("mahjong_camera_scorer.vision.")}


def test_a_command_builds_its_own_parser_and_help_builds_them_all() -> None:
    assert command_of(["--version", "hand", "1m"], mahjong_camera_scorer.vision.cli.COMMANDS) == "hand"
    assert command_of(["--help"], mahjong_camera_scorer.vision.cli.COMMANDS) is None
    assert (
        command_of(["hnad", "1m"], mahjong_camera_scorer.vision.cli.COMMANDS) is None
    )  # a typo: the full list in the error
    _, sub = build_parser("session")
    assert set(sub.choices) == {"session"}
    _, sub = build_parser()
    assert set(sub.choices) == set(mahjong_camera_scorer.vision.cli.COMMANDS)


#: what typing a hand must not load: the photo pipeline's libraries and the front ends around it
HEAVY = (
    "numpy",
    "cv2",
    "onnxruntime",
    "fastapi",
    "starlette",
    "mahjong_camera_scorer.vision.camera",
    "mahjong_camera_scorer.vision.web",
    "mahjong_camera_scorer.vision.teach",
    "mahjong_camera_scorer.vision.pipeline",
    "mahjong_camera_scorer.vision.models",
)
_PROBE = """
import json, sys
from mahjong_camera_scorer.vision.cli import main
try:
    code = main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {heavy_roots} or m.startswith({heavy_vision}))
session = "mahjong_camera_scorer.scoring.session.engine" in sys.modules
print(json.dumps({{"code": code, "heavy": heavy, "session": session}}))
"""


@pytest.mark.parametrize(
    ("argv", "session"),
    [
        (["hand", "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m", "--rules", "riichi"], False),
        (["hands", "-", "--rules", "mcr"], False),
        (["table", str(EXAMPLES / "table-australian.yaml"), "--rules", "australian"], False),
        (["session", str(EXAMPLES / "session-mcr.yaml"), "--rules", "mcr"], True),
    ],
    ids=["hand", "hands", "table", "session"],
)
def test_typing_a_hand_imports_no_photo_pipeline(argv: list[str], session: bool) -> None:
    """``hand``, ``hands``, ``table`` and a session of typed hands start in a blink: the command's
    own module runs, never NumPy, OpenCV, onnxruntime, the camera, the web app or the teaching
    code (issue 35 item 6: they took 16-17 times ``python -c pass`` when they did)."""
    roots = tuple(sorted({m for m in HEAVY if "." not in m}))
    probe = _PROBE.format(heavy_roots=set(roots), heavy_vision=tuple(m for m in HEAVY if "." in m))
    line = '{"hand": "123m456p789s1122z2z", "winning_tile": "2z", "win_by": "self_draw"}\n'
    done = subprocess.run(
        [sys.executable, "-c", probe, *argv], input=line, capture_output=True, text=True, timeout=120
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] in (0, 1), done.stderr
    assert report["heavy"] == [], f"{argv[0]} imported {report['heavy']}"
    assert report["session"] is session  # the session sheet is loaded only for 'session'
