"""Hints out of the serving process: answers cached per position, computed by a bounded desk.

A hint costs tens of milliseconds of CPU (a first one at a new kind of table, seconds), and
in a thread of the serving process that CPU holds the GIL every move needs: so hints are
worked out in the server's worker process (:mod:`yacht.web.service.workers`), with at most
:data:`QUEUE` positions being computed or waiting; a hint asked while the desk is full is
answered ``busy`` (ask again in a moment). Answers are kept per (table, game number, game
version, seat) for :data:`CACHE` positions, so asking twice, or from two tabs, costs one
computation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from cachetools import LRUCache

from yacht.game import TurnView
from yacht.web.protocol.errors import TableError
from yacht.web.service import bots
from yacht.web.service.workers import workers

__all__ = ["CACHE", "QUEUE", "HintDesk"]

QUEUE = 8  # positions being computed or waiting; more are answered busy
CACHE = 1024  # answers kept (a few KiB each)

Key = tuple[str, int, int, int]


class HintDesk:
    """Computes hint replies for positions (see the module docstring).

    ``compute`` runs on ``executor`` (the server's worker process by default), so it and the
    view must pickle: a function of a module, not a closure."""

    def __init__(
        self,
        compute: Callable[[TurnView], dict[str, Any]] = bots.hint_reply,
        queue: int = QUEUE,
        cache: int = CACHE,
        *,
        executor: Executor | None = None,
    ) -> None:
        self.compute = compute
        self.queue = queue
        self.size = cache
        self.executor = executor
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
            pending = asyncio.ensure_future(self._run(view))
            self.computed += 1
            self._pending[key] = pending
            pending.add_done_callback(lambda f: self._done(key, f))
        return await asyncio.shield(pending)

    async def _run(self, view: TurnView) -> dict[str, Any]:
        if self.executor is None:
            return await workers().run(self.compute, bots.portable(view))
        future = self.executor.submit(self.compute, bots.portable(view))
        return await asyncio.wrap_future(future)

    def _done(self, key: Key, future: asyncio.Future[dict[str, Any]]) -> None:
        self._pending.pop(key, None)
        if future.cancelled() or future.exception() is not None:
            return
        self._answers[key] = future.result()

    def close(self) -> None:
        """Forget the positions being worked out (the worker process stays for the next
        server of this process)."""
        for pending in self._pending.values():
            pending.cancel()
