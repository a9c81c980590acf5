"""Reinforcement-learning environments (extra ``yacht[env]``): Gymnasium and PettingZoo.

Importing this package registers the Gymnasium id ``yacht/Yacht-v0`` (keyword ``rules``):

>>> import gymnasium
>>> import yacht.env
>>> env = gymnasium.make("yacht/Yacht-v0", rules="clubhouse")
>>> env.action_space, env.observation_space.shape
(Discrete(44), (32,))

PettingZoo's AEC environment for 1 to 6 players is :func:`aec_env` (wrapped) or :class:`raw_env`;
both import PettingZoo only when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium

from yacht.env.agents import bot_action, view_from_observation
from yacht.env.gym_env import ENV_ID, YachtEnv
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
)

if TYPE_CHECKING:
    from yacht.env.aec import env as aec_env
    from yacht.env.aec import raw_env

__all__ = [
    "ACTION_COUNT",
    "ENV_ID",
    "HOLD_COUNT",
    "YachtEnv",
    "action_mask",
    "aec_env",
    "bot_action",
    "decode_action",
    "decode_observation",
    "describe_action",
    "hold_action",
    "observation",
    "observation_fields",
    "raw_env",
    "score_action",
    "view_from_observation",
]

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="yacht.env.gym_env:YachtEnv")


def __getattr__(name: str) -> Any:
    if name in ("aec_env", "raw_env"):
        from yacht.env import aec

        return aec.env if name == "aec_env" else aec.raw_env
    raise AttributeError(f"module 'yacht.env' has no attribute {name!r}")
