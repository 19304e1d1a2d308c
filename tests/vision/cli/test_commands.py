"""The ``mahjong-score`` console script is :func:`vision.cli.main`, and it holds every command."""

from __future__ import annotations

import ast
from importlib.metadata import entry_points
from pathlib import Path

import vision.cli
from vision.cli import build_parser

CLI_DIR = Path(vision.cli.__file__).parent


def test_the_console_script_is_vision_cli_main() -> None:
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "mahjong-score"]
    assert script.value == "vision.cli:main" and script.load() is vision.cli.main


def test_every_command_is_registered() -> None:
    _, sub = build_parser()
    assert {"hand", "hands", "table", "session", "photo", "photos", "camera", "serve"} <= set(sub.choices)


def test_the_commands_are_plain_imports() -> None:
    """No command module is found or assembled at run time (importlib): a missing one is an
    ImportError at once, not a command that silently disappears."""
    for path in CLI_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
        names = {a.name for n in imports for a in n.names}
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "importlib" not in names | modules and "importlib.util" not in names, path.name
