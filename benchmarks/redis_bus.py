"""CPU of the Redis bus per message, for two checkouts side by side: two broadcasters in one
process, both subscribed to one table, one publishing ``--messages`` states of ``--size`` bytes,
``--per-turn`` in each turn of the event loop (a busy server finishes several moves a turn).
Counted: this process's CPU (user + system) from the first publish until the other
broadcaster has received the last, which covers packing the publishes, reading their
acknowledgements, receiving the other's copy and dropping the publisher's own.

    eval "$(bash .ci/services)"
    python -m benchmarks.redis_bus [--base /tmp/yacht-base-COMMIT] [--runs 5]

Each run is a fresh process on this checkout's ``src`` (or ``--base``'s), taking turns. Prints
the median and every run's microseconds per message for each side. ``--no-echo``: the publishing
broadcaster does not subscribe, so Redis sends it no copy of its own publishes (the difference is
what dropping them costs).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import asyncio, json, os, sys, time
from contextlib import nullcontext
from yacht.web.bus.broadcast import Inbox
from yacht.web.bus.redis import RedisBroadcaster

async def main(url, n, per_turn, size, echo):
    prefix = f"bench-{os.getpid()}:"
    a, b = RedisBroadcaster(url, prefix=prefix), RedisBroadcaster(url, prefix=prefix)
    body = "x" * size
    listens = a.subscribe("table:B") if echo else nullcontext(Inbox())
    async with listens as own, b.subscribe("table:B") as other:
        await a.publish("table:B", "warm", note="n")
        assert await asyncio.wait_for(other.get(), 10) == "warm"
        if echo:
            await own.get()
        start = time.process_time()
        for i in range(n // per_turn):
            for _ in range(per_turn):
                await a.publish("table:B", body, note="note")
            await asyncio.sleep(0)
            while len(own):  # what a socket would read
                await own.get()
        got = 0
        while got < (n // per_turn) * per_turn:
            await asyncio.wait_for(other.get(), 30)
            got += 1
        cpu = time.process_time() - start
    await a.aclose()
    await b.aclose()
    return 1e6 * cpu / got

print(json.dumps(asyncio.run(main(*[sys.argv[1], *map(int, sys.argv[2:])]))))
"""


def run(src: Path, url: str, n: int, per_turn: int, size: int, echo: bool) -> float:
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [sys.executable, "-c", CHILD, url, str(n), str(per_turn), str(size), str(int(echo))]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    return float(json.loads(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.redis_bus")
    parser.add_argument("--base", type=Path, help="another checkout to compare with")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--messages", type=int, default=20_000)
    parser.add_argument("--per-turn", type=int, default=4)
    parser.add_argument("--size", type=int, default=3000, help="bytes of a state message")
    parser.add_argument(
        "--no-echo",
        action="store_true",
        help="the publisher does not subscribe (no copy of its own comes back to drop)",
    )
    args = parser.parse_args(argv)
    url = os.environ["YACHT_TEST_REDIS_URL"]
    sides = {"head": ROOT / "src"}
    if args.base is not None:
        sides = {"base": args.base / "src", **sides}
    results: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(args.runs):
        for name, src in sides.items():
            results[name].append(
                run(src, url, args.messages, args.per_turn, args.size, not args.no_echo)
            )
    for name, values in results.items():
        print(
            f"{name}: {statistics.median(values):.1f} us per message "
            f"(runs {', '.join(f'{v:.1f}' for v in values)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
