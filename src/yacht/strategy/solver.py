"""The exact solver: the expected points still to come from every turn-start state.

A turn-start state is the set of used categories (a 12-bit mask, bit ``Category.index``)
plus, for presets with an upper bonus, the upper subtotal capped at the threshold. States
are solved backwards, in layers of equal popcount, all states of a layer at once.

>>> from yacht.rules import rules_by_name
>>> s = solve(rules_by_name("traditional"))
>>> round(s.expected, 7)
166.9550677
>>> s.value(frozenset(CATEGORIES))
0.0
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from yacht.rules import CATEGORIES, Category, Rules
from yacht.strategy import cache
from yacht.strategy.errors import StrategyError
from yacht.strategy.tables import F64, FULL, I64, ScoreTable, by_category, score_table
from yacht.strategy.turn import (
    best_categories,
    best_keeps,
    keep_values,
    roll_values,
    stop_values,
    turn_value,
)

__all__ = [
    "FULL",
    "Solution",
    "TurnPolicy",
    "build_values",
    "layers",
    "mask_of",
    "solve",
]

CHUNK = 512
"""Columns (states) computed together: large enough for numpy, small enough for the cache."""

_FORMAT = 1


def mask_of(used: Iterable[Category | str] | int) -> int:
    """A used-category mask from categories (or their names), or an int mask as is.

    >>> mask_of([Category.ONES, "yacht"])
    2049
    """
    if isinstance(used, bool):
        raise StrategyError("used", used=used)
    if isinstance(used, int):
        if not 0 <= used <= FULL:
            raise StrategyError("used_mask", used=used, most=FULL)
        return used
    mask = 0
    for c in used:
        mask |= 1 << Category.parse(c).index
    return mask


@functools.cache
def layers() -> tuple[I64, ...]:
    """``layers()[n]``: the used-masks with n categories used, ascending."""
    masks = np.arange(FULL + 1, dtype=np.int64)
    pop = np.array([bin(m).count("1") for m in range(FULL + 1)])
    return tuple(masks[pop == n] for n in range(len(CATEGORIES) + 1))


def category_values(table: ScoreTable, values: F64, masks: I64, uppers: I64) -> list[F64 | None]:
    """Per category, per distinct score: points now plus the value of the state after scoring
    (-inf where the category is filled), for the states ``(masks[i], uppers[i])``."""

    def scoring(c: int, after: I64) -> F64:
        pts = table.values[c][:, None]
        if not table.counts_upper[c]:
            return pts + values[after, uppers][None, :]
        raised = table.raise_upper(uppers[None, :], c, pts)
        gain = table.bonus_gain(uppers[None, :], c, pts)
        out: F64 = (pts + gain) + values[after[None, :], raised]
        return out

    return by_category(masks, scoring)


def build_values(table: ScoreTable) -> F64:
    """``values[mask, upper]`` for every turn-start state (a full sheet is worth 0)."""
    uppers = table.uppers
    values = np.zeros((FULL + 1, uppers), dtype=np.float64)
    for n in range(len(CATEGORIES) - 1, -1, -1):
        masks = np.repeat(layers()[n], uppers)
        ups = np.tile(np.arange(uppers, dtype=np.int64), len(layers()[n]))
        for lo in range(0, masks.size, CHUNK):
            m, u = masks[lo : lo + CHUNK], ups[lo : lo + CHUNK]
            stop = stop_values(table, category_values(table, values, m, u))
            values[m, u] = turn_value(stop)
    return values


@dataclass(frozen=True, eq=False)
class TurnPolicy:
    """One turn's optimal play from one or many turn-start states, per roll.

    ``keep2[r]`` / ``keep1[r]``: the index in :data:`yacht.dice.KEEPS` of the dice to keep
    with roll r (in :data:`yacht.dice.ROLLS` order) at 2 / 1 rolls left; a five-dice keep
    (index ``ROLL_KEEP + r``, the whole roll) means stop and score. ``category[r]``: the
    index (``Category.index``) of the category to score roll r in. For many states the
    arrays are ``[r, state]``.
    """

    keep2: I64
    keep1: I64
    category: I64


@dataclass(frozen=True, eq=False)
class Solution:
    """The solved value table of a preset.

    ``expected``: the expected final total of a new game under optimal play.
    ``seconds``: the time it took to build the table (when it was built).
    """

    rules: Rules
    table: ScoreTable = field(repr=False)
    state_values: F64 = field(repr=False)
    seconds: float

    @property
    def expected(self) -> float:
        return float(self.state_values[0, 0])

    def values(self) -> F64:
        """The whole table, read-only: ``[mask, upper]`` (upper capped at the threshold;
        one column without a bonus). Points on the sheet excluded; the bonus to come included.
        """
        view = self.state_values.view()
        view.flags.writeable = False
        return view

    def state(self, used: Iterable[Category | str] | int, upper: int = 0) -> tuple[int, int]:
        """``(mask, tracked upper)`` for used categories and an upper subtotal.

        The subtotal must be one the used upper categories can add up to; it is capped at the
        bonus threshold (and ignored by presets without a bonus).
        """
        mask = mask_of(used)
        if isinstance(upper, bool) or not isinstance(upper, int):
            raise StrategyError("upper_type", upper=upper)
        possible = self.table.possible_uppers(mask)
        capped = upper == self.table.cap and max(possible) >= upper
        if upper not in possible and not capped:
            used_upper = [c for c in CATEGORIES[:6] if mask >> c.index & 1]
            if not used_upper:
                raise StrategyError("upper_impossible_none", upper=upper)
            raise StrategyError("upper_impossible", upper=upper, used=used_upper)
        return mask, min(upper, self.table.cap)

    def value(self, used: Iterable[Category | str] | int, upper: int = 0) -> float:
        """Expected points still to come from a turn's start (points on the sheet excluded).

        ``used``: the filled categories, or their int mask; ``upper``: the upper subtotal.
        """
        mask, up = self.state(used, upper)
        return float(self.state_values[mask, up])

    def turn_policy(self, used: Iterable[Category | str] | int, upper: int = 0) -> TurnPolicy:
        """Optimal keeps and categories for every roll of a turn from one state."""
        mask, up = self.state(used, upper)
        if mask == FULL:
            raise StrategyError("no_turn")
        return self._policy(mask, up)

    def turn_policies(self, masks: I64, uppers: I64) -> TurnPolicy:
        """Like :meth:`turn_policy` for many states at once (arrays ``[roll, state]``);
        ``uppers`` are tracked (capped) subtotals, 0 without a bonus."""
        m = np.asarray(masks, dtype=np.int64)
        u = np.asarray(uppers, dtype=np.int64)
        if m.shape != u.shape or m.ndim != 1:
            raise StrategyError("arrays")
        if np.any((m < 0) | (m >= FULL)) or np.any((u < 0) | (u > self.table.cap)):
            raise StrategyError("states")
        by_category = category_values(self.table, self.state_values, m, u)
        stop = stop_values(self.table, by_category)
        keeps1 = keep_values(stop)
        first = roll_values(stop, keeps1)
        keeps2 = keep_values(first)
        return TurnPolicy(
            keep2=best_keeps(stop, keeps2),
            keep1=best_keeps(stop, keeps1),
            category=best_categories(self.table, by_category),
        )

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - solutions live as long as the process
    def _policy(self, mask: int, upper: int) -> TurnPolicy:
        many = self.turn_policies(np.array([mask]), np.array([upper]))
        return TurnPolicy(many.keep2[:, 0], many.keep1[:, 0], many.category[:, 0])


_SOLVED: dict[str, Solution] = {}


@cache.one_at_a_time
def solve(rules: Rules | str, *, use_cache: bool = True) -> Solution:
    """The solved value table of a preset: from memory, the disk cache, or built now.

    ``use_cache=False`` builds the table afresh and touches neither cache.
    """
    from yacht.rules import rules_by_name

    preset = rules_by_name(rules)
    table = score_table(preset)
    key = f"values-{preset.fingerprint()}-v{_FORMAT}"
    if use_cache:
        known = _SOLVED.get(key)
        if known is not None:
            return known if known.rules is preset else _rename(known, preset)
        stored = cache.load(key, shape=(FULL + 1, table.uppers))
        if stored is not None:
            solution = Solution(preset, table, stored.array, stored.seconds)
            _SOLVED[key] = solution
            return solution
    start = time.perf_counter()
    values = build_values(table)
    solution = Solution(preset, table, values, time.perf_counter() - start)
    if use_cache:
        _SOLVED[key] = solution
        cache.store(key, values, solution.seconds)
    return solution


def _rename(known: Solution, preset: Rules) -> Solution:
    return Solution(preset, known.table, known.state_values, known.seconds)
