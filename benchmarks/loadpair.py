"""Server CPU per action before and after a change, measured side by side: the same
``benchmarks.loadrun`` with the servers of an earlier commit and of this checkout, taking turns.

    eval "$(bash .ci/services)"
    python -m benchmarks.loadpair BASE [--tables 1000] [--think 2,5] [--pairs 3] [--duration 30]
                                       [--doc]

BASE is checked out into a git worktree under the system's temporary directory; the load
generator, the database and Redis are this checkout's for both sides, only the two ``yacht
serve`` processes differ. Runs alternate (base, head, base, head, ...) so that a spell of other
work on the machine falls on both. Prints a markdown table (median and worst of each side, the
ratio of the medians, p99) with the machine under it; ``--doc`` also writes it into
``docs/web/stalls.md`` between ``<!-- pair-table:start -->`` and ``<!-- pair-table:end -->``.
The runs' rows are kept in ``benchmarks/results/loadpair/``. About a minute per run at 1,000
tables; loopback only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import loadreport, loadrun
from benchmarks.machine import machine

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "loadpair"
DOC = ROOT / "docs" / "web" / "stalls.md"
MARKS = ("<!-- pair-table:start -->", "<!-- pair-table:end -->")


def worktree(commit: str) -> Path:
    """A checkout of ``commit`` (made once, then reused)."""
    full = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", commit], capture_output=True, text=True, check=True
    ).stdout.strip()
    path = Path(tempfile.gettempdir()) / f"yacht-base-{full[:12]}"
    if not (path / "src").is_dir():
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), full], check=True
        )
    return path


def run(tables: int, think: float, duration: float, servers_from: Path | None) -> dict[str, Any]:
    args = [str(tables), str(think), str(duration), "--out", ""]
    if servers_from is not None:
        args += ["--servers-from", str(servers_from)]
    return loadrun.main(args)


def table(rows: list[dict[str, Any]], base: str, head: str) -> str:
    """The markdown table of paired runs and the machine line."""
    lines = [
        f"| tables | think | runs | server CPU/action {base} | {head} | ratio "
        f"| p99 {base} | {head} |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for tables, think in dict.fromkeys((r["tables"], r["think"]) for r in rows):
        side = {
            name: [r for r in rows if (r["tables"], r["think"], r["side"]) == (tables, think, name)]
            for name in ("base", "head")
        }
        cpu = {k: [r["server_cpu_ms_per_action"] for r in v] for k, v in side.items()}
        p99 = {k: [r["p99"] for r in v] for k, v in side.items()}
        if not cpu["base"] or not cpu["head"]:
            continue
        ratio = statistics.median(cpu["head"]) / statistics.median(cpu["base"])
        cells = [
            f"{tables:,}",
            f"{think:g} s",
            f"{len(cpu['base'])} + {len(cpu['head'])}",
            *(f"{statistics.median(cpu[k]):.2f} ms ({max(cpu[k]):.2f})" for k in ("base", "head")),
            f"{ratio:.2f}",
            *(f"{statistics.median(p99[k]):.1f} ms ({max(p99[k]):.1f})" for k in ("base", "head")),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    note = "Median of the runs, the worst run in brackets; the ratio is head / base."
    return "\n".join([*lines, "", note, loadreport.machine_line(rows)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadpair")
    parser.add_argument("base", help="the commit to compare with (its servers)")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--think", default="2,5", help="think times, comma-separated")
    parser.add_argument("--pairs", type=int, default=3, help="runs of each side per think time")
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--doc", action="store_true", help="write the table into the docs")
    args = parser.parse_args(argv)
    base_tree = worktree(args.base)
    base = loadrun.git_commit(str(base_tree)) or args.base
    head = loadrun.git_commit() or "head"
    box = machine()
    print(f"machine: {box['cpu']}, {box['cores']} cores; {base} against {head}", file=sys.stderr)
    rows = []
    for _ in range(args.pairs):
        for think in (float(t) for t in args.think.split(",") if t.strip()):
            for side, tree in (("base", base_tree), ("head", None)):
                row = run(args.tables, think, args.duration, tree)
                rows.append({**row, "side": side})
                time.sleep(5.0)  # the last run's sockets close, PostgreSQL settles
    text = table(rows, base, head)
    print(text)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{stamp}-{base}-{head}.json").write_text(json.dumps(rows, indent=1) + "\n")
    if args.doc:
        document = DOC.read_text()
        start, end = document.index(MARKS[0]), document.index(MARKS[1])
        DOC.write_text(document[: start + len(MARKS[0])] + "\n" + text + "\n" + document[end:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
