"""The two commands a newcomer runs: ``make run`` says how to reach ``mahjong-score`` afterwards,
and the test run names the reason of every skipped test (issue 38 item 4)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_ends_by_saying_how_to_run_the_command() -> None:
    # -n: the commands make would run, none run; -B: as on a fresh clone (every step)
    # as a newcomer runs it: not inside another make (`make test` runs this test)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    made = subprocess.run(["make", "-n", "-B", "run"], cwd=ROOT, capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    lines = [ln for ln in made.stdout.splitlines() if ln.strip() and not ln.startswith("make")]
    last = "\n".join(lines[-2:])
    assert ".venv/bin/mahjong-score" in last and "source .venv/bin/activate" in last, last
    # the editable installs filter setuptools' one informational message, nothing else
    installs = [ln for ln in lines if "pip install" in ln]
    assert installs and all('PYTHONWARNINGS="ignore:Editable installation"' in ln for ln in installs)


@pytest.mark.slow  # a second pytest starts (5 s on the 2-core machine)
def test_a_skipped_test_says_why(tmp_path: Path) -> None:
    """The project's pytest configuration (pyproject.toml's addopts) prints each skip's reason."""
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n\ndef test_x():\n    pytest.skip('chromium is not installed here')\n"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(tmp_path),
            "-p",
            "no:cacheprovider",
            str(tmp_path / "test_skips.py"),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "SKIPPED [1]" in run.stdout and "chromium is not installed here" in run.stdout, run.stdout
