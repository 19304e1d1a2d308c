"""The install test: the tool as a user gets it, not as the checkout runs it.

The source tree as a fresh clone would have it (git's tracked and not-ignored files) is built into
an sdist and a wheel from that sdist (``python -m build``, as an index would get them); the wheel
is installed into a fresh virtual environment outside the checkout, its dependencies resolved from
the package registry the running venv uses (pip's cache helps). Then, from a folder outside the
checkout and with nothing of the checkout on ``PYTHONPATH``, the installed ``mahjong-score``
copies out its examples, reads and scores the example photo, scores a typed hand and a session
sheet, and serves the page: one page load and one ``/api/read``. Its models must be the ones inside
the installed package: that proves the wheel carries them, which reusing the checkout's venv would not.

Slow (about a minute with a warm pip cache) and needs the registry: ``-m "not install"`` leaves it
out; without the registry, venv's pip or ``build`` it skips and says which.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from collections import Counter
from contextlib import chdir, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = [pytest.mark.install, pytest.mark.slow, pytest.mark.models]

ROOT = Path(__file__).resolve().parent.parent
#: what each command is run with; the installed tool's output must equal the checkout's
PHOTO = ["photo", "examples/hand.jpg", "--rules", "riichi", "--seat", "W", "--win-by", "self_draw"]
HAND = ["hand", "234m55p12345678s tsumo 9s seat=S riichi dora=1z ura=9m", "--rules", "riichi"]
SESSION = ["session", "examples/session-riichi.yaml", "--rules", "riichi"]
#: environment variables that would let the installed tool see the checkout or another install
LEAKY = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV", "MAHJONG_MODELS")


@dataclass(frozen=True)
class Installed:
    venv: Path
    wheel: Path
    sdist: Path
    cwd: Path  # a folder outside the checkout, the examples copied into it
    env: dict[str, str]

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def run(self, *args: str, timeout: float = 120) -> str:
        done = subprocess.run(
            [str(self.bin / "mahjong-score"), *args],
            cwd=self.cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        assert done.returncode == 0, f"mahjong-score {' '.join(args)}: {done.returncode}\n{done.stderr}"
        return done.stdout


def _run(cmd: list[str], what: str, timeout: float, **kwargs) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert done.returncode == 0, (
        f"{what} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done


def _clone_like(dest: Path) -> Path:
    """The files a fresh clone of this tree would hold (tracked, and new files git does not
    ignore), copied into ``dest``: no build/, egg-info, venv or ignored output gets into the build."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            timeout=60,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        pytest.skip("not a git checkout (or no git): cannot tell which files a fresh clone has")
    for name in filter(None, listed.decode().split("\0")):
        src = ROOT / name
        if src.is_file():  # a tracked file deleted in the working tree is not there
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def _skip_without_tools(scratch: Path) -> None:
    if os.name != "posix":
        pytest.skip("the install test drives a POSIX venv (bin/)")
    try:
        import build  # noqa: F401  (the test extras install it)
    except ImportError:
        pytest.skip("the 'build' package is missing (pip install build; make test installs it)")
    probe = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(scratch), "setuptools>=77"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if probe.returncode != 0:
        pytest.skip(
            f"the package registry is not reachable (pip download setuptools failed): {probe.stderr[-300:]}"
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("install")
    assert not base.resolve().is_relative_to(ROOT), "the install must happen outside the checkout"
    _skip_without_tools(base / "probe")
    t0 = time.perf_counter()
    src = _clone_like(base / "src")
    dist = base / "dist"
    # sdist first, then the wheel from the unpacked sdist: both must carry the data
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(src)], "python -m build", 600)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    t1 = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k not in LEAKY}
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], "python -m venv", 300, env=env)
    _run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], "pip install", 900, env=env
    )
    t2 = time.perf_counter()
    print(f"\nbuilt sdist+wheel in {t1 - t0:.0f} s, installed in {t2 - t1:.0f} s", file=sys.stderr)
    cwd = base / "user"
    cwd.mkdir()
    env["MAHJONG_SETS"] = str(base / "sets")  # never the real user's taught sets
    return Installed(venv, wheel, sdist, cwd, env)


def _checkout_output(argv: list[str]) -> str:
    """What the checkout's own ``mahjong-score`` prints for ``argv``, run in the checkout."""
    from mahjong_camera_scorer.scoring.cli import run
    from mahjong_camera_scorer.vision.cli import build_parser

    out = io.StringIO()
    with chdir(ROOT), redirect_stdout(out):
        parser, _ = build_parser()
        assert run(parser, argv, out) == 0
    return out.getvalue()


def test_the_wheel_carries_the_models_page_and_examples_but_no_checkpoints(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as whl:
        names = set(whl.namelist())
    wanted = {
        "mahjong_camera_scorer/models/detector.onnx",
        "mahjong_camera_scorer/models/reader.onnx",
        "mahjong_camera_scorer/vision/web/static/index.html",
        "mahjong_camera_scorer/vision/web/static/app.js",
        "mahjong_camera_scorer/examples/hand.jpg",
        "mahjong_camera_scorer/examples/session-riichi.yaml",
    }
    assert wanted <= names, wanted - names
    # one top-level name, the tool's own: none that another project on the index also installs
    assert {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))} == {
        "mahjong_camera_scorer"
    }
    assert not [n for n in names if n.endswith(".pt") or "checkpoints" in n or "metrics" in n]
    with tarfile.open(installed.sdist) as tar:
        sdist = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"models/detector.onnx", "models/reader.onnx", "examples/hand.jpg", "LICENSE"} <= sdist


def test_version_names_the_installed_models_and_their_training(installed: Installed) -> None:
    from mahjong_camera_scorer.vision import __version__

    lines = installed.run("--version").splitlines()
    assert lines[0] == f"mahjong-score {__version__}"
    models = Path(lines[1].removeprefix("models: "))
    # the models are the installed package's own, inside the venv, not the checkout's
    assert models.is_relative_to(installed.venv), lines
    assert models.parts[-2:] == ("mahjong_camera_scorer", "models"), lines
    for line in lines[2:4]:
        name, _, rest = line.partition(": training ")
        assert name in ("detector.onnx", "reader.onnx") and json.loads(rest), line


def test_photo_hand_and_session_as_in_the_checkout(installed: Installed) -> None:
    copied = installed.run("examples")
    assert (installed.cwd / "examples" / "hand.jpg").is_file(), copied
    for argv in (PHOTO, HAND, SESSION):
        assert installed.run(*argv) == _checkout_output(argv), argv


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _multipart(fields: dict[str, str], name: str, filename: str, data: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    )
    body += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    body += data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def test_serve_the_page_and_read_a_photo(installed: Installed) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = installed.cwd / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(installed.bin / "mahjong-score"), "serve", "--port", str(port)],
            cwd=installed.cwd,
            env=installed.env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        page = None
        while page is None:
            assert server.poll() is None, f"serve exited with {server.returncode}:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"serve did not answer in 60 s:\n{log.read_text()}"
            try:
                with urllib.request.urlopen(url + "/", timeout=5) as r:
                    page = r.read().decode()
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.3)
        assert "<html" in page.lower() and "/static/app.js" in page
        with urllib.request.urlopen(url + "/static/app.js", timeout=5) as r:
            assert r.status == 200 and len(r.read()) > 1000

        photo = (ROOT / "examples" / "hand.jpg").read_bytes()
        context = {"win_by": "self_draw", "seat_wind": "W", "round_wind": "E", "winning_tile": "4s"}
        body, kind = _multipart(
            {"rules": "riichi", "context": json.dumps(context)}, "image", "hand.jpg", photo
        )
        request = urllib.request.Request(url + "/api/read", body, {"Content-Type": kind}, method="POST")
        with urllib.request.urlopen(request, timeout=60) as r:
            read = json.load(r)
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(5)
    # the example's labels (the synthetic scene's ground truth), as tests/vision/web/test_api.py
    truth = json.loads((ROOT / "examples" / "hand.json").read_text())["tiles"]
    codes = [
        "back" if t["face_down"] else t["code"]
        for t in truth
        if t.get("labelled", True) and t.get("seat", 0) == 0
    ]
    assert Counter(t["code"] for t in read["tiles"]) == Counter(codes)
    assert read["score"]["valid"], read["score"]
