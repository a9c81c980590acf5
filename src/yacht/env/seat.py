"""An agent trained on any observation option, seated at a PettingZoo table.

:func:`to_solo` turns what a seat observes (the ``{"observation", "action_mask"}`` dict, or a
multi-player vector) into what the agent learned on: the raw one-player vector, or
:class:`~yacht.env.FaceCounts` or :class:`~yacht.env.Features` of it. :func:`seat_action`
turns the agent's answer back into the table's action: under those two wrappers a hold's bit
``i`` means the ``i + 1``-th smallest die, while the table (like :class:`~yacht.env.YachtEnv`
itself) reads die ``i + 1``. Both take ``like``: the training environment (any wrapper chain
around ``YachtEnv``, or a :class:`~yacht.env.VectorYachtEnv`), or the name of its observation.
Forgetting the second half plays silently worse (holds keep the wrong dice), so
:func:`seat_policy` does both.

>>> from yacht.env import Features, YachtEnv, aec_env
>>> trained = Features(YachtEnv())
>>> table = aec_env(num_players=2)
>>> table.reset(seed=4)
>>> seen = table.observe("player_0")
>>> to_solo(seen, like=trained).shape == trained.observation_space.shape
True
>>> def keep_the_two_largest(x, mask):
...     return 24 if mask[0] else 32 + int(np.flatnonzero(mask[32:])[0])
>>> policy = seat_policy(keep_the_two_largest, like=trained)
>>> dice = seen["observation"][:5].tolist()
>>> action = policy(seen)
>>> sorted(dice[i] for i in range(5) if action >> i & 1) == sorted(dice)[3:]
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from yacht.env.spaces import HOLD_COUNT, solo_observation
from yacht.env.wrappers import FaceCounts, Features, face_counts, features, positional_hold
from yacht.rules import Rules, rules_by_name

__all__ = ["OBSERVATION_KINDS", "seat_action", "seat_policy", "to_solo"]

OBSERVATION_KINDS = ("raw", "face_counts", "features")

Like = Any
"""A training environment (a wrapped YachtEnv, a VectorYachtEnv) or an observation's name."""


def _kind(like: Like, rules: Rules | str | None, one_hot: bool) -> tuple[str, Rules, bool]:
    """The observation option, the preset and one_hot of a training environment or name."""
    if isinstance(like, str):
        if like not in OBSERVATION_KINDS:
            raise ValueError(f"unknown observation {like!r} (use one of {OBSERVATION_KINDS})")
        return like, rules_by_name(rules if rules is not None else "traditional"), one_hot
    observation = getattr(like, "observation", None)
    if isinstance(observation, str) and observation in OBSERVATION_KINDS:  # VectorYachtEnv
        return observation, like.rules, bool(like.one_hot)
    inner = like
    while isinstance(inner, gymnasium.Wrapper):
        if isinstance(inner, Features):
            return "features", inner.unwrapped.rules, inner.one_hot  # type: ignore[attr-defined]
        if isinstance(inner, FaceCounts):
            return "face_counts", inner.unwrapped.rules, one_hot  # type: ignore[attr-defined]
        inner = inner.env
    base_rules = getattr(getattr(like, "unwrapped", like), "rules", None)
    if not isinstance(base_rules, Rules):
        raise TypeError(f"not a Yacht environment or an observation name: {like!r}")
    return "raw", base_rules, one_hot


def to_solo(
    obs: npt.ArrayLike | Mapping[str, Any],
    like: Like = "raw",
    *,
    rules: Rules | str | None = None,
    one_hot: bool = True,
) -> npt.NDArray[Any]:
    """The observer's own view of a seat's observation, as the agent trained on ``like`` saw
    its games (the opponents' sheets and whose turn it is are dropped). ``rules`` and
    ``one_hot`` matter only when ``like`` is a name (an environment knows its own)."""
    kind, preset, hot = _kind(like, rules, one_hot)
    raw = solo_observation(obs)
    if kind == "raw":
        return raw
    if kind == "face_counts":
        return face_counts(raw)
    return features(raw, preset, hot)


def seat_action(action: Any, obs: npt.ArrayLike | Mapping[str, Any], like: Like = "raw") -> int:
    """The table's action for the agent's ``action`` on this observation: a hold by sorted
    dice (``face_counts``, ``features``) becomes the hold of those dice by position."""
    kind, _, _ = _kind(like, None, True)
    a = int(action)
    if kind == "raw" or not 0 <= a < HOLD_COUNT:
        return a
    dice = [int(d) for d in solo_observation(obs)[:5]]
    return positional_hold(a, dice) if all(dice) else a


def seat_policy(
    agent: Callable[[npt.NDArray[Any], npt.NDArray[Any]], Any],
    like: Like = "raw",
    *,
    rules: Rules | str | None = None,
    one_hot: bool = True,
) -> Callable[[Mapping[str, Any]], int]:
    """A table policy from an agent ``agent(observation, action_mask) -> action`` trained on
    ``like``: it sees :func:`to_solo` of the seat's observation and its answer goes through
    :func:`seat_action`."""
    kind, preset, hot = _kind(like, rules, one_hot)

    def act(seen: Mapping[str, Any]) -> int:
        x = to_solo(seen, kind, rules=preset, one_hot=hot)
        mask = np.asarray(seen["action_mask"])
        return seat_action(agent(x, mask), seen, kind)

    return act
