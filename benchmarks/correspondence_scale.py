"""Correspondence games at scale (issue 30): stored games beside live real-time tables.

    eval "$(bash .ci/services)"     # or `make services`: PostgreSQL and Redis on loopback
    python -m benchmarks.correspondence_scale [--full] [--stored N] [--tables N] [--think S]
        [--duration S] [--runs N] [--requests N] [--doc]

A PostgreSQL database is filled (``COPY``) with ``--stored`` correspondence games in play, each
waiting days on a person (a seat with a deadline, as the server leaves them), and 200 of them
waiting on one account; a second database stays empty. Two ``yacht serve`` processes with
Redis then serve ``yacht loadtest``'s live real-time tables (``--tables`` at ``--think``
seconds, ``--duration`` seconds measured) on each database in turn, empty and stored
alternating ``--runs`` times each, so the empty runs are an A/A pair that shows the noise.
Printed: the live tables' median and p99 latency per run, the two servers' RSS after start-up
and after the run, the inbox of the account with 200 games (its first answer and the median
and worst of ``--requests`` more), and the deadline query's time with none due and with a
batch due. ``--doc`` writes the table into docs/web/correspondence.md between
``<!-- correspondence-scale:start -->`` and ``<!-- correspondence-scale:end -->``; the run's
figures go to benchmarks/results/correspondence_scale.json.

The default is small (10,000 stored games, 200 live tables, 10 s runs: about 3 minutes);
``--full`` is the issue's size (100,000 stored games, 1,000 live tables at 2 s think, 30 s
runs: about 8 minutes). Loopback only; the load test is bounded in tables and time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from benchmarks.correspondence_data import (
    INBOX_GAMES,
    database,
    deadline_query,
    fill,
    forget_live,
    give_inbox,
    service_urls,
    timings,
)
from benchmarks.loadrun import cpu_seconds, git_commit
from benchmarks.machine import machine
from benchmarks.players_scale import free_port

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DOC = ROOT / "docs" / "web" / "correspondence.md"
MARKS = ("<!-- correspondence-scale:start -->", "<!-- correspondence-scale:end -->")
YACHT = (sys.executable, "-m", "yacht")


def rss_mib(pid: int) -> tuple[float, float]:
    """A process's resident set now and at its peak, MiB (VmRSS, VmHWM)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024
    return round(fields["VmRSS"], 1), round(fields["VmHWM"], 1)


@contextmanager
def servers(url: str, redis: str) -> Iterator[tuple[list[str], list[subprocess.Popen[bytes]]]]:
    """Two ``yacht serve`` processes on ``url`` and Redis, ready."""
    ports = [free_port(), free_port()]
    env = {**os.environ, "YACHT_PREPARE_TABLES": "false"}
    procs = []
    with ExitStack() as stack:
        for port in ports:
            data = stack.enter_context(tempfile.TemporaryDirectory())
            command = [*YACHT, "serve", "--port", str(port), "--database", url, "--redis", redis]
            procs.append(
                subprocess.Popen(
                    [*command, "--log-level", "warning"],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    env={**env, "YACHT_DATA_DIR": data},
                )
            )
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            for base, proc in zip(bases, procs, strict=True):
                end = time.monotonic() + 90
                while True:
                    try:
                        urllib.request.urlopen(f"{base}/health", timeout=2)
                        break
                    except OSError:
                        if proc.poll() is not None or time.monotonic() > end:
                            raise SystemExit(f"yacht serve on {base} did not start") from None
                        time.sleep(0.2)
            yield bases, procs
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def load(
    bases: list[str], pids: list[int], tables: int, think: float, duration: float
) -> dict[str, Any]:
    """``yacht loadtest`` against both servers; its report, with the machine's load and the
    servers' CPU per action over the measured window (as benchmarks.loadrun takes it)."""
    urls = [arg for base in bases for arg in ("--url", base)]
    pace = ["--tables", str(tables), "--duration", str(duration), "--think", str(think)]
    start = time.perf_counter()
    run = subprocess.Popen([*YACHT, "loadtest", *urls, *pace, "--json"], stdout=subprocess.PIPE)
    loads, samples = [], []
    while run.poll() is None:
        loads.append(os.getloadavg()[0])
        samples.append((time.perf_counter(), sum(cpu_seconds(p) for p in pids)))
        time.sleep(0.25)
    out = run.stdout.read() if run.stdout else b""
    if run.returncode != 0:
        raise SystemExit(f"yacht loadtest exited with {run.returncode}")
    report: dict[str, Any] = json.loads(out)
    report["load_average_max"] = round(max(loads, default=0.0), 2)
    begin = start + 1.0 + report["setup_seconds"]  # the tables open, then the window

    def at(moment: float) -> float:
        return min(samples, key=lambda s: abs(s[0] - moment))[1]

    used = at(begin + report["duration_seconds"]) - at(begin)
    actions = report["actions"]
    report["cpu_ms_per_action"] = round(1000 * used / actions, 2) if actions else None
    return report


def inbox(base: str, url: str, requests: int) -> dict[str, Any]:
    """Sign up an account, give it 200 stored games, time its ``GET /api/inbox``."""
    with httpx.Client(base_url=base, timeout=30) as client:
        name = f"inbox{random.randrange(10**6)}"
        r = client.post("/api/accounts", json={"name": name, "password": "correct horse battery"})
        r.raise_for_status()
        engine = create_engine(url)
        with engine.connect() as c:
            account = c.scalar(text("SELECT id FROM accounts WHERE name = :n"), {"n": name})
        engine.dispose()
        give_inbox(url, int(account))
        times = []
        for _ in range(requests + 1):
            start = time.perf_counter()
            r = client.get("/api/inbox")
            times.append((time.perf_counter() - start) * 1000)
            r.raise_for_status()
            if r.json()["count"] != INBOX_GAMES:
                raise SystemExit(f"the inbox lists {r.json()['count']} games, not {INBOX_GAMES}")
    return {"games": INBOX_GAMES, "first_ms": round(times[0], 2), **timings(times[1:])}


def one_run(label: str, url: str, redis: str, args: argparse.Namespace) -> dict[str, Any]:
    box = machine()
    with servers(url, redis) as (bases, procs):
        started = [rss_mib(p.pid) for p in procs]
        pids = [p.pid for p in procs]
        report = load(bases, pids, args.tables, args.think, args.duration)
        ended = [rss_mib(p.pid) for p in procs]
        extra = inbox(bases[0], url, args.requests) if label == "stored" and args.inbox else None
        after_inbox = [rss_mib(p.pid) for p in procs] if extra else None
    forget_live(url)
    row = {
        "label": label,
        "p50": report["latency_ms"]["p50"],
        "p99": report["latency_ms"]["p99"],
        "actions": report["actions"],
        "errors": report["errors"],
        "cpu_ms_per_action": report["cpu_ms_per_action"],
        "rss_start_mib": [s[0] for s in started],
        "rss_end_mib": [e[0] for e in ended],
        "rss_peak_mib": [e[1] for e in ended],
        "load_average_before": box["load_average"],
        "load_average_max": report["load_average_max"],
    }
    if extra:
        row["inbox"] = extra
        row["rss_after_inbox_mib"] = [a[0] for a in after_inbox or []]
    print(json.dumps(row), flush=True)
    return row


def table(run: dict[str, Any]) -> str:
    """The docs' table and the lines under it."""
    rows = run["runs"]
    lines = [
        "| run | stored games | live p50 ms | live p99 ms | actions | errors | server CPU/action "
        "| server RSS after start, MiB | after the run | load average before, max |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for i, r in enumerate(rows, 1):
        stored = run["stored"] if r["label"] == "stored" else 0
        lines.append(
            f"| {i} | {stored:,} | {r['p50']} | {r['p99']} | {r['actions']:,} | {r['errors']} "
            f"| {r['cpu_ms_per_action']} ms | {' + '.join(str(x) for x in r['rss_start_mib'])} "
            f"| {' + '.join(str(x) for x in r['rss_end_mib'])} "
            f"| {r['load_average_before'][0]}, {r['load_average_max']} |"
        )
    p99 = {k: [r["p99"] for r in rows if r["label"] == k] for k in ("empty", "stored")}
    spread = max(p99["empty"]) - min(p99["empty"])
    base, stored = statistics.median(p99["empty"]), statistics.median(p99["stored"])
    within = stored - base <= max(spread, 0.10 * base)
    cpu = {
        k: statistics.median(r["cpu_ms_per_action"] for r in rows if r["label"] == k)
        for k in ("empty", "stored")
    }
    shown = next((r for r in rows if "inbox" in r), None)
    box, q = run["machine"], run["deadlines"]
    lines += [
        "",
        f"p99 of the live tables: {base:g} ms without the stored games (median of "
        f"{len(p99['empty'])} runs; A/A spread {spread:.1f} ms), {stored:g} ms with "
        f"{run['stored']:,} (median of {len(p99['stored'])}): "
        + ("within the A/A spread or 10 %." if within else "**outside the A/A spread and 10 %**.")
        + (
            " The A/A spread is larger than that p99 itself: the machine's noise decides it,"
            " not the stored games."
            if spread > base
            else ""
        )
        + f" The servers' CPU per action (medians): {cpu['empty']:g} ms without, "
        f"{cpu['stored']:g} ms with.",
        "",
        *(inbox_line(shown, run["requests"]) if shown else []),
        f"The deadline look's claim over {run['stored']:,} stored deadlines ({q['plan']}): "
        f"none due median {q['none_due']['median_ms']} ms (worst {q['none_due']['worst_ms']}), "
        f"a batch of {q['batch']} due median {q['batch_due']['median_ms']} ms (worst "
        f"{q['batch_due']['worst_ms']}), {run['deadline_repeats']} times each from a client on "
        "the same machine.",
        "",
        f"{run['live_tables']:,} live tables at {run['think']:g} s think, {run['duration']:g} s "
        f"measured per run; stored games filled by `COPY` in {run['fill_seconds']} s. "
        f"`{run['command']}` on {box['cpu']} ({box['cores']} cores, shared with other work), "
        f"Python {box['python']}, commit {run['commit']}, {run['when']}.",
    ]
    return "\n".join(lines) + "\n"


def inbox_line(shown: dict[str, Any], requests: int) -> list[str]:
    found = shown["inbox"]
    return [
        f"The inbox of an account with {found['games']} games waiting on it (`GET /api/inbox`, "
        f"one server, after the first run with the stored games, {requests} requests one at a "
        f"time): first {found['first_ms']} ms, then median **{found['median_ms']} ms**, worst "
        f"{found['worst_ms']} ms; the servers' RSS after it "
        f"{' + '.join(str(x) for x in shown['rss_after_inbox_mib'])} MiB.",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.correspondence_scale")
    p.add_argument("--full", action="store_true", help="the issue's size (see the docstring)")
    p.add_argument("--stored", type=int, default=None)
    p.add_argument("--tables", type=int, default=None)
    p.add_argument("--think", type=float, default=2.0)
    p.add_argument("--duration", type=float, default=None)
    p.add_argument("--runs", type=int, default=2, help="runs of each database (at least 2)")
    p.add_argument("--requests", type=int, default=100, help="inbox requests timed")
    p.add_argument("--no-inbox", dest="inbox", action="store_false")
    p.add_argument("--doc", action="store_true", help="write the table into the docs")
    p.add_argument(
        "--table-only", action="store_true", help="the table of the last run's saved figures"
    )
    args = p.parse_args(argv)
    if args.table_only:
        return written(json.loads((RESULTS / "correspondence_scale.json").read_text()), args.doc)
    args.stored = args.stored or (100_000 if args.full else 10_000)
    args.tables = args.tables or (1000 if args.full else 200)
    args.duration = args.duration or (30.0 if args.full else 10.0)
    if args.runs < 2:
        p.error("--runs must be 2 or more (the empty runs are the A/A pair)")
    pg, redis = service_urls()
    print(f"machine: {machine()}", file=sys.stderr, flush=True)
    with (
        database(pg, "yacht_bench_letters") as stored_url,
        database(pg, "yacht_bench_empty") as empty_url,
    ):
        filled = fill(stored_url, args.stored)
        print(json.dumps(filled), flush=True)
        deadlines = deadline_query(stored_url)
        print(json.dumps(deadlines), flush=True)
        rows = []
        for i in range(args.runs):
            rows.append(one_run("empty", empty_url, redis, args))
            args.inbox = args.inbox and i == 0
            rows.append(one_run("stored", stored_url, redis, args))
    run = {
        "command": "python -m benchmarks.correspondence_scale "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "commit": git_commit(str(ROOT)),
        "stored": args.stored,
        "fill_seconds": filled["fill_seconds"],
        "live_tables": args.tables,
        "think": args.think,
        "duration": args.duration,
        "requests": args.requests,
        "deadline_repeats": 30,
        "deadlines": deadlines,
        "runs": rows,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "correspondence_scale.json").write_text(json.dumps(run, indent=2) + "\n")
    return written(run, args.doc)


def written(run: dict[str, Any], doc: bool) -> int:
    """Print the run's table and, with ``doc``, write it into the docs between the marks."""
    text_ = table(run)
    print(text_)
    if doc:
        document = DOC.read_text()
        start, end = document.index(MARKS[0]), document.index(MARKS[1])
        DOC.write_text(document[: start + len(MARKS[0])] + "\n" + text_ + document[end:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
