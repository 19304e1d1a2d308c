"""No import circle between the project's modules (scoring, vision, mjsynth), and no core module
importing a front end.

A circle makes the modules one unit in disguise: none can be read, tested or moved without the others,
and the import order decides which one sees the other half-initialised. A local import inside a
function or an ``if TYPE_CHECKING:`` block hides a circle from the interpreter but not from the reader,
so every import statement counts, wherever it stands. The imports are read with :mod:`ast` (nothing
is imported, no model loaded), so the test takes a fraction of a second.

Circles that were there before this test and sit in packages other engineers are changing are listed
in :data:`KNOWN_CYCLES`, each one named, so the test fails on any new circle and on a known one that
has since gone (take it off the list then).

A front end (:data:`FRONT_ENDS`: the CLI, the page, the camera, the session sheet and its photo
reader) shows a result; the core computes it and renders it (:mod:`scoring.render`,
:mod:`vision.render`) for every front end alike. A core module that imports a front end makes the
result's shape depend on one way of showing it, so :data:`CORE` (every other module) imports none.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: package import name (as installed: pyproject.toml's package-dir) -> its folder
NS = "mahjong_camera_scorer"
PACKAGES = {
    f"{NS}.scoring": REPO / "scoring",
    f"{NS}.vision": REPO / "vision",
    f"{NS}.mjsynth": REPO / "datasets" / "mjsynth",
}

#: Circles found when the test was written, in packages being changed by others at the time: each is
#: the set of modules of one strongly connected component. Remove an entry once its circle is gone.
KNOWN_CYCLES: list[frozenset[str]] = []


#: The front ends, by package or module: each renders the one result through the renderers and adds
#: nothing of its own. ``__main__`` modules are entry points (they start a front end).
FRONT_ENDS = (
    "mahjong_camera_scorer.scoring.cli",  # hand, hands, table, session: text, JSON, CSV
    # the session sheet (text, CSV, HTML, results) and the engine behind it
    "mahjong_camera_scorer.scoring.session",
    "mahjong_camera_scorer.scoring.__main__",
    "mahjong_camera_scorer.vision.cli",  # photo, photos, camera, serve, teach, examples
    "mahjong_camera_scorer.vision.web",  # the phone page and its API
    "mahjong_camera_scorer.vision.camera",  # the live window and its overlay
    "mahjong_camera_scorer.vision.session_photo",  # a photo as the session sheet takes it
)
#: The core packages: scoring (the rules, the hand, the score and its renderer) and vision (the photo
#: road, the taught sets, the renderers), less their front ends; the generator has none.
CORE_PACKAGES = tuple(PACKAGES)


def is_front_end(module: str) -> bool:
    return any(module == f or module.startswith(f + ".") for f in FRONT_ENDS)


def core_modules(graph: dict[str, set[str]]) -> list[str]:
    """Every module of :data:`CORE_PACKAGES` that is not a front end."""
    core = [m for m in graph if any(m == p or m.startswith(p + ".") for p in CORE_PACKAGES)]
    return sorted(m for m in core if not is_front_end(m))


def module_sources() -> dict[str, tuple[str, bool]]:
    """Every module of the three packages by its dotted import name: (source text, is a package)."""
    out: dict[str, tuple[str, bool]] = {}
    for pkg, root in PACKAGES.items():
        for path in sorted(root.rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            out[".".join([pkg, *parts])] = (path.read_text(encoding="utf-8"), is_package)
    return out


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[list[str]]:
    """For each name an import statement of ``module`` loads, the dotted names it may be, most specific
    first (``from x import y``: the submodule ``x.y`` if there is one, else ``x``)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield [alias.name]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against this module's package
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            for alias in node.names:
                yield [f"{prefix}.{alias.name}", prefix]


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the project modules it imports, wherever the import stands (top level, function,
    ``if TYPE_CHECKING:``). Only the module named counts, not its parent packages: those run too, but a
    package's ``__init__`` that imports its own modules is not a circle of design."""
    graph: dict[str, set[str]] = {}
    for module, (text, is_package) in sources.items():
        targets: set[str] = set()
        for candidates in _imports(ast.parse(text), module, is_package):
            for name in candidates:
                while name and name not in sources:  # `import pkg.mod.name`-like paths land on a module
                    name = name.rpartition(".")[0]
                if name:
                    if name != module:
                        targets.add(name)
                    break
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan), i.e. the import circles."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _describe(component: frozenset[str], graph: dict[str, set[str]]) -> str:
    edges = [f"{a} -> {b}" for a in sorted(component) for b in sorted(graph[a] & component)]
    return "{" + ", ".join(sorted(component)) + "}: " + "; ".join(edges)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(module_sources())


def test_no_new_import_circle(graph: dict[str, set[str]]) -> None:
    new = [c for c in cycles(graph) if c not in KNOWN_CYCLES]
    assert not new, "import circle(s) between the project's modules:\n" + "\n".join(
        _describe(c, graph) for c in new
    )


def test_known_circles_are_still_there(graph: dict[str, set[str]]) -> None:
    """A known circle that is gone must leave the list, so the list never excuses a new one."""
    found = cycles(graph)
    gone = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not gone, f"these circles are gone: take them off KNOWN_CYCLES: {gone}"


def test_no_core_module_imports_a_front_end(graph: dict[str, set[str]]) -> None:
    core = core_modules(graph)
    # the renderers and the result they render are core; the front ends are not
    assert {
        "mahjong_camera_scorer.scoring.render",
        "mahjong_camera_scorer.scoring.result",
        "mahjong_camera_scorer.vision.render.page",
        "mahjong_camera_scorer.vision.render.camera",
        "mahjong_camera_scorer.vision.render.text",
        "mahjong_camera_scorer.vision.result",
        "mahjong_camera_scorer.vision.pipeline",
    } <= set(core)
    assert not {
        "mahjong_camera_scorer.scoring.cli.hand",
        "mahjong_camera_scorer.vision.web.hand_api",
        "mahjong_camera_scorer.vision.camera",
    } & set(core)
    wrong = {m: sorted(t for t in graph[m] if is_front_end(t)) for m in core}
    wrong = {m: ts for m, ts in wrong.items() if ts}
    assert not wrong, f"core modules importing a front end (render through the renderers instead): {wrong}"


def test_the_front_end_check_sees_a_local_import() -> None:
    """The check itself: a renderer that imports the page inside a function is caught."""
    sources = {
        "mahjong_camera_scorer.vision": ("", True),
        "mahjong_camera_scorer.vision.render": (
            "def page():\n    from mahjong_camera_scorer.vision.web import meta\n",
            False,
        ),
        "mahjong_camera_scorer.vision.web": ("", True),
        "mahjong_camera_scorer.vision.web.meta": ("", False),
    }
    graph = import_graph(sources)
    assert [m for m in core_modules(graph) if any(is_front_end(t) for t in graph[m])] == [
        "mahjong_camera_scorer.vision.render"
    ]


def test_mjsynth_has_no_circle_at_all(graph: dict[str, set[str]]) -> None:
    assert not [c for c in cycles(graph) if any(m.startswith(f"{NS}.mjsynth") for m in c)]


def test_the_walker_sees_local_and_type_checking_imports() -> None:
    """The check itself: a circle closed by a function-local import or a TYPE_CHECKING import is found;
    `from package import function` counts as an import of the package, `from . import module` as one
    of the module only."""
    sources = {
        "p": ("", True),
        "p.a": ("from p.b import thing\nimport os\n", False),
        "p.b": ("def f():\n    from . import c\n", False),
        "p.c": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p import a\n", False),
        "p.d": ("from p import a\nfrom p import VERSION\n", False),
    }
    graph = import_graph(sources)
    assert graph == {"p": set(), "p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p", "p.a"}}
    assert cycles(graph) == [frozenset({"p.a", "p.b", "p.c"})]
