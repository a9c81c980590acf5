"""The exact distribution of the points still to come from every turn-start state.

Under optimal (expected-score) play, from any turn start (used categories, and the upper
subtotal for presets with a bonus): P(the rest of the game scores exactly x points), bonus to
come included. The new-game row is :func:`yacht.strategy.distribution.distribution`; this
table has a row for every reachable state, which is what a player needs to judge an
opponent's chances mid-game (see :mod:`yacht.strategy.win`).

States are solved backwards, a layer of equal popcount at a time: one turn under the optimal
policy ends in (category, points) with some probability, and the rest of the game is the
row of the state after it, shifted by those points.

>>> r = remaining("traditional")
>>> p = r.pmf([])
>>> round(float(p.sum()), 12), round(float(p @ range(p.size)), 7)
(1.0, 166.9550677)
>>> round(float(r.pmf(FULL & ~(1 << 11))[0]), 5), r.most_to_come(FULL & ~(1 << 11))
(0.95397, 50)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from yacht.rules import CATEGORIES, Category, Rules, rules_by_name, validate_dice
from yacht.strategy import cache
from yacht.strategy.distribution import turn_outcomes
from yacht.strategy.errors import StrategyError
from yacht.strategy.solver import FULL, Solution, layers, solve
from yacht.strategy.tables import F64, I64, ROLL_INDEX, TRANSITION, ScoreTable

__all__ = ["Remaining", "remaining"]

CHUNK = 1024
_FORMAT = 1


@dataclass(frozen=True, eq=False)
class Remaining:
    """``cells[offsets[mask, upper] + x]``: P(x more points) from that state, x = 0..most.

    ``most[mask, upper]``: the most points the state can still score (bonus included);
    ``upper`` is the tracked subtotal, capped at the bonus threshold (0 without a bonus).
    """

    rules: Rules
    table: ScoreTable = field(repr=False)
    offsets: I64 = field(repr=False)
    most: I64 = field(repr=False)
    cells: F64 = field(repr=False)
    seconds: float

    def most_to_come(self, used: Iterable[Category | str] | int, upper: int = 0) -> int:
        mask, up = solve(self.rules).state(used, upper)
        return int(self.most[mask, up])

    def pmf(self, used: Iterable[Category | str] | int, upper: int = 0) -> F64:
        """P(x more points) for x = 0..most from a turn's start (a full sheet: [1.0])."""
        mask, up = solve(self.rules).state(used, upper)
        start = int(self.offsets[mask, up])
        out: F64 = self.cells[start : start + int(self.most[mask, up]) + 1].copy()
        return out

    def pmf_after_roll(
        self,
        used: Iterable[Category | str] | int,
        dice: Iterable[int],
        rolls_left: int,
        upper: int = 0,
    ) -> F64:
        """P(x more points) for x = 0..most from the middle of a turn: ``dice`` showing with
        ``rolls_left`` (0, 1 or 2) rolls left, the rest of the game played optimally (the
        turn by :meth:`Solution.turn_policy`, then :meth:`pmf` of the state after).

        >>> r = remaining("traditional")
        >>> p = r.pmf_after_roll(FULL & ~(1 << 11), [6, 6, 6, 6, 6], 0)
        >>> p.size, float(p[50])
        (51, 1.0)
        """
        roll = tuple(sorted(validate_dice(dice)))
        if isinstance(rolls_left, bool) or rolls_left not in (0, 1, 2):
            raise StrategyError("rolls_left", rolls=rolls_left)
        solution = solve(self.rules)
        mask, up = solution.state(used, upper)
        if mask == FULL:
            raise StrategyError("all_used")
        policy = solution.turn_policy(mask, up)
        chances = np.zeros(len(ROLL_INDEX))
        chances[ROLL_INDEX[roll]] = 1.0
        for keep in (policy.keep2, policy.keep1)[2 - rolls_left :]:
            mass = np.bincount(keep, weights=chances, minlength=TRANSITION.shape[0])
            chances = TRANSITION.T @ mass
        width = int(self.most[mask, up]) + 1
        out = np.zeros(width)
        for r in np.nonzero(chances)[0].tolist():
            c = int(policy.category[r])
            pts = int(self.table.points[r, c])
            after = np.array([mask | (1 << c)])
            raised = self.table.raise_upper(np.array([up]), c, pts)
            shift = pts + int(self.table.bonus_gain(up, c, pts))
            out[shift:] += chances[r] * self.rows(after, raised, width - shift)[0]
        return out

    def rows(self, masks: I64, uppers: I64, width: int) -> F64:
        """``[i, x]``: P(x more points) from state i, x = 0..width-1 (0 beyond its most)."""
        x = np.arange(width)
        most = self.most[masks, uppers][:, None]
        at = self.offsets[masks, uppers][:, None] + np.minimum(x, most)
        out: F64 = np.where(x <= most, self.cells[at], 0.0)
        return out

    def window(self, masks: I64, uppers: I64, start: I64, width: int) -> tuple[F64, F64]:
        """``(pmf, below)`` for x = start[i] .. start[i] + width - 1 from state i:
        P(exactly x more points) and P(fewer than x more points)."""
        x = start[:, None] + np.arange(width)
        most = self.most[masks, uppers][:, None]
        offsets = self.offsets[masks, uppers][:, None]
        pmf = np.where((x >= 0) & (x <= most), self.cells[offsets + np.clip(x, 0, most)], 0.0)
        at_most = self._cumulative[offsets + np.clip(x - 1, 0, most)]
        below: F64 = np.where(x <= 0, 0.0, np.where(x > most, 1.0, at_most))
        return pmf, below

    @functools.cached_property
    def _cumulative(self) -> F64:
        """``[offsets[state] + x]``: P(at most x more points) from the state."""
        total = np.cumsum(self.cells)
        starts = np.unique(self.offsets[self.table.reachable()])
        lengths = np.diff(np.append(starts, self.cells.size))
        before = np.where(starts > 0, total[np.maximum(starts - 1, 0)], 0.0)
        out: F64 = np.minimum(total - np.repeat(before, lengths), 1.0)
        return out


def _layout(table: ScoreTable) -> tuple[I64, I64, int]:
    open_ = (np.arange(FULL + 1)[:, None] >> np.arange(len(CATEGORIES))) & 1 == 0
    best = np.array(table.best)
    room = (open_ * best).sum(axis=1)
    upper_room = (open_ * best * np.array(table.counts_upper)).sum(axis=1)
    ups = np.arange(table.uppers)
    bonus = (ups[None, :] < table.cap) & (ups[None, :] + upper_room[:, None] >= table.cap)
    most = (room[:, None] + table.bonus * bonus).astype(np.int64)
    reach = table.reachable()
    lengths = np.where(reach, most + 1, 0).ravel()
    ends = np.cumsum(lengths)
    offsets = np.where(reach.ravel(), ends - lengths, 0).reshape(most.shape)
    return offsets.astype(np.int64), most, int(ends[-1])


def build_cells(solution: Solution, offsets: I64, most: I64, size: int) -> F64:
    """Every reachable state's distribution of points to come, by backward induction."""
    table = solution.table
    cells = np.zeros(size, dtype=np.float64)
    cells[offsets[FULL, np.nonzero(table.reachable()[FULL])[0]]] = 1.0
    partial = Remaining(solution.rules, table, offsets, most, cells, 0.0)
    reach = table.reachable()
    for n_used in range(len(CATEGORIES) - 1, -1, -1):
        layer = layers()[n_used]
        row, ups = np.nonzero(reach[layer])
        masks = layer[row]
        for lo in range(0, masks.size, CHUNK):
            m, u = masks[lo : lo + CHUNK], ups[lo : lo + CHUNK]
            width = int(most[m, u].max()) + 1
            pmf = _turn_back(partial, turn_outcomes(solution, m, u), m, u, width)
            x = np.arange(width)
            keep = x[None, :] <= most[m, u][:, None]
            at = offsets[m, u][:, None] + x[None, :]
            cells[at[keep]] = pmf[keep]
    return cells


def _turn_back(part: Remaining, outcomes: F64, masks: I64, uppers: I64, width: int) -> F64:
    """The distribution from each state: one turn's outcomes, then the state after."""
    table = part.table
    out = np.zeros((masks.size, width))
    for c in range(len(CATEGORIES)):
        for pts in np.nonzero(outcomes[:, c, :].any(axis=0))[0]:
            p = outcomes[:, c, pts]
            src = np.nonzero(p)[0]
            after = masks[src] | (1 << c)
            raised = table.raise_upper(uppers[src], c, pts)
            shift = pts + table.bonus_gain(uppers[src], c, pts)
            later = part.rows(after, raised, width)
            for k in np.unique(shift):
                pick = shift == k
                k = int(k)
                out[src[pick], k:] += p[src[pick], None] * later[pick, : width - k]
    return out


_KNOWN: dict[str, Remaining] = {}


@cache.one_at_a_time
def remaining(rules: Rules | str, *, use_cache: bool = True) -> Remaining:
    """The table of every state's distribution of points to come: from memory, the disk
    cache (keyed by the preset's fingerprint), or built now."""
    preset = rules_by_name(rules)
    key = f"remaining-{preset.fingerprint()}-v{_FORMAT}"
    if use_cache:
        known = _KNOWN.get(key)
        if known is not None:
            return known
    solution = solve(preset, use_cache=use_cache)
    offsets, most, size = _layout(solution.table)
    if use_cache:
        stored = cache.load(key, shape=(size,))
        if stored is not None:
            _KNOWN[key] = Remaining(
                preset, solution.table, offsets, most, stored.array, stored.seconds
            )
            return _KNOWN[key]
    start = time.perf_counter()
    cells = build_cells(solution, offsets, most, size)
    result = Remaining(preset, solution.table, offsets, most, cells, time.perf_counter() - start)
    if use_cache:
        _KNOWN[key] = result
        cache.store(key, cells, result.seconds)
    return result
