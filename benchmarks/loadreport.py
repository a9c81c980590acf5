"""The load figures in the docs, made from the runs' own JSON files (never typed in).

    python -m benchmarks.loadreport [DIR] [--check]

Reads every ``*.json`` that ``benchmarks.loadrun`` wrote into DIR (default
``benchmarks/results/load``), groups the runs by tables and think time, and writes

- the markdown table (medians of the runs, the worst run in brackets, the machine under it)
  into ``docs/benchmarks.md`` between ``<!-- load-table:start -->`` and ``<!-- load-table:end -->``;
- the latency-vs-rate plot (p50 and p99 of every run against its actions per second) into
  ``docs/images/load-latency.png``.

Both only when DIR is the committed directory; for another DIR the table is printed and the
plot written into DIR. ``--check`` writes nothing and exits 1 when the docs' table is not the
one the committed files make.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "load"
DOC = ROOT / "docs" / "benchmarks.md"
PLOT = ROOT / "docs" / "images" / "load-latency.png"
PARTS = ("servers", "postgres", "load")
START, END = "<!-- load-table:start -->", "<!-- load-table:end -->"


def rows(directory: Path) -> list[dict[str, Any]]:
    """Every run in ``directory``, oldest first (file names start with the UTC time)."""
    return [json.loads(p.read_text()) for p in sorted(directory.glob("*.json"))]


def groups(runs: Iterable[dict[str, Any]]) -> dict[tuple[int, float], list[dict[str, Any]]]:
    found: dict[tuple[int, float], list[dict[str, Any]]] = {}
    for run in runs:
        found.setdefault((run["tables"], run["think"]), []).append(run)
    return dict(sorted(found.items()))


def _ms(value: float | None) -> str:
    if value is None:
        return "-"
    if value >= 1000:
        return f"{value / 1000:.2f} s"
    return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"


def _median(values: list[float]) -> float:
    return float(statistics.median(values))


def _server_figure(run: dict[str, Any], path: tuple[str, ...]) -> float | None:
    """The worst over the run's servers of a figure of their /metrics summary."""
    found = []
    for figures in run.get("servers", {}).values():
        value: Any = figures
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, int | float):
            found.append(float(value))
    return max(found) if found else None


def _median_worst(values: list[float | None], worst: Any = max) -> tuple[float | None, Any]:
    known = [v for v in values if v is not None]
    if not known:
        return None, None
    return _median(known), worst(known)


def table(runs: list[dict[str, Any]]) -> str:
    """The markdown table and the machine line for ``runs``."""
    lines = [
        "| tables | think | runs | actions/s | p50 | p95 | p99 (worst run) | errors "
        "| server CPU/action (worst) | cores: servers / PostgreSQL / load | WAL/action "
        "| loop lag p99 | full GC passes (longest) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (tables, think), group in groups(runs).items():
        cores = [r["cores"] for r in group]
        p99, p99_worst = _median_worst([r["p99"] for r in group])
        cpu, cpu_worst = _median_worst([r["server_cpu_ms_per_action"] for r in group])
        lag, _ = _median_worst([_server_figure(r, ("loop_lag_ms", "p99")) for r in group])
        full = [_server_figure(r, ("gc_pauses", "2", "count")) for r in group]
        longest = [_server_figure(r, ("gc_pauses", "2", "max")) for r in group]
        full_count, _ = _median_worst(full)
        wal, _ = _median_worst([r.get("wal_bytes_per_action") for r in group])
        _, full_worst = _median_worst(longest)
        cells = [
            f"{tables:,}",
            f"{think:g} s",
            str(len(group)),
            f"{_median([r['actions_per_second'] for r in group]):.0f}",
            _ms(_median([r["p50"] for r in group])),
            _ms(_median([r["p95"] for r in group])),
            f"{_ms(p99)} ({_ms(p99_worst)})",
            str(sum(r["errors"] for r in group)),
            "-" if cpu is None else f"{cpu:.2f} ms ({cpu_worst:.2f})",
            " / ".join(f"{_median([c[part] for c in cores]):.2f}" for part in PARTS),
            "-" if wal is None else f"{wal:,.0f} B",
            f"<= {_ms(lag)}",
            ("-" if full_count is None else f"{full_count:g}")
            + ("" if full_worst is None else f" (<= {_ms(full_worst)})"),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join([*lines, "", machine_line(runs)])


def machine_line(runs: list[dict[str, Any]]) -> str:
    """Where and when the runs were made, from their own records."""
    if not runs:
        return "No runs yet."
    boxes = sorted({f"{r['machine']['cpu']}, {r['machine']['cores']} cores" for r in runs})
    pythons = sorted({r["machine"]["python"] for r in runs})
    before = [r["load_average_before"][0] for r in runs]
    during = [r["load_average_mean"] for r in runs if r.get("load_average_mean") is not None]
    commits = list(dict.fromkeys(r["commit"] for r in runs if r.get("commit")))  # run order
    if len(commits) > 2:
        commits = [f"{commits[0]} to {commits[-1]}"]
    text = (
        f"Machine: {'; '.join(boxes)}, Python {', '.join(pythons)}; {len(runs)} runs of "
        f"{_median([r['duration'] for r in runs]):g} s measured; 1-minute load average "
        f"{min(before):.1f}-{max(before):.1f} before a run"
    )
    if during:
        text += f", {min(during):.1f}-{max(during):.1f} during (mean)"
    if commits:
        text += f"; commit {', '.join(commits)}"
    return text + "."


def replace_between(document: str, body: str) -> str:
    """``document`` with the text between the load-table markers replaced by ``body``."""
    start, end = document.index(START) + len(START), document.index(END)
    return document[:start] + "\n" + body + "\n" + document[end:]


def current(document: str) -> str:
    """The text between the markers now."""
    return document[document.index(START) + len(START) : document.index(END)].strip("\n")


def plot(runs: list[dict[str, Any]], path: Path) -> None:
    """p50 and p99 of every run against its actions per second, one colour per think time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8.5, 4.2), dpi=120)
    for index, ((tables, think), group) in enumerate(groups(runs).items()):
        colour = f"C{index}"
        rate = [r["actions_per_second"] for r in group]
        label = f"{tables:,} tables, think {think:g} s"
        ax.scatter(rate, [r["p99"] for r in group], color=colour, marker="o", label=label)
        ax.scatter(rate, [r["p50"] for r in group], color=colour, marker="x")
    ax.scatter([], [], color="black", marker="o", label="p99 of a run")
    ax.scatter([], [], color="black", marker="x", label="p50 of a run")
    ax.axhline(100, color="grey", linestyle="--", linewidth=1, label="target: p99 100 ms")
    ax.set_yscale("log")
    latencies = [r[k] for r in runs for k in ("p50", "p99")] or [1.0]
    ax.set_ylim(min(latencies) / 1.5, max(200.0, max(latencies) * 1.5))
    ax.set_xlabel("actions per second (both servers)")
    ax.set_ylabel("latency, action -> its broadcast (ms)")
    ax.set_title("yacht serve x2 + PostgreSQL + Redis + load generator, one 2-core machine")
    ax.title.set_fontsize(9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.text(0.01, 0.01, machine_line(runs), fontsize=5, color="grey", wrap=True)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loadreport")
    parser.add_argument("directory", nargs="?", default=str(RESULTS))
    parser.add_argument("--check", action="store_true", help="compare with the docs only")
    args = parser.parse_args(argv)
    directory = Path(args.directory).resolve()
    runs = rows(directory)
    text = table(runs)
    committed = directory == RESULTS.resolve()
    if args.check:
        same = current(DOC.read_text()) == text
        print("docs/benchmarks.md: the load table is up to date" if same else text)
        return 0 if same else 1
    print(text)
    if committed:
        DOC.write_text(replace_between(DOC.read_text(), text))
        plot(runs, PLOT)
        print(f"wrote {DOC.relative_to(ROOT)} and {PLOT.relative_to(ROOT)}", file=sys.stderr)
    elif runs:
        plot(runs, directory / "load-latency.png")
        print(f"wrote {directory / 'load-latency.png'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
