"""The exact distribution of the final total under optimal (expected-score) play.

Probability mass flows forward from a new game, turn by turn: a layer of turn-start states
(same number of categories used) carries, per state, the probability of every number of
points banked so far. One turn under the optimal policy moves each state's mass over the
rolls and keeps, then to the next states with the points scored added.

>>> d = distribution("traditional")
>>> round(d.mean, 7), round(float(d.probabilities.sum()), 12)
(166.9550677, 1.0)
>>> d.percentiles[50]
167
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.strategy import cache
from yacht.strategy.errors import StrategyError
from yacht.strategy.solver import FULL, Solution, solve
from yacht.strategy.tables import F64, FIRST_ROLL, I64, TRANSITION, ScoreTable

__all__ = ["PERCENTILES", "Distribution", "distribution", "final_totals", "turn_outcomes"]

PERCENTILES = (1, 5, 25, 50, 75, 95, 99)
CHUNK = 2048
_FORMAT = 1


@dataclass(frozen=True, eq=False)
class Distribution:
    """``probabilities[t]``: P(final total = t) under optimal play, t = 0..best total."""

    rules: Rules
    probabilities: F64 = field(repr=False)
    seconds: float

    @property
    def mean(self) -> float:
        return float(np.arange(self.probabilities.size) @ self.probabilities)

    @property
    def stdev(self) -> float:
        t = np.arange(self.probabilities.size)
        return float(np.sqrt(((t - self.mean) ** 2) @ self.probabilities))

    def percentile(self, q: float) -> int:
        """The smallest total t with P(final total <= t) >= q / 100."""
        if not 0 < q <= 100:
            raise StrategyError("percentile", q=q)
        cdf = np.cumsum(self.probabilities)
        return int(np.searchsorted(cdf, q / 100 - 1e-12))

    @property
    def percentiles(self) -> dict[int, int]:
        return {q: self.percentile(q) for q in PERCENTILES}

    def at_least(self, total: int) -> float:
        """P(final total >= total)."""
        return float(self.probabilities[max(0, total) :].sum())

    def to_json(self) -> dict[str, Any]:
        """``{"mean", "stdev", "percentiles": {"1": t, ...}, "probabilities": [p0, ...]}``."""
        return {
            "mean": self.mean,
            "stdev": self.stdev,
            "percentiles": {str(q): t for q, t in self.percentiles.items()},
            "probabilities": [float(p) for p in self.probabilities],
        }


def turn_outcomes(solution: Solution, masks: I64, uppers: I64) -> F64:
    """``[state, category, points]``: P(the turn from each state ends scoring these points
    in this category) under the optimal policy (:meth:`Solution.turn_policies`)."""
    s = masks.size
    policy = solution.turn_policies(masks, uppers)
    cols = np.arange(s)
    dice = np.broadcast_to(FIRST_ROLL[:, None], (FIRST_ROLL.size, s))
    for keep in (policy.keep2, policy.keep1):
        mass = np.bincount(
            (keep * s + cols).ravel(), weights=dice.ravel(), minlength=TRANSITION.shape[0] * s
        ).reshape(TRANSITION.shape[0], s)
        dice = TRANSITION.T @ mass
    table = solution.table
    top = int(table.points.max()) + 1
    points = np.take_along_axis(table.points, policy.category, axis=1)
    flat = (cols * len(CATEGORIES) + policy.category) * top + points
    size = s * len(CATEGORIES) * top
    counts = np.bincount(flat.ravel(), weights=dice.ravel(), minlength=size)
    return np.asarray(counts, dtype=np.float64).reshape(s, len(CATEGORIES), top)


def final_totals(solution: Solution) -> F64:
    """P(final total = t) for t = 0..the preset's best total, under the optimal policy."""
    table: ScoreTable = solution.table
    size = table.most_to_come(0, 0) + 1
    index = np.full((FULL + 1, table.uppers), -1, dtype=np.int64)
    masks, uppers = np.array([0]), np.array([0])
    banked = np.zeros((1, size))
    banked[0, 0] = 1.0
    for _ in range(len(CATEGORIES)):
        outcomes = np.concatenate(
            [
                turn_outcomes(solution, masks[lo : lo + CHUNK], uppers[lo : lo + CHUNK])
                for lo in range(0, masks.size, CHUNK)
            ]
        )
        masks, uppers, banked = _advance(table, index, masks, uppers, banked, outcomes)
    totals: F64 = banked.sum(axis=0)
    return totals


def _advance(
    table: ScoreTable, index: I64, masks: I64, uppers: I64, banked: F64, outcomes: F64
) -> tuple[I64, I64, F64]:
    """The next layer's states and banked-points distributions after one turn."""
    keys = []
    for c in range(len(CATEGORIES)):
        src, pts = np.nonzero(outcomes[:, c, :])
        after_upper = table.raise_upper(uppers[src], c, pts)
        keys.append((masks[src] | (1 << c)) * table.uppers + after_upper)
    unique = np.unique(np.concatenate(keys))
    next_masks, next_uppers = np.divmod(unique, table.uppers)
    index[next_masks, next_uppers] = np.arange(unique.size)
    after = np.zeros((unique.size, banked.shape[1]))
    size = banked.shape[1]
    high = int(np.nonzero(banked.any(axis=0))[0].max()) + 1  # no mass beyond this yet
    for c in range(len(CATEGORIES)):
        src = np.nonzero(outcomes[:, c, :].any(axis=1))[0]
        if not src.size:
            continue
        weights = outcomes[src, c, :]
        found = np.nonzero(weights.any(axis=0))[0]
        rows = banked[src]
        if not table.counts_upper[c]:
            # The next state does not depend on the points: one convolution per source.
            acc = np.zeros_like(rows)
            for p in found.tolist():
                w = min(high, size - p)
                acc[:, p : p + w] += rows[:, :w] * weights[:, p, None]
            after[index[masks[src] | (1 << c), uppers[src]]] += acc
            continue
        for p in found.tolist():
            nu = table.raise_upper(uppers[src], c, p)
            shift = p + table.bonus_gain(uppers[src], c, p)
            target = index[masks[src] | (1 << c), nu]
            for k in np.unique(shift).tolist():
                pick = np.nonzero((shift == k) & (weights[:, p] > 0))[0]
                if not pick.size:
                    continue
                pick = pick[np.argsort(target[pick], kind="stable")]
                w = min(high, size - k)
                add = rows[pick, :w] * weights[pick, p, None]
                # Capped subtotals can meet in one state: sum each run of equal targets.
                where, starts = np.unique(target[pick], return_index=True)
                after[where, k : k + w] += np.add.reduceat(add, starts, axis=0)
    return next_masks, next_uppers, after


_KNOWN: dict[str, Distribution] = {}


@cache.one_at_a_time
def distribution(rules: Rules | str, *, use_cache: bool = True) -> Distribution:
    """The exact distribution of the final total of a new game under optimal play."""
    preset = rules_by_name(rules)
    solution = solve(preset, use_cache=use_cache)
    key = f"distribution-{preset.fingerprint()}-v{_FORMAT}"
    size = solution.table.most_to_come(0, 0) + 1
    if use_cache:
        known = _KNOWN.get(key)
        if known is not None:
            return known if known.rules is preset else Distribution(preset, *_fields(known))
        stored = cache.load(key, shape=(size,))
        if stored is not None:
            _KNOWN[key] = Distribution(preset, stored.array, stored.seconds)
            return _KNOWN[key]
    start = time.perf_counter()
    probabilities = final_totals(solution)
    result = Distribution(preset, probabilities, time.perf_counter() - start)
    if use_cache:
        _KNOWN[key] = result
        cache.store(key, probabilities, result.seconds)
    return result


def _fields(d: Distribution) -> tuple[F64, float]:
    return d.probabilities, d.seconds
