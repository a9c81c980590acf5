"""How big a server to rent: memory and PostgreSQL connections per ``yacht serve`` process, at
a number of tables in play.

    eval "$(bash .ci/services)"
    python -m benchmarks.sizing [--tables 100,300,1000] [--think 2] [--duration 30] [--doc]

For each number of tables, as :mod:`benchmarks.loadrun` does: two processes on a fresh database
and Redis, ``yacht loadtest`` against both for ``--duration`` seconds (every table two seats, a
move every ``--think`` seconds a seat). Every 0.25 s it reads each process's resident memory
(``VmRSS`` in ``/proc/PID/status``) and counts its rows in ``pg_stat_activity`` (each process's
database URL names it with ``application_name``, which psycopg and asyncpg both pass on). Prints
a markdown table (memory when idle after start and at its peak under load, its growth per 100
more tables a process serves from one row to the next, PostgreSQL connections per process when
idle and at the peak) with the machine, its
load average and the command under it; ``--doc`` also writes it into
``docs/web/self-hosting.md`` between ``<!-- sizing-table:start -->`` and
``<!-- sizing-table:end -->``. Linux only (it reads /proc); loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

from benchmarks.loadrun import YACHT, git_commit
from benchmarks.machine import machine

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "web" / "self-hosting.md"
MARKS = ("<!-- sizing-table:start -->", "<!-- sizing-table:end -->")
MIB = 1024 * 1024


def rss(pid: int) -> int:
    """Resident memory of a process in bytes (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def connections(admin: Any, names: list[str]) -> dict[str, int]:
    """Rows in pg_stat_activity per application_name (the processes' connections)."""
    rows = admin.execute(
        text(
            "SELECT application_name, count(*) FROM pg_stat_activity "
            "WHERE application_name = ANY(:names) GROUP BY application_name"
        ),
        {"names": names},
    ).all()
    found = {name: 0 for name in names}
    found.update({name: int(n) for name, n in rows})
    return found


def free_ports(n: int) -> list[int]:
    """Ports nobody listens on (not loadrun's fixed ones: another run may hold them)."""
    sockets = [socket.socket() for _ in range(n)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


def wait_ready(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(600):
        if process.poll() is not None:
            raise RuntimeError(f"yacht serve on port {port} exited ({process.returncode})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"yacht serve on port {port} did not answer")


def run(tables: int, think: float, duration: float) -> dict[str, Any]:
    """One row: two processes, the load test at ``tables``, the samples taken during it."""
    base = os.environ["YACHT_TEST_POSTGRES_URL"]
    redis = os.environ["YACHT_TEST_REDIS_URL"]
    name = f"yacht_sizing_{os.getpid()}_{tables}"
    admin_engine = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin_engine.connect() as c:
        c.execute(text(f"CREATE DATABASE {name}"))
    url = base.rsplit("/", 1)[0] + "/" + name
    ports = free_ports(2)

    def where(app: str) -> list[str]:
        return ["--redis", redis, "--database", f"{url}?application_name={app}"]

    names = [f"yacht-sizing-{port}" for port in ports]
    servers = [
        subprocess.Popen(
            [*YACHT, "serve", "--port", str(port), "--log-level", "warning", *where(app)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port, app in zip(ports, names, strict=True)
    ]
    admin = admin_engine.connect()
    try:
        for port, server in zip(ports, servers, strict=True):
            wait_ready(port, server)
        idle_rss = [rss(s.pid) for s in servers]
        idle_pg = connections(admin, names)
        urls = [arg for port in ports for arg in ("--url", f"http://127.0.0.1:{port}")]
        pace = ["--tables", str(tables), "--duration", str(duration), "--think", str(think)]
        load = subprocess.Popen(
            [*YACHT, "loadtest", *urls, *pace, "--json"], stdout=subprocess.PIPE
        )
        peak_rss = list(idle_rss)
        peak_pg = dict(idle_pg)
        loads: list[float] = []
        while load.poll() is None:
            for i, server in enumerate(servers):
                peak_rss[i] = max(peak_rss[i], rss(server.pid))
            for app, n in connections(admin, names).items():
                peak_pg[app] = max(peak_pg[app], n)
            loads.append(os.getloadavg()[0])
            time.sleep(0.25)
        out = load.stdout.read() if load.stdout else b""
        if not out:
            raise RuntimeError(f"yacht loadtest exited with status {load.returncode}")
        report: dict[str, Any] = json.loads(out)
        end_rss = [rss(s.pid) for s in servers]
    finally:
        admin.close()
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
        with admin_engine.connect() as c:
            c.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin_engine.dispose()
    return {
        "tables": tables,
        "think": think,
        "idle_rss_mib": [round(x / MIB) for x in idle_rss],
        "peak_rss_mib": [round(x / MIB) for x in peak_rss],
        "end_rss_mib": [round(x / MIB) for x in end_rss],
        "pg_idle": [idle_pg[n] for n in names],
        "pg_peak": [peak_pg[n] for n in names],
        "actions_per_second": report.get("actions_per_second"),
        "p99": report.get("latency_ms", {}).get("p99"),
        "errors": report.get("errors"),
        "load_average_mean": round(statistics.fmean(loads), 2) if loads else None,
    }


def table(rows: list[dict[str, Any]], box: dict[str, Any], command: str) -> str:
    """The docs' markdown table, the machine and the command under it."""
    lines = [
        "| tables | memory per process, idle | at peak | per 100 more tables a process serves "
        "| PostgreSQL connections per process, idle | at peak | moves/s | p99 |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]

    def span(values: list[Any], unit: str = "") -> str:
        low, high = min(values), max(values)
        return f"{low}{unit}" if low == high else f"{low}-{high}{unit}"

    previous: dict[str, Any] | None = None
    for r in rows:
        growth = "-"
        if previous is not None:  # per process: half the tables each
            more = (r["tables"] - previous["tables"]) / 2
            mib = statistics.fmean(r["peak_rss_mib"]) - statistics.fmean(previous["peak_rss_mib"])
            growth = f"{mib / more * 100:.0f} MiB"
        lines.append(
            f"| {r['tables']:,} | {span(r['idle_rss_mib'], ' MiB')} "
            f"| {span(r['peak_rss_mib'], ' MiB')} | {growth} "
            f"| {span(r['pg_idle'])} | {span(r['pg_peak'])} "
            f"| {r['actions_per_second']:.0f} | {r['p99']:.0f} ms |"
        )
        previous = r
    loads = ", ".join(f"{r['load_average_mean']}" for r in rows)
    lines += [
        "",
        f"Two processes on {box['cpu']} ({box['cores']} cores), Python {box['python']}, "
        f"{box['system']}; load average {box['load_average'][0]} before the runs and "
        f"{loads} during them (other work on the machine included); the working tree of "
        f"commit {git_commit() or 'unknown'}. Measured with `{command}`.",
    ]
    return "\n".join(lines)


def write_doc(block: str) -> None:
    doc = DOC.read_text()
    start, end = MARKS
    if start not in doc or end not in doc:
        raise SystemExit(f"{DOC} has no {start} ... {end} block")
    head, rest = doc.split(start, 1)
    _, tail = rest.split(end, 1)
    DOC.write_text(f"{head}{start}\n{block}\n{end}{tail}")


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sizing")
    parser.add_argument("--tables", default="100,300,1000", help="comma-separated table counts")
    parser.add_argument("--think", type=float, default=2.0, help="seconds between a seat's moves")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of load per row")
    parser.add_argument("--doc", action="store_true", help="write the table into the docs")
    args = parser.parse_args(argv)
    box = machine()
    print(
        f"machine: {box['cpu']}, {box['cores']} cores, load average "
        f"{' '.join(str(x) for x in box['load_average'])} (before)",
        file=sys.stderr,
    )
    rows, failed = [], []
    for tables in (int(t) for t in args.tables.split(",")):
        try:
            row = run(tables, args.think, args.duration)
        except RuntimeError as e:  # said under the table: a row the machine could not run
            print(f"{tables} tables: {e}", file=sys.stderr)
            failed.append(f"{tables:,} tables: {e}")
            continue
        print(json.dumps(row), file=sys.stderr)
        rows.append(row)
    command = "python -m benchmarks.sizing " + " ".join(
        f"--{k} {v}" for k, v in (("tables", args.tables), ("think", f"{args.think:g}"))
    )
    command += f" --duration {args.duration:g}"
    block = table(rows, box, command)
    if failed:
        block += " Not measured: " + "; ".join(failed) + "."
    print(block)
    if args.doc:
        write_doc(block)
    return rows


if __name__ == "__main__":
    main()
