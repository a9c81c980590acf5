"""Hints off the event loop: answers cached per position, computed by a bounded desk.

A hint costs tens of milliseconds of CPU (a first one at a new kind of table, seconds), so
hints never run on the event loop nor in the worker threads the database calls use: they go
to a desk of :data:`WORKERS` thread(s) of their own, with at most :data:`QUEUE` positions
waiting; a hint asked while the desk is full is answered ``busy`` (ask again in a moment).
Answers are kept per (table, game number, game version, seat) for :data:`CACHE` positions,
so asking twice, or from two tabs, costs one computation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cachetools import LRUCache

from yacht.game import TurnView
from yacht.web.protocol.errors import TableError
from yacht.web.service import bots

__all__ = ["CACHE", "QUEUE", "WORKERS", "HintDesk"]

WORKERS = 1  # threads computing hints: one core at most, the other serves moves
QUEUE = 8  # positions being computed or waiting; more are answered busy
CACHE = 1024  # answers kept (a few KiB each)

Key = tuple[str, int, int, int]


class HintDesk:
    """Computes hint replies for positions (see the module docstring)."""

    def __init__(
        self,
        compute: Callable[[TurnView], dict[str, Any]] = bots.hint_reply,
        workers: int = WORKERS,
        queue: int = QUEUE,
        cache: int = CACHE,
    ) -> None:
        self.compute = compute
        self.queue = queue
        self.size = cache
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="hints")
        self._answers: LRUCache[Key, dict[str, Any]] = LRUCache(cache)
        self._pending: dict[Key, asyncio.Future[dict[str, Any]]] = {}
        self.computed = 0  # how many answers were computed (the rest came from the cache)

    async def answer(self, key: Key, view: TurnView) -> dict[str, Any]:
        """The reply for the position ``key`` = (table, game number, version, seat)."""
        found = self._answers.get(key)
        if found is not None:
            return found
        pending = self._pending.get(key)
        if pending is None:
            if len(self._pending) >= self.queue:
                raise TableError(
                    "busy", f"{self.queue} hints are being worked out: ask again in a moment"
                )
            loop = asyncio.get_running_loop()
            pending = asyncio.ensure_future(loop.run_in_executor(self._executor, self._run, view))
            self._pending[key] = pending
            pending.add_done_callback(lambda f: self._done(key, f))
        return await asyncio.shield(pending)

    def _run(self, view: TurnView) -> dict[str, Any]:
        self.computed += 1
        return self.compute(view)

    def _done(self, key: Key, future: asyncio.Future[dict[str, Any]]) -> None:
        self._pending.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self._answers[key] = future.result()

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
