"""Observation options for learners, as Gymnasium wrappers around :class:`YachtEnv`.

* :class:`FaceCounts`: the dice as how many of each face (6 counts) instead of five positions;
  the rest of the vector unchanged. Integer, shape ``(33,)``.
* :class:`Features`: every input scaled to ``[0, 1]`` as ``float32``, with what the dice would
  score in each category now; ``one_hot=True`` (the default) gives the face counts and the rolls
  left as one-hot blocks. Shape ``(65,)`` one-hot, ``(33,)`` scaled.
* :class:`OptimumInfo`: the exact optimum's values in ``info``, for analysis (not an input):
  ``info["optimum"]``, the expected final total of optimal play from this position, and
  ``info["action_values"]``, the same after each action (NaN where illegal).

With face counts a learner no longer sees where each face lies, so under :class:`FaceCounts`
and :class:`Features` a hold action's bit ``i`` holds the ``i + 1``-th *smallest* die (ties in
position order) instead of die ``i + 1``: the same action then means the same keep whatever
order the dice fell in. The mask is unchanged (holds are legal all together or not at all).

>>> env = Features(YachtEnv())
>>> obs, info = env.reset(seed=0)
>>> obs.shape, obs.dtype.name, float(obs.min()) >= 0.0, float(obs.max()) <= 1.0
((65,), 'float32', True, True)
>>> [name for name, _ in feature_blocks(env.unwrapped.rules, one_hot=True)]
['counts', 'rolls_left', 'open', 'points_now', 'upper', 'total']
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from yacht.env.gym_env import YachtEnv
from yacht.env.spaces import HOLD_COUNT, OBSERVATION_DTYPE, UPPER_MAX, _bounds
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Rules

__all__ = [
    "FaceCounts",
    "Features",
    "OptimumInfo",
    "action_values",
    "face_counts",
    "feature_blocks",
    "features",
    "positional_hold",
]

FloatVector = npt.NDArray[np.float32]


def _yacht(env: gymnasium.Env[Any, Any]) -> YachtEnv:
    base = env.unwrapped
    if not isinstance(base, YachtEnv):
        raise TypeError(f"this wrapper needs a YachtEnv underneath, got {type(base).__name__}")
    return base


def face_counts(obs: npt.ArrayLike) -> npt.NDArray[np.int16]:
    """A one-player observation with the five dice replaced by the count of each face 1..6.

    >>> face_counts([6, 2, 6, 6, 5, 1] + [0] * 26)[:7].tolist()
    [0, 1, 0, 0, 1, 3, 1]
    """
    v = np.asarray(obs)
    counts = np.bincount(v[:5].astype(np.intp), minlength=7)[1:7]
    return np.concatenate([counts, v[5:]]).astype(OBSERVATION_DTYPE)


@functools.lru_cache(maxsize=16384)
def _dice_inputs(
    rules: Rules, dice: tuple[int, ...], one_hot: bool
) -> tuple[FloatVector, FloatVector]:
    """The ``counts`` block and each category's points now over its best, for these dice."""
    counts = np.bincount(np.asarray(dice, dtype=np.intp), minlength=7)[1:7]
    if one_hot:
        block = np.zeros((6, 6), dtype=np.float32)
        block[np.arange(6), counts] = 1.0
        shown = block.ravel()
    else:
        shown = (counts / 5.0).astype(np.float32)
    best, _ = _bounds(rules)
    if all(dice):
        now = np.array([rules.score(dice, c) for c in CATEGORIES], dtype=np.float32)
        now /= np.array(best, dtype=np.float32)
    else:  # the game is over: no dice
        now = np.zeros(len(CATEGORIES), dtype=np.float32)
    return shown, now


def feature_blocks(rules: Rules, one_hot: bool = True) -> list[tuple[str, int]]:
    """The :func:`features` vector's blocks in order, as ``(name, length)``."""
    return [
        ("counts", 36 if one_hot else 6),
        ("rolls_left", 3 if one_hot else 1),
        ("open", len(CATEGORIES)),
        ("points_now", len(CATEGORIES)),
        ("upper", 1),
        ("total", 1),
    ]


def features(obs: npt.ArrayLike, rules: Rules, one_hot: bool = True) -> FloatVector:
    """A one-player observation as learner inputs in ``[0, 1]`` (see :func:`feature_blocks`).

    ``counts``: per face 1..6, one-hot over 0..5 dice (or the count / 5); ``rolls_left``:
    one-hot over 0..2 (or / 2); ``open``: 1 per open category; ``points_now``: what the dice
    score in each open category now, over the category's best (0 when filled); ``upper``: the
    upper subtotal over the bonus threshold, capped at 1 (over 105 without a bonus);
    ``total``: the total over the preset's best.
    """
    v = np.asarray(obs)
    shown, now = _dice_inputs(rules, tuple(int(d) for d in v[:5]), bool(one_hot))
    rolls_left = int(v[5])
    open_ = 1.0 - v[6:18].astype(np.float32)
    _, max_total = _bounds(rules)
    bonus = rules.upper_bonus
    upper = min(float(v[30]) / (bonus.threshold if bonus else UPPER_MAX), 1.0)
    rolls = np.eye(3, dtype=np.float32)[rolls_left] if one_hot else [rolls_left / 2.0]
    tail = np.array([upper, float(v[31]) / max_total], dtype=np.float32)
    return np.concatenate([shown, rolls, open_, now * open_, tail]).astype(np.float32)


def positional_hold(action: int, dice: Sequence[int]) -> int:
    """The hold by position that sorted-dice hold ``action`` stands for with these dice: bit
    ``i`` of ``action`` holds the ``i + 1``-th smallest die (ties in position order).

    >>> positional_hold(0b00011, (6, 2, 6, 1, 5))  # the two smallest: dice 4 and 2
    10
    """
    order = sorted(range(5), key=lambda i: (dice[i], i))
    return sum(1 << order[i] for i in range(5) if action >> i & 1)


class _SortedHolds(gymnasium.Wrapper[Any, np.int64, Any, np.int64]):
    """Hold bit ``i`` holds the ``i + 1``-th smallest die; observations come from :meth:`_see`."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        self._base = _yacht(env)

    def _see(self, obs: Any) -> Any:
        raise NotImplementedError

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._see(obs), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(self.positional(action))
        return self._see(obs), reward, terminated, truncated, info

    def positional(self, action: Any) -> Any:
        """The wrapped environment's action for ``action`` (holds renumbered by position)."""
        dice = self._base.game.dice
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if dice is None or not isinstance(action, int | np.integer) or isinstance(action, bool):
            return action
        if not 0 <= action < HOLD_COUNT:
            return action
        return positional_hold(int(action), dice)


class FaceCounts(_SortedHolds):
    """Observation: counts of faces 1..6, then the one-player vector from the rolls left on."""

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        base = self.env.observation_space
        assert isinstance(base, spaces.Box)
        low = np.concatenate([np.zeros(6), base.low[5:]]).astype(OBSERVATION_DTYPE)
        high = np.concatenate([np.full(6, 5), base.high[5:]]).astype(OBSERVATION_DTYPE)
        self.observation_space = spaces.Box(low, high, dtype=OBSERVATION_DTYPE)

    def _see(self, obs: Any) -> Any:
        return face_counts(obs)


class Features(_SortedHolds):
    """Observation: :func:`features` of the one-player vector (``float32`` in ``[0, 1]``)."""

    def __init__(self, env: gymnasium.Env[Any, Any], one_hot: bool = True) -> None:
        super().__init__(env)
        self.one_hot = bool(one_hot)
        size = sum(n for _, n in feature_blocks(self._base.rules, self.one_hot))
        self.observation_space = spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)

    def _see(self, obs: Any) -> Any:
        return features(obs, self._base.rules, self.one_hot)


class OptimumInfo(gymnasium.Wrapper[Any, Any, Any, Any]):
    """Adds the exact optimum's values to ``info`` (about 0.3 ms per step).

    ``info["optimum"]``: the expected final total from this position under optimal play (the
    total so far plus the best option's expected points). ``info["action_values"]``:
    ``float64[44]``, the same expectation after each legal action (NaN for illegal ones),
    indexed by the actions of the environment it wraps: ``OptimumInfo(Features(env))`` numbers
    holds by sorted dice as the learner does, ``Features(OptimumInfo(env))`` by position.
    """

    def __init__(self, env: gymnasium.Env[Any, Any]) -> None:
        super().__init__(env)
        self._base = _yacht(env)
        self._sorted: _SortedHolds | None = None
        inner: Any = env
        while isinstance(inner, gymnasium.Wrapper):
            if isinstance(inner, _SortedHolds):
                self._sorted = inner
                break
            inner = inner.env

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return obs, self._add(info)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, self._add(info)

    def _add(self, info: dict[str, Any]) -> dict[str, Any]:
        values = action_values(self._base)
        if self._sorted is not None and self._base.game.dice is not None:
            positions = [self._sorted.positional(a) for a in range(HOLD_COUNT)]
            values[:HOLD_COUNT] = values[positions]
        total = self._base.game.totals[0]
        legal = values[~np.isnan(values)]
        return info | {
            "optimum": float(legal.max()) if legal.size else float(total),
            "action_values": values,
        }


def action_values(env: YachtEnv) -> npt.NDArray[np.float64]:
    """Expected final total after each action under optimal play from then on (NaN: illegal)."""
    from yacht.strategy import hint

    game = env.game
    values = np.full(HOLD_COUNT + len(CATEGORIES), math.nan)
    if game.finished or game.dice is None:
        return values
    sheet = game.sheet(0)
    upper = sum(sheet.get(c, 0) for c in UPPER_CATEGORIES)
    dice, rolls_left, total = game.dice, game.rolls_left, game.totals[0]
    h = hint(game.rules, frozenset(sheet), dice, rolls_left, upper=upper)
    for option in h.options:
        if option.action == "score" and option.category is not None:
            values[HOLD_COUNT + option.category.index] = total + option.expected
    if rolls_left:
        keeps = {o.keep: o.expected for o in h.options if o.action == "keep"}
        stay = hint(game.rules, frozenset(sheet), dice, rolls_left - 1, upper=upper).best
        for action in range(HOLD_COUNT):
            keep = tuple(sorted(dice[i] for i in range(5) if action >> i & 1))
            values[action] = total + (keeps[keep] if len(keep) < 5 else stay.expected)
    return values
