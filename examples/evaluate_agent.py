"""Evaluate an agent in the Gymnasium environment against the exact optimum.

    python examples/evaluate_agent.py --agent masked-random --episodes 500
    python examples/evaluate_agent.py --agent greedy --rules clubhouse

``--agent`` is ``masked-random`` (a uniform choice among the legal actions of
``info["action_mask"]``) or any :func:`yacht.bots.make_bot` name (``random``, ``greedy``,
``easy``, ``medium``, ``hard``, ``optimal``), seated through :func:`yacht.env.bot_action`.
The report is :func:`yacht.env.evaluate`'s: mean, standard error, percentiles, the expected
points lost per decision against the exact hints, and each category's mean against optimal
play. Pass your own ``policy(obs, info) -> action`` to ``yacht.env.evaluate`` the same way.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

import yacht.env
from yacht.env.evaluation import Policy, masked_random
from yacht.rules import preset_names, rules_by_name


def bot_policy(name: str, rules: str, seed: int) -> Policy:
    from yacht.bots import make_bot

    bot, rng, preset = make_bot(name), random.Random(seed), rules_by_name(rules)

    def act(obs: Any, info: dict[str, Any]) -> int:
        return yacht.env.bot_action(bot, yacht.env.view_from_observation(obs, preset), rng)

    return act


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
    print(yacht.env.evaluate(policy, args.episodes, args.rules, args.seed, name=args.agent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
