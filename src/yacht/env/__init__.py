"""Reinforcement-learning environments (extra ``yacht[env]``): Gymnasium and PettingZoo.

Importing this package registers the Gymnasium id ``yacht/Yacht-v0`` (keyword ``rules``):

>>> import gymnasium
>>> import yacht.env
>>> env = gymnasium.make("yacht/Yacht-v0", rules="clubhouse")
>>> env.action_space, env.observation_space.shape
(Discrete(44), (32,))

PettingZoo's AEC environment for 1 to 6 players is :func:`aec_env` (wrapped) or :class:`raw_env`;
both import PettingZoo only when first used. Observation options are the wrappers
:class:`FaceCounts`, :class:`Features` and :class:`OptimumInfo` (:mod:`yacht.env.wrappers`);
:func:`evaluate` plays a policy and rates it against the exact optimum.
:class:`VectorYachtEnv` steps thousands of solo games at once as numpy arrays (the same games
as :class:`YachtEnv` for the same seeds: both deal :func:`counter_dice`). An agent trained on
any of them plays a PettingZoo seat through :func:`to_solo` and :func:`seat_action` (or
:func:`seat_policy`, both at once). :class:`SB3VecEnv` gives Stable-Baselines3 the batched games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium

from yacht.env.agents import bot_action, view_from_observation
from yacht.env.counter_dice import CounterDice, counter_dice
from yacht.env.gym_env import ENV_ID, ILLEGAL_ACTIONS, ILLEGAL_LIMIT, ILLEGAL_PENALTY, YachtEnv
from yacht.env.seat import seat_action, seat_policy, to_solo
from yacht.env.spaces import (
    ACTION_COUNT,
    HOLD_COUNT,
    action_mask,
    decode_action,
    decode_observation,
    describe_action,
    hold_action,
    observation,
    observation_fields,
    score_action,
    solo_observation,
)
from yacht.env.vector import VectorYachtEnv
from yacht.env.wrappers import FaceCounts, Features, OptimumInfo

if TYPE_CHECKING:
    from yacht.env.aec import env as aec_env
    from yacht.env.aec import raw_env
    from yacht.env.evaluation import Evaluation, evaluate
    from yacht.env.sb3 import SB3VecEnv

__all__ = [
    "ACTION_COUNT",
    "ENV_ID",
    "HOLD_COUNT",
    "ILLEGAL_ACTIONS",
    "ILLEGAL_LIMIT",
    "ILLEGAL_PENALTY",
    "CounterDice",
    "Evaluation",
    "FaceCounts",
    "Features",
    "OptimumInfo",
    "SB3VecEnv",
    "VectorYachtEnv",
    "YachtEnv",
    "action_mask",
    "aec_env",
    "bot_action",
    "counter_dice",
    "decode_action",
    "decode_observation",
    "describe_action",
    "evaluate",
    "hold_action",
    "observation",
    "observation_fields",
    "raw_env",
    "score_action",
    "seat_action",
    "seat_policy",
    "solo_observation",
    "to_solo",
    "view_from_observation",
]

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="yacht.env.gym_env:YachtEnv")


def __getattr__(name: str) -> Any:
    if name in ("aec_env", "raw_env"):
        from yacht.env import aec

        return aec.env if name == "aec_env" else aec.raw_env
    if name in ("evaluate", "Evaluation"):
        from yacht.env import evaluation

        return getattr(evaluation, name)
    if name == "SB3VecEnv":  # Stable-Baselines3 only when asked for (extra yacht[rl])
        from yacht.env.sb3 import SB3VecEnv

        return SB3VecEnv
    raise AttributeError(f"module 'yacht.env' has no attribute {name!r}")
