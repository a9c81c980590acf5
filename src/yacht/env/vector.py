"""A batched Yacht environment: ``num_envs`` solo games stepped together as numpy arrays.

:class:`VectorYachtEnv` is a native :class:`gymnasium.vector.VectorEnv`: one ``step`` applies
one action to every game with array operations only (no Python loop over the games), from
tables built once per preset: every category's points for each of the 6**5 dice as they lie,
the features of each, and for the sorted-hold wrappers the positional hold of each action.
It plays exactly what :class:`~yacht.env.YachtEnv` plays: the same observations (the raw
vector, or :class:`~yacht.env.FaceCounts` or :class:`~yacht.env.Features` with
``observation="face_counts"`` / ``"features"``, holds then numbered by sorted dice), actions,
masks, rewards and illegal-action settings, and the same dice: sub-environment ``i`` after
``reset(seed=s)`` plays ``YachtEnv``'s episodes after ``reset(seed=s + i)``, then ``reset()``
(both deal :func:`yacht.env.counter_dice`).

>>> envs = VectorYachtEnv(4, rules="clubhouse")
>>> obs, info = envs.reset(seed=1)
>>> obs.shape, info["action_mask"].shape, envs.single_action_space
((4, 32), (4, 44), Discrete(44))
>>> obs, rewards, terminated, truncated, info = envs.step([32, 43, 0, 31])
>>> rewards.tolist(), terminated.tolist()
([1.0, 0.0, 0.0, 0.0], [False, False, False, False])

**Autoreset** is Gymnasium's default, ``AutoresetMode.NEXT_STEP``: the step that ends a game
returns its last observation (dice 0 for a full sheet) with ``terminated`` or ``truncated``
set, and the next step resets that game, ignores its action and returns the new game's first
observation with reward 0. On that ending step a full sheet's ``action_mask`` is **all zero**
(nothing is legal): a masked categorical that fills illegal logits with ``-inf`` gets NaN
there; guard it, for example ``mask | ~mask.any(axis=1, keepdims=True)`` (any action will do,
it is ignored). ``autoreset_mode="same_step"`` (:data:`~gymnasium.vector.AutoresetMode`
``.SAME_STEP``) instead resets in the ending step: the observation and mask are the new game's
and the ending one is in ``info["final_obs"]`` / ``info["final_info"]`` for the rows
``info["_final_obs"]`` marks; no all-zero mask is ever returned.
"""

from __future__ import annotations

import functools
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from yacht.actions import InvalidActionError
from yacht.env.counter_dice import DICE_PER_EPISODE, stream_faces, stream_start
from yacht.env.gym_env import ILLEGAL_LIMIT, ILLEGAL_PENALTY, check_illegal
from yacht.env.spaces import (
    ACTION_COUNT,
    HOLD_COUNT,
    OBSERVATION_DTYPE,
    _bounds,
    action_space,
    observation_space,
)
from yacht.env.wrappers import _dice_inputs, feature_blocks
from yacht.rules import CATEGORIES, Rules, rules_by_name

__all__ = ["OBSERVATIONS", "VectorYachtEnv", "dice_tables"]

OBSERVATIONS = ("raw", "face_counts", "features")
TURNS = len(CATEGORIES)
CODES = 6**5
"""Dice as they lie, as numbers: ``sum((d[i] - 1) * 6**i)``; :data:`CODES` itself is no dice."""
_PLACES = 6 ** np.arange(5, dtype=np.int32)
# the dice numbers of one solo episode in its seed's stream: turn t, roll r, slot p
_EPISODE_PLACES = np.arange(TURNS * 3 * 5, dtype=np.uint64).reshape(TURNS * 3, 5)
_KEEP = ((np.arange(HOLD_COUNT)[:, None] >> np.arange(5)) & 1).astype(bool)
_FLOAT_PLACES = _PLACES.astype(np.float32)  # exact: every code is below 2**24
_CODE_OF_ONES = int(_PLACES.sum())
# the mask of every (used categories, rolls left or not): bits 0-11 used, bit 12 can roll
_MASK_KEYS = np.arange(1 << (TURNS + 1))
_MASKS = np.concatenate(
    [
        np.repeat((_MASK_KEYS >> TURNS)[:, None], HOLD_COUNT, axis=1),
        1 - ((_MASK_KEYS[:, None] >> np.arange(TURNS)) & 1),
    ],
    axis=1,
).astype(np.int8)

Array = npt.NDArray[Any]


@functools.lru_cache(maxsize=16)
def dice_tables(rules: Rules, one_hot: bool = True) -> dict[str, Array]:
    """Per dice code (and one row more, for no dice): the points of every category
    (``scores``), the face counts (``counts``), the :func:`~yacht.env.wrappers.features` dice
    blocks (``shown``, ``now``), and ``positional[code, a]``: the hold by position that the
    sorted-dice hold ``a`` stands for."""
    dice = (np.arange(CODES)[:, None] // _PLACES) % 6 + 1
    scores = np.zeros((CODES + 1, TURNS), dtype=np.int16)
    counts = np.zeros((CODES + 1, 6), dtype=OBSERVATION_DTYPE)
    blocks = {name: n for name, n in feature_blocks(rules, one_hot)}
    shown = np.zeros((CODES + 1, blocks["counts"]), dtype=np.float32)
    now = np.zeros((CODES + 1, TURNS), dtype=np.float32)
    by_multiset: dict[tuple[int, ...], int] = {}
    for code, row in enumerate(dice.tolist()):
        key = tuple(sorted(row))
        first = by_multiset.setdefault(key, code)
        if first != code:
            scores[code], counts[code] = scores[first], counts[first]
            shown[code], now[code] = shown[first], now[first]
            continue
        scores[code] = [rules.score(row, c) for c in CATEGORIES]
        counts[code] = np.bincount(row, minlength=7)[1:7]
        shown[code], now[code] = _dice_inputs(rules, tuple(row), one_hot)
    shown[CODES], now[CODES] = _dice_inputs(rules, (0,) * 5, one_hot)
    order = np.argsort(dice * 8 + np.arange(5), axis=1, kind="stable")  # ties by position
    positional = np.zeros((CODES + 1, HOLD_COUNT), dtype=np.int64)
    for i in range(5):
        positional[:CODES] |= _KEEP[None, :, i] * (1 << order[:, i : i + 1])
    positional[CODES] = np.arange(HOLD_COUNT)
    return {
        "scores": scores,
        "counts": counts,
        "shown": shown,
        "now": now,
        "positional": positional,
    }


class VectorYachtEnv(gymnasium.vector.VectorEnv[Array, Array, Array]):
    """``num_envs`` solo games of one preset; see the module docstring."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (gymnasium's API)
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        rules: Rules | str = "traditional",
        *,
        observation: str = "raw",
        one_hot: bool = True,
        illegal_action: str = "terminate",
        illegal_penalty: float = ILLEGAL_PENALTY,
        illegal_limit: int = ILLEGAL_LIMIT,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"unknown observation {observation!r} (use one of {OBSERVATIONS})")
        mode = _autoreset_mode(autoreset_mode)
        self.illegal_penalty = check_illegal(illegal_action, illegal_penalty, illegal_limit)
        self.illegal_action = illegal_action
        self.illegal_limit = illegal_limit
        self.rules = rules_by_name(rules)
        self.num_envs = num_envs
        self.observation = observation
        self.one_hot = bool(one_hot)
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.autoreset_mode = mode
        self.single_action_space = action_space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_observation_space = self._single_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.render_mode = None

        tables = dice_tables(self.rules, self.one_hot)
        self._scores, self._counts = tables["scores"].reshape(-1), tables["counts"]
        self._shown, self._now = tables["shown"], tables["now"]
        self._positional = tables["positional"]
        bonus = self.rules.upper_bonus
        self._threshold = bonus.threshold if bonus else 1 << 14
        self._bonus = bonus.points if bonus else 0
        self._max_total = _bounds(self.rules)[1]
        self._upper_scale = float(bonus.threshold) if bonus else 105.0

        n = num_envs
        self._state = np.zeros((n, 32), dtype=OBSERVATION_DTYPE)  # the raw observations
        self._code = np.full(n, CODES, dtype=np.int64)
        self._turn = np.zeros(n, dtype=np.int64)
        self._rolls = np.zeros(n, dtype=np.int64)  # rolls made this turn (3: none left)
        self._illegal = np.zeros(n, dtype=np.int64)
        self._used = np.zeros(n, dtype=np.int64)  # bit c: category c is filled
        self._upper = np.zeros(n, dtype=np.int64)
        self._total = np.zeros(n, dtype=np.int64)
        self._start = np.zeros(n, dtype=np.uint64)
        self._episode = np.zeros(n, dtype=np.uint64)
        self._dice = np.zeros((n, TURNS * 3, 5), dtype=OBSERVATION_DTYPE)  # the episode's dice
        self._ended = np.zeros(n, dtype=bool)
        self._rows = np.arange(n)
        self._reset_done = False
        self.seeds = np.zeros(n, dtype=np.uint64)
        """Each game's dice seed (modulo 2**64)."""

    def _single_space(self) -> spaces.Box[Any]:
        raw = observation_space(self.rules)
        if self.observation == "raw":
            return raw
        if self.observation == "face_counts":
            low = np.concatenate([np.zeros(6), raw.low[5:]]).astype(OBSERVATION_DTYPE)
            high = np.concatenate([np.full(6, 5), raw.high[5:]]).astype(OBSERVATION_DTYPE)
            return spaces.Box(low, high, dtype=OBSERVATION_DTYPE)
        size = sum(n for _, n in feature_blocks(self.rules, self.one_hot))
        return spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32)

    # --- resets -------------------------------------------------------------------------

    def reset(
        self,
        *,
        seed: int | list[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Array, dict[str, Any]]:
        """Start every game (or those ``options["reset_mask"]`` marks): with ``seed`` an int,
        game ``i`` plays episode 0 of seed ``seed + i``; a list gives each its seed (None:
        fresh); no seed plays the next episode of each game's seed (fresh seeds at first)."""
        rows = self._rows
        if options and "reset_mask" in options:
            rows = np.flatnonzero(np.asarray(options["reset_mask"], dtype=bool))
        if seed is not None or not self._reset_done:
            self._reseed(rows, seed)
        else:
            self._episode[rows] += np.uint64(1)
        self._deal(rows)
        self._reset_done = True
        self._ended[rows] = False
        return self._observe(), self._info(np.zeros(self.num_envs, dtype=bool))

    def _reseed(self, rows: Array, seed: int | list[int | None] | None) -> None:
        if seed is None:
            seeds: list[int | None] = [None] * len(rows)
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(len(rows))]
        else:
            seeds = list(seed)
            if len(seeds) != len(rows):
                raise ValueError(f"{len(rows)} seeds needed, got {len(seeds)}")
        fresh = np.random.default_rng().integers(2**63 - 1, size=len(rows))
        values = [s % 2**64 if s is not None else int(f) for s, f in zip(seeds, fresh, strict=True)]
        self.seeds[rows] = np.array(values, dtype=np.uint64)
        self._start[rows] = stream_start(self.seeds[rows])
        self._episode[rows] = 0

    def _deal(self, rows: Array) -> None:
        """Each row's new episode: its dice, an empty sheet, the first roll made."""
        if not len(rows):
            return
        first = self._episode[rows] * np.uint64(DICE_PER_EPISODE)
        numbers = first[:, None, None] + _EPISODE_PLACES
        self._dice[rows] = stream_faces(self._start[rows, None, None], numbers)
        self._state[rows] = 0
        faces = self._dice[rows, 0]
        self._state[rows, :5] = faces
        self._state[rows, 5] = 2
        self._code[rows] = (faces.astype(np.int64) - 1) @ _PLACES
        self._turn[rows] = 0
        self._rolls[rows] = 1
        self._illegal[rows] = 0
        self._used[rows] = 0
        self._upper[rows] = 0
        self._total[rows] = 0

    # --- steps --------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        if not self._reset_done:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise InvalidActionError(
                f"invalid actions: need {self.num_envs} integers 0 to {ACTION_COUNT - 1}, "
                f"got an array of {a.dtype} shaped {a.shape}"
            )
        a = a.astype(np.int64, copy=False)
        if a.min() < 0 or a.max() >= ACTION_COUNT:
            raise InvalidActionError(
                f"invalid action: {int(a[(a < 0) | (a >= ACTION_COUNT)][0])} "
                f"(actions are integers 0 to {ACTION_COUNT - 1})"
            )
        n, restart = self.num_envs, self._ended
        is_hold = a < HOLD_COUNT
        if self.observation != "raw":  # holds count sorted dice: make them positional
            a = np.where(is_hold, self._positional[self._code, a & (HOLD_COUNT - 1)], a)
        category = (a - HOLD_COUNT) * ~is_hold
        legal = np.where(is_hold, self._rolls < 3, (self._used >> category) & 1 == 0)
        act = legal & ~restart
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        illegal = ~(legal | restart)
        if illegal.any():
            self._refuse(np.flatnonzero(illegal), a, rewards, terminated, truncated)
        self._apply(a, category, act & is_hold, act & ~is_hold, rewards, terminated)
        again = np.flatnonzero(restart)
        if len(again):
            self._episode[again] += np.uint64(1)
            self._deal(again)
        ended = terminated | truncated
        if self.autoreset_mode is AutoresetMode.SAME_STEP:
            return self._same_step(rewards, terminated, truncated, ended, illegal)
        self._ended = ended
        return self._observe(), rewards, terminated, truncated, self._info(illegal)

    def _refuse(
        self, bad: Array, a: Array, rewards: Array, terminated: Array, truncated: Array
    ) -> None:
        if self.illegal_action == "raise":
            raise ValueError(
                f"illegal action {int(a[bad[0]])} in game {int(bad[0])} "
                f"(and {len(bad) - 1} more): not in its action_mask"
            )
        rewards[bad] = -self.illegal_penalty
        if self.illegal_action == "terminate":
            terminated[bad] = True
        else:
            self._illegal[bad] += 1
            truncated[bad] = self._illegal[bad] >= self.illegal_limit

    def _apply(
        self,
        a: Array,
        category: Array,
        hold: Array,
        score: Array,
        rewards: Array,
        terminated: Array,
    ) -> None:
        """The legal actions of every game at once: holds roll, scorings fill the sheet and
        start the next turn (its first roll made)."""
        state, flat = self._state, self._state.reshape(-1)
        points = self._scores.take(self._code * TURNS + category) * score
        self._used |= score.astype(np.int64) << category
        rows = np.flatnonzero(score)
        cells = rows * 32 + category[rows]
        flat[cells + 6] = 1
        flat[cells + 18] = points[rows]
        upper = self._upper + points * (category < 6)
        gain = points.astype(np.int64)
        if self._bonus:
            gain += self._bonus * ((self._upper < self._threshold) & (upper >= self._threshold))
        self._upper, self._total = upper, self._total + gain
        rewards += gain
        turn = self._turn + score
        self._turn = turn
        full = score & (turn == TURNS)
        terminated |= full
        rolls = np.where(score, 1, self._rolls + hold)
        rolls[full] = 3
        self._rolls = rolls
        keep = _KEEP.take(np.where(hold, a, 31 * ~score), axis=0)
        place = np.minimum(turn * 3 + rolls - 1, TURNS * 3 - 1)
        fresh = self._dice.reshape(-1, 5).take(self._rows * (TURNS * 3) + place, axis=0)
        dice = np.where(keep, state[:, :5], fresh)
        done = np.flatnonzero(full)
        dice[done] = 0
        state[:, :5] = dice
        state[:, 5] = 3 - rolls
        state[:, 30] = upper
        state[:, 31] = self._total
        code = (dice.astype(np.float32) @ _FLOAT_PLACES).astype(np.int64) - _CODE_OF_ONES
        code[done] = CODES
        self._code = code

    def _same_step(
        self, rewards: Array, terminated: Array, truncated: Array, ended: Array, illegal: Array
    ) -> tuple[Array, Array, Array, Array, dict[str, Any]]:
        rows = np.flatnonzero(ended)
        if not len(rows):
            return self._observe(), rewards, terminated, truncated, self._info(illegal)
        last, last_info = self._observe(), self._info(illegal)
        self._episode[rows] += np.uint64(1)
        self._deal(rows)
        info = self._info(illegal)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in rows:
            final_obs[i] = last[i]
        info |= {
            "final_obs": final_obs,
            "final_info": last_info,
            "_final_obs": ended,
            "_final_info": ended,
        }
        return self._observe(), rewards, terminated, truncated, info

    # --- what a learner sees ------------------------------------------------------------

    def _observe(self) -> Array:
        state = self._state
        if self.observation == "raw":
            return state.copy()
        if self.observation == "face_counts":
            return np.concatenate([self._counts[self._code], state[:, 5:]], axis=1)
        n = self.num_envs
        open_ = 1.0 - state[:, 6:18].astype(np.float32)
        rolls = state[:, 5]
        if self.one_hot:
            rolls_block = np.eye(3, dtype=np.float32)[rolls]
        else:
            rolls_block = (rolls / 2.0).astype(np.float32)[:, None]
        upper = np.minimum(state[:, 30] / self._upper_scale, 1.0)
        tail = np.empty((n, 2), dtype=np.float32)
        tail[:, 0] = upper
        tail[:, 1] = state[:, 31] / self._max_total
        now = self._now[self._code] * open_
        return np.concatenate([self._shown[self._code], rolls_block, open_, now, tail], axis=1)

    def _mask(self) -> npt.NDArray[np.int8]:
        key = self._used | (self._rolls < 3).astype(np.int64) << TURNS
        return _MASKS.take(key, axis=0)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every game as booleans, ``(num_envs, 44)``."""
        return self._mask().astype(bool)

    def _info(self, illegal: Array) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=bool)
        return {
            "action_mask": self._mask(),
            "total": self._total.copy(),
            "illegal_action": illegal,
            "_action_mask": every,
            "_total": every,
            "_illegal_action": every,
        }


def _autoreset_mode(mode: AutoresetMode | str) -> AutoresetMode:
    if isinstance(mode, AutoresetMode):
        chosen = mode
    else:
        names = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
        chosen = names.get(str(mode).lower(), AutoresetMode.DISABLED)
        if str(mode).lower() not in names:
            raise ValueError(f"unknown autoreset_mode {mode!r} (use 'next_step' or 'same_step')")
    if chosen is AutoresetMode.DISABLED:
        raise ValueError("autoreset_mode DISABLED is not offered: use NEXT_STEP or SAME_STEP")
    return chosen
