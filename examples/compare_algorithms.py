"""One run of the algorithms table: an SB3 / sb3-contrib learner with its default settings.

    pip install -e '.[rl,plot]'
    nice python examples/compare_algorithms.py --algo dqn --seed 0 --cpu-minutes 5 \\
        --out examples/runs/algorithms/dqn-s0
    python examples/algorithms_table.py examples/runs/algorithms      # the table in docs/rl.md

``--algo`` is ``ppo`` (Stable-Baselines3), ``maskable-ppo`` (sb3-contrib, the legal-action
mask) or ``dqn`` (Stable-Baselines3), each with the library's default hyperparameters and
``MlpPolicy``: the settings a newcomer starts from. Every algorithm gets the same
environment, ``yacht.env.SB3VecEnv`` over 16 games of ``VectorYachtEnv(observation=
"features")`` with the environment's defaults (an illegal action ends the game) and rewards
/ 100, and the same budget of CPU time. The schedules the defaults define over a run
(DQN's exploration, which falls over its first tenth) follow the share of the budget used,
so the defaults mean the same for every budget.

During training, every tenth of the budget, the greedy policy plays 1,000 fixed-seed games in
a ``VectorYachtEnv`` and ``curve.csv`` gets a row (steps, CPU minutes, mean total, how many of
the games an illegal action ended). At the end the model is saved (``model.zip``) and
``yacht.env.evaluate`` rates 1,000 new games in the single environment: ``evaluation.json``
(the runs in ``examples/runs/algorithms`` keep everything but the model).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import yacht.env

ALGORITHMS = ("ppo", "maskable-ppo", "dqn")
CURVE_SEED, FINAL_SEED, GAMES, ENVS = 10_000_000, 20_000_000, 1000, 16


def learner(algo: str) -> Any:
    if algo == "maskable-ppo":
        from sb3_contrib import MaskablePPO

        return MaskablePPO
    from stable_baselines3 import DQN, PPO

    return {"ppo": PPO, "dqn": DQN}[algo]


def predict(model: Any, masked: bool, obs: Any, mask: Any) -> Any:
    if masked:
        return model.predict(obs, action_masks=mask, deterministic=True)[0]
    return model.predict(obs, deterministic=True)[0]


def greedy_games(model: Any, masked: bool, games: int, seed: int) -> tuple[np.ndarray, int]:
    """Totals of ``games`` fixed-seed games played once each, and how many ended illegally."""
    envs = yacht.env.VectorYachtEnv(games, observation="features")  # illegal: the game ends
    obs, info = envs.reset(seed=seed)
    totals, done = np.zeros(games), np.zeros(games, dtype=bool)
    illegal = 0
    while not done.all():
        mask = info["action_mask"].astype(bool)
        mask |= ~mask.any(axis=1, keepdims=True)
        obs, _, terminated, truncated, info = envs.step(predict(model, masked, obs, mask))
        ended = (terminated | truncated) & ~done
        totals[ended] = info["total"][ended]
        illegal += int((info["illegal_action"] & ended).sum())
        done |= ended
    return totals, illegal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--algo", choices=ALGORITHMS, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cpu-minutes", type=float, default=5.0)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--final-games", type=int, default=GAMES)
    parser.add_argument(
        "--illegal-penalty", type=float, default=None, help="the environment's default if not given"
    )
    args = parser.parse_args(argv)
    if args.cpu_minutes <= 0 or args.final_games < 2:
        parser.error("--cpu-minutes must be > 0 and --final-games >= 2")

    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    penalty = {} if args.illegal_penalty is None else {"illegal_penalty": args.illegal_penalty}
    venv = yacht.env.SB3VecEnv(
        yacht.env.VectorYachtEnv(ENVS, observation="features", **penalty), reward_scale=0.01
    )
    masked = args.algo == "maskable-ppo"
    model = learner(args.algo)("MlpPolicy", venv, seed=args.seed, verbose=0)
    budget, cpu0 = 60 * args.cpu_minutes, time.process_time()

    def used() -> float:
        return min(1.0, (time.process_time() - cpu0) / budget)

    def progress(num_timesteps: int, total_timesteps: int) -> None:
        model._current_progress_remaining = 1.0 - used()

    model._update_current_progress_remaining = progress  # schedules follow the CPU budget
    rows: list[dict[str, float]] = []

    def curve_row() -> None:
        cpu = time.process_time() - cpu0
        totals, illegal = greedy_games(model, masked, GAMES, CURVE_SEED)
        rows.append(
            {
                "steps": model.num_timesteps,
                "cpu_minutes": round(cpu / 60, 3),
                "mean": round(float(totals.mean()), 3),
                "se": round(float(totals.std(ddof=1) / math.sqrt(GAMES)), 3),
                "illegal": illegal,
            }
        )
        with (args.out / "curve.csv").open("w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        print(" ".join(f"{k} {v}" for k, v in rows[-1].items()), flush=True)

    class Budget(BaseCallback):  # type: ignore[misc]
        next_row = 0.0

        def _on_step(self) -> bool:
            if used() >= self.next_row:
                self.next_row += 0.1
                curve_row()
            return used() < 1.0

    model.learn(total_timesteps=10**10, callback=Budget())
    curve_row()
    del model._update_current_progress_remaining  # or save would pickle the closure's model
    model.save(args.out / "model.zip")

    def policy(obs: Any, info: dict[str, Any]) -> int:
        mask = info["action_mask"].astype(bool)
        return int(predict(model, masked, obs, mask))

    report = yacht.env.evaluate(
        policy,
        args.final_games,
        "traditional",
        FINAL_SEED,
        wrap=yacht.env.Features,
        name=args.algo,
    )
    print(report, flush=True)
    (args.out / "evaluation.json").write_text(report.to_json_text())
    meta = {
        "algo": args.algo,
        "seed": args.seed,
        "cpu_minutes": args.cpu_minutes,
        "steps": model.num_timesteps,
        "envs": ENVS,
        "illegal_penalty": venv.env.illegal_penalty,
    }
    (args.out / "run.json").write_text(json.dumps(meta, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
