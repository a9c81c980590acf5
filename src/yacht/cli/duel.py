"""``yacht duel solve|stats``: two-player Yacht, solved (the exact heads-up tables)."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any, TextIO

from yacht.cli import CommandError
from yacht.rules import preset_names, rules_by_name

__all__ = ["register"]


def register(subs: Any) -> None:
    p = subs.add_parser("duel", help="two-player Yacht, solved: build and read the exact tables")
    duel = p.add_subparsers(dest="duel_command", required=True, parser_class=type(p))

    s = duel.add_parser("solve", help="build the minimax table (resumes an interrupted build)")
    _rules_option(s)
    s.add_argument("--jobs", type=_count, default=1, metavar="N", help="processes (default 1)")
    s.add_argument(
        "--depth",
        type=_depth,
        default=None,
        metavar="K",
        help="build only the endgame where both players have at most K categories open",
    )
    s.set_defaults(handler=cmd_solve)


def _rules_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="traditional", choices=preset_names())


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes (1 or more)")
    return int(text)


def _depth(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 12:
        raise argparse.ArgumentTypeError(f"{text!r} is not a depth (1 to 12 categories open)")
    return int(text)


def _duration(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s // 60 % 60:02d}m{s % 60:02d}s"
    return f"{s // 60}m{s % 60:02d}s"


class _Reporter:
    """Progress on stderr: one line rewritten in place on a terminal, else a line every
    ``every`` seconds and one per finished layer."""

    def __init__(self, out: TextIO, total: int, every: float = 15.0) -> None:
        self.out = out
        self.total = total
        self.every = every
        self.tty = out.isatty()
        self.last = 0.0
        self.before = 0  # values of layers finished by this run

    def __call__(self, p: Any) -> None:
        now = time.perf_counter()
        rate = p.values / p.seconds if p.seconds > 0 else 0.0
        left = self.total - p.values
        eta = _duration(left / rate) if rate > 0 and left > 0 else "-"
        width = 24
        filled = round(width * p.done / p.size) if p.size else width
        bar = "#" * filled + "." * (width - filled)
        line = (
            f"layer {p.layer:2d} [{bar}] {p.done / max(p.size, 1):6.1%} of {p.size:,} values | "
            f"{_duration(p.seconds)} elapsed | {rate / 1e6:.2f}M values/s | ETA {eta}"
        )
        if self.tty:
            self.out.write("\r" + line + ("\n" if p.finished else ""))
        elif p.finished or now - self.last >= self.every:
            self.out.write(line + ("  done" if p.finished else "") + "\n")
            self.last = now
        self.out.flush()


def cmd_solve(args: argparse.Namespace) -> int:
    from yacht.strategy.duel import MINIMAX, build_layers, table_size
    from yacht.strategy.duel.layout import LAYERS
    from yacht.strategy.duel.store import read_manifest

    rules = rules_by_name(args.rules)
    if rules.upper_bonus is not None:
        raise CommandError(
            f"preset {rules.name} has an upper bonus: the two-player table covers "
            "traditional, all-dice-four and knizia"
        )
    lowest = 0 if args.depth is None else max(0, LAYERS - 2 * args.depth)
    todo = table_size(rules, MINIMAX, lowest)
    start = time.perf_counter()
    folder = build_layers(
        rules, MINIMAX, jobs=args.jobs, lowest=lowest, progress=_Reporter(sys.stderr, todo)
    )
    manifest = read_manifest(folder)
    layers = {int(k): v for k, v in manifest["layers"].items() if int(k) >= lowest}
    values = sum(v["values"] for v in layers.values())
    build = sum(v["seconds"] for v in layers.values())
    on_disk = sum(p.stat().st_size for p in folder.glob("layer-*.u16"))
    print(
        f"{rules.name}: minimax table, layers {lowest}-{LAYERS - 1}: {values:,} win probabilities "
        f"in {on_disk / 2**20:,.1f} MiB ({folder}); built in {_duration(build)} "
        f"(this run {_duration(time.perf_counter() - start)})"
    )
    return 0
