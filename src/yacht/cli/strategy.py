"""``yacht solve``, ``yacht hint`` and ``yacht distribution``: the exact strategy tables."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from yacht.cli import CommandError
from yacht.rules import CATEGORIES, Category, preset_names, rules_by_name


def register(subs: Any) -> None:
    p = subs.add_parser("solve", help="the expected final total under optimal play")
    _rules_option(p)
    p.add_argument("--no-cache", action="store_true", help="build the table afresh")
    p.add_argument("--target", type=_points, metavar="T", help="best P(final total >= T)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_solve)

    p = subs.add_parser("hint", help="every option for a roll, best first")
    p.add_argument("--dice", nargs="+", type=_face, required=True, metavar="DIE")
    p.add_argument("--rolls-left", type=int, required=True, choices=(0, 1, 2))
    p.add_argument("--used", default="", help="filled categories, comma-separated")
    p.add_argument("--upper", type=int, default=None, metavar="N", help="upper subtotal")
    _rules_option(p)
    p.add_argument("--target", type=_points, metavar="T", help="rank by P(final total >= T)")
    p.add_argument("--banked", type=_points, default=None, metavar="B", help="points on sheet")
    p.add_argument("--opponents", metavar="SHEETS", help="rank by P(finishing first) against")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_hint)

    p = subs.add_parser("distribution", help="the exact distribution of the final total")
    _rules_option(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--plot", metavar="FILE", help="draw a histogram (.png or .svg)")
    p.set_defaults(handler=cmd_distribution)


def _rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="traditional", choices=preset_names())


def _face(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 6:
        raise argparse.ArgumentTypeError(f"{text!r} is not a die face (1 to 6)")
    return value


def _points(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of points (0 or more)")
    return value


def cmd_solve(args: argparse.Namespace) -> int:
    from yacht.strategy import solve
    from yacht.strategy.target import target_table

    if args.target is not None:
        most = rules_by_name(args.rules).max_total()
        if 0 < args.target <= most:
            table = target_table(args.rules, args.target, use_cache=not args.no_cache)
            p = table.probability([], args.target)
        else:
            p = 1.0 if args.target <= 0 else 0.0
        if args.json:
            print(json.dumps({"rules": args.rules, "target": args.target, "probability": p}))
        else:
            print(f"{args.rules}: best chance of a final total >= {args.target}: {p:.4%} ({p!r})")
        return 0
    solution = solve(args.rules, use_cache=not args.no_cache)
    if args.json:
        out = {"rules": args.rules, "expected": solution.expected, "seconds": solution.seconds}
        print(json.dumps(out))
    else:
        print(
            f"{args.rules}: expected final total under optimal play {solution.expected:.7f} "
            f"(table built in {solution.seconds:.3f} s)"
        )
    return 0


def _used(text: str) -> list[Category]:
    return [Category.parse(name) for name in text.replace(" ", ",").split(",") if name]


def cmd_hint(args: argparse.Namespace) -> int:
    from yacht.strategy import hint

    if args.opponents is not None:  # playing to win (yacht.cli.match)
        from yacht.cli.match import cmd_win_hint

        return cmd_win_hint(args)

    if len(args.dice) != 5:
        shown = " ".join(map(str, args.dice))
        raise CommandError(f"need five dice, got {len(args.dice)}: {shown}")
    rules = rules_by_name(args.rules)
    if args.upper is not None and rules.upper_bonus is None:
        raise CommandError(f"--upper: preset {args.rules} has no upper bonus")
    if args.banked is not None and args.target is None:
        raise CommandError("--banked counts toward a target: give --target T too")
    used = _used(args.used)
    try:  # hint() checks the position it is given before any work: its ValueError is ours
        h = hint(
            rules,
            used,
            args.dice,
            args.rolls_left,
            upper=args.upper or 0,
            target=args.target,
            banked=args.banked or 0,
        )
    except ValueError as e:
        raise CommandError(str(e)) from None
    if args.json:
        print(json.dumps(h.to_json()))
        return 0
    open_ = [c.value for c in CATEGORIES if c not in h.used]
    shown = "all 12" if len(open_) == len(CATEGORIES) else ", ".join(open_)
    rolls = "1 roll" if args.rolls_left == 1 else f"{args.rolls_left} rolls"
    print(f"{args.rules}: dice {' '.join(map(str, args.dice))}, {rolls} left; open: {shown}")
    width = max(len(str(o)) for o in h.options)
    head = f"  {'option':<{width}}  {'expected':>8}"
    if args.target is not None:
        head += f"  {f'P(>={args.target})':>10}"
    print(head)
    for i, o in enumerate(h.options):
        line = f"{'*' if i == 0 else ' '} {o!s:<{width}}  {o.expected:8.3f}"
        if o.probability is not None:
            line += f"  {o.probability:10.4%}"
        print(line)
    return 0


def cmd_distribution(args: argparse.Namespace) -> int:
    from yacht.strategy.distribution import distribution

    plot = Path(args.plot) if args.plot else None
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        raise CommandError(f"--plot: {args.plot!r} must end in .png or .svg")
    start = time.perf_counter()
    d = distribution(args.rules)
    if plot is not None:
        _plot(d, plot, args.rules)
    if args.json:
        print(json.dumps(d.to_json()))
        return 0
    print(f"{args.rules}: final total under optimal play ({time.perf_counter() - start:.2f} s)")
    print(f"mean {d.mean:.4f}, stdev {d.stdev:.4f}")
    print("percentiles: " + ", ".join(f"{q}%: {t}" for q, t in d.percentiles.items()))
    by_ten = [
        float(d.probabilities[lo : lo + 10].sum()) for lo in range(0, d.probabilities.size, 10)
    ]
    scale = 50 / max(by_ten)
    for i, p in enumerate(by_ten):
        if p >= 5e-5:
            print(f"{i * 10:>3}-{i * 10 + 9:<3} {p:7.3%} {'#' * round(p * scale)}")
    if plot is not None:
        print(f"plot written to {plot}")
    return 0


def _plot(d: Any, path: Path, rules: str) -> None:
    try:
        import matplotlib
    except ImportError:
        raise CommandError("--plot needs matplotlib: pip install 'yacht[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.5))
    totals = range(d.probabilities.size)
    ax.bar(totals, d.probabilities, width=1.0, color="#4c72b0", label="P(final total)")
    ax.axvline(d.mean, color="#c44e52", linewidth=2, label=f"mean {d.mean:.2f}")
    cuts = d.percentiles
    label = "percentiles: " + ", ".join(f"{q}% {t}" for q, t in cuts.items())
    for i, (q, t) in enumerate(cuts.items()):
        ax.axvline(t, color="#555555", linestyle=":", linewidth=1, label=None if i else label)
        ax.annotate(
            f"{q}%",
            (t, 1.0),
            xycoords=("data", "axes fraction"),
            ha="center",
            va="bottom",
            fontsize=8,
        )
    ax.set_xlabel("final total")
    ax.set_ylabel("probability")
    ax.set_title(f"{rules}: final total under optimal play (stdev {d.stdev:.2f})", pad=16)
    ax.set_xlim(0, d.probabilities.size)
    ax.set_ylim(0, float(d.probabilities.max()) * 1.3)  # room for the legend above the bars
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as e:
        raise CommandError(f"--plot: cannot write {str(path)!r}: {e.strerror}") from None
    finally:
        plt.close(fig)
