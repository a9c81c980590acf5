"""The algorithms table of docs/rl.md and its figure, generated from the runs' own files.

    python examples/algorithms_table.py examples/runs/algorithms          # writes both
    python examples/algorithms_table.py examples/runs/algorithms --check  # exit 1 if stale

Reads every ``RUN/run.json``, ``RUN/evaluation.json`` and ``RUN/curve.csv`` that
``examples/compare_algorithms.py`` wrote, groups the runs by algorithm, and writes the table
between ``<!-- algorithms-table -->`` and ``<!-- /algorithms-table -->`` in docs/rl.md and the
curves to docs/images/rl-algorithms.png (``--check`` compares the table only; the figure
needs matplotlib, extra ``plot``).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rl.md"
FIGURE = ROOT / "docs" / "images" / "rl-algorithms.png"
BEGIN, END = "<!-- algorithms-table -->", "<!-- /algorithms-table -->"
NAMES = {"ppo": "PPO (SB3)", "maskable-ppo": "MaskablePPO (sb3-contrib)", "dqn": "DQN (SB3)"}
OPTIMUM, GREEDY_BOT = 166.96, 117.31  # solve("traditional").expected; the greedy bot's mean


def runs(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Algorithm -> its runs (run.json with ``evaluation`` and ``curve`` added), by seed."""
    found: dict[str, list[dict[str, Any]]] = {}
    for meta_path in sorted(folder.glob("*/run.json")):
        run = json.loads(meta_path.read_text())
        run["evaluation"] = json.loads((meta_path.parent / "evaluation.json").read_text())
        with (meta_path.parent / "curve.csv").open() as f:
            run["curve"] = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
        found.setdefault(run["algo"], []).append(run)
    return {algo: sorted(found[algo], key=lambda r: r["seed"]) for algo in NAMES if algo in found}


def table(folder: Path) -> str:
    grouped = runs(folder)
    if not grouped:
        raise ValueError(f"no runs (RUN/run.json) in {folder}")
    budgets = {run["cpu_minutes"] for rs in grouped.values() for run in rs}
    games = {run["evaluation"]["games"] for rs in grouped.values() for run in rs}
    lines = [
        f"Each run: {'/'.join(f'{b:g}' for b in sorted(budgets))} CPU minutes, the library's "
        f"default settings, greedy play over {'/'.join(f'{g:,}' for g in sorted(games))} new "
        "games (`yacht.env.evaluate`, seeds from 20,000,000). Mean ± SE is over the seeds' "
        "means; an unfinished game is one an illegal action ended.",
        "",
        "| algorithm | seeds | steps per run | mean ± SE over seeds | each seed | "
        "unfinished games | points lost per decision | % of optimum | "
        "above the greedy bot, none unfinished |",
        "|---|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    for algo, rs in grouped.items():
        means = [run["evaluation"]["mean"] for run in rs]
        mean = statistics.fmean(means)
        se = statistics.stdev(means) / math.sqrt(len(means)) if len(means) > 1 else math.nan
        unfinished = sum(run["evaluation"]["unfinished_games"] for run in rs)
        total_games = sum(run["evaluation"]["games"] for run in rs)
        loss = statistics.fmean(run["evaluation"]["loss_per_decision"] for run in rs)
        steps = statistics.fmean(run["steps"] for run in rs)
        above = sum(
            m > GREEDY_BOT and run["evaluation"]["unfinished_games"] == 0
            for m, run in zip(means, rs, strict=True)
        )
        lines.append(
            f"| {NAMES[algo]} | {len(rs)} | {steps / 1e6:.1f} M | {mean:.2f} ± {se:.2f} | "
            f"{', '.join(f'{m:.1f}' for m in means)} | {unfinished} of {total_games:,} | "
            f"{loss:.3f} | {100 * mean / OPTIMUM:.1f}% | {above} of {len(rs)} seeds |"
        )
    return "\n".join(lines) + "\n"


def figure(folder: Path, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    colours = {"ppo": "tab:orange", "maskable-ppo": "tab:blue", "dqn": "tab:green"}
    for algo, rs in runs(folder).items():
        for i, run in enumerate(rs):
            xs = [row["cpu_minutes"] for row in run["curve"]]
            ys = [row["mean"] for row in run["curve"]]
            ax.plot(xs, ys, color=colours[algo], alpha=0.8, label=NAMES[algo] if i == 0 else None)
    for value, name in ((OPTIMUM, "optimum"), (GREEDY_BOT, "greedy bot")):
        ax.axhline(value, color="grey", linestyle="--", linewidth=0.8)
        ax.annotate(name, (0, value), textcoords="offset points", xytext=(2, 3), fontsize=8)
    ax.set_xlabel("CPU minutes")
    ax.set_ylabel("mean total of 1,000 greedy games")
    ax.set_ylim(0, 180)
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)


def with_table(doc: str, text: str) -> str:
    if BEGIN not in doc or END not in doc:
        raise ValueError(f"docs/rl.md has no {BEGIN} ... {END}")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{text}{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--check", action="store_true", help="exit 1 if docs/rl.md is stale")
    args = parser.parse_args(argv)
    doc = DOC.read_text()
    try:
        new = with_table(doc, table(args.folder))
    except ValueError as error:
        parser.error(str(error))
    if args.check:
        if new != doc:
            print("docs/rl.md's algorithms table is not the runs' files: regenerate it")
            return 1
        return 0
    DOC.write_text(new)
    figure(args.folder, FIGURE)
    print(f"wrote {DOC.relative_to(ROOT)} and {FIGURE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
