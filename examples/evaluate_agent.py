"""Evaluate an agent in the Gymnasium environment against the exact optimum.

    python examples/evaluate_agent.py --agent masked-random --episodes 500
    python examples/evaluate_agent.py --agent greedy --rules clubhouse
    python examples/evaluate_agent.py --model examples/models/vector-ppo.pt --episodes 1000
    python examples/evaluate_agent.py --model build/rl/ppo/model.zip


``--agent`` is ``masked-random`` (a uniform choice among the legal actions of
``info["action_mask"]``) or any :func:`yacht.bots.make_bot` name (``random``, ``greedy``,
``easy``, ``medium``, ``hard``, ``optimal``), seated through :func:`yacht.env.bot_action`.
The report is :func:`yacht.env.evaluate`'s: mean, standard error, percentiles, the expected
points lost per decision against the exact hints, and each category's mean against optimal
play. Pass your own ``policy(obs, info) -> action`` to ``yacht.env.evaluate`` the same way.

``--model PATH`` plays a trained model greedily instead (its deterministic action; a masked
model among the legal actions only):

- a Stable-Baselines3 or sb3-contrib ``.zip`` (``PPO``, ``MaskablePPO`` or ``DQN``, told
  apart by the policy class the file names), its observation told by the model's
  observation space: ``float32[65]`` is ``Features``, ``float32[33]``
  ``Features(one_hot=False)``, ``int16[33]`` ``FaceCounts``, ``int16[32]`` the raw vector;
- a ``.pt`` of ``examples/train_vector_ppo.py`` (the actor's layer sizes and weights).

An unmasked model may pick an illegal action; the environment's default then ends that game,
and the report counts it (``UNFINISHED games``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
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


def sb3_policy(path: Path) -> tuple[Policy, Any, str]:
    """A greedy policy of an SB3 / sb3-contrib model file, its observation wrapper, its name."""
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data"))
    policy_module = str(data.get("policy_class", {}).get("__module__", ""))
    if "maskable" in policy_module:
        from sb3_contrib import MaskablePPO as algo
    elif ".dqn." in policy_module:
        from stable_baselines3 import DQN as algo
    else:
        from stable_baselines3 import PPO as algo
    model = algo.load(path, device="cpu")
    space = model.observation_space
    wraps = {
        ((65,), "float32"): yacht.env.Features,
        ((33,), "float32"): lambda env: yacht.env.Features(env, one_hot=False),
        ((33,), "int16"): yacht.env.FaceCounts,
        ((32,), "int16"): None,
    }
    key = (tuple(space.shape), str(space.dtype))
    if key not in wraps:
        raise ValueError(f"the model's observations {key} are none of this environment's")
    masked = "maskable" in policy_module

    def act(obs: Any, info: dict[str, Any]) -> int:
        if masked:
            mask = info["action_mask"].astype(bool)
            return int(model.predict(obs, action_masks=mask, deterministic=True)[0])
        return int(model.predict(obs, deterministic=True)[0])

    return act, wraps[key], algo.__name__


def torch_policy(path: Path) -> tuple[Policy, Any, str]:
    """A greedy policy of a ``train_vector_ppo.py`` model, among the legal actions."""
    import torch
    from train_vector_ppo import mlp, mlp_policy  # this folder: the script's own network

    saved = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(saved, dict) or saved.get("format") != "yacht-masked-mlp":
        raise ValueError("not a model of examples/train_vector_ppo.py")
    actor = mlp(saved["sizes"], 0.01)
    actor.load_state_dict(saved["state_dict"])
    actor.eval()
    act: Policy = mlp_policy(actor)
    return act, yacht.env.Features, "vector-ppo"


def model_policy(path: Path) -> tuple[Policy, Any, str]:
    if not path.is_file():
        raise ValueError(f"no model file {path}")
    if path.suffix == ".pt":
        return torch_policy(path)
    if zipfile.is_zipfile(path):
        return sb3_policy(path)
    raise ValueError(f"{path} is neither a Stable-Baselines3 .zip nor a train_vector_ppo .pt")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="masked-random")
    parser.add_argument("--rules", default="traditional", choices=preset_names())
    parser.add_argument("--model", type=Path, help="a trained model file (.zip or .pt)")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.episodes < 2:
        parser.error("--episodes must be at least 2")
    if args.model is None and args.agent.endswith((".zip", ".pt")):
        args.model = Path(args.agent)  # the issue's --agent MODEL.zip: what was meant
    wrap, name = None, args.agent
    if args.model is not None:
        try:
            policy, wrap, name = model_policy(args.model)
        except (ValueError, OSError, KeyError, zipfile.BadZipFile, RuntimeError) as error:
            parser.error(f"cannot load --model {args.model}: {error}")
    elif args.agent == "masked-random":
        policy = masked_random(args.seed)
    else:
        try:
            policy = bot_policy(args.agent, args.rules, args.seed)
        except ValueError as error:
            parser.error(f"--agent: {error}")
    print(yacht.env.evaluate(policy, args.episodes, args.rules, args.seed, wrap=wrap, name=name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
