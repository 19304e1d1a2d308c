"""How the project's modules import each other: never another module's private names, and the
scoring CLI and the web app's routers at the top of the module (an import inside a function was
how two modules that import each other hid their circle; :mod:`tests.test_import_graph` finds
any circle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("scoring", "vision", "mjsynth")


def _modules(*folders: str) -> dict[str, ast.Module]:
    out = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
            out[name] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _project_imports(tree: ast.Module) -> list[ast.ImportFrom]:
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module and n.module.split(".")[0] in PROJECT
    ]


def test_no_module_imports_another_ones_private_names() -> None:
    bad = [
        f"{name}: from {n.module} import {a.name}"
        for name, tree in _modules("scoring", "vision").items()
        for n in _project_imports(tree)
        for a in n.names
        if a.name.startswith("_") and not a.name.startswith("__")
    ]
    assert not bad, bad


def test_the_cli_and_the_web_import_at_the_top() -> None:
    late = [
        f"{name}:{n.lineno} from {n.module}"
        for name, tree in _modules("scoring/cli", "vision/web").items()
        for n in _project_imports(tree)
        if n.col_offset > 0
    ]
    assert not late, late
