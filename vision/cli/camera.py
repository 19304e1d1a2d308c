"""``mahjong-score camera``: a live view of the hand with its tiles and score, from a webcam or video.

The window shows every tile's box as the detector finds it; once the view has been steady for a
moment the tiles are read and their codes and the score appear. Keys: space (or Enter, or s)
freezes the frame, scores it and shows the full breakdown, any key goes back; q or Esc quits.

Where no window can be shown, the command says so and exits; ``--headless --out DIR`` writes the
annotated frames (``frame_NNNNNN.jpg``), one breakdown image per steady view read
(``read_NNNNNN.jpg``), ``readings.jsonl`` (tiles, hand and score of each) and ``summary.json``
(frames, frames per second) instead; a folder that holds a previous run's files is written
only with ``--force``, which replaces them all (no frame of the earlier run is left among the new).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path
from typing import Any, TextIO

import cv2

from mahjong_camera_scorer.scoring.cli import EXIT_OK, CliError, parse_options
from mahjong_camera_scorer.scoring.cli.common import add_lang_option
from mahjong_camera_scorer.scoring.i18n import DEFAULT_LANG
from mahjong_camera_scorer.scoring.output_paths import write_output
from mahjong_camera_scorer.vision.camera import (
    CameraError,
    FrameReader,
    LiveScorer,
    ModelFrameReader,
    Steadiness,
    SteadyView,
    breakdown,
    display_problem,
    frames,
    open_source,
    overlay,
)
from mahjong_camera_scorer.vision.cli.options import (
    add_context_options,
    check_rule_input,
    context_of,
    use_set,
)
from mahjong_camera_scorer.vision.cli.outputs import guarded, sets_root
from mahjong_camera_scorer.vision.models import (
    DETECTOR_FILE,
    READER_FILE,
    ModelError,
    load_model,
    load_small_detector,
)
from mahjong_camera_scorer.vision.render.camera import frozen_text, report_line

WINDOW = "mahjong-score camera"
#: what ``--headless --out DIR`` writes in DIR: a run's files, every one of them replaced by the next
RUN_FILES = ("summary.json", "readings.jsonl")
RUN_PICTURES = re.compile(r"(?:frame|read)_[0-9]{6}\.jpg")


def previous_run(out_dir: Path) -> list[Path]:
    """The files of an earlier headless run in ``out_dir`` (none when it is no folder)."""
    try:
        found = sorted(out_dir.iterdir()) if out_dir.is_dir() else []
    except OSError as exc:
        raise CliError(f"cannot read --out {out_dir}: {exc.strerror or exc}") from None
    return [p for p in found if p.name in RUN_FILES or RUN_PICTURES.fullmatch(p.name)]


def make_reader(args: argparse.Namespace) -> FrameReader:
    """The models (loaded once); tests replace this with a stand-in."""
    from mahjong_camera_scorer.vision.pipeline import PhotoReader

    try:
        models = Path(args.models)
        det = load_model(models / DETECTOR_FILE, threads=args.threads)
        rdr = load_model(models / READER_FILE, threads=args.threads)
        small = load_small_detector(models, threads=args.threads)
        reader = PhotoReader(models, det=det, rdr=rdr, conf=args.det_conf, small_det=small)
    except ModelError as exc:
        raise CliError(str(exc)) from None
    return ModelFrameReader(use_set(reader, args.set, args.profile))


class _Rate:
    """Frames per second over the last frames (an exponential moving average of frame times)."""

    def __init__(self) -> None:
        self.last: float | None = None
        self.dt: float | None = None

    def tick(self) -> float | None:
        now = time.perf_counter()
        if self.last is not None:
            d = now - self.last
            self.dt = d if self.dt is None else 0.9 * self.dt + 0.1 * d
        self.last = now
        return 1.0 / self.dt if self.dt else None


def _report(reading: SteadyView, rules: str, out: TextIO, lang: str) -> None:
    out.write(report_line(reading.frame, reading.result, rules, lang) + "\n")
    out.flush()


def run_headless(
    scorer: LiveScorer,
    cap: cv2.VideoCapture,
    out_dir: Path,
    out: TextIO,
    every: int = 1,
    max_frames: int | None = None,
    lang: str = DEFAULT_LANG,
) -> dict[str, Any]:
    """Process every frame, write annotated ones; returns the summary (also ``summary.json``)."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        jsonl = (out_dir / "readings.jsonl").open("w", encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot write to {out_dir}: {exc}") from None
    rate = _Rate()
    n = reads = 0
    busy = 0.0
    last = None
    t_start = time.perf_counter()
    try:
        with jsonl:
            for frame in frames(cap, max_frames):
                t0 = time.perf_counter()
                state = scorer.process(frame)
                busy += time.perf_counter() - t0
                fps = rate.tick()
                if state.new_reading and state.reading is not None:
                    reads += 1
                    last = state.reading
                    jsonl.write(json.dumps(state.reading.to_json(), ensure_ascii=False) + "\n")
                    jsonl.flush()
                    frozen = breakdown(frame, state.reading, lang)
                    cv2.imwrite(str(out_dir / f"read_{state.index:06d}.jpg"), frozen)
                    _report(state.reading, scorer.rules, out, lang)
                if every and state.index % every == 0:
                    image = overlay(frame, state, fps, scorer.rules, lang)
                    if not cv2.imwrite(str(out_dir / f"frame_{state.index:06d}.jpg"), image):
                        raise CliError(f"cannot write frames to {out_dir}")
                n += 1
    except KeyboardInterrupt:
        out.write("stopped\n")
    wall = time.perf_counter() - t_start
    summary = {
        "frames": n,
        "seconds": round(wall, 3),
        "fps": round(n / wall, 2) if wall > 0 else None,
        "fps_processing": round(n / busy, 2) if busy > 0 else None,
        "readings": reads,
        "last_hand": last.hand if last else None,
        "last_score": last.score.to_json() if last else None,
    }
    try:
        write_output(out_dir / "summary.json", json.dumps(summary, indent=1, ensure_ascii=False).encode())
    except OSError as exc:
        raise CliError(f"cannot write {out_dir / 'summary.json'}: {exc.strerror or exc}") from None
    out.write(
        f"{n} frames in {wall:.1f} s: {summary['fps']} frames/s overall, "
        f"{summary['fps_processing']} frames/s detecting and reading "
        f"(detector on every frame, {reads} steady view(s) read) -> {out_dir}\n"
    )
    if not reads:
        out.write("no steady view of tiles was found: hold the camera still over the hand\n")
    return summary


def run_window(scorer: LiveScorer, cap: cv2.VideoCapture, out: TextIO, lang: str = DEFAULT_LANG) -> None:
    rate = _Rate()
    try:
        cv2.namedWindow(WINDOW, cv2.WINDOW_NORMAL)
    except cv2.error as exc:
        raise CliError(f"cannot open a window: {exc}; use --headless --out DIR") from None
    try:
        for frame in frames(cap):
            state = scorer.process(frame)
            cv2.imshow(WINDOW, overlay(frame, state, rate.tick(), scorer.rules, lang))
            if state.new_reading and state.reading is not None:
                _report(state.reading, scorer.rules, out, lang)
            key = cv2.waitKey(1) & 0xFF
            if key in (ord("q"), 27):
                break
            if key in (ord(" "), 13, ord("s")):
                reading = state.reading if state.reading is not None else scorer.read_now(frame)
                cv2.imshow(WINDOW, breakdown(frame, reading, lang))
                out.write(frozen_text(reading.result, lang) + "\n")
                out.flush()
                if cv2.waitKey(0) & 0xFF in (ord("q"), 27):
                    break
                rate = _Rate()
            if cv2.getWindowProperty(WINDOW, cv2.WND_PROP_VISIBLE) < 1:
                break
    except KeyboardInterrupt:
        pass
    finally:
        cv2.destroyAllWindows()


def cmd_camera(args: argparse.Namespace, out: TextIO) -> int:
    options = parse_options(args.option)
    check_rule_input(args, options)
    ctx = context_of(args)
    if args.headless and not args.out:
        raise CliError("--headless needs --out DIR for the annotated frames")
    if args.every < 0 or (args.max_frames is not None and args.max_frames < 1) or args.threads < 1:
        raise CliError("--every must be 0 or more, --max-frames and --threads 1 or more")
    if not args.headless:
        problem = display_problem()
        if problem:
            raise CliError(
                f"{problem}, so the live view cannot be shown; run with --headless --out DIR to write "
                "annotated frames instead"
            )
    if args.headless:
        _earlier_files(args)
    reader = make_reader(args)
    try:
        cap = open_source(args.source, args.width, args.height)
    except CameraError as exc:
        raise CliError(str(exc)) from None
    steadiness = Steadiness(shift=args.shift, frames=args.steady_frames, change=args.change)
    scorer = LiveScorer(reader, args.rules, options, ctx, steadiness)
    try:
        if args.headless:
            _headless(args, scorer, cap, out)
        else:
            if args.out:
                print("note: --out is used only with --headless", file=sys.stderr)
            run_window(scorer, cap, out, args.lang)
    finally:
        cap.release()
    return EXIT_OK


def _earlier_files(args: argparse.Namespace) -> list[Path]:
    """An earlier run's files in ``--out``: refused without ``--force`` (checked before the models
    load, and again once the folder is held)."""
    out_dir = Path(args.out)
    earlier = previous_run(out_dir)
    if earlier and not args.force:
        raise CliError(
            f"--out {out_dir} holds {len(earlier)} file(s) of an earlier run ({earlier[0].name}, …): "
            "give --force to replace them, or another folder"
        )
    return earlier


def _headless(args: argparse.Namespace, scorer: LiveScorer, cap: cv2.VideoCapture, out: TextIO) -> None:
    """The headless run, its folder held against another run; a previous run's files there are
    replaced only with ``--force`` (all of them: frames of two runs are never mixed)."""
    out_dir = Path(args.out)
    outputs = [("--out", out_dir / name) for name in RUN_FILES]
    with guarded(outputs, [], True, sets=sets_root(args), lock=[out_dir]):
        for path in _earlier_files(args):
            try:
                path.unlink()
            except OSError as exc:
                raise CliError(f"cannot replace {path}: {exc.strerror or exc}") from None
        run_headless(scorer, cap, out_dir, out, args.every, args.max_frames, args.lang)


def add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``camera`` on the ``mahjong-score`` subparsers."""
    p = sub.add_parser(
        "camera",
        help="live view from a webcam or video: tile boxes, codes and the score",
        description="Show a webcam (or a video file or stream) with every tile's box; when the view is "
        "steady the tiles are read and the hand scored. Keys: space = freeze and show the score "
        "breakdown, q = quit. Without a display use --headless --out DIR.",
    )
    p.add_argument(
        "--source", default="0", help="camera index (0, 1, …), video file or stream URL (default 0)"
    )
    add_context_options(p)
    p.add_argument("--winning-tile", metavar="CODE", help="the winning tile, when it is not set apart")
    p.add_argument(
        "--threads",
        type=int,
        default=2,
        help="CPU threads per model (default 2; 1 is faster on a machine busy with other work)",
    )
    add_lang_option(p, "the overlay's and the reports' words")
    p.add_argument("--headless", action="store_true", help="no window: write annotated frames to --out")
    p.add_argument("--out", metavar="DIR", help="folder for annotated frames, readings.jsonl, summary.json")
    p.add_argument("--every", type=int, default=1, help="with --headless: write every Nth frame (0: none)")
    p.add_argument("--max-frames", type=int, help="stop after this many frames")
    p.add_argument("--steady-frames", type=int, default=4, help="frames the view must stay still (default 4)")
    p.add_argument(
        "--shift",
        type=float,
        default=1.0,
        help="camera movement between frames, in pixels per 1000 px of width, below which the view is "
        "still (default 1.0)",
    )
    p.add_argument(
        "--change",
        type=float,
        default=2.0,
        help="mean grey-level change between frames below which the view is still (default 2.0)",
    )
    p.add_argument("--width", type=int, help="ask the camera for this frame width")
    p.add_argument("--height", type=int, help="ask the camera for this frame height")
    p.add_argument(
        "--force", action="store_true", help="with --headless: replace an earlier run's files in --out"
    )
    p.set_defaults(func=cmd_camera)
