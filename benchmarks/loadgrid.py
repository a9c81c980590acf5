"""The load grid: ``benchmarks.loadrun`` for every think time, a few runs each, then the report.

    eval "$(bash .ci/services)"
    python -m benchmarks.loadgrid [--tables 1000] [--think 1,2,3,5] [--runs 3] [--duration 30]
                                  [--out benchmarks/results/load]

``make bench-load`` runs it (``make bench-load LOAD_TABLES=100 LOAD_RUNS=1 LOAD_DURATION=10
LOAD_OUT=/tmp/load`` for a quick look that leaves the docs alone). Each run's JSON goes to
``--out``; then ``benchmarks.loadreport`` makes the table and the plot from every file there
(into the docs when ``--out`` is the committed directory). The runs take turns by think time
(1, 2, 3, 5, 1, 2, ...), so a spell of other work on the machine spreads over the rows. About
a minute per run at 1,000 tables; loopback only; the load generator refuses more than 2,000
tables or 600 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from benchmarks import loadreport, loadrun

PAUSE = 5.0  # seconds between runs: the last run's sockets close, PostgreSQL settles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadgrid")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--think", default="1,2,3,5", help="think times, comma-separated")
    parser.add_argument("--runs", type=int, default=3, help="runs per think time")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured per run")
    parser.add_argument("--out", default=str(loadrun.RESULTS), help="where the JSON files go")
    args = parser.parse_args(argv)
    thinks = [float(t) for t in args.think.split(",") if t.strip()]
    if not thinks or args.runs < 1 or not 1 <= args.tables <= 2000:
        parser.error("give at least one think time, --runs >= 1 and --tables 1..2000")
    total = len(thinks) * args.runs
    done = 0
    for _ in range(args.runs):
        for think in thinks:
            done += 1
            print(f"run {done}/{total}: {args.tables} tables, think {think:g} s", file=sys.stderr)
            try:
                loadrun.main([str(args.tables), str(think), str(args.duration), "--out", args.out])
            except Exception as e:  # a run that broke is reported and left out; the grid goes on
                print(f"run {done}/{total} failed: {type(e).__name__}: {e}", file=sys.stderr)
            if done < total:
                time.sleep(PAUSE)
    return loadreport.main([str(Path(args.out))])


if __name__ == "__main__":
    raise SystemExit(main())
