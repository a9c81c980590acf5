"""The reference learner on the batched environment: masked PPO over VectorYachtEnv, in torch.

    pip install -e '.[rl,plot]'
    nice python examples/train_vector_ppo.py --cpu-minutes 60 --out build/rl/vector-ppo
    python examples/evaluate_agent.py --model build/rl/vector-ppo/model.pt --episodes 1000

A CleanRL-style PPO (one file, no framework) on :class:`yacht.env.VectorYachtEnv` with the
``features`` observation, so thousands of games step as numpy arrays and almost all the CPU
goes to the network. From the rewards alone (points / 100), no imitation of the exact policy;
illegal actions are masked out of the policy (logits -1e8), the value is a separate network.

The budget is CPU time of this process (``--cpu-minutes``), so a run on a shared machine
learns as much as on a quiet one, only later. Every ``--eval-every`` updates the greedy policy
plays ``--eval-games`` fixed-seed games at once in a second VectorYachtEnv and ``curve.csv``
gets a row. The policy is saved as ``model.pt`` (the actor's weights and its layer sizes,
loaded by ``examples/evaluate_agent.py --model``), and ``yacht.env.evaluate`` then rates
``--final-games`` new games in the single environment (``evaluation.json``).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import yacht.env

EVAL_SEED, FINAL_SEED = 10_000_000, 20_000_000


def mlp(sizes: list[int], out_gain: float) -> Any:
    import torch
    from torch import nn

    layers: list[Any] = []
    for i, (a, b) in enumerate(itertools.pairwise(sizes)):
        linear = nn.Linear(a, b)
        last = i == len(sizes) - 2
        nn.init.orthogonal_(linear.weight, out_gain if last else math.sqrt(2))
        nn.init.zeros_(linear.bias)
        layers += [linear] if last else [linear, nn.ReLU()]
    return torch.nn.Sequential(*layers)


def greedy_totals(actor: Any, rules: str, games: int, seed: int) -> np.ndarray:
    """Each of ``games`` games (seeds ``seed + i``) played once by the argmax of the mask."""
    import torch

    envs = yacht.env.VectorYachtEnv(games, rules=rules, observation="features")
    obs, info = envs.reset(seed=seed)
    totals, done = np.zeros(games), np.zeros(games, dtype=bool)
    while not done.all():
        with torch.no_grad():
            logits = actor(torch.as_tensor(obs)).numpy()
        mask = info["action_mask"].astype(bool)
        mask |= ~mask.any(axis=1, keepdims=True)
        obs, _, terminated, truncated, info = envs.step(np.where(mask, logits, -1e9).argmax(1))
        ended = (terminated | truncated) & ~done
        totals[ended] = info["total"][ended]
        done |= ended
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arg = parser.add_argument
    arg("--rules", default="traditional")
    arg("--cpu-minutes", type=float, default=10.0, help="training budget in CPU time")
    arg("--out", type=Path, default=Path("build/rl/vector-ppo"))
    arg("--envs", type=int, default=1024, help="games stepped at once")
    arg("--steps", type=int, default=32, help="steps per game per update")
    arg("--minibatch", type=int, default=4096)
    arg("--epochs", type=int, default=4)
    arg("--lr", type=float, default=3e-4, help="falls linearly with the budget to 5%%")
    arg("--ent", type=float, default=0.01, help="entropy coefficient, falls to a tenth")
    arg("--hidden", type=int, nargs="+", default=[256, 256])
    arg("--eval-every", type=int, default=20, help="updates between curve rows")
    arg("--eval-games", type=int, default=1000)
    arg("--final-games", type=int, default=1000)
    arg("--seed", type=int, default=0)
    arg("--threads", type=int, default=1, help="torch threads")
    args = parser.parse_args(argv)
    if args.cpu_minutes <= 0 or min(args.envs, args.steps, args.minibatch, args.epochs) < 1:
        parser.error("--cpu-minutes must be > 0 and --envs, --steps, --minibatch, --epochs >= 1")

    import torch

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    envs = yacht.env.VectorYachtEnv(
        args.envs, rules=args.rules, observation="features", autoreset_mode="same_step"
    )
    n_obs, n_act = envs.single_observation_space.shape[0], 44
    actor, critic = mlp([n_obs, *args.hidden, n_act], 0.01), mlp([n_obs, *args.hidden, 1], 1.0)
    params = [*actor.parameters(), *critic.parameters()]
    optimizer = torch.optim.Adam(params, lr=args.lr, eps=1e-5)
    T, N = args.steps, args.envs
    obs_buf = torch.zeros(T, N, n_obs)
    mask_buf = torch.zeros(T, N, n_act, dtype=torch.bool)
    act_buf, logp_buf, val_buf, rew_buf, done_buf = (torch.zeros(T, N) for _ in range(5))

    obs, info = envs.reset(seed=args.seed)
    budget, cpu0, wall0 = 60 * args.cpu_minutes, time.process_time(), time.monotonic()
    rows: list[dict[str, float]] = []
    steps = update = 0
    while (used := time.process_time() - cpu0) < budget:
        left = 1 - used / budget
        for group in optimizer.param_groups:
            group["lr"] = args.lr * max(0.05, left)
        ent_coef = args.ent * (0.1 + 0.9 * left)
        for t in range(T):
            o = torch.as_tensor(obs)
            m = torch.as_tensor(info["action_mask"].astype(bool))
            with torch.no_grad():
                logits = actor(o).masked_fill(~m, -1e8)
                dist = torch.distributions.Categorical(logits=logits)
                a = dist.sample()
                obs_buf[t], mask_buf[t], act_buf[t] = o, m, a
                logp_buf[t], val_buf[t] = dist.log_prob(a), critic(o).squeeze(1)
            obs, reward, terminated, truncated, info = envs.step(a.numpy())
            rew_buf[t] = torch.as_tensor(reward / 100.0, dtype=torch.float32)
            done_buf[t] = torch.as_tensor(terminated | truncated, dtype=torch.float32)
        steps += T * N
        with torch.no_grad():  # GAE with gamma 1; an ended game's next value is 0
            next_value = critic(torch.as_tensor(obs)).squeeze(1)
            adv, last = torch.zeros(T, N), torch.zeros(N)
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else val_buf[t + 1]
                alive = 1.0 - done_buf[t]
                delta = rew_buf[t] + nv * alive - val_buf[t]
                last = delta + 0.95 * alive * last
                adv[t] = last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(T * N, -1), mask_buf.reshape(T * N, -1)
        b_act, b_logp = act_buf.reshape(-1).long(), logp_buf.reshape(-1)
        b_adv, b_ret = adv.reshape(-1), ret.reshape(-1)
        for _ in range(args.epochs):
            for idx in torch.randperm(T * N).split(args.minibatch):
                dist = torch.distributions.Categorical(
                    logits=actor(b_obs[idx]).masked_fill(~b_mask[idx], -1e8)
                )
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a_n = b_adv[idx]
                a_n = (a_n - a_n.mean()) / (a_n.std() + 1e-8)
                pg = torch.max(-a_n * ratio, -a_n * ratio.clamp(0.8, 1.2)).mean()
                v_loss = 0.5 * (critic(b_obs[idx]).squeeze(1) - b_ret[idx]).pow(2).mean()
                entropy = (dist.probs * dist.logits.clamp(min=-30)).sum(1).neg().mean()
                loss = pg + 0.5 * v_loss - ent_coef * entropy
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, 0.5)
                optimizer.step()
        update += 1
        if update % args.eval_every == 1 or time.process_time() - cpu0 >= budget:
            totals = greedy_totals(actor, args.rules, args.eval_games, EVAL_SEED)
            row = {
                "steps": steps,
                "cpu_minutes": round((time.process_time() - cpu0) / 60, 3),
                "minutes": round((time.monotonic() - wall0) / 60, 3),
                "mean": round(float(totals.mean()), 3),
                "se": round(float(totals.std(ddof=1) / math.sqrt(len(totals))), 3),
            }
            rows.append(row)
            with (args.out / "curve.csv").open("w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=list(row))
                writer.writeheader()
                writer.writerows(rows)
            print(" ".join(f"{k} {v}" for k, v in row.items()), flush=True)
    torch.save(
        {
            "format": "yacht-masked-mlp",
            "observation": "features",
            "rules": args.rules,
            "sizes": [n_obs, *args.hidden, n_act],
            "state_dict": actor.state_dict(),
        },
        args.out / "model.pt",
    )
    print(f"trained {steps} steps, {update} updates", flush=True)
    policy = mlp_policy(actor)
    report = yacht.env.evaluate(
        policy,
        args.final_games,
        args.rules,
        FINAL_SEED,
        wrap=yacht.env.Features,
        name="vector-ppo",
    )
    print(report)
    (args.out / "evaluation.json").write_text(report.to_json_text())
    return 0


def mlp_policy(actor: Any) -> Any:
    """A ``yacht.env.evaluate`` policy: the actor's argmax among the legal actions."""
    import torch

    def act(obs: Any, info: dict[str, Any]) -> int:
        with torch.no_grad():
            logits = actor(torch.as_tensor(obs, dtype=torch.float32)).numpy()
        return int(np.where(info["action_mask"].astype(bool), logits, -np.inf).argmax())

    return act


if __name__ == "__main__":
    sys.exit(main())
