"""Where a server's time goes, as Prometheus metrics at ``GET /metrics``.

- ``yacht_event_loop_lag_seconds``: a task sleeps :data:`LAG_INTERVAL` seconds again and again
  and records how much later than asked it woke up. Anything that holds the event loop (a
  garbage-collector pass, a slow callback, CPU starvation) shows here, and every table of the
  process waits that long.
- ``yacht_gc_pause_seconds{generation}``: every garbage-collector pass, timed by ``gc.callbacks``.
- ``yacht_action_stage_seconds{stage}``: the stages of a change to a table: ``receive``
  (a WebSocket message checked and decoded), ``decide`` (the engine), ``database`` (the
  transaction, the hop to a worker thread included), ``publish`` (the new state serialised and
  handed to the local sockets and Redis) and ``send`` (one socket's write of a message).
- ``yacht_db_pool_wait_seconds``: waiting for a database connection from the pool.
- ``yacht_table_reads_total{why}``: tables read from the database to decide a change on:
  ``uncached`` (this process had no snapshot of it) or ``stale`` (a decision was refused on
  the snapshot, or its write lost to another process's).
- ``yacht_peer_notes_total{outcome}``: the other processes' notes of their moves
  (:mod:`yacht.web.storage.peers`): ``applied``, ``gap`` (this process's snapshot was at another
  revision) or ``refused`` (the game did not replay to it).
- ``yacht_http_request_duration_seconds{method, route, status}``: every HTTP request by its
  route's template (:mod:`yacht.web.edge.access`).
- ``yacht_websocket_connections``, ``yacht_tables_watched``: WebSockets open in this process,
  and the tables they watch.
- ``yacht_database_up``, ``yacht_redis_up``: 1 when the dependency answered its last check.
- ``yacht_processes_seen``: the server's live processes as last seen in Redis (the share of the
  limits each allows while Redis is down).
- ``process_*`` and ``python_info``: the standard process and platform collectors.

Like ``/health`` this is an operator's endpoint, but it tells more (how busy the server is), so
it answers only the addresses ``YACHT_METRICS_ALLOW`` names (by default the server's own
machine), by the connection's own address and never through a proxy
(:mod:`yacht.web.api.metrics`). Anyone else is answered 404 ``not_found``.

Each server process keeps and exposes its own figures (``yacht loadtest --json`` scrapes every
``--url`` before and after its window). A quantile read from a histogram is the upper bound
of its bucket.

>>> metrics = Metrics()
>>> with metrics.timed("decide"):
...     pass
>>> b"yacht_action_stage_seconds_count{stage=\\"decide\\"} 1.0" in metrics.text()
True
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from prometheus_client import (
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

__all__ = ["LAG_INTERVAL", "STAGES", "Metrics"]

LAG_INTERVAL = 0.05  # seconds the loop-lag task sleeps between looks
STAGES = ("receive", "decide", "database", "publish", "send")
# 100 us .. 10 s, about three buckets a decade: a p99 read from them is within a factor of 2.
BUCKETS = (
    0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05,
    0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0,
)  # fmt: skip


class Metrics:
    """One server process's figures, in a registry of its own (several apps may share a
    process in tests)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.loop_lag = Histogram(
            "yacht_event_loop_lag_seconds",
            f"How late the event loop woke a task sleeping {LAG_INTERVAL} s",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.gc_pause = Histogram(
            "yacht_gc_pause_seconds",
            "Garbage-collector passes, by the oldest generation collected",
            ["generation"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.stage = Histogram(
            "yacht_action_stage_seconds",
            "Stages of a change to a table: receive, decide, database, publish, send",
            ["stage"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.pool_wait = Histogram(
            "yacht_db_pool_wait_seconds",
            "Waiting for a database connection from the pool",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.reads = Counter(
            "yacht_table_reads",
            "Tables read from the database to decide a change on, by why",
            ["why"],
            registry=self.registry,
        )
        self.notes = Counter(
            "yacht_peer_notes",
            "Other processes' notes of their moves, by what came of them",
            ["outcome"],
            registry=self.registry,
        )
        self.requests = Histogram(
            "yacht_http_request_duration_seconds",
            "HTTP requests by method, route template and status, with their durations",
            ["method", "route", "status"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.websockets = Gauge(
            "yacht_websocket_connections",
            "WebSocket connections open in this process",
            registry=self.registry,
        )
        self.tables = Gauge(
            "yacht_tables_watched",
            "Tables with a WebSocket of this process on them",
            registry=self.registry,
        )
        self.database_up = Gauge(
            "yacht_database_up",
            "1 when the database answered the last check, 0 when it did not",
            registry=self.registry,
        )
        self.redis_up = Gauge(
            "yacht_redis_up",
            "1 when Redis answered the last check, 0 when it did not (absent without Redis)",
            registry=self.registry,
        )
        self.processes = Gauge(
            "yacht_processes_seen",
            "Server processes alive as this one last saw them in Redis (1 without Redis)",
            registry=self.registry,
        )
        self.processes.set(1)
        # Process (CPU, memory, open files) and platform (Python version): the standard ones.
        for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR):
            self.registry.register(collector)
        self._stages = {name: self.stage.labels(stage=name) for name in STAGES}
        self._generations = [self.gc_pause.labels(generation=str(g)) for g in range(3)]
        self._gc_started = 0.0
        self._lag: asyncio.Task[None] | None = None

    def observe(self, stage: str, seconds: float) -> None:
        self._stages[stage].observe(seconds)

    def noted(self, outcome: str) -> None:
        """Count one peer note's ``outcome`` (applied, gap, refused)."""
        self.notes.labels(outcome=outcome).inc()

    @contextmanager
    def timed(self, stage: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self._stages[stage].observe(time.perf_counter() - start)

    def text(self) -> bytes:
        """The metrics in Prometheus's text format."""
        return generate_latest(self.registry)

    # --- the watchers: started and stopped with the app ----------------------------------

    def start(self) -> None:
        """Time garbage-collector passes and start the loop-lag task (in the running loop)."""
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)
        if self._lag is None:
            self._lag = asyncio.get_running_loop().create_task(self.watch_loop())

    async def stop(self) -> None:
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)
        if self._lag is not None:
            self._lag.cancel()
            await asyncio.gather(self._lag, return_exceptions=True)
            self._lag = None

    async def watch_loop(
        self, interval: float = LAG_INTERVAL, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        """For ever: sleep ``interval`` and record how much later the loop woke us (by
        ``clock``, in seconds)."""
        while True:
            start = clock()
            await asyncio.sleep(interval)
            self.loop_lag.observe(max(0.0, clock() - start - interval))

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            self._generations[info["generation"]].observe(time.perf_counter() - self._gc_started)
            self._gc_started = 0.0
