"""One row of the README's scale-out figures: two ``yacht serve`` processes on a fresh
PostgreSQL database and Redis, ``yacht loadtest`` against both, and the CPU each part used.

    eval "$(bash .ci/services)"
    python -m benchmarks.loadrun TABLES THINK [DURATION]

Prints one JSON line: the load test's actions per second, latency percentiles (ms) and errors,
plus the CPU the two servers used per action (from /proc, over the measured window only), the
cores used by the servers, PostgreSQL, Redis and the load generator, and the highest 1-minute
load average seen. Linux only (it reads /proc); loopback only; about a minute per row with
1,000 tables. Not part of ``make bench``: it needs the services and the machine to itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from typing import Any

from sqlalchemy import create_engine, text

PORTS = (8001, 8002)
YACHT = (sys.executable, "-m", "yacht")
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def by_part(servers: list[int], load: int) -> dict[str, float]:
    """CPU seconds so far of the servers, PostgreSQL, Redis and the load generator."""
    parts = {"servers": sum(cpu_seconds(p) for p in servers), "postgres": 0.0, "redis": 0.0}
    parts["load"] = cpu_seconds(load)
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/comm") as f:
                    comm = f.read().strip()
            except OSError:
                continue
            for part in ("postgres", "redis"):
                if comm.startswith(part):
                    parts[part] += cpu_seconds(int(name))
    return parts


def main() -> None:
    tables, think = int(sys.argv[1]), float(sys.argv[2])
    duration = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
    base = os.environ["YACHT_TEST_POSTGRES_URL"]
    redis = os.environ["YACHT_TEST_REDIS_URL"]
    name = f"yacht_loadrun_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    url = base.rsplit("/", 1)[0] + "/" + name
    database = ["--database", url, "--redis", redis]
    servers = [
        subprocess.Popen(
            [*YACHT, "serve", "--port", str(port), *database, "--log-level", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in PORTS
    ]
    try:
        for port in PORTS:
            for _ in range(150):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2)
                    break
                except OSError:
                    time.sleep(0.2)
        urls = [arg for port in PORTS for arg in ("--url", f"http://127.0.0.1:{port}")]
        pace = ["--tables", str(tables), "--duration", str(duration), "--think", str(think)]
        start = time.perf_counter()
        load = subprocess.Popen(
            [*YACHT, "loadtest", *urls, *pace, "--json"],
            stdout=subprocess.PIPE,
            text=True,
        )
        pids = [s.pid for s in servers]
        samples: list[tuple[float, dict[str, float]]] = []
        highest = 0.0
        while load.poll() is None:
            samples.append((time.perf_counter(), by_part(pids, load.pid)))
            highest = max(highest, os.getloadavg()[0])
            time.sleep(0.25)
        report: dict[str, Any] = json.loads(load.stdout.read() if load.stdout else "")
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
        with admin.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        admin.dispose()
    # The window starts once the tables are open (the load generator's own start is ~1 s).
    begin = start + 1.0 + report["setup_seconds"]
    window = report["duration_seconds"]

    def at(moment: float) -> dict[str, float]:
        return min(samples, key=lambda s: abs(s[0] - moment))[1]

    first, last = at(begin), at(begin + window)
    used = {part: last[part] - first[part] for part in first}
    actions = report["actions"]
    latency = report["latency_ms"]
    row = {
        "tables": tables,
        "think": think,
        "actions_per_second": report["actions_per_second"],
        "p50": latency["p50"],
        "p95": latency["p95"],
        "p99": latency["p99"],
        "p99_other_seat": report["latency_other_seats_ms"]["p99"],
        "errors": report["errors"],
        "server_cpu_ms_per_action": round(1000 * used["servers"] / actions, 2) if actions else None,
        "cores": {part: round(seconds / window, 2) for part, seconds in used.items()},
        "load_average_max": round(highest, 2),
    }
    print(json.dumps(row))


if __name__ == "__main__":
    main()
