#!/usr/bin/env python3
"""``photos`` with 1 worker against N workers on the same folder, and a whole 16-photo session.

The folder is 16 photos (``--count``): the bundled example scaled to a 12-megapixel JPEG
(``--side``), or the first photos of ``--photos DIR``. Each run is the command a referee types
(``python -m vision.cli photos ...`` in a process of its own: start, model loads and worker
start-up included), and the runs alternate 1 worker, N workers, 1, N, ... so that a machine
shared with other work slows both sides alike; the printed ratio (median 1-worker time / median
N-worker time) is the speed-up. Every run's CSV is compared with the first one's: a worker count
that changes the output fails the benchmark. Then the same photos, listed in a manifest, run
through ``session --manifest`` once per round (MCR: 16 hands), and its median time is printed.

    python scripts/bench_photos.py --rounds 3 --workers 2
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "hand.jpg"
PLAYERS = "Anna Bruno Carla Dario"


def make_folder(folder: Path, count: int, side: int, source: Path | None) -> list[str]:
    """``count`` photos in ``folder``; their names."""
    import cv2  # the benchmark needs the runtime only

    folder.mkdir(parents=True, exist_ok=True)
    if source is not None:
        found = sorted(p for p in source.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))[:count]
        if len(found) < count:
            raise SystemExit(f"error: {source} has {len(found)} photos, {count} needed")
        names = []
        for i, p in enumerate(found):
            names.append(f"h{i + 1:02d}{p.suffix.lower()}")
            (folder / names[-1]).write_bytes(p.read_bytes())
        return names
    image = cv2.imread(str(EXAMPLE))
    h, w = image.shape[:2]
    scale = side / max(h, w)
    big = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    names = [f"h{i + 1:02d}.jpg" for i in range(count)]
    for name in names:
        (folder / name).write_bytes(data.tobytes())
    return names


def write_manifest(path: Path, names: list[str]) -> None:
    """One line per photo: the winner's seat goes round the table, every hand self-drawn."""
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["photo", "table", "hand", "seat", "win_by"])
        for i, name in enumerate(names):
            w.writerow([name, "1", i + 1, "ESWN"[i % 4], "self_draw"])


def timed(argv: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - t0, done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3, help="runs of each side (alternating)")
    ap.add_argument("--workers", type=int, default=2, help="the workers compared with one (default 2)")
    ap.add_argument("--count", type=int, default=16, help="photos (default 16)")
    ap.add_argument("--side", type=int, default=4000, help="long side of the example's copies (default 4000)")
    ap.add_argument("--photos", type=Path, help="use this folder's first photos instead of the example")
    ap.add_argument("--rules", default="mcr")
    ap.add_argument("--no-session", action="store_true", help="time the photos command only")
    ap.add_argument("--out", type=Path, help="write the results as JSON")
    args = ap.parse_args(argv)
    if args.rounds < 1 or args.workers < 2 or args.count < 1:
        ap.error("--rounds and --count must be 1 or more, --workers 2 or more")
    cli = [sys.executable, "-m", "mahjong_camera_scorer.vision.cli"]
    times: dict[str, list[float]] = {"1": [], str(args.workers): []}
    session_times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="bench-photos-") as tmp:
        folder = Path(tmp) / "table"
        names = make_folder(folder, args.count, args.side, args.photos)
        manifest = Path(tmp) / "manifest.csv"
        write_manifest(manifest, names)
        reference: bytes | None = None
        for r in range(args.rounds):
            for workers in times:
                out = Path(tmp) / f"r{r}-w{workers}.csv"
                base = ["photos", str(folder), "--rules", args.rules, "--win-by", "self_draw"]
                cmd = [*cli, *base, "--out", str(out), "--no-annotate", "--quiet", "--workers", workers]
                seconds, done = timed(cmd)
                if done.returncode != 0:
                    print(done.stderr, file=sys.stderr)
                    return 2
                if reference is None:
                    reference = out.read_bytes()
                elif out.read_bytes() != reference:
                    print(f"error: {workers} worker(s) wrote another CSV than the first run", file=sys.stderr)
                    return 1
                times[workers].append(seconds)
                print(f"round {r + 1}: photos, {workers} worker(s): {seconds:.2f} s", flush=True)
            if not args.no_session:
                cmd = [
                    *cli,
                    "session",
                    "--manifest",
                    str(manifest),
                    "--photos",
                    str(folder),
                    "--rules",
                    args.rules,
                ]
                seconds, done = timed([*cmd, "--players", PLAYERS, "--json"])
                if done.returncode not in (0, 1):  # 1: hands for the referee to confirm, still a sheet
                    print(done.stderr, file=sys.stderr)
                    return 2
                sheet = json.loads(done.stdout)
                hands = sum(1 for line in sheet["lines"] if line["kind"] == "hand")
                session_times.append(seconds)
                print(f"round {r + 1}: session of {hands} photo hands: {seconds:.2f} s", flush=True)
    one, many = statistics.median(times["1"]), statistics.median(times[str(args.workers)])
    result = {
        "photos": args.count,
        "photo_source": str(args.photos) if args.photos else f"examples/hand.jpg at {args.side} px",
        "rounds": args.rounds,
        "median_s": {"1": round(one, 3), str(args.workers): round(many, 3)},
        "speedup": round(one / many, 3),
        "session_median_s": round(statistics.median(session_times), 3) if session_times else None,
    }
    print(
        f"photos, {args.count} photos: 1 worker {one:.2f} s, {args.workers} workers {many:.2f} s "
        f"(medians of {args.rounds}): speed-up {one / many:.2f}x"
    )
    if session_times:
        print(f"session of {args.count} photos (one process): median {result['session_median_s']:.2f} s")
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
