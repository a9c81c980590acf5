"""A reference learner: sb3-contrib's MaskablePPO, trained from the rewards alone.

    pip install -e '.[rl,plot]'
    nice python examples/train_maskable_ppo.py --minutes 10 --out build/rl/ppo
    python examples/plot_learning_curve.py build/rl/ppo/curve.csv docs/images/rl-learning-curve.png

No imitation of the exact policy: the learner sees :class:`yacht.env.Features` (face counts and
rolls left one-hot, open categories, what the dice score in each category now, upper subtotal
and total, all in [0, 1]) and the sheet's points as reward (scaled by 1/100 for the value
network; the curve is in points). The legal-action mask comes from ``action_masks()``.

Every ``--eval-every`` steps it plays ``--eval-games`` games with the deterministic policy on
fixed seeds and appends a row to ``curve.csv``: steps, minutes, that mean and its standard
error, and the mean of the training games since the last row. The model is saved as
``model.zip``; ``yacht.env.evaluate`` then rates it against the exact optimum (the script does
that at the end with ``--final-games``).
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium


def make_env(rules: str) -> gymnasium.Env[Any, Any]:
    import yacht.env

    env = yacht.env.Features(yacht.env.YachtEnv(rules=rules))
    return gymnasium.wrappers.TransformReward(env, lambda r: float(r) / 100.0)


def model_policy(model: Any) -> Any:
    """A ``yacht.env.evaluate`` policy: the model's deterministic masked choice."""

    def act(obs: Any, info: dict[str, Any]) -> int:
        mask = info["action_mask"].astype(bool)
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return act


def play(model: Any, rules: str, games: int, seed: int) -> list[float]:
    import yacht.env

    env = yacht.env.Features(yacht.env.YachtEnv(rules=rules))
    policy, totals = model_policy(model), []
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
            done = terminated or truncated
        totals.append(float(info["total"]))
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="traditional")
    parser.add_argument("--minutes", type=float, default=10.0, help="wall-clock training budget")
    parser.add_argument("--out", type=Path, default=Path("build/rl/ppo"))
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--eval-every", type=int, default=32_768)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--final-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate (3e-4)")
    parser.add_argument(
        "--anneal",
        action="store_true",
        help="lower the learning rate linearly with the wall-clock budget, to 5%% at the end",
    )
    args = parser.parse_args(argv)
    if args.minutes <= 0 or args.envs < 1 or args.eval_games < 2 or not args.lr > 0:
        parser.error("--minutes must be > 0, --envs >= 1, --eval-games >= 2, --lr > 0")

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    venv = make_vec_env(lambda: make_env(args.rules), n_envs=args.envs, seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=args.lr,
        n_steps=256,
        batch_size=512,
        n_epochs=4,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    began, deadline = time.monotonic(), time.monotonic() + 60 * args.minutes
    if args.anneal:  # by wall-clock time, since the budget is minutes, not steps

        def annealed(_: float) -> float:
            left = max(0.0, deadline - time.monotonic()) / (deadline - began)
            return float(args.lr * max(0.05, left))

        model.lr_schedule = annealed
    path = args.out / "curve.csv"
    rows: list[dict[str, float]] = []
    seen: list[float] = []

    class Curve(BaseCallback):  # type: ignore[misc]
        next_eval = 0

        def _on_step(self) -> bool:
            for info in self.locals["infos"]:
                if "episode" in info:
                    seen.append(100.0 * info["episode"]["r"])
            if self.num_timesteps >= self.next_eval:
                self.next_eval += args.eval_every
                totals = play(self.model, args.rules, args.eval_games, seed=10_000_000)
                row = {
                    "steps": self.num_timesteps,
                    "minutes": round((time.monotonic() - began) / 60, 3),
                    "mean": round(statistics.mean(totals), 3),
                    "se": round(statistics.stdev(totals) / math.sqrt(len(totals)), 3),
                    "train_mean": round(statistics.mean(seen), 3) if seen else math.nan,
                }
                seen.clear()
                rows.append(row)
                with path.open("w", newline="") as f:
                    writer = csv.DictWriter(f, fieldnames=list(row))
                    writer.writeheader()
                    writer.writerows(rows)
                print(" ".join(f"{k} {v}" for k, v in row.items()), flush=True)
            return bool(time.monotonic() < deadline)

    model.learn(total_timesteps=10**9, callback=Curve())
    model.save(args.out / "model.zip")
    minutes = (time.monotonic() - began) / 60
    print(f"trained {model.num_timesteps} steps in {minutes:.1f} minutes", flush=True)

    import yacht.env

    report = yacht.env.evaluate(
        model_policy(model),
        games=args.final_games,
        rules=args.rules,
        seed=20_000_000,
        wrap=yacht.env.Features,
        name="maskable-ppo",
    )
    print(report)
    (args.out / "evaluation.json").write_text(report.to_json_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
