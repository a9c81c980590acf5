"""What every benchmark shares: running pinned to one core, timing, a header naming the machine."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable
from typing import Any


def on_one_core(run: Callable[[], None]) -> None:
    """Run ``run`` pinned to one core (where the OS allows), then restore the affinity."""
    pinned = hasattr(os, "sched_setaffinity")
    saved = os.sched_getaffinity(0) if pinned else set()
    if pinned:
        os.sched_setaffinity(0, {min(saved)})
    try:
        run()
    finally:
        if pinned:
            os.sched_setaffinity(0, saved)


def header(title: str) -> str:
    """``title (one core of N, CPU, load average L; medians)``: the context of the figures."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cpu = platform.processor() or platform.machine()
    return f"{title} (one core of {os.cpu_count()}, {cpu}, load average {load:.2f}; medians)"


def cpu_model() -> str:
    """The CPU's model name as Linux reports it (else what ``platform`` knows)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """The machine a load figure was measured on: CPU, cores, Python, load average now."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.release()}",
        "load_average": [round(x, 2) for x in load],
    }


def timed(work: Callable[[], object], repeats: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``repeats`` runs of ``work``."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def latency(
    asks: Iterable[Callable[[], object]], fresh: bool, forget: Callable[[], None]
) -> tuple[float, float]:
    """Median wall and CPU seconds of one answer per ask. ``fresh``: ``forget`` empties the
    caches before each (a first answer); else each ask is made twice and the second timed."""
    walls, cpus = [], []
    for ask in asks:
        if fresh:
            forget()
        else:
            ask()
        wall, cpu = time.perf_counter(), time.process_time()
        ask()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)
