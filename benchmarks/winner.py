"""Playing to win: endgame table builds, win-hint latency, match simulator speed and win rates.

Figures are medians of repeated runs on one core (the process is pinned to one CPU and BLAS
asked for one thread), wall and process CPU time side by side. The win rates here come from
short runs (per seat order: 20,000 heads-up games with the fast ``rollout`` plan, 4,000 with
the default ``lookahead``, 2,000 four-player games): the README's figures come from
``yacht match --bots winner,optimal --games 200000 --seed 1 --rotate`` and its four-player
counterpart.

Run: ``python -m benchmarks.winner`` (or ``make bench``).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import functools  # noqa: E402
import random  # noqa: E402

from benchmarks.machine import header, latency, on_one_core, timed  # noqa: E402
from yacht.dice import ROLLS  # noqa: E402
from yacht.rules import CATEGORIES, rules_by_name  # noqa: E402
from yacht.strategy import solve  # noqa: E402
from yacht.strategy import win as win_module  # noqa: E402
from yacht.strategy.endgame import Endgame, build_endgame, endgame  # noqa: E402
from yacht.strategy.match import play_match  # noqa: E402
from yacht.strategy.remaining import build_cells, remaining  # noqa: E402
from yacht.strategy.target import target_table  # noqa: E402
from yacht.strategy.win import seat_hint  # noqa: E402
from yacht.strategy.win_tables import Seat  # noqa: E402


def show(name: str, wall: float, cpu: float, unit: str = "s") -> None:
    scale = 1000.0 if unit == "ms" else 1.0
    print(f"  {name:<40} {wall * scale:9.3f} {unit} wall {cpu * scale:9.3f} {unit} cpu")


def hint_latency(opponents: int, count: int, fresh: bool) -> tuple[float, float]:
    """Median seconds per win hint over random mid-game situations. ``fresh``: the per-state
    cache is emptied first (a turn's first hint); else the second of two is timed."""
    rng = random.Random(5)
    cases = []
    for _ in range(count):
        seats = []
        for _ in range(opponents + 1):
            used = [c for c in CATEGORIES if rng.random() < 0.5][:11]
            mask = sum(1 << c.index for c in used)
            seats.append(Seat(mask, 0, sum(rng.randrange(25) for _ in used)))
        cases.append((seats, list(rng.choice(ROLLS)), rng.randrange(3)))
    asks = [
        functools.partial(seat_hint, "traditional", seats[0], seats[1:], dice, left, depth=3)
        for seats, dice, left in cases
    ]
    return latency(asks, fresh, win_module._matrix.cache_clear)


def main() -> None:
    on_one_core(_run)


def _run() -> None:
    print(header("playing to win"))
    rules = rules_by_name("traditional")
    solution = solve(rules)
    for depth, repeats in ((1, 5), (2, 3), (3, 1)):
        tables: list[Endgame] = []
        wall, cpu = timed(lambda d=depth, t=tables: t.append(build_endgame(rules, d)), repeats)  # type: ignore[misc]
        built = tables[-1]
        show(f"endgame depth {depth}: {built.positions:,} positions", wall, cpu)
        print(f"    {built.size:,} win probabilities, {built.table.nbytes / 1e6:.1f} MB")
    rest = remaining(rules)
    wall, cpu = timed(lambda: build_cells(solution, rest.offsets, rest.most, rest.cells.size), 3)
    show("remaining-points distributions", wall, cpu)
    target_table(rules)
    endgame(rules, 3)
    for opponents in (1, 3):
        for fresh in (True, False):
            wall, cpu = hint_latency(opponents, 300, fresh)
            label = f"win hint, {opponents + 1} players" + ("" if fresh else ", state seen")
            show(label, wall, cpu, "ms")
    runs = (
        (("winner", "optimal"), 20_000, "rollout"),
        (("winner", "optimal"), 4_000, "lookahead"),
        (("winner",) + ("optimal",) * 3, 2_000, "lookahead"),
    )
    for bots, games, plan in runs:
        for i in range(len(bots)):
            order = bots[-i:] + bots[:-i] if i else bots
            m = play_match(order, games, rules, seed=i, plan=plan)
            seat = order.index("winner")
            rate, half = m.win_rate(seat)
            print(
                f"  {' vs '.join(order) + f' ({plan})':<52} {m.games / m.seconds:7.0f} games/s"
                f"   winner (seat {seat + 1}) {rate:.2%} +- {half:.2%}"
            )


if __name__ == "__main__":
    main()
