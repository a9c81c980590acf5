"""Plot a learning curve (train_maskable_ppo.py's or train_vector_ppo.py's curve.csv) against the
reference players.

    python examples/plot_learning_curve.py build/rl/ppo/curve.csv docs/images/rl-learning-curve.png

The references are measured here, not typed in: the exact optimum (``solve``), the noisy bot
levels and optimal play by the vectorised simulator (20,000 games each), the ``greedy`` and
``random`` bots through the engine (1,000 games each). They are printed too.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import sys
from pathlib import Path


def references(rules: str) -> dict[str, float]:
    from yacht.bots.play import simulate_bot
    from yacht.rules import rules_by_name
    from yacht.strategy import solve

    out = {"optimum (exact)": solve(rules_by_name(rules)).expected}
    for name, games in (("hard", 20_000), ("medium", 20_000), ("easy", 20_000)):
        out[f"{name} bot"] = simulate_bot(name, games, rules, seed=0).mean
    for name in ("greedy", "random"):
        out[f"{name} bot"] = simulate_bot(name, 1000, rules, seed=0).mean
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("curve", type=Path)
    parser.add_argument("image", type=Path)
    parser.add_argument("--rules", default="traditional")
    parser.add_argument("--title", default="MaskablePPO on yacht/Yacht-v0 (Features)")
    args = parser.parse_args(argv)
    with args.curve.open() as f:
        rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
    if not rows:
        parser.error(f"{args.curve} has no rows")
    refs = references(args.rules)
    for name, value in refs.items():
        print(f"{name}: {value:.2f}")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scale, unit = (1e6, "millions") if rows[-1]["steps"] > 2e7 else (1e3, "thousands")
    steps = [r["steps"] / scale for r in rows]
    means = [r["mean"] for r in rows]
    errors = [2 * r["se"] for r in rows]
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=100)
    ax.errorbar(steps, means, yerr=errors, marker="o", ms=3, capsize=2, label="learner (±2 SE)")
    train = [
        (s, r["train_mean"])
        for s, r in zip(steps, rows, strict=True)
        if r.get("train_mean", 0) > 0  # train_vector_ppo.py's curve has no such column
    ]
    if train:
        ax.plot(*zip(*train, strict=True), ls=":", color="grey", label="training games (sampled)")
    styles = ["-", "--", "--", "--", "-.", ":"]
    for (name, value), style in zip(refs.items(), styles, strict=True):
        ax.axhline(value, ls=style, lw=1, color="black" if "optimum" in name else "tab:red")
        ax.text(  # beside the axes, where the curve never runs
            1.01,
            value,
            f"{name} {value:.1f}",
            transform=ax.get_yaxis_transform(),
            ha="left",
            va="center",
            fontsize=8,
        )
    spent = (
        f"{rows[-1]['cpu_minutes']:.1f} CPU minutes"
        if "cpu_minutes" in rows[-1]
        else f"{rows[-1]['minutes']:.1f} minutes"
    )
    ax.set_xlabel(f"environment steps ({unit}); {spent} on this machine")
    ax.set_ylabel(f"mean final total, {args.rules}")
    ax.set_title(args.title)
    ax.set_ylim(0, max(refs.values()) + 15)
    ax.legend(loc="lower right", fontsize=8)
    machine = f"{platform.machine()}, {os.cpu_count()} cores shared with other jobs"
    fig.text(0.01, 0.01, machine, fontsize=7)
    fig.tight_layout()
    args.image.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.image)
    print(f"wrote {args.image}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
