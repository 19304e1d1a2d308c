"""The suite's markers: ``slow``, ``browser`` and ``models`` (registered in pyproject.toml, where
``--strict-markers`` turns a misspelt marker into an error).

``make test-fast`` runs ``-m "not slow and not browser"``, the loop to run after each change;
``make test`` runs everything. Each marker is set where the next engineer cannot forget it:

- ``browser`` follows from the fixture: every test that drives chromium takes the ``browser``
  fixture (tests/vision/web/test_browser.py), and :func:`pytest_collection_modifyitems` marks it.
- ``models`` is written on the test (or on its module, ``pytestmark``) and checked: a test that
  loads or runs a shipped ONNX model (models/*.onnx) in this process without the marker fails, and
  says so. Tests that run the models in another process (the CLI's workers, the scripts) are
  marked by hand.
- ``slow`` is written on the test (or its module); the run ends with the tests in the fast loop
  that took longer than :data:`SLOW_S`, a hint rather than a failure since times vary from one
  machine to another.
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

#: seconds past which a test without the ``slow`` marker is named at the end of the run
SLOW_S = 1.0

_shipped_uses = [0]  # loads and runs of a shipped model so far (see _watch_models)
_uses_before: dict[str, int] = {}  # test → _shipped_uses when its setup began
_unmarked_slow: list[tuple[str, float]] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


def _watch_models() -> None:
    """Count the loads and runs of the shipped models (once vision.models is imported: the test
    modules import it when collected, before any test runs)."""
    models = sys.modules.get("mahjong_camera_scorer.vision.models")
    if models is None or getattr(models, "_watched_by_tests", False):
        return
    shipped = Path(models.MODELS_DIR).resolve()
    run, load = models.OnnxModel.run, models.load_model

    def counted_run(self: Any, batch: Any) -> Any:
        if Path(self.path).resolve().parent == shipped:
            _shipped_uses[0] += 1
        return run(self, batch)

    def counted_load(path: Any, *args: Any, **kwargs: Any) -> Any:
        if Path(path).resolve().parent == shipped:
            _shipped_uses[0] += 1
        return load(path, *args, **kwargs)

    models.OnnxModel.run = counted_run
    models.load_model = counted_load
    models._watched_by_tests = True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    _watch_models()
    _uses_before[item.nodeid] = _shipped_uses[0]
    yield
    _uses_before.pop(item.nodeid, None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or not report.passed:
        return
    if call.duration > SLOW_S and not any(item.get_closest_marker(m) for m in ("slow", "browser")):
        _unmarked_slow.append((item.nodeid, call.duration))
    used = _shipped_uses[0] > _uses_before.get(item.nodeid, _shipped_uses[0])
    if used and not item.get_closest_marker("models"):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} loads or runs a shipped model (models/*.onnx): mark it "
            "@pytest.mark.models (or its module: pytestmark = pytest.mark.models)"
        )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _unmarked_slow:
        terminalreporter.write_sep("-", f"tests over {SLOW_S:.0f} s without @pytest.mark.slow")
        for nodeid, seconds in sorted(_unmarked_slow, key=lambda t: -t[1]):
            terminalreporter.write_line(f"{seconds:6.2f}s {nodeid}")
