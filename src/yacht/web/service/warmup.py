"""The strategy tables every table of the web needs, built (or read from the disk cache) when
the server starts rather than by the first bot move or hint of each preset.

Bots, hints and reviews all start from a preset's solved values (:func:`yacht.strategy.solve`):
read from the disk cache in a fraction of a second, built in seconds (the clubhouse rules, with
their upper bonus, take the longest). The readiness probe answers 503 until they are all in
memory, so a balancer sends no player to a process that would keep them waiting.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import Future

from yacht.rules import preset_names
from yacht.web.service import bots

__all__ = ["Warmup"]

log = logging.getLogger("yacht.web")


class Warmup:
    """The solved tables of every preset, built once per process in a thread of its own (a
    daemon: a server stopped meanwhile does not wait for it). The worker process that computes
    hints, heavy bot moves and reviews (:mod:`~yacht.web.service.workers`) is started reading
    them at the same time, so its first job finds them in memory; readiness does not wait for
    it (starting a process and reading the tables there takes seconds, and a move never
    needs the worker). The P(win) tables are not part of either: they are built per preset when
    a table with opponents opens (minutes for some presets on a machine that has never built
    them, far too long to keep a server unready)."""

    _lock = threading.Lock()
    _thread: threading.Thread | None = None
    _worker: Future[float] | None = None
    _done = threading.Event()
    error: str | None = None

    def __init__(self) -> None:
        self.started = False

    def start(self) -> None:
        """Start building, unless this process already did; returns at once."""
        self.started = True
        with Warmup._lock:
            if Warmup._thread is None:
                Warmup._thread = threading.Thread(target=_build, name="warmup", daemon=True)
                Warmup._thread.start()
                Warmup._worker = bots.solve_in_worker()

    async def wait(self, timeout: float) -> bool:
        """Whether the tables are ready, waiting up to ``timeout`` seconds for them."""
        if not self.started:
            return False
        if not Warmup._done.is_set():
            await asyncio.to_thread(Warmup._done.wait, timeout)
        return Warmup._done.is_set() and Warmup.error is None


def _build() -> None:
    from yacht.strategy import solve

    start = time.perf_counter()
    try:
        for name in preset_names():
            solve(name)
    except Exception as e:
        Warmup.error = f"{type(e).__name__}: {e}"
        log.exception("the strategy tables could not be built")
    else:
        log.info("strategy tables ready in %.1f s", time.perf_counter() - start)
    finally:
        Warmup._done.set()
