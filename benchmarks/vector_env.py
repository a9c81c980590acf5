"""The batched environment: env steps per second on one core, at 4,096 games, masked random play.

A step is one action applied to every game of :class:`yacht.env.VectorYachtEnv` with the next
observations, rewards, endings and masks computed (NEXT_STEP autoreset included). The actions
are uniformly random among each game's legal ones, drawn from the returned ``action_mask``
(the all-zero mask of an ending step draws action 0, which the autoreset ignores).

Figures, for each observation (raw, features): the median and the worst of ``--runs`` runs of
``--steps`` steps, as env steps per second of this process's CPU time (the machine is shared:
CPU time is what one core gives, whatever else runs) and of wall time; "env" times
``step`` alone, "with actions" adds drawing the masked random actions. The single
``YachtEnv`` (and under ``Features``) is timed the same way for comparison. Pinned to one CPU.

Run: ``python -m benchmarks.vector_env [--envs 4096] [--steps 200] [--runs 7] [--json]``
(also part of ``make bench``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from benchmarks.machine import machine, on_one_core
from yacht.env import Features, VectorYachtEnv, YachtEnv

TARGET = 1_000_000
ENVS = 4096

# every mask is fixed by (which categories are open, whether holds are allowed): a table of
# the legal actions of each lets a masked random draw be three array operations
_KEYS = np.arange(1 << 13)
_MASKS = np.concatenate(
    [np.repeat((_KEYS >> 12)[:, None], 32, axis=1), 1 - ((_KEYS[:, None] >> np.arange(12)) & 1)],
    axis=1,
).astype(bool)
_COUNTS = _MASKS.sum(axis=1)
_LEGAL = np.zeros((len(_KEYS), 44), dtype=np.int64)
for _key in range(len(_KEYS)):
    _legal = np.flatnonzero(_MASKS[_key])
    _LEGAL[_key, : len(_legal)] = _legal
_USED_BITS = (1 << np.arange(12)).astype(np.float32)


def masked_random(mask: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row of ``mask`` (0 where none is legal)."""
    used = (1 - mask[:, 32:]).astype(np.float32) @ _USED_BITS
    key = used.astype(np.int64) | mask[:, 0].astype(np.int64) << 12
    pick = (rng.random(len(mask)) * _COUNTS[key]).astype(np.int64)
    actions: npt.NDArray[np.int64] = _LEGAL.reshape(-1).take(key * 44 + pick)
    return actions


def vector_rates(observation: str, envs: int, steps: int, runs: int) -> dict[str, list[float]]:
    vector = VectorYachtEnv(envs, observation=observation)
    _, info = vector.reset(seed=0)
    rng = np.random.default_rng(0)
    rates: dict[str, list[float]] = {"env_cpu": [], "with_actions_cpu": [], "with_actions_wall": []}
    for _ in range(runs):
        env_cpu = 0.0
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(steps):
            actions = masked_random(info["action_mask"], rng)
            before = time.process_time()
            _, _, _, _, info = vector.step(actions)
            env_cpu += time.process_time() - before
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        rates["env_cpu"].append(envs * steps / env_cpu)
        rates["with_actions_cpu"].append(envs * steps / cpu)
        rates["with_actions_wall"].append(envs * steps / wall)
    return rates


def single_rate(features: bool, steps: int) -> float:
    env: Any = Features(YachtEnv()) if features else YachtEnv()
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    cpu = time.process_time()
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.process_time() - cpu)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=ENVS)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"machine": machine(), "envs": args.envs, "steps": args.steps}

    def run() -> None:
        for observation in ("raw", "features"):
            rates = vector_rates(observation, args.envs, args.steps, args.runs)
            figures[observation] = {
                k: {"median": round(statistics.median(v)), "worst": round(min(v))}
                for k, v in rates.items()
            }
        figures["single"] = {
            "raw_cpu": round(single_rate(False, 3000)),
            "features_cpu": round(single_rate(True, 3000)),
        }

    on_one_core(run)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    where = figures["machine"]
    print(
        f"VectorYachtEnv, {args.envs} games, masked random actions, {args.runs} runs of "
        f"{args.steps} steps; one core of {where['cpu']} ({where['cores']} cores, load average "
        f"{where['load_average'][0]}), env steps per second"
    )
    print(f"  {'observation':<12}{'figure':<22}{'median':>12}{'worst':>12}")
    for observation in ("raw", "features"):
        for name, label in (
            ("env_cpu", "env, CPU time"),
            ("with_actions_cpu", "with actions, CPU"),
            ("with_actions_wall", "with actions, wall"),
        ):
            row = figures[observation][name]
            print(f"  {observation:<12}{label:<22}{row['median']:>12,}{row['worst']:>12,}")
    best = figures["raw"]["with_actions_cpu"]["median"]
    verdict = "meets" if best >= TARGET else "MISSES"
    print(f"  target {TARGET:,} steps/s (raw, with actions, CPU time): {verdict}")
    single = figures["single"]
    print(
        f"  single YachtEnv for comparison: {single['raw_cpu']:,} steps/s, "
        f"under Features {single['features_cpu']:,}"
    )


if __name__ == "__main__":
    main()
