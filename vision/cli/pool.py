"""Photos read by several worker processes, their results given back in the order they were asked.

``photos`` maps each entry to its row on its own (:func:`vision.cli.photos.photo_row`), so rows
can be made in any process: each worker loads the models once (a :class:`ReaderSpec` is all it is
sent) and the parent writes the rows in the folder's (or manifest's) order as they come back, so
the CSV and JSON lines are the same whatever the number of workers. Workers are spawned, not
forked: onnxruntime's thread pools in a forked copy of a process that already ran a model may
wait forever, and a spawned worker starts from nothing.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mahjong_camera_scorer.vision.cli.options import ReaderSpec
from mahjong_camera_scorer.vision.pipeline import PhotoReader

#: the task a worker runs: (reader, *task) → row; a module-level function (it is sent by name)
Work = Callable[..., Any]


def available_cores() -> int:
    """The cores this process may run on (a container's or ``taskset``'s limit included)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


#: each model's threads in a process of its own (:func:`vision.models.load_model`'s default)
MODEL_THREADS = 2


def default_workers() -> int:
    """Enough processes to fill every core with the models' own threads: one per
    :data:`MODEL_THREADS` cores (one on a 2-core machine, where two processes were slower: the
    models' threads already use both cores, and a second process costs its start and models)."""
    return max(1, available_cores() // MODEL_THREADS)


def threads_per_worker(workers: int) -> int | None:
    """Each model's threads in one of ``workers`` processes: the cores shared out (None for one
    worker: the models' own default)."""
    return None if workers <= 1 else max(1, available_cores() // workers)


# -- in each worker ------------------------------------------------------------------------------
_reader: PhotoReader | None = None
_load_error: Exception | None = None


def _start(spec: ReaderSpec) -> None:
    """A worker's start: the models, loaded once for every photo it will read. Ctrl+C is the
    parent's to handle (it stops the pool): a worker never prints a traceback for it."""
    global _reader, _load_error
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _reader = spec.load()
    except Exception as exc:  # sent back with the first task: the parent reports it once
        _load_error = exc


def _run(job: tuple[Work, tuple[Any, ...]]) -> Any:
    work, task = job
    if _load_error is not None:
        raise _load_error
    return work(_reader, *task)


# -- in the parent -------------------------------------------------------------------------------
def map_in_order(
    spec: ReaderSpec | None, work: Work, tasks: Iterable[tuple[Any, ...]], workers: int
) -> Iterator[Any]:
    """``work(reader, *task)`` for every task, given back in the tasks' order, by ``workers``
    processes: this one and ``workers - 1`` spawned helpers, each with its own reader (no
    ``spec``: no task needs a reader, ``work`` gets None).

    This process loads its reader first (a model that cannot be loaded fails before any result)
    and works from the first task on, while the helpers start; each helper is given one task at
    a time, the next one whenever it gives a result back, so no task waits in a queue while a
    process is free. A helper that dies (killed, out of memory) ends the batch with
    :class:`WorkerDied`; the results given back so far stand."""
    tasks = list(tasks)
    reader = spec.load() if spec is not None else None
    if workers <= 1 or spec is None or len(tasks) <= 1:
        for task in tasks:
            yield work(reader, *task)
        return
    helpers = workers - 1
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(helpers, mp_context=context, initializer=_start, initargs=(spec,)) as pool:
        inflight: dict[int, Future[Any]] = {}
        done: dict[int, Any] = {}
        following = 0  # the next task to hand out
        for i in range(len(tasks)):
            while i not in done:
                try:
                    while len(inflight) < helpers and following < len(tasks):
                        inflight[following] = pool.submit(_run, (work, tasks[following]))
                        following += 1
                    finished = [k for k, f in inflight.items() if f.done()]
                    if i in inflight and not finished and following >= len(tasks):
                        wait([inflight[i]], return_when=FIRST_COMPLETED)
                        finished = [k for k, f in inflight.items() if f.done()]
                    for k in finished:
                        done[k] = inflight.pop(k).result()
                except BrokenProcessPool:
                    raise WorkerDied("a worker process died (killed, or out of memory?)") from None
                if i not in done and not finished and following < len(tasks):
                    done[following] = work(reader, *tasks[following])  # this process's share
                    following += 1
            yield done.pop(i)


class WorkerDied(RuntimeError):
    """A worker process ended without giving its result back."""
