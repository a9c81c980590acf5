"""Measured: what a flood of hints does to everyone else's requests.

    python -m benchmarks.hintflood [SECONDS]

Starts ``yacht serve`` on a fresh database, then for SECONDS (default 20) measures the
``/health`` latency three ways: quiet; while one client sends 16 hints at a time (each at a
new two-player position, where a hint costs tens of ms); and while 16 clients each do so
(distinct addresses via X-Forwarded-For, which the server trusts from loopback only). Prints
one JSON line: per phase the /health median and max (ms), and the hint answers by status
(200 answered, 429 rate_limited, 503 busy). Loopback only; not part of ``make bench``.
"""

from __future__ import annotations

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
from typing import Any

import httpx


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


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
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
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(url + "/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("yacht serve did not start")
                time.sleep(0.2)
            out = {
                "quiet": asyncio.run(phase(url, 0, seconds / 2)),
                "one client": asyncio.run(phase(url, 1, seconds)),
                "16 clients": asyncio.run(phase(url, 16, seconds)),
                "cores": os.cpu_count(),
                "load": round(os.getloadavg()[0], 2),
            }
        finally:
            server.terminate()
            server.wait(10)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
