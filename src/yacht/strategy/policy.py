"""Lookup tables for the vectorised simulator, built on the solver.

The optimal keeps and categories come from :meth:`Solution.turn_policies`; the option values
for noisy play from the solver's turn steps (:mod:`yacht.strategy.turn`). This module adds
what a simulator needs on top: an exact sampler for the roll reached from each keep, and a
cache of per-state tables laid out for flat look-ups by many games at once.

States are numbered ``mask * (cap + 1) + upper``: ``mask`` the 12-bit used-category mask,
``upper`` the upper subtotal capped at the bonus threshold ``cap`` (0 without a bonus), as
in ``Solution.values()[mask, upper]``.

>>> from yacht.dice import KEEPS, ROLLS
>>> s = sampler()
>>> s.shape
(462, 7776)
>>> four_sixes = s[KEEPS.index((6, 6, 6, 6))]
>>> sorted({ROLLS[r][0] for r in four_sixes}), (four_sixes == ROLLS.index((6,) * 5)).sum()
([1, 2, 3, 4, 5, 6], np.int64(1296))
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from yacht.dice import ROLLS
from yacht.rules import CATEGORIES
from yacht.strategy.solver import FULL, Solution, TurnPolicy, category_values
from yacht.strategy.tables import F64, I64, KEEP_START, SUB_KEEPS, TRANSITION
from yacht.strategy.turn import keep_values as keep_value_steps
from yacht.strategy.turn import roll_values, stop_values

if TYPE_CHECKING:
    from yacht.strategy.target import TargetTable

__all__ = [
    "DENSE_KEYS",
    "REROLL_KEEPS",
    "SAMPLES",
    "PolicyCache",
    "expected_cache",
    "sampler",
    "score_values",
    "sub_keep_mask",
    "target_cache",
]

DENSE_KEYS = 1 << 22
"""Up to this many possible state keys, slots are found in a dense array; above, by search."""

SAMPLES = 6**5
"""Columns of the sampler: every keep's outcome probabilities are multiples of 1 / 6**5."""

REROLL_KEEPS = KEEP_START[5]
"""How many keeps hold 0-4 dice (the keeps a player can reroll around): KEEPS[:210]."""

I16 = npt.NDArray[np.int16]


@functools.cache
def sampler() -> I16:
    """``sampler()[k, u]``: the roll (ROLLS index) reached from keep k (KEEPS index) when u
    is uniform in 0..7775. Exact: each roll fills as many columns as 7776 x its probability
    (the inverse of the keep's cumulative distribution). A five-dice keep reaches itself."""
    counts = np.rint(TRANSITION * SAMPLES).astype(np.int64)
    if not (counts.sum(axis=1) == SAMPLES).all():  # pragma: no cover - exact by construction
        raise RuntimeError("keep outcome probabilities are not multiples of 1/7776")
    rolls = np.arange(len(ROLLS))
    return np.stack([np.repeat(rolls, row) for row in counts]).astype(np.int16)


@functools.cache
def sub_keep_mask() -> npt.NDArray[np.bool_]:
    """``[r, j]``: whether ``SUB_KEEPS[r, j]`` is a real keep of roll r, not padding."""
    mask: npt.NDArray[np.bool_] = np.not_equal(SUB_KEEPS, SUB_KEEPS[:, :1])
    mask[:, 0] = True
    return mask


def score_values(solution: Solution, masks: I64, uppers: I64, rolls: I64) -> F64:
    """``[i, c]``: points for roll ``rolls[i]`` in category c plus the value of the state
    after scoring it, from state ``(masks[i], uppers[i])``; -inf where c is filled."""
    table = solution.table
    values = solution.state_values
    bits = 1 << np.arange(len(CATEGORIES))
    points = table.points[rolls]  # (n, 12)
    after = masks[:, None] | bits
    if table.cap:
        counts = np.array(table.counts_upper)
        raised = uppers[:, None] + np.where(counts, points, 0)
        gain = np.where(counts & (uppers[:, None] < table.cap) & (raised >= table.cap), 1, 0)
        later = values[after, np.minimum(raised, table.cap)] + gain * table.bonus
    else:
        later = values[after, 0]
    out: F64 = np.where((masks[:, None] & bits) == 0, points + later, -np.inf)
    return out


class PolicyCache:
    """Per-state turn tables for the states a simulation reaches, built on demand and kept.

    A state is a whole-number key below ``keys``; ``policy(keys)`` gives the optimal
    :class:`TurnPolicy` of many states (arrays ``[roll, state]``) and ``keep_values(keys)``,
    when given, the values ``[keep, state]`` of the keeps of 0-4 dice with 1 and 2 rolls left.

    ``slots(states)`` gives row numbers into flat tables: ``keep2``, ``keep1`` (KEEPS
    indices) and ``category`` (``Category.index``), read at ``slot * 252 + roll``; with keep
    values, also ``keep_value2`` and ``keep_value1``, read at ``slot * 210 + keep``.
    """

    def __init__(
        self,
        keys: int,
        policy: Callable[[I64], TurnPolicy],
        keep_values: Callable[[I64], tuple[F64, F64]] | None = None,
        *,
        batch: int = 2048,
    ) -> None:
        self.policy = policy
        self.keep_values = keep_values
        self.batch = batch
        self._dense = keys <= DENSE_KEYS
        self._slot = np.full(keys if self._dense else 0, -1, dtype=np.int64)
        self._known = np.zeros(0, dtype=np.int64)  # sorted keys, when not dense
        self._known_slot = np.zeros(0, dtype=np.int64)
        self.size = 0
        self.keep2: I16 = np.zeros(0, dtype=np.int16)
        self.keep1: I16 = np.zeros(0, dtype=np.int16)
        self.category: npt.NDArray[np.int8] = np.zeros(0, dtype=np.int8)
        self.keep_value2: npt.NDArray[np.float32] = np.zeros(0, dtype=np.float32)
        self.keep_value1: npt.NDArray[np.float32] = np.zeros(0, dtype=np.float32)

    def slots(self, states: I64) -> I64:
        found = self._find(states)
        missing = np.unique(states[found < 0])
        if missing.size:
            self._add(missing)
            found = self._find(states)
        return found

    def _find(self, states: I64) -> I64:
        if self._dense:
            dense: I64 = self._slot[states]
            return dense
        if self._known.size == 0:
            return np.full(states.shape, -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(self._known, states), self._known.size - 1)
        found: I64 = np.where(self._known[at] == states, self._known_slot[at], -1)
        return found

    def _add(self, states: I64) -> None:
        rolls = len(ROLLS)
        total = self.size + states.size
        if total * rolls > self.keep2.size:
            grow = max(total, 2 * self.size)
            self.keep2 = np.resize(self.keep2, grow * rolls)
            self.keep1 = np.resize(self.keep1, grow * rolls)
            self.category = np.resize(self.category, grow * rolls)
            if self.keep_values is not None:
                self.keep_value2 = np.resize(self.keep_value2, grow * REROLL_KEEPS)
                self.keep_value1 = np.resize(self.keep_value1, grow * REROLL_KEEPS)
        for lo in range(0, states.size, self.batch):
            part = states[lo : lo + self.batch]
            a, b = self.size, self.size + part.size
            policy = self.policy(part)
            self.keep2[a * rolls : b * rolls] = policy.keep2.T.ravel()
            self.keep1[a * rolls : b * rolls] = policy.keep1.T.ravel()
            self.category[a * rolls : b * rolls] = policy.category.T.ravel()
            if self.keep_values is not None:
                one, two = self.keep_values(part)
                self.keep_value1[a * REROLL_KEEPS : b * REROLL_KEEPS] = one.T.ravel()
                self.keep_value2[a * REROLL_KEEPS : b * REROLL_KEEPS] = two.T.ravel()
            self.size = b
        new_slots = np.arange(total - states.size, total)
        if self._dense:
            self._slot[states] = new_slots
        else:
            keys = np.concatenate([self._known, states])
            slots = np.concatenate([self._known_slot, new_slots])
            order = np.argsort(keys, kind="stable")
            self._known, self._known_slot = keys[order], slots[order]


def expected_cache(solution: Solution, *, keep_values: bool = False) -> PolicyCache:
    """Tables of optimal (expected-score) play; states ``mask * uppers + upper``."""
    uppers = solution.table.uppers

    def policy(states: I64) -> TurnPolicy:
        return solution.turn_policies(*np.divmod(states, uppers))

    def values(states: I64) -> tuple[F64, F64]:
        masks, ups = np.divmod(states, uppers)
        table = solution.table
        stop = stop_values(table, category_values(table, solution.state_values, masks, ups))
        one = keep_value_steps(stop)
        two = keep_value_steps(roll_values(stop, one))
        return np.concatenate(one), np.concatenate(two)

    return PolicyCache(solution.state_values.size, policy, values if keep_values else None)


def target_cache(target: TargetTable) -> PolicyCache:
    """Tables of target play; states ``(mask * uppers + upper) * (limit + 2) + needed``
    with ``needed`` the points still needed, 0 to ``limit + 1``."""
    uppers = target.table.uppers
    width = target.limit + 2

    def policy(states: I64) -> TurnPolicy:
        state, needed = np.divmod(states, width)
        masks, ups = np.divmod(state, uppers)
        return target.turn_policies(masks, ups, needed)

    return PolicyCache((FULL + 1) * uppers * width, policy)
