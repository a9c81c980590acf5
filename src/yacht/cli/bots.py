"""``yacht simulate`` (bots' strength over many games) and ``yacht review`` (rate a game)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from yacht.cli import CommandError
from yacht.rules import preset_names

__all__ = ["ProgressBar", "cmd_review", "cmd_simulate", "register"]


def register(subs: Any) -> None:
    p = subs.add_parser("simulate", help="play many solo games with a bot and summarise them")
    p.add_argument(
        "--bot",
        default="optimal",
        help="random, greedy, easy, medium, hard, optimal or target:T (default: optimal)",
    )
    p.add_argument("--games", type=_games, default=10_000, help="how many games (default 10000)")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible run")
    p.add_argument("--rules", default="traditional", choices=preset_names())
    p.add_argument(
        "--engine", action="store_true", help="play every game through the engine (slow)"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=cmd_simulate)

    p = subs.add_parser("review", help="rate every decision of a saved game")
    p.add_argument("file", metavar="GAME.json", help="a game saved as JSON")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--all", action="store_true", help="list every decision, not only mistakes")
    p.set_defaults(handler=cmd_review)


def _games(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of games") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"games must be at least 1, got {value}")
    return value


class ProgressBar:
    """A one-line progress bar on a terminal, shown once a run has taken half a second."""

    def __init__(self, stream: TextIO, label: str, delay: float = 0.5) -> None:
        self.stream = stream
        self.label = label
        self.delay = delay
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.start
        if elapsed < self.delay and not self.shown:
            return
        width = 30
        filled = width * done // total
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{total} {elapsed:.1f}s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    from yacht.bots import make_bot
    from yacht.bots.play import simulate_bot

    try:
        name = make_bot(args.bot).name  # an unknown bot fails here, before any work
    except ValueError as e:
        raise CommandError(str(e)) from None
    bar = ProgressBar(sys.stderr, name) if sys.stderr.isatty() else None
    try:
        result = simulate_bot(
            name, args.games, args.rules, seed=args.seed, engine=args.engine, progress=bar
        )
    finally:
        if bar is not None:
            bar.close()
    data = result.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    se = result.standard_error
    print(
        f"{name} on {data['rules']}: {data['games']} games ({data['method']}, "
        f"{data['games_per_second']:,.0f} games/s)"
    )
    print(
        f"mean {data['mean']:.2f} +- {se:.2f} (stdev {data['stdev']:.2f}), "
        f"min {data['min']}, max {data['max']}"
    )
    print("percentiles: " + ", ".join(f"{p}%: {v}" for p, v in data["percentiles"].items()))
    print("category means:")
    for category, mean in data["category_means"].items():
        print(f"  {category:<16} {mean:7.2f}")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from yacht.cli.files import read_json
    from yacht.game import Game
    from yacht.review import review

    data = read_json(args.file)
    try:
        game = Game.from_json(data)
    except ValueError as e:  # the file's fault: from_json checks every field and event
        raise CommandError(f"{args.file}: {e}") from None
    target = data.get("target") if isinstance(data, dict) else None  # a stored target game
    try:
        result = review(game, target=target)
    except ValueError as e:
        raise CommandError(f"{args.file}: {e}") from None
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    names = {p.player: p.name for p in result.players}
    unit = {
        "points": "expected points given up",
        "win": "chance of finishing first given up, as the hint ranks with opponents",
        "target": f"chance of reaching {result.target} given up, as the target hint ranks",
    }[result.measure]
    print(f"Review ({result.rules}): loss = {unit}; accurate = no loss")

    def lost(loss: float, points: float) -> str:
        if result.measure == "points":
            return f"loss {loss:.2f}"
        return f"loss {100 * loss:.2f}% ({points:.2f} points)"

    for p in result.players:
        accuracy = "-" if p.accuracy is None else f"{p.accuracy:.1f}%"
        print(
            f"  {p.name}: total {p.total}, {p.decisions} decisions, "
            f"{lost(p.loss, p.points_loss)}, accuracy {accuracy}"
        )
    shown = [d for d in result.decisions if args.all or not d.accurate]
    if shown:
        print("Decisions:" if args.all else "Mistakes:")
    for d in shown:
        dice = " ".join(map(str, d.dice))
        print(
            f"  {names[d.player]}, turn {d.turn}, roll {d.roll} [{dice}]: "
            f"{d.taken}; best {d.best}; {lost(d.loss, d.points_loss)}"
        )
    return 0
