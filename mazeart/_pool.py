"""Work spread over processes: an ordered map on any :class:`concurrent.futures.Executor`.

Batch jobs (a puzzle book's pages, a folder of mazes) give each item its own
seed, from the run's seed and the item's index, so what they make does not
depend on where or in which order the items run. :func:`ordered_map` hands the
items to an executor — a process pool by default, or any executor given, such
as a Dask cluster's ``client.get_executor()`` — and yields their results in
the items' order; ``jobs=1`` runs them one after another in this process.

Worker processes do not share this process's context: the limits in force
(:func:`mazeart._limits.limits`) travel with each item.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from typing import Any, NamedTuple, TypeVar

from mazeart._limits import Limits, current, limits
from mazeart.errors import MazeartError, check_int

T = TypeVar("T")
R = TypeVar("R")

_AHEAD = 4
"""Items in flight per worker: enough to keep each one busy, few enough to bound memory."""
MAX_JOBS = 256
"""The most worker processes a job may ask for (each one holds its own compiled kernels)."""


def check_jobs(jobs: int | None, executor: Executor | None = None) -> int:
    """The number of worker processes to use: ``jobs``, or every core.

    Parameters
    ----------
    jobs : int, optional
        Worker processes (1: none, the work runs in this process).
    executor : Executor, optional
        An executor given instead; ``jobs`` may not be given with it.

    Returns
    -------
    int

    Examples
    --------
    >>> check_jobs(2)
    2
    >>> check_jobs(0)
    Traceback (most recent call last):
    ...
    mazeart.errors.MazeartError: jobs must be an integer from 1 to 256, got 0
    """
    if executor is not None:
        if jobs is not None:
            raise MazeartError("jobs and executor: give one or the other")
        if not isinstance(executor, Executor):
            raise TypeError(f"executor must be a concurrent.futures.Executor, not {executor!r}")
        return 0
    if jobs is None:
        return os.cpu_count() or 1
    return check_int(jobs, "jobs", minimum=1, maximum=MAX_JOBS)


WATCH_EVERY = 15.0
"""Seconds between two looks at a watched executor's workers while a result is awaited."""


class Watched(Executor):
    """An executor whose workers can be counted (a Dask cluster's): :func:`ordered_map`
    waits for a result only while ``alive()`` says some are left."""

    def __init__(self, inner: Executor, alive: Callable[[], bool]) -> None:
        self.inner, self.alive = inner, alive

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.inner.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait=wait, cancel_futures=cancel_futures)


def _result(future: Future[Any], pool: Executor) -> Any:
    """The future's result; with a :class:`Watched` pool, a one-line error once it has no
    workers left, rather than a wait without end."""
    if not isinstance(pool, Watched):
        return future.result()
    while True:
        try:
            return future.result(timeout=WATCH_EVERY)
        except TimeoutError:
            if not pool.alive():
                raise MazeartError("the cluster has no workers left to do the work") from None


class WorkerDied(MazeartError):
    """A worker process of a pool died (killed, out of memory) and the retry died too."""


def _worker_start() -> None:
    """A worker's signals: Ctrl-C is the parent's to handle (the terminal sends it to the
    whole group); SIGTERM, SIGHUP and the like end the worker, which the parent sees as
    a death and retries."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2", "SIGQUIT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def _within(bounds: Limits, func: Callable[[T], R], item: T) -> R:
    """Run ``func(item)`` within the caller's limits (in a worker process)."""
    with limits(max_cells=bounds.max_cells, max_pixels=bounds.max_pixels):
        return func(item)


def ordered_map(
    func: Callable[[T], R],
    items: Iterable[T],
    *,
    executor: Executor | None = None,
    jobs: int | None = None,
) -> Generator[R, None, None]:
    """``func(item)`` for each item, in the items' order, on an executor or in this process.

    Parameters
    ----------
    func : callable
        A module-level function (it and the items are pickled for a pool).
    items : iterable
    executor : concurrent.futures.Executor, optional
        Where to run the items (a Dask ``client.get_executor()`` included); it
        stays open for its owner.
    jobs : int, optional
        Without ``executor``: a process pool of this many workers (default:
        every core); 1 runs the items here, one after another.

    Yields
    ------
    The results, in order. The first item that fails raises its error here;
    items not yet started are cancelled. With a pool of its own, the first
    item runs in this process before the pool starts.

    Examples
    --------
    >>> list(ordered_map(abs, [-3, 2, -1], jobs=1))
    [3, 2, 1]
    """
    workers = check_jobs(jobs, executor)
    if executor is None and workers == 1:
        yield from map(func, items)
        return
    bounds = current()
    own = executor is None
    if own:  # the first item here: its errors come without a pool, and the workers
        # forked after it find the compiled kernels (and the read files) warm
        items = iter(items)
        for item in items:
            yield func(item)
            break
    pool = _pool(workers) if executor is None else executor
    job = _Job(workers, own, bounds, func)
    width = _AHEAD * (workers or 8)
    pending: deque[tuple[T, Future[Any]]] = deque()
    retried = False
    try:
        for item in items:
            try:  # (a worker that died before this breaks the pool for the submit too)
                future = pool.submit(_within, bounds, func, item)
            except BrokenExecutor:
                pool, retried = _renew(pending, pool, retried, job)
                future = _again(pool, job, item)
            pending.append((item, future))
            while len(pending) >= width:
                pool, retried = yield from _next(pending, pool, retried, job)
        while pending:
            pool, retried = yield from _next(pending, pool, retried, job)
    finally:
        for _, future in pending:
            future.cancel()
        if own:
            pool.shutdown(wait=True, cancel_futures=True)


def _pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(workers, initializer=_worker_start)


class _Job(NamedTuple):
    """What :func:`ordered_map` runs: on how many workers, in a pool of its own or not,
    within which limits, and the function."""

    workers: int
    own: bool
    bounds: Limits
    func: Callable[[Any], Any]


def _next(
    pending: deque[tuple[Any, Future[Any]]], pool: Executor, retried: bool, job: _Job
) -> Generator[Any, None, tuple[Executor, bool]]:
    """Yield the first pending result. A worker that dies (killed, out of memory) breaks
    a pool of our own: the items still pending run once more in a new pool; a second
    death is one error naming it."""
    _, future = pending[0]
    try:
        result = _result(future, pool)
    except BrokenExecutor:
        return _renew(pending, pool, retried, job)
    pending.popleft()
    yield result
    return pool, retried


def _renew(
    pending: deque[tuple[Any, Future[Any]]], pool: Executor, retried: bool, job: _Job
) -> tuple[Executor, bool]:
    """After a worker's death broke ``pool``: a new pool of our own with the pending items
    submitted to it again; a second death, or a death in an executor not ours, is one
    error naming it."""
    if not job.own or retried:
        twice = " twice" if job.own else ""
        raise WorkerDied(f"a worker process died{twice} (killed, or out of memory)") from None
    pool.shutdown(wait=False, cancel_futures=True)
    pool = _pool(job.workers)
    again = [(it, _again(pool, job, it)) for it, _ in pending]
    pending.clear()
    pending.extend(again)
    return pool, True


def _again(pool: Executor, job: _Job, item: Any) -> Future[Any]:
    """``item`` submitted to the pool made after a death: a death that breaks it before
    the item is in is the second one."""
    try:
        return pool.submit(_within, job.bounds, job.func, item)
    except BrokenExecutor:
        raise WorkerDied("a worker process died twice (killed, or out of memory)") from None
