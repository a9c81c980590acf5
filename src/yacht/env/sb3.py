"""Stable-Baselines3 on the batched environment: :class:`SB3VecEnv` (extra ``yacht[rl]``).

Stable-Baselines3 has its own vectorised interface (``VecEnv``: auto-reset in the ending step,
a list of infos, ``terminal_observation``), not Gymnasium's ``VectorEnv``. This adapter gives
SB3's PPO and DQN and sb3-contrib's MaskablePPO the games of a
:class:`~yacht.env.VectorYachtEnv` as they are, so a learner's environment costs about as much
per step as the network rather than a Python game per step (at 16 games under ``Features``,
``python -m benchmarks.sb3_env`` measured 139,776 env steps a second of CPU time against
6,794 for a ``DummyVecEnv``, median of 5 runs on one core of a 2-core Intel Xeon).

- Every finished game's info has ``terminal_observation``, ``TimeLimit.truncated`` (a game the
  illegal-action limit cut short under ``"penalize"``), and ``episode`` with ``r`` (the sum of
  its rewards as the learner saw them), ``l`` (its steps) and ``total`` (its final total), so
  SB3's ``ep_rew_mean`` works without a ``Monitor``.
- ``env_method("action_masks")`` gives each game's legal actions, which MaskablePPO finds by
  itself.
- ``reward_scale`` multiplies every reward (1/100 keeps a value network's targets near 1).

Used like this (``tests/env/test_sb3_vector.py`` checks it plays ``YachtEnv``'s games)::

    from sb3_contrib import MaskablePPO
    from yacht.env import SB3VecEnv, VectorYachtEnv

    venv = SB3VecEnv(VectorYachtEnv(16, observation="features"), reward_scale=0.01)
    model = MaskablePPO("MlpPolicy", venv).learn(1_000_000)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from yacht.env.vector import VectorYachtEnv

__all__ = ["SB3VecEnv"]


class SB3VecEnv(VecEnv):  # type: ignore[misc]
    """A :class:`~yacht.env.VectorYachtEnv` as a Stable-Baselines3 ``VecEnv``.

    SB3 resets a game in the step that ends it, so a ``VectorYachtEnv`` in another
    ``autoreset_mode`` is made again with ``autoreset_mode="same_step"`` and its other settings.
    """

    def __init__(self, env: VectorYachtEnv, *, reward_scale: float = 1.0) -> None:
        if not isinstance(env, VectorYachtEnv):
            raise TypeError(f"SB3VecEnv needs a VectorYachtEnv, got {type(env).__name__}")
        if env.autoreset_mode is not AutoresetMode.SAME_STEP:
            env = VectorYachtEnv(
                env.num_envs,
                env.rules,
                observation=env.observation,
                one_hot=env.one_hot,
                illegal_action=env.illegal_action,
                illegal_penalty=env.illegal_penalty,
                illegal_limit=env.illegal_limit,
                autoreset_mode="same_step",
            )
        self.env = env  # before SB3's __init__, which asks it for its render_mode
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)
        self.reward_scale = float(reward_scale)
        self._actions: npt.NDArray[Any] = np.zeros(env.num_envs, dtype=np.int64)
        self._returns = np.zeros(env.num_envs)
        self._lengths = np.zeros(env.num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[Any]:
        seeds = None if all(s is None for s in self._seeds) else list(self._seeds)
        obs, _ = self.env.reset(seed=seeds)
        self._reset_seeds()
        self._returns[:] = 0
        self._lengths[:] = 0
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs).astype(np.int64)

    def step_wait(self) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], list[Any]]:
        obs, rewards, terminated, truncated, info = self.env.step(self._actions)
        scaled = (rewards * self.reward_scale).astype(np.float32)
        self._returns += scaled
        self._lengths += 1
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = {
                "terminal_observation": info["final_obs"][i],
                "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
                "illegal_action": bool(info["final_info"]["illegal_action"][i]),
                "episode": {
                    "r": float(self._returns[i]),
                    "l": int(self._lengths[i]),
                    "total": int(info["final_info"]["total"][i]),
                },
            }
        self._returns[dones] = 0
        self._lengths[dones] = 0
        return obs, scaled, dones, infos

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the batched games share their attributes; {attr_name} is fixed")

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name != "action_masks":
            raise AttributeError(f"SB3VecEnv has no per-game method {method_name!r}")
        masks = self.env.action_masks()
        return [masks[i] for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self) -> Sequence[npt.NDArray[Any] | None]:
        return [None for _ in range(self.num_envs)]
