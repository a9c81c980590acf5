"""The exact strategy: table builds, the score distribution, the full target table, hints.

Every figure is the median of repeated runs on one core: the process is pinned to a single CPU
while measuring and BLAS is asked for one thread. Wall-clock medians are judged against the most
each may take (``TARGETS``: a hint within a millisecond, so a table never waits); the process
CPU time is shown beside them, since other work on a shared machine stretches wall time but not
CPU time.

Run: ``python -m benchmarks.strategy`` (or ``make bench``).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import functools  # noqa: E402
import random  # noqa: E402

from benchmarks.machine import header, latency, on_one_core, timed  # noqa: E402
from yacht.dice import ROLLS  # noqa: E402
from yacht.rules import CATEGORIES, preset_names, rules_by_name  # noqa: E402
from yacht.strategy import hint, hints, solve  # noqa: E402
from yacht.strategy import target as target_module  # noqa: E402
from yacht.strategy.distribution import final_totals  # noqa: E402
from yacht.strategy.solver import build_values  # noqa: E402
from yacht.strategy.tables import score_table  # noqa: E402
from yacht.strategy.target import build_cells, target_table  # noqa: E402

TARGETS = {
    "table traditional": 0.1,
    "distribution traditional": 1.0,
    "target table traditional": 10.0,
    "hint": 0.001,
    "hint, state seen": 0.001,
    "hint with a target": 0.001,
    "hint with a target, state seen": 0.001,
}


def show(name: str, wall: float, cpu: float, unit: str = "s") -> None:
    scale = 1000.0 if unit == "ms" else 1.0
    goal = TARGETS.get(name)
    verdict = ""
    if goal is not None:
        mark = "meets" if wall <= goal else "MISSES"
        verdict = f"  {mark} target <= {goal * scale:g} {unit}"
    print(f"  {name:<34} {wall * scale:9.3f} {unit} wall {cpu * scale:9.3f} {unit} cpu{verdict}")


def hint_latency(preset: str, count: int, target: int | None, fresh: bool) -> tuple[float, float]:
    """Median seconds per hint over random situations. ``fresh``: the per-state turn cache is
    emptied before every hint (the first hint in a state); else every hint is asked twice
    and the second timed (the next decision in the same turn)."""
    rng = random.Random(7)
    rules = rules_by_name(preset)
    cases = []
    for _ in range(count):
        used = [c for c in CATEGORIES if rng.random() < 0.5][:11]
        dice = list(rng.choice(ROLLS))
        cases.append((used, dice, rng.randrange(3), sum(rng.randrange(25) for _ in used)))
    asks = [
        functools.partial(
            hint, rules, used, dice, left, target=target, banked=banked if target else 0
        )
        for used, dice, left, banked in cases
    ]

    def forget() -> None:
        hints._expected_turn.cache_clear()
        target_module._target_turn.cache_clear()

    return latency(asks, fresh, forget)


def main() -> None:
    on_one_core(_run)


def _run() -> None:
    print(header("strategy"))
    for preset in preset_names():
        table = score_table(rules_by_name(preset))
        repeats = 7 if table.cap == 0 else 3
        build_values(table)  # warm up
        wall, cpu = timed(lambda t=table: build_values(t), repeats)  # type: ignore[misc]
        show(f"table {preset}", wall, cpu)
    for preset in ("traditional", "clubhouse"):
        solution = solve(preset)
        wall, cpu = timed(lambda s=solution: final_totals(s), 5 if preset == "traditional" else 1)  # type: ignore[misc]
        show(f"distribution {preset}", wall, cpu)
    table = score_table(rules_by_name("traditional"))
    full = table.most_to_come(0, 0)
    wall, cpu = timed(lambda: build_cells(table, full), 3)
    show("target table traditional", wall, cpu)
    target_table("traditional")
    for label, target in (("hint", None), ("hint with a target", 200)):
        wall, cpu = hint_latency("traditional", 2000, target, fresh=True)
        show(label, wall, cpu, "ms")
        wall, cpu = hint_latency("traditional", 2000, target, fresh=False)
        show(f"{label}, state seen", wall, cpu, "ms")
    solve("clubhouse")
    wall, cpu = hint_latency("clubhouse", 2000, None, fresh=True)
    show("hint clubhouse", wall, cpu, "ms")


if __name__ == "__main__":
    main()
