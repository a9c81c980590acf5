"""Two-player Yacht, solved: the build rate of the minimax table and, once it is built, its
size, build time and the published numbers.

The rate is measured on one core on real layers (a few movers each of layers 14 and 18),
computed from stand-in values of the next layer (the work does not depend on them), and
turned into the CPU time of the whole table. The table itself is built by
``yacht duel solve --rules traditional --jobs 2`` (about 1.55e9 win probabilities); when it
is in the cache, its manifest gives the real build time and ``yacht duel stats`` the numbers.

Run: ``python -m benchmarks.duel``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from benchmarks.machine import header, on_one_core, timed  # noqa: E402
from yacht.rules import rules_by_name  # noqa: E402
from yacht.strategy.duel import MINIMAX, table_size  # noqa: E402
from yacht.strategy.duel.layout import LAYERS, layout  # noqa: E402
from yacht.strategy.duel.minimax import fill_movers  # noqa: E402
from yacht.strategy.duel.store import ERROR_BOUND, read_manifest, table_dir  # noqa: E402

RULES = rules_by_name("traditional")
SAMPLE = {14: 2, 18: 6}
"""Movers timed per layer."""


def rate() -> float:
    """Seconds of CPU per win probability, over the sampled movers."""
    values = cpu_total = 0.0
    for n, movers in SAMPLE.items():
        lay, after = layout(RULES, n), np.full(layout(RULES, n + 1).size, 0.5, dtype=np.float32)
        lo, hi = lay.mover_span(0)[0], lay.mover_span(movers - 1)[1]
        out = np.zeros(hi - lo, dtype=np.float32)
        wall, cpu = timed(lambda: fill_movers(RULES, n, 0, movers, after, out), 3)  # noqa: B023
        print(
            f"  layer {n:2d}: {hi - lo:>9,} values in {wall:6.2f} s wall {cpu:6.2f} s cpu: "
            f"{cpu / (hi - lo) * 1e6:5.2f} us each"
        )
        values += hi - lo
        cpu_total += cpu
    return cpu_total / values


def built() -> None:
    folder = table_dir(RULES, MINIMAX.name)
    done = read_manifest(folder)["layers"]
    if len(done) < LAYERS:
        print(f"  table: {len(done)} of {LAYERS} layers built in {folder}")
        return
    seconds = sum(float(v["seconds"]) for v in done.values())
    size = sum(p.stat().st_size for p in folder.glob("layer-*.u16"))
    jobs = max(int(v["jobs"]) for v in done.values())
    print(
        f"  table: {size / 2**30:.2f} GiB on disk ({size:,} bytes), built in {seconds / 60:.1f} "
        f"min with {jobs} processes (manifest, {folder})"
    )
    from yacht.cli.duel import stats

    numbers = stats(RULES)
    p = numbers["first_player_wins"]
    print(f"  first player's P(win), both perfect: {p:.6f} (+-{ERROR_BOUND:.1e})")


def main() -> None:
    print(header("duel: the two-player minimax table, traditional"))
    per_value: list[float] = []
    on_one_core(lambda: per_value.append(rate()))
    total = table_size(RULES, MINIMAX)
    cpu = per_value[0] * total
    print(
        f"  whole table: {total:,} values, about {cpu / 60:.0f} min of one core "
        f"({cpu / 120:.0f} min on two)"
    )
    built()


if __name__ == "__main__":
    main()
