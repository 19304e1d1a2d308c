#!/usr/bin/env python3
"""Peak memory of ``mahjong-score serve`` when four large uploads arrive at once (issue 23).

The hostile-input probe saw the server reach 4.2 GB with four 14400x14400 16-bit PNG/TIFF and
progressive JPEG uploads at once; the decoder now refuses an image that would need more than its
decode budget from the header (:mod:`vision.images`). This script measures what is left.

It starts ``python -m vision.cli serve`` in a child process on a free port of 127.0.0.1 (with an
empty temporary profile, so no taught set of the user's is touched), then posts to ``/api/read``,
four requests at once per round:

- ``hostile``: the probe's files, made by the test suite's own generators
  (``tests/vision/test_images.py``: 16-bit PNG and 16-bit TIFF of 14400x14400, a progressive JPEG
  of 14400x14400, a 100x100 TIFF in one 16000x16000 tile), each padded after its end to
  ``--pad-mb`` (default 24 MB, just under the server's 25 MB upload limit) so the server also
  holds the largest bodies it accepts;
- ``under-budget``: four valid 7200x7200 8-bit PNGs, 52 MP each, just inside the decode
  budget (``--sets`` adds them): the server decodes each whole (148 MB), and OpenCV 5.0's
  ``imdecode`` holds twice the decoded image while it decodes (any format, measured: the
  budget counts both since; 100 MP PNGs were inside it before and took the server to 1.2 GB);
- ``ordinary``: four 12-megapixel camera-like JPEGs (``examples/hand.jpg`` scaled to 4000x3000,
  with a sensor's noise so each is the size of a phone photo).

The server's memory is read from ``/proc/PID/status`` (``VmRSS`` sampled every 10 ms, and
``VmHWM``, the kernel's own peak, reset before each round through ``/proc/PID/clear_refs``).
It prints, per round, the resident memory before, the peak, and the answers' status codes.
Linux only; loopback only; the server's start and every request have time limits, and the
server is stopped whatever happens.

    python scripts/bench_upload_memory.py            # hostile then ordinary, once
    python scripts/bench_upload_memory.py --rounds 2 --sets hostile,under-budget,ordinary
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "hand.jpg"
MB = 1 << 20


def hostile_files(pad_mb: int) -> dict[str, bytes]:
    """The probe's images under the pixel cap, from the test suite's generators, padded after their
    end with zero bytes to ``pad_mb`` MB (decoders stop at the image's end; the body still counts)."""
    sys.path.insert(0, str(ROOT))
    from tests.vision.test_images import (
        png_16bit_claiming,
        progressive_jpeg_claiming,
        tiff_one_big_tile,
    )

    files = {
        "png-16bit-14400.png": png_16bit_claiming(14400, 14400),
        "tiff-16bit-14400.tif": tiff_one_big_tile(14400, 14400, 256, bits=16),
        "progressive-14400.jpg": progressive_jpeg_claiming(14400, 14400),
        "tiff-one-16000-tile.tif": tiff_one_big_tile(),
    }
    return {name: data + bytes(max(0, pad_mb * MB - len(data))) for name, data in files.items()}


def png_8bit(w: int, h: int) -> bytes:
    """A complete, valid ``w`` x ``h`` 8-bit RGB PNG (black), compressed row by row so making it
    never holds the image."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    packer = zlib.compressobj(9)
    row = bytes(1 + 3 * w)  # filter byte 0, then the row's samples
    idat = b"".join(packer.compress(row) for _ in range(h)) + packer.flush()
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def under_budget_files(count: int = 4, side: int = 7200) -> dict[str, bytes]:
    """``count`` valid PNGs of ``side`` x ``side`` (52 MP, 148 MB decoded, 297 MB at the decode's
    peak): just inside the decode budget, so the server decodes them whole (only JPEGs decode
    reduced)."""
    data = png_8bit(side, side)
    return {f"png-8bit-{side}-{i}.png": data for i in range(count)}


def ordinary_files(count: int = 4) -> dict[str, bytes]:
    """``count`` 12 MP JPEGs of camera-like quality and size made from the bundled example photo."""
    import cv2

    src = cv2.imread(str(EXAMPLE))
    if src is None:
        raise SystemExit(f"cannot read {EXAMPLE}")
    import numpy as np

    big = cv2.resize(src, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    # a camera's sensor noise, so the file has a phone photo's size (an upscaled picture is too smooth)
    noise = np.random.default_rng(0).normal(0, 3, big.shape)
    big = np.clip(big + noise, 0, 255).astype(np.uint8)
    ok, enc = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    if not ok:
        raise SystemExit("OpenCV could not encode the 12 MP JPEG")
    return {f"hand-12mp-{i}.jpg": enc.tobytes() for i in range(count)}


#: the sets of uploads (the hostile one is made with --pad-mb)
SETS = {"hostile": hostile_files, "under-budget": under_budget_files, "ordinary": ordinary_files}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_status(pid: int) -> dict[str, int]:
    """``VmRSS`` and ``VmHWM`` of ``pid`` in bytes (empty once the process is gone)."""
    out: dict[str, int] = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0]) * 1024
    return out


def reset_peak(pid: int) -> bool:
    """Reset the kernel's peak resident size of ``pid`` (``VmHWM``); False where not allowed."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


class Sampler:
    """The largest ``VmRSS`` of a process seen every ``every`` seconds while it runs."""

    def __init__(self, pid: int, every: float = 0.01) -> None:
        self.pid, self.every, self.peak = pid, every, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, proc_status(self.pid).get("VmRSS", 0))
            time.sleep(self.every)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def post_photo(url: str, name: str, data: bytes, timeout: float) -> tuple[int, str]:
    """POST one photo as ``multipart/form-data`` to ``url``: (status, first words of the answer)."""
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="image"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body = head + data + f"\r\n--{boundary}--\r\n".encode()
    req = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": f"multipart/form-data; boundary={boundary}"}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            answer = json.loads(resp.read())
            return resp.status, f"{len(answer.get('tiles') or [])} tiles read"
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read()).get("error", "")
        except (ValueError, AttributeError):
            detail = ""
        return exc.code, str(detail)[:100]
    except (OSError, TimeoutError) as exc:
        return 0, f"{type(exc).__name__}: {exc}"[:100]


def run_round(base: str, pid: int, files: dict[str, bytes], timeout: float) -> dict:
    """Post ``files`` at once; the server's memory before and at its peak, and each answer."""
    before = proc_status(pid).get("VmRSS", 0)
    hwm_reset = reset_peak(pid)
    t0 = time.perf_counter()
    with Sampler(pid) as sampler, ThreadPoolExecutor(len(files)) as pool:
        futures = {n: pool.submit(post_photo, f"{base}/api/read", n, d, timeout) for n, d in files.items()}
        answers = {n: f.result() for n, f in futures.items()}
    seconds = time.perf_counter() - t0
    status = proc_status(pid)
    peak = max(sampler.peak, status.get("VmHWM", 0) if hwm_reset else 0)
    return {
        "before_mb": before / MB,
        "peak_mb": peak / MB,
        "peak_source": "VmHWM" if hwm_reset else "sampled VmRSS",
        "seconds": seconds,
        "answers": answers,
    }


def wait_ready(base: str, proc: subprocess.Popen, limit: float) -> None:
    deadline = time.time() + limit
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited ({proc.returncode}) before it answered")
        try:
            with urllib.request.urlopen(f"{base}/api/meta", timeout=2) as resp:
                if resp.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {limit:.0f} s")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Peak memory of `mahjong-score serve` (RSS from /proc) with four large uploads at once: "
        "the probe's hostile images, then four 12 MP JPEGs.",
    )
    p.add_argument("--rounds", type=int, default=1, help="times each set of four is posted (default 1)")
    p.add_argument("--pad-mb", type=int, default=24, help="size of each hostile upload, MB (default 24)")
    p.add_argument("--request-timeout", type=float, default=180.0, help="seconds per request (default 180)")
    p.add_argument("--start-timeout", type=float, default=120.0, help="seconds for the server to start")
    p.add_argument(
        "--sets",
        default="hostile,ordinary",
        help=f"sets of four to post, in order, from {', '.join(SETS)} (default hostile,ordinary)",
    )
    p.add_argument("--json", action="store_true", help="print the results as one JSON object")
    args = p.parse_args(argv)
    args.sets = [name.strip() for name in args.sets.split(",") if name.strip()]
    unknown = [name for name in args.sets if name not in SETS]
    if unknown or not args.sets:
        p.error(f"--sets: give names from {', '.join(SETS)}, not {','.join(unknown) or 'nothing'}")
    if args.rounds < 1 or args.pad_mb < 0 or args.request_timeout <= 0 or args.start_timeout <= 0:
        p.error("--rounds must be 1 or more, --pad-mb 0 or more and the timeouts positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not Path("/proc/self/status").exists():
        print("this benchmark reads /proc: Linux only", file=sys.stderr)
        return 2
    makers = {**SETS, "hostile": lambda: hostile_files(args.pad_mb)}
    sets = {name: makers[name]() for name in args.sets}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "datasets"), *filter(None, [env.get("PYTHONPATH")])]
    )
    results: dict[str, list[dict]] = {name: [] for name in sets}
    with tempfile.TemporaryDirectory(prefix="bench-upload-") as tmp:
        log = open(Path(tmp) / "server.log", "w+b")  # noqa: SIM115 - closed in finally
        cmd = [
            sys.executable,
            "-m",
            "mahjong_camera_scorer.vision.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ]
        cmd += ["--profile", str(Path(tmp) / "profile")]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_ready(base, proc, args.start_timeout)
            idle = proc_status(proc.pid).get("VmRSS", 0) / MB
            if not args.json:
                print(f"server pid {proc.pid} on {base}: {idle:.0f} MB resident when ready")
            for i in range(args.rounds):
                for name, files in sets.items():
                    r = run_round(base, proc.pid, files, args.request_timeout)
                    results[name].append(r)
                    if args.json:
                        continue
                    sizes = sorted({round(len(d) / MB, 1) for d in files.values()})
                    print(
                        f"round {i + 1} {name}: {len(files)} uploads of {sizes} MB at once: peak "
                        f"{r['peak_mb']:.0f} MB ({r['peak_source']}), {r['before_mb']:.0f} MB before, "
                        f"{r['seconds']:.1f} s"
                    )
                    for fname, (code, detail) in r["answers"].items():
                        print(f"  {code} {fname}: {detail}")
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
            log.seek(0)
            tail = log.read()[-2000:].decode("utf-8", "replace").strip()
            log.close()
    if args.json:
        print(json.dumps({"idle_mb": idle, "rounds": results}, indent=1))
    elif tail:
        print("server log (tail):\n" + tail)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
