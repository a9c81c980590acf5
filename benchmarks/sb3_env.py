"""What a Stable-Baselines3 learner's environment costs: SB3VecEnv against DummyVecEnv.

Both give SB3 16 solo games under the ``Features`` observation: ``yacht.env.SB3VecEnv`` over a
``VectorYachtEnv`` (array operations), and SB3's own ``DummyVecEnv`` of 16
``Features(YachtEnv())`` (a Python game each, the way ``make_vec_env`` builds it). A step is
one masked random action for each of the 16 games, the masks read as MaskablePPO reads them
(``env_method("action_masks")``). Figures: env steps (transitions) per second of this
process's CPU time, median and worst of ``--runs`` runs, pinned to one core.

Run: ``python -m benchmarks.sb3_env [--runs 5] [--json]`` (needs the ``rl`` extra; part of
``make bench``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import numpy as np

from benchmarks.machine import machine, on_one_core

ENVS = 16


def rate(venv: Any, steps: int, rng: np.random.Generator) -> float:
    venv.reset()
    began = time.process_time()
    for _ in range(steps):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step((rng.random(masks.shape) * masks).argmax(axis=1))
    return steps * ENVS / (time.process_time() - began)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    from stable_baselines3.common.vec_env import DummyVecEnv

    from yacht.env import Features, SB3VecEnv, VectorYachtEnv, YachtEnv

    rng = np.random.default_rng(0)
    found: dict[str, list[float]] = {"SB3VecEnv": [], "DummyVecEnv": []}

    def run() -> None:
        for _ in range(args.runs):
            batched = SB3VecEnv(VectorYachtEnv(ENVS, observation="features"))
            found["SB3VecEnv"].append(rate(batched, 3000, rng))
            games = DummyVecEnv([lambda: Features(YachtEnv()) for _ in range(ENVS)])
            found["DummyVecEnv"].append(rate(games, 150, rng))

    on_one_core(run)
    figures: dict[str, Any] = {
        "machine": machine(),
        "envs": ENVS,
        **{
            k: {"median": round(statistics.median(v)), "worst": round(min(v))}
            for k, v in found.items()
        },
    }
    ratio = figures["SB3VecEnv"]["median"] / figures["DummyVecEnv"]["median"]
    figures["ratio"] = round(ratio, 1)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    where = figures["machine"]
    print(
        f"SB3 environments, {ENVS} games under Features, masked random, {args.runs} runs; one "
        f"core of {where['cpu']} ({where['cores']} cores, load average "
        f"{where['load_average'][0]}), env steps per second of CPU time"
    )
    print(f"  {'environment':<44}{'median':>10}{'worst':>10}")
    for key, label in (
        ("SB3VecEnv", "SB3VecEnv(VectorYachtEnv(16, 'features'))"),
        ("DummyVecEnv", "DummyVecEnv of 16 Features(YachtEnv())"),
    ):
        print(f"  {label:<44}{figures[key]['median']:>10,}{figures[key]['worst']:>10,}")
    print(f"  ratio of the medians: {ratio:.1f}x")


if __name__ == "__main__":
    main()
