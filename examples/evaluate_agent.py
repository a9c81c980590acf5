"""Evaluate an agent in the Gymnasium environment against the exact optimum.

    python examples/evaluate_agent.py --agent masked-random --episodes 500
    python examples/evaluate_agent.py --agent greedy --rules clubhouse

``--agent`` is ``masked-random`` (a uniform choice among the legal actions of
``info["action_mask"]``) or any :func:`yacht.bots.make_bot` name (``random``, ``greedy``,
``easy``, ``medium``, ``hard``, ``optimal``), seated through :func:`yacht.env.bot_action`.
Replace :func:`masked_random` with your own policy to evaluate it the same way.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

import yacht.env
from yacht.rules import preset_names, rules_by_name

Policy = Callable[[Any, dict[str, Any]], int]


def masked_random(seed: int) -> Policy:
    rng = np.random.default_rng(seed)

    def act(obs: Any, info: dict[str, Any]) -> int:
        return int(rng.choice(np.flatnonzero(info["action_mask"])))

    return act


def bot_policy(name: str, rules: str, seed: int) -> Policy:
    from yacht.bots import make_bot

    bot, rng, preset = make_bot(name), random.Random(seed), rules_by_name(rules)

    def act(obs: Any, info: dict[str, Any]) -> int:
        return yacht.env.bot_action(bot, yacht.env.view_from_observation(obs, preset), rng)

    return act


def evaluate(policy: Policy, rules: str, episodes: int, seed: int) -> list[float]:
    """The summed reward (= final total) of each episode; episode i is reset with seed + i."""
    env = gymnasium.make(yacht.env.ENV_ID, rules=rules)
    totals = []
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs, info))
            total += float(reward)
            done = terminated or truncated
        totals.append(total)
    return totals


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="masked-random")
    parser.add_argument("--rules", default="traditional", choices=preset_names())
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.episodes < 2:
        parser.error("--episodes must be at least 2")
    policy = (
        masked_random(args.seed)
        if args.agent == "masked-random"
        else bot_policy(args.agent, args.rules, args.seed)
    )
    totals = evaluate(policy, args.rules, args.episodes, args.seed)
    from yacht.strategy import solve

    optimum = solve(rules_by_name(args.rules)).expected
    mean = statistics.mean(totals)
    error = statistics.stdev(totals) / math.sqrt(len(totals))
    print(
        f"{args.agent} under {args.rules}: mean {mean:.2f} +- {error:.2f} over {len(totals)} "
        f"episodes; exact optimum {optimum:.2f}; gap {optimum - mean:.2f} "
        f"({mean / optimum:.1%} of optimal)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
