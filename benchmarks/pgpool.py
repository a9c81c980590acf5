"""What the asyncpg pool costs a statement: the server's CPU for one ``SELECT 1`` on a connection
of its own, and on a connection taken from the pool and given back as the hot path does it
(:class:`yacht.web.storage.pg.Direct`, on ``asyncpg.create_pool``), statement after statement.

    eval "$(bash .ci/services)"
    python -m benchmarks.pgpool [--statements 3000] [--runs 5]

Counted: this process's CPU (user + system, ``time.process_time``), not PostgreSQL's, under
uvloop as ``yacht serve`` runs. Prints the median and worst of the runs for each way and their
difference, with the machine. Loopback only; about 10 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from benchmarks.machine import machine


async def _rounds(url: str, statements: int, runs: int) -> dict[str, list[float]]:
    import asyncpg

    from yacht.web.storage.pg import Direct, conninfo

    direct = Direct(url)
    alone = await asyncpg.connect(conninfo(url))

    async def one(connection: Any) -> Any:
        return await connection.fetchval("SELECT 1")

    out: dict[str, list[float]] = {"own connection": [], "pool (Direct)": []}
    try:
        await direct._run(one)  # the pool made, its connection open
        for _ in range(runs):
            start = time.process_time()
            for _ in range(statements):
                await one(alone)
            out["own connection"].append((time.process_time() - start) / statements * 1e6)
            start = time.process_time()
            for _ in range(statements):
                await direct._run(one)
            out["pool (Direct)"].append((time.process_time() - start) / statements * 1e6)
    finally:
        await alone.close()
        await direct.aclose()
    return out


def table(found: dict[str, list[float]]) -> str:
    """The markdown table of the runs (us of CPU per statement, median and worst)."""
    lines = ["| way | CPU per statement | worst |", "|---|---:|---:|"]
    for way, values in found.items():
        lines.append(f"| {way} | {statistics.median(values):.1f} us | {max(values):.1f} us |")
    own, pooled = (statistics.median(v) for v in found.values())
    lines.append(f"| the pool's share | {pooled - own:.1f} us | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict[str, list[float]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--statements", type=int, default=3000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    url = os.environ.get("YACHT_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit('no PostgreSQL: eval "$(bash .ci/services)" first')
    import uvloop

    found = uvloop.run(_rounds(url, args.statements, args.runs))
    print(table(found))
    m = machine()
    print(
        f"\nMachine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, load average"
        f" {m['load_average'][0]} after; {args.runs} runs of {args.statements} statements each."
    )
    return found


if __name__ == "__main__":
    main()
