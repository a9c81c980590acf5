"""How long the server takes to get going again after its database or Redis went away.

Runs the outages of ``tests/scale/test_outages.py`` (PostgreSQL restarted, stopped for 10 s,
Redis restarted, stopped for 10 s) ``--repeat`` times on a PostgreSQL and a Redis of its own,
with two ``yacht serve`` processes under the test's load (tables of bots, people over
WebSockets), checking what the test checks each time. A run's recovery is the seconds from the
service's return until its slowest table moved again; printed per kind as the median and the
worst of the runs, with the machine (the target: under 5 s)::

    python -m benchmarks.outage --repeat 5

Needs what the test needs (PostgreSQL's initdb and pg_ctl, redis-server; as root, runuser).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.machine import machine

# The outages are the test suite's own (tests/scale/test_outages.py), imported as the tests
# import each other: with tests/ on the path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from scale.test_outages import live_through, outages, running_stack


async def measure(repeat: int, logs: Path) -> dict[str, list[float]]:
    seconds: dict[str, list[float]] = {}
    with running_stack(logs) as stack:
        for _ in range(repeat):
            for kind, outage in outages(stack).items():
                taken = await live_through(stack, kind, outage)
                seconds.setdefault(kind, []).append(max(taken.values()))
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each outage (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="yacht-outage-") as folder:
        seconds = asyncio.run(measure(args.repeat, Path(folder)))
    figures = {
        kind: {"median": statistics.median(runs), "worst": max(runs), "runs": runs}
        for kind, runs in seconds.items()
    }
    if args.json:
        print(json.dumps({"machine": machine(), "seconds to recover": figures}, indent=2))
        return
    where = machine()
    print(f"seconds to recover, {args.repeat} runs each ({where['cpu']}, {where['cores']} cores)")
    for kind, f in figures.items():
        print(f"  {kind:<20} median {f['median']:5.2f}   worst {f['worst']:5.2f}")


if __name__ == "__main__":
    main()
