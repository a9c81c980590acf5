"""The simulator and the bots: games per second on one core, and each bot's measured strength.

Rows: optimal-bot games per second in the vectorised simulator (traditional; median of 5 runs
of 262,144 games after the policy tables for all 4,096 states are built once, the build timed
on its own); the noisy levels and target play vectorised; games per second through the engine
(``play_games``: one action at a time, the path any bot can take). Then each bot's mean total
over many games (the README's strength table). The process is pinned to one CPU.

Run: ``python -m benchmarks.simulate`` (or ``make bench``).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from yacht.bots.play import play_games, simulate_bot
from yacht.strategy import solve
from yacht.strategy.simulate import Simulation, simulate
from yacht.strategy.target import target_probability

TARGET_GAMES_PER_SECOND = 250_000
RUNS = 5
GAMES = 1 << 18


def median_rate(run: Callable[[], Simulation], runs: int = RUNS) -> float:
    return statistics.median(run().games_per_second for _ in range(runs))


def one_core() -> set[int] | None:
    """Pin this process to one CPU; return the previous set (None where unsupported)."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(before)})
    return before


def main() -> None:
    before = one_core()
    try:
        speed()
        strength()
    finally:
        if before is not None:
            os.sched_setaffinity(0, before)


def speed() -> None:
    print("simulator (traditional, one core)")
    solve("traditional")
    start = time.perf_counter()
    simulate(1, seed=0)  # builds the policy tables of every state once
    print(f"  policy tables, 4,096 states        {time.perf_counter() - start:8.2f} s (once)")
    optimal = median_rate(lambda: simulate(GAMES, seed=1))
    verdict = "meets" if optimal >= TARGET_GAMES_PER_SECOND else "MISSES"
    print(
        f"  optimal bot, vectorised       {optimal:>13,.0f} games/s "
        f"(target >= {TARGET_GAMES_PER_SECOND:,}: {verdict})"
    )
    solve("clubhouse")
    start = time.perf_counter()
    simulate(1 << 16, "clubhouse", seed=0)  # builds the tables of the states it reaches
    print(f"  clubhouse: first 65,536 games (tables) {time.perf_counter() - start:5.2f} s")
    club = median_rate(lambda: simulate(GAMES, "clubhouse", seed=1), 3)
    print(f"  clubhouse optimal, vectorised {club:>13,.0f} games/s (after the first run)")
    simulate(1, seed=0, temperature=1.0)
    noisy = median_rate(lambda: simulate(1 << 16, seed=1, temperature=1.0), 3)
    print(f"  noisy level (easy..hard), vectorised {noisy:>8,.0f} games/s")
    simulate(1 << 16, seed=0, target=150)  # builds the target tables it reaches
    target = median_rate(lambda: simulate(1 << 17, seed=1, target=150), 3)
    print(f"  target:150, vectorised        {target:>13,.0f} games/s")
    for name, games in (("optimal", 200), ("greedy", 1000), ("random", 1000)):
        rate = median_rate(lambda n=name, g=games: play_games(n, g, seed=1), 3)  # type: ignore[misc]
        print(f"  {name} bot through the engine {rate:>11,.0f} games/s")


def strength() -> None:
    print("bot strength (traditional): mean final total +- standard error")
    exact = solve("traditional").expected
    rows = [
        ("random", 2_000),
        ("greedy", 2_000),
        ("easy", 200_000),
        ("medium", 200_000),
        ("hard", 200_000),
        ("optimal", 1_000_000),
        ("target:200", 200_000),
    ]
    print(f"  {'bot':<11} {'games':>9} {'mean':>8} {'+-':>5} {'stdev':>6}  how")
    for name, games in rows:
        run = simulate_bot(name, games, seed=2026)
        print(
            f"  {name:<11} {games:>9,} {run.mean:8.2f} {run.standard_error:5.2f} "
            f"{run.stdev:6.2f}  {run.method}"
        )
    print(f"  exact optimal expected score: {exact:.7f}")
    hits = simulate_bot("target:200", 200_000, seed=2026).totals >= 200
    reach = target_probability("traditional", [], 200)
    print(f"  target:200 reaches 200 in {hits.mean():.4f} of games; exact {reach:.4f}")


if __name__ == "__main__":
    main()
