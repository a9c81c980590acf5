"""The server's worker process: the strategy work of hints, bot moves and reviews, away from
the process that serves moves.

Building or reading a strategy table and working out a hint are seconds or tens of
milliseconds of Python and numpy holding the GIL: in a thread of the serving process they
held every move of every table up (a first hint on a fresh server kept a hold waiting
3.4 s). They run in :data:`WORKERS` process(es) of their own instead, started once per
serving process with ``spawn`` (the server has threads, which ``fork`` would copy
half-held), at a lower CPU priority (:data:`NICE`): on a machine short of cores the serving
process's moves come first and hints take what is left. A job carries the serving process's
``$YACHT_CACHE_DIR`` so the worker reads and writes the same table cache. A worker that dies
is replaced for the next job.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

__all__ = ["NICE", "WORKERS", "Workers", "workers"]

P = ParamSpec("P")
T = TypeVar("T")

WORKERS = 1  # one core for strategy work; the other serves moves
NICE = 10  # added to the workers' niceness (Unix)
CACHE_VAR = "YACHT_CACHE_DIR"


def _lower_priority() -> None:
    if hasattr(os, "nice"):
        os.nice(NICE)


def _job(cache: str | None, work: Callable[..., T], *args: Any) -> T:
    """Run in the worker: ``work(*args)`` with the serving process's table cache."""
    if cache is None:
        os.environ.pop(CACHE_VAR, None)
    elif os.environ.get(CACHE_VAR) != cache:
        os.environ[CACHE_VAR] = cache
    return work(*args)


class Workers:
    """A small process pool, started on first use and restarted after a worker died."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.size = workers
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def executor(self) -> Executor:
        """The pool (started now if it is not running)."""
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.size,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_lower_priority,
                )
            return self._pool

    def submit(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``work(*args)`` in a worker; ``work`` and the arguments must pickle."""
        if kwargs:
            raise TypeError("worker jobs take positional arguments only")
        cache = os.environ.get(CACHE_VAR)
        pool = self.executor()
        try:
            return pool.submit(_job, cache, work, *args)
        except BrokenProcessPool:
            self._replace(pool)
            return self.executor().submit(_job, cache, work, *args)

    async def run(self, work: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``work(*args)`` computed in a worker, awaited without blocking the event loop. A
        job whose worker died is tried once more in a new one."""
        try:
            return await asyncio.wrap_future(self.submit(work, *args, **kwargs))
        except BrokenProcessPool:
            self._replace(self._pool)
            return await asyncio.wrap_future(self.submit(work, *args, **kwargs))

    def _replace(self, broken: Executor | None) -> None:
        with self._lock:
            if broken is not None and self._pool is broken:
                self._pool = None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers (jobs not started yet are dropped); the next job starts new ones."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


_WORKERS = Workers()


def workers() -> Workers:
    """This process's workers, shared by every table service it runs."""
    return _WORKERS
