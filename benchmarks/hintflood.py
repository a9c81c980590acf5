"""Measured: what a flood of hints does to everyone else's requests, and to moves.

    python -m benchmarks.hintflood [SECONDS] [--repeats N] [--moves-only]

Starts ``yacht serve`` on a fresh database and waits until it says it is ready (``/readyz``;
``/health`` on a server without it), then:

- ``first_hint_s``: the seconds the first hint takes on that fresh server (a heads-up
  position against the greedy bot: the P(win) hint, which needs the win tables);
- ``moves``: a player's move latency (a hold, acknowledged over REST) quiet, while 16
  clients (distinct addresses via X-Forwarded-For, trusted from loopback only) each send
  ``--rate`` (default 10) plain requests a second (the table's state), and while they send as
  many hints instead
  (the most their quota allows; 160 positions, each worked out once), one after the other in
  one run, ``--repeats`` times (default 3): per run the median and p99 of each, the ratio of
  the flood's p99 to the quiet one (target: within 1.5) and to the plain requests' one (what
  hints cost beyond any request), then the median and worst ratios of the runs;
- unless ``--moves-only``: the ``/health`` latency quiet, with one client flooding hints
  and with 16 (median and max, ms), and the hint answers by status (200 answered, 429
  rate_limited, 503 busy).

Prints one JSON line with the machine (CPU, cores, load average before and after: the
figures mean little on a loaded machine). Loopback only; not part of ``make bench``.

    python -m benchmarks.hintflood --save ...   # also into benchmarks/results/hintflood/
    python -m benchmarks.hintflood --report     # docs/web/limits.md's figures from those

``--report`` writes the "Hints and moves" figures of ``docs/web/limits.md`` (between
``<!-- hintflood:start -->`` and ``<!-- hintflood:end -->``) from the newest saved run of
each ``--rate`` and the newest ``benchmarks.tables`` run saved as
``benchmarks/results/tables.json``: the docs' figures are never typed in.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from benchmarks.machine import machine

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "hintflood"
TABLES = ROOT / "benchmarks" / "results" / "tables.json"
DOC = ROOT / "docs" / "web" / "limits.md"
START, END = "<!-- hintflood:start -->\n", "<!-- hintflood:end -->\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def position(http: httpx.AsyncClient, who: str) -> tuple[str, str]:
    """A new two-player table (a person and a greedy bot) with the person's dice rolled."""
    headers = {"x-forwarded-for": who}
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    r = await http.post("/api/tables", json={"seats": seats}, headers=headers)
    if r.status_code != 201:
        return "", ""
    code = r.json()["code"]
    joined = await http.post(
        f"/api/tables/{code}/join", json={"seat": 0, "name": "P"}, headers=headers
    )
    if joined.status_code != 200:
        return "", ""
    token, game = joined.json()["token"], joined.json()["table"]["game"]
    roll = {"type": "action", "seat": 0, "token": token, "game": 1, "version": game["version"]}
    await http.post(f"/api/tables/{code}/actions", json={**roll, "action": {"kind": "roll"}})
    return code, token


async def flood(http: httpx.AsyncClient, who: str, stop: float, statuses: Counter[int]) -> None:
    while time.monotonic() < stop:
        code, token = await position(http, who)
        if not code:
            statuses[429] += 1
            await asyncio.sleep(0.05)
            continue
        body = {"type": "hint", "seat": 0, "token": token}
        headers = {"x-forwarded-for": who}
        answers = await asyncio.gather(
            *(http.post(f"/api/tables/{code}/hint", json=body, headers=headers) for _ in range(16))
        )
        statuses.update(a.status_code for a in answers)


async def phase(url: str, clients: int, seconds: float) -> dict[str, Any]:
    statuses: Counter[int] = Counter()
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        stop = time.monotonic() + seconds
        tasks = [
            asyncio.create_task(flood(http, f"10.0.0.{i + 1}", stop, statuses))
            for i in range(clients)
        ]
        async with httpx.AsyncClient(base_url=url, timeout=60) as probe:
            while time.monotonic() < stop:
                start = time.perf_counter()
                await probe.get("/health")
                latencies.append((time.perf_counter() - start) * 1000)
                await asyncio.sleep(0.05)
        await asyncio.gather(*tasks)
    return {
        "health_median_ms": round(statistics.median(latencies), 1),
        "health_max_ms": round(max(latencies), 1),
        "hints": {str(k): v for k, v in sorted(statuses.items())},
    }


async def first_hint(url: str) -> float:
    """Seconds from asking to the answer of the server's first hint (heads-up P(win))."""
    async with httpx.AsyncClient(base_url=url, timeout=600) as http:
        code, token = await position(http, "10.0.1.1")
        body = {"type": "hint", "seat": 0, "token": token}
        start = time.perf_counter()
        r = await http.post(f"/api/tables/{code}/hint", json=body)
        seconds = time.perf_counter() - start
    if r.status_code != 200:
        raise SystemExit(f"the first hint failed: {r.status_code} {r.text[:200]}")
    return seconds


async def mover(http: httpx.AsyncClient, who: str) -> dict[str, Any]:
    """A solo player's table, dice rolled: what :func:`move_times` moves on."""
    headers = {"x-forwarded-for": who}
    r = await http.post("/api/tables", json={"seats": [{"kind": "human"}]}, headers=headers)
    code = r.json()["code"]
    joined = await http.post(
        f"/api/tables/{code}/join", json={"seat": 0, "name": "M"}, headers=headers
    )
    token = joined.json()["token"]
    body = {"type": "action", "seat": 0, "token": token, "game": 1}
    url = f"/api/tables/{code}/actions"
    r = await http.post(url, json={**body, "version": 0, "action": {"kind": "roll"}})
    return {"url": url, "body": body, "version": r.json()["game"]["version"]}


async def move_times(http: httpx.AsyncClient, table: dict[str, Any], stop: float) -> list[float]:
    """The player holding a die and another, one hold after the other, until ``stop``: the
    milliseconds each took to be acknowledged."""
    url, body, version = table["url"], table["body"], table["version"]
    times: list[float] = []
    while time.monotonic() < stop:
        table["holds"] = table.get("holds", 0) + 1
        hold = {"kind": "hold", "positions": [1 + table["holds"] % 2]}
        start = time.perf_counter()
        r = await http.post(url, json={**body, "version": version, "action": hold})
        times.append((time.perf_counter() - start) * 1000)
        if r.status_code != 200:
            raise SystemExit(f"a move was refused: {r.status_code} {r.text[:200]}")
        version = r.json()["game"]["version"]
    table["version"] = version
    return times


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]


async def hint_flood(
    http: httpx.AsyncClient,
    who: str,
    positions: list[tuple[str, str]],
    stop: float,
    statuses: Counter[int],
    hints: bool = True,
    rate: float = 10.0,
) -> None:
    """One client asking hints at its positions in turn, as fast as its hint quota lets it
    (10 a second): each position is worked out once, then answered from the cache. With
    ``hints`` false, the same pace of plain requests (the table's state) instead."""
    headers = {"x-forwarded-for": who}
    i = 0
    while time.monotonic() < stop:
        code, token = positions[i % len(positions)]
        body = {"type": "hint", "seat": 0, "token": token}
        if hints:
            r = await http.post(f"/api/tables/{code}/hint", json=body, headers=headers)
        else:
            r = await http.get(f"/api/tables/{code}", headers=headers)
        statuses[r.status_code] += 1
        i += 1
        await asyncio.sleep(1 / rate)


async def moves(url: str, seconds: float, run: int, rate: float) -> dict[str, Any]:
    """Move latency quiet, during 16 clients' plain requests, then during a flood of their
    hints (seconds each). Each client has 10 positions of its own (new ones each run), made
    before the timing starts."""
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        clients = [f"10.{run + 4}.3.{i + 1}" for i in range(16)]
        positions = {
            who: [
                p for p in await asyncio.gather(*(position(http, who) for _ in range(10))) if p[0]
            ]
            for who in clients
        }
        table = await mover(http, f"10.{run + 4}.2.1")
        quiet = await move_times(http, table, time.monotonic() + seconds)
        plain: Counter[int] = Counter()
        stop = time.monotonic() + seconds
        tasks = [
            asyncio.create_task(hint_flood(http, who, positions[who], stop, plain, False, rate))
            for who in clients
        ]
        traffic = await move_times(http, table, stop)
        await asyncio.gather(*tasks)
        statuses: Counter[int] = Counter()
        stop = time.monotonic() + seconds
        tasks = [
            asyncio.create_task(hint_flood(http, who, positions[who], stop, statuses, True, rate))
            for who in clients
        ]
        flooded = await move_times(http, table, stop)
        await asyncio.gather(*tasks)
    return {
        "quiet_ms": {"median": round(statistics.median(quiet), 1), "p99": round(p99(quiet), 1)},
        "plain_requests_ms": {
            "median": round(statistics.median(traffic), 1),
            "p99": round(p99(traffic), 1),
        },
        "flood_ms": {
            "median": round(statistics.median(flooded), 1),
            "p99": round(p99(flooded), 1),
        },
        "moves": [len(quiet), len(traffic), len(flooded)],
        "slowest_ms": [  # (which move of the phase, ms): the flood's start, or all along?
            [[i, round(t)] for t, i in sorted((t, i) for i, t in enumerate(times))[-3:]]
            for times in (quiet, traffic, flooded)
        ],
        "hints": {str(k): v for k, v in sorted(statuses.items())},
        "p99_ratio": round(p99(flooded) / p99(quiet), 2),
        "p99_ratio_to_plain": round(p99(flooded) / p99(traffic), 2),
    }


def ready(url: str) -> bool:
    for path in ("/readyz", "/health"):
        try:
            r = httpx.get(url + path)
        except httpx.HTTPError:
            return False
        if r.status_code != 404:
            return r.status_code == 200
    return False


def _load(m: dict[str, Any]) -> str:
    return (
        f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, load average "
        f"{m['load_average'][0]:.1f} before and {m['load_average_after'][0]:.1f} after"
    )


def markdown() -> str:
    """The figures of the newest saved run of each rate (and of the tables), as markdown."""
    newest: dict[float, dict[str, Any]] = {}
    for path in sorted(RESULTS.glob("*.json")):
        run = json.loads(path.read_text())
        newest[run["moves"]["rate"]] = run
    lines = [
        "| Flood (16 clients) | Moves quiet: median / p99 | Under plain requests | Under hints "
        "| p99 ratio to quiet: median (worst) | to plain requests | First hint after ready |",
        "|---|---|---|---|---|---|---|",
    ]
    machines = []
    for rate, run in sorted(newest.items()):
        m = run["moves"]
        runs = m["runs"]

        def ms(key: str, runs: list[dict[str, Any]] = runs) -> str:
            med = statistics.median(r[key]["median"] for r in runs)
            return f"{med:.0f} / {statistics.median(r[key]['p99'] for r in runs):.0f} ms"

        lines.append(
            f"| {rate:g} requests/s each, {len(runs)} runs | {ms('quiet_ms')} "
            f"| {ms('plain_requests_ms')} | {ms('flood_ms')} "
            f"| {m['p99_ratio_median']:.1f} ({m['p99_ratio_worst']:.1f}) "
            f"| {m['p99_ratio_to_plain_median']:.2f} ({m['p99_ratio_to_plain_worst']:.2f}) "
            f"| {run['first_hint_s']:.1f} s |"
        )
        machines.append(f"{rate:g}/s: {_load(run['machine'])}")
    out = "\n".join(lines) + "\n\nMeasured on " + "; ".join(machines) + ".\n"
    if TABLES.exists():
        tables = json.loads(TABLES.read_text())
        out += (
            "\n| Preset | First table, empty cache | Built afresh | Web's tables: built "
            "| read back | their files (compressed) |\n|---|---|---|---|---|---|\n"
        )
        for name, row in tables["tables"].items():
            files = row.get("files_mb_and_compressed", {}).values()
            out += (
                f"| {name} | {row['first_table_s']:.2f} s | {row['build_s']:.1f} s "
                f"| {row.get('web_tables_build_s', float('nan')):.1f} s "
                f"| {row.get('web_tables_read_s', float('nan')):.1f} s "
                f"| {sum(f[0] for f in files):.1f} MB ({sum(f[1] for f in files):.1f} MB) |\n"
            )
        m = tables["machine"]
        out += (
            f"\nMeasured on {m['cpu']}, {m['cores']} cores, load average "
            f"{m['load_average'][0]:.1f} before and {m['after'][0]:.1f} after.\n"
        )
    return out


def report() -> None:
    text = DOC.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    DOC.write_text(head + START + markdown() + END + tail, encoding="utf-8")


def main() -> None:
    if "--report" in sys.argv:
        report()
        return
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hintflood")
    parser.add_argument("seconds", nargs="?", type=float, default=20.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--moves-only", action="store_true")
    parser.add_argument("--save", action="store_true", help="also into benchmarks/results/")
    parser.add_argument("--rate", type=float, default=10.0, help="requests a client sends a second")
    options = parser.parse_args()
    seconds, repeats = options.seconds, options.repeats
    before = machine()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data:
        env = {**os.environ, "YACHT_DATA_DIR": data}
        server = subprocess.Popen(
            [sys.executable, "-m", "yacht", "serve", "--port", str(port), "--log-level", "error"],
            env=env,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 900  # a fresh machine builds the tables first
            started = time.monotonic()
            while not ready(url):
                if time.monotonic() > deadline:
                    raise SystemExit("yacht serve did not say it is ready")
                time.sleep(0.2)
            out: dict[str, Any] = {"ready_after_s": round(time.monotonic() - started, 1)}
            out["first_hint_s"] = round(asyncio.run(first_hint(url)), 3)
            runs = [
                asyncio.run(moves(url, seconds / 2, run, options.rate)) for run in range(repeats)
            ]
            ratios = sorted(run["p99_ratio"] for run in runs)
            to_plain = sorted(run["p99_ratio_to_plain"] for run in runs)
            out["moves"] = {
                "rate": options.rate,
                "runs": runs,
                "p99_ratio_median": statistics.median(ratios),
                "p99_ratio_worst": ratios[-1],
                "p99_ratio_to_plain_median": statistics.median(to_plain),
                "p99_ratio_to_plain_worst": to_plain[-1],
            }
            if not options.moves_only:
                out["quiet"] = asyncio.run(phase(url, 0, seconds / 2))
                out["one client"] = asyncio.run(phase(url, 1, seconds))
                out["16 clients"] = asyncio.run(phase(url, 16, seconds))
            out["machine"] = {**before, "load_average_after": machine()["load_average"]}
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(out))
    if options.save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        (RESULTS / f"{stamp}-rate{options.rate:g}.json").write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
