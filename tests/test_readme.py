"""Every README example that runs on the bundled files runs as written (issue 38 item 6).

The README is the user manual: a newcomer copies its commands. Each ``mahjong-score`` line of its
code blocks is taken as written (comments stripped as the shell strips them) and run in a folder
holding a copy of the bundled examples, as ``mahjong-score examples`` leaves them; where the
README shows the output (a ``$`` line in a ``text`` block, the lines under it), each line it shows
must be printed, in its order (an abridged output leaves lines out, never shows others). A
command is left out only for a reason the test names: it serves or watches a camera until
stopped, it holds a placeholder (``<notation>``, ``[--set club]``), or it reads a file of the
reader's own that no example is (``hand.jpg`` of their table, ``photos/``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from mahjong_camera_scorer.vision.examples import bundled_examples

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: the options whose value is a file the command writes (it need not exist)
OUTPUTS = {"--annotate", "--out", "--jsonl", "--html", "--csv", "--out-json", "--export", "--results"}
FILE_SUFFIXES = (".jpg", ".png", ".yaml", ".yml", ".csv", ".json", ".jsonl", ".txt", ".mjset")
#: how long one command may take (a photo read with the models on a loaded 2-core machine)
TIMEOUT_S = 240


@dataclass(frozen=True)
class Example:
    line: int  # the README's line number
    argv: tuple[str, ...]
    #: the output the README shows under it (None: none shown); "..." ends a shown line early
    shown: tuple[str, ...] | None

    @property
    def id(self) -> str:
        return f"line{self.line}-{'-'.join(self.argv[1:3])}"


def examples(text: str | None = None) -> list[Example]:
    """The ``mahjong-score`` command lines of the README's code blocks, with the output shown."""
    text = README.read_text(encoding="utf-8") if text is None else text
    out: list[Example] = []
    lines = text.splitlines()
    block: str | None = None
    for k, line in enumerate(lines):
        fence = re.match(r"^```(\w*)", line)
        if fence:
            block = None if block is not None else fence.group(1)
            continue
        if block is None:
            continue
        stripped = line.strip()
        shown_prompt = stripped.startswith("$ mahjong-score ")
        if not (shown_prompt or stripped.startswith("mahjong-score ")):
            continue
        argv = tuple(shlex.split(stripped.removeprefix("$ "), comments=True))
        shown = None
        if shown_prompt:
            rest: list[str] = []
            for after in lines[k + 1 :]:
                if after.startswith("```") or after.startswith("$ "):
                    break
                rest.append(after)
            while rest and not rest[-1].strip():
                rest.pop()
            shown = tuple(rest)
        out.append(Example(k + 1, argv, shown))
    return out


def not_run(argv: tuple[str, ...], folder: Path) -> str | None:
    """Why a README command is not run here (None: it is run)."""
    if argv[1:2] and argv[1] in ("serve", "camera"):
        return "runs until stopped"
    if any("<" in a or a.startswith("[") for a in argv):
        return "a placeholder"
    for k, a in enumerate(argv[1:], 1):
        if argv[k - 1] in OUTPUTS or a.startswith("-"):
            continue
        if (a.endswith(FILE_SUFFIXES) or a.endswith("/")) and not (folder / a).exists():
            return f"reads the reader's own {a}"
    return None


def test_the_readme_examples_are_found_with_their_outputs() -> None:
    """The extraction itself: the commands the README shows with bundled files are all there."""
    found = examples()
    texts = [" ".join(e.argv) for e in found]
    assert len(found) >= 30
    for must in (
        "photo examples/hand.jpg",
        "table examples/table-australian.yaml",
        "session examples/session-riichi.yaml",
        "teach --set club --standard examples/standard.jpg",
        "teach --set club examples/hand.jpg",
    ):
        assert any(must in t for t in texts), must
    shown = [e for e in found if e.shown]
    assert len(shown) >= 9 and all(e.argv[0] == "mahjong-score" for e in found)
    assert examples("```sh\nmahjong-score hand '1m # 2m'  # a comment\n```\n")[0].argv == (
        "mahjong-score",
        "hand",
        "1m # 2m",
    )


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder as ``mahjong-score examples`` leaves one: ./examples with the bundled files."""
    root = tmp_path_factory.mktemp("readme")
    (root / "examples").mkdir()
    for path in bundled_examples():
        shutil.copyfile(path, root / "examples" / path.name)
    return root


def _same(want: str, got: str) -> bool:
    """A README line and a printed one: the same, or, where the README cuts the line short with
    ``...``, the same up to there."""
    if "..." in want:
        return got.startswith(want[: want.index("...")].rstrip(" ,"))
    return got.rstrip() == want.rstrip()


def _compare(shown: tuple[str, ...], printed: str) -> None:
    """Every line the README shows is printed, in the README's order: an abridged output (the
    rule systems' examples leave out the ``Hand:`` and ``Tiles:`` lines) shows fewer lines, never
    other ones."""
    got = printed.rstrip("\n").splitlines()
    at = 0
    for want in shown:
        while at < len(got) and not _same(want, got[at]):
            at += 1
        assert at < len(got), f"the README shows {want!r}, not printed (in this order):\n" + "\n".join(got)
        at += 1


@pytest.mark.slow
@pytest.mark.models  # the photo and teach examples load the shipped models (in the subprocess)
@pytest.mark.parametrize("example", examples(), ids=lambda e: e.id)
def test_each_readme_example_runs_as_written(example: Example, folder: Path) -> None:
    why = not_run(example.argv, folder)
    if why is not None:
        pytest.skip(f"README line {example.line}: {why}")
    env = {**os.environ, "MAHJONG_SETS": str(folder / "sets"), "COLUMNS": "100"}
    run = subprocess.run(
        [sys.executable, "-m", "mahjong_camera_scorer.vision.cli", *example.argv[1:]],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    # exit 1 is "not a valid win" (the README's Commands): an example whose output says so
    expected = 1 if any(line.startswith("Not a valid win") for line in example.shown or ()) else 0
    said = f"README line {example.line}: exit {run.returncode}\n{run.stdout}\n{run.stderr}"
    assert run.returncode == expected, said
    if example.shown:
        _compare(example.shown, run.stdout)


def test_the_comparison_fails_on_a_line_the_command_does_not_print() -> None:
    _compare(("b", "d ..."), "a\nb\nc\nd e f\n")
    with pytest.raises(AssertionError):
        _compare(("b", "x"), "a\nb\nc\n")
    with pytest.raises(AssertionError):
        _compare(("c", "b"), "a\nb\nc\n")  # out of order
