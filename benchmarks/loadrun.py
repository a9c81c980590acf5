"""One row of the scale-out figures: two ``yacht serve`` processes on a fresh PostgreSQL
database and Redis, ``yacht loadtest`` against both, and the CPU each part used.

    eval "$(bash .ci/services)"
    python -m benchmarks.loadrun TABLES THINK [DURATION] [--out DIR]

Prints the machine first (CPU model, cores, load average before the run; on stderr), then one
JSON line: the load test's actions per second, latency percentiles (ms) and errors, the CPU the
two servers used per action (from /proc, over the measured window only), the bytes of WAL
PostgreSQL wrote per action, the cores used by the servers, PostgreSQL, Redis and the load
generator, the load average before and during the run, and what each server's ``/metrics``
showed (loop lag, GC passes, stage timings, pool waits, table reads, peer notes).
The same row, with the machine, is written to ``DIR/<UTC time>-<tables>-<think>.json``
(default ``benchmarks/results/load``; ``--out ''`` writes nothing); ``benchmarks.loadgrid``
turns those files into the docs' table and plot. Linux only (it reads /proc); loopback only;
about a minute per row with 1,000 tables. Not part of ``make bench``: it needs the services
and the machine to itself (``make bench-load`` runs the grid).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from benchmarks.machine import machine

PORTS = (8001, 8002)
YACHT = (sys.executable, "-m", "yacht")
TICK = os.sysconf("SC_CLK_TCK")
RESULTS = Path(__file__).parent / "results" / "load"


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


def git_commit(checkout: str | None = None) -> str | None:
    """The short commit the servers ran (of ``checkout``, else of the working directory)."""
    try:
        done = subprocess.run(
            ["git", "-C", checkout or ".", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip() or None


def save(row: dict[str, Any], out: Path) -> Path:
    """Write one run's row as ``out/<UTC time>-<tables>-<think>.json``."""
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = out / f"{stamp}-{row['tables']}-{row['think']:g}.json"
    path.write_text(json.dumps(row, indent=2) + "\n")
    return path


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadrun")
    parser.add_argument("tables", type=int)
    parser.add_argument("think", type=float)
    parser.add_argument("duration", type=float, nargs="?", default=30.0)
    parser.add_argument("--out", default=str(RESULTS), help="where to write the run's JSON")
    parser.add_argument(
        "--servers-from",
        default=None,
        help="a checkout whose src/ the two servers run (the load generator stays this one's)",
    )
    args = parser.parse_args(argv)
    tables, think, duration = args.tables, args.think, args.duration
    box = machine()
    print(
        f"machine: {box['cpu']}, {box['cores']} cores, Python {box['python']}, "
        f"load average {' '.join(str(x) for x in box['load_average'])} (before)",
        file=sys.stderr,
    )
    base = os.environ["YACHT_TEST_POSTGRES_URL"]
    redis = os.environ["YACHT_TEST_REDIS_URL"]
    name = f"yacht_loadrun_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    url = base.rsplit("/", 1)[0] + "/" + name
    database = ["--database", url, "--redis", redis]
    env = dict(os.environ)
    if args.servers_from:
        src = str(Path(args.servers_from).resolve() / "src")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    servers = [
        subprocess.Popen(
            [*YACHT, "serve", "--port", str(port), *database, "--log-level", "warning"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
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
        loads: list[float] = []
        wal = admin.connect()
        lsn = text("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')")
        while load.poll() is None:
            parts = by_part(pids, load.pid)
            parts["wal"] = float(wal.scalar(lsn) or 0)  # bytes of WAL PostgreSQL wrote so far
            samples.append((time.perf_counter(), parts))
            loads.append(os.getloadavg()[0])
            time.sleep(0.25)
        report: dict[str, Any] = json.loads(load.stdout.read() if load.stdout else "")
        wal.close()
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
    wal_bytes = used.pop("wal")
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
        "wal_bytes_per_action": round(wal_bytes / actions) if actions else None,
        "cores": {part: round(seconds / window, 2) for part, seconds in used.items()},
        "load_average_before": box["load_average"],
        "load_average_max": round(max(loads, default=0.0), 2),
        "load_average_mean": round(statistics.fmean(loads), 2) if loads else None,
        "duration": window,
        "actions": actions,
        "machine": box,
        "commit": git_commit(args.servers_from),
        "servers": report.get("servers", {}),
    }
    print(json.dumps({k: v for k, v in row.items() if k not in ("machine", "servers")}))
    if args.out:
        print(f"written to {save(row, Path(args.out))}", file=sys.stderr)
    return row


if __name__ == "__main__":
    main()
