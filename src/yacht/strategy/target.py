"""Target play: the policy that maximises P(final total >= T), for every T at once.

The table holds, for every reachable turn-start state and every number of points still
needed n (1 up to the most the state can still score), the best probability of scoring at
least n more points. Needing 0 or fewer is certain; needing more than the most is hopeless.
A turn is the same computation as for expected points (:mod:`yacht.strategy.turn`), with
"the value after scoring" being the probability from the next state with fewer points needed.

>>> target_probability("traditional", [], 0), target_probability("traditional", [], 298)
(1.0, 0.0)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from yacht.rules import CATEGORIES, Category, Rules, rules_by_name
from yacht.strategy import cache
from yacht.strategy.errors import StrategyError
from yacht.strategy.solver import TurnPolicy, layers, solve
from yacht.strategy.tables import F64, FULL, I64, ScoreTable, by_category, score_table
from yacht.strategy.turn import (
    TurnArrays,
    best_categories,
    best_keeps,
    keep_values,
    option_rows,
    roll_values,
    stop_values,
    turn_arrays,
    turn_value,
)

__all__ = [
    "TargetTable",
    "option_probabilities",
    "target_probability",
    "target_table",
]

CHUNK = 512
_FORMAT = 1


@dataclass(frozen=True, eq=False)
class TargetTable:
    """Best probabilities of reaching a number of points, for every state.

    ``limit``: the most points needed the table answers for (the preset's best total when
    it is complete). ``base``: the used-mask every state of the table contains (0: every
    state; a later position needs only the states that can follow it). ``seconds``: the time
    it took to build.
    """

    rules: Rules
    table: ScoreTable = field(repr=False)
    limit: int
    base: int
    offsets: I64 = field(repr=False)
    most: I64 = field(repr=False)
    cells: F64 = field(repr=False)
    seconds: float

    def state(
        self, used: Iterable[Category | str] | int, needed: int, upper: int = 0
    ) -> tuple[int, int, int]:
        """``(mask, tracked upper, needed)``, checked: the table must reach ``needed``."""
        mask, up = solve(self.rules).state(used, upper)
        if isinstance(needed, bool) or not isinstance(needed, int):
            raise StrategyError("needed", needed=needed)
        if needed > self.limit and needed <= self.most[mask, up]:
            raise StrategyError("needed_limit", limit=self.limit)
        if mask & self.base != self.base:
            raise StrategyError("needed_base", base=self.base)
        return mask, up, needed

    def covers(self, base: int, limit: int) -> bool:
        """Whether the table answers every state after ``base`` up to ``limit`` points."""
        return base & self.base == self.base and limit <= self.limit

    def probability(
        self, used: Iterable[Category | str] | int, needed: int, upper: int = 0
    ) -> float:
        """The best P(scoring at least ``needed`` more points) from a turn's start."""
        mask, up, n = self.state(used, needed, upper)
        if n <= 0:
            return 1.0
        if n > self.most[mask, up]:
            return 0.0
        return float(self.cells[self.offsets[mask, up] + n])

    def category_values(self, masks: I64, uppers: I64, needed: I64) -> list[F64 | None]:
        """Per category, per distinct score: the best probability after scoring it (-inf
        where the category is filled), for the columns ``(masks, uppers, needed)``."""
        return _category_values(self, masks, uppers, needed)

    def turn_policies(self, masks: I64, uppers: I64, needed: I64) -> TurnPolicy:
        """The target policy of one turn for many columns (arrays ``[roll, column]``)."""
        m, u, n = (np.asarray(a, dtype=np.int64) for a in (masks, uppers, needed))
        by_category = self.category_values(m, u, n)
        stop = stop_values(self.table, by_category)
        keeps1 = keep_values(stop)
        keeps2 = keep_values(roll_values(stop, keeps1))
        return TurnPolicy(
            keep2=best_keeps(stop, keeps2),
            keep1=best_keeps(stop, keeps1),
            category=best_categories(self.table, by_category),
        )

    def turn_policy(
        self, used: Iterable[Category | str] | int, upper: int, needed: int
    ) -> TurnPolicy:
        """The target policy for every roll of one turn (see :class:`TurnPolicy`)."""
        mask, up, n = self.state(used, needed, upper)
        if mask == FULL:
            raise StrategyError("no_turn")
        many = self.turn_policies(np.array([mask]), np.array([up]), np.array([n]))
        return TurnPolicy(many.keep2[:, 0], many.keep1[:, 0], many.category[:, 0])


def _category_values(
    t: TargetTable | _Partial, masks: I64, uppers: I64, needed: I64
) -> list[F64 | None]:
    def scoring(c: int, after: I64) -> F64:
        pts = t.table.values[c][:, None]
        raised = t.table.raise_upper(uppers[None, :], c, pts)
        rest = needed[None, :] - pts - t.table.bonus_gain(uppers[None, :], c, pts)
        top = np.minimum(t.most[after[None, :], raised], t.limit) + 1
        at = t.offsets[after[None, :], raised] + np.clip(rest, 0, top)
        out: F64 = t.cells[np.minimum(at, t.cells.size - 1)]  # filled ones may point anywhere
        return out

    return by_category(masks, scoring)


@dataclass(frozen=True, eq=False)
class _Partial:
    """A target table being built (what :func:`_category_values` reads)."""

    table: ScoreTable
    limit: int
    offsets: I64
    most: I64
    cells: F64


def own_cells(table: ScoreTable) -> npt.NDArray[np.bool_]:
    """``[mask, upper]``: the states that have cells of their own. Unreachable states have
    none, and neither has a state whose bonus is out of reach with an upper subtotal above 0:
    the subtotal no longer matters there, so it shares the cells of subtotal 0."""
    ups = np.arange(table.uppers)
    hopeless = ups[None, :] + _upper_room(table)[:, None] < table.cap
    out: npt.NDArray[np.bool_] = table.reachable() & ~(hopeless & (ups[None, :] > 0))
    return out


def _upper_room(table: ScoreTable) -> I64:
    masks = np.arange(FULL + 1)
    open_ = (masks[:, None] >> np.arange(len(CATEGORIES))) & 1 == 0
    room: I64 = (open_ * (np.array(table.best) * np.array(table.counts_upper))).sum(axis=1)
    return room


def layout(table: ScoreTable, limit: int, base: int = 0) -> tuple[I64, I64, int]:
    """``(offsets, most, size)``: where each state's cells start in the flat table, the most
    points it can still score, and the table's size. A state has cells for needing 0 (always
    1) up to ``min(most, limit)`` points, then one cell holding 0 (needing more than most).
    Only states whose used-mask contains ``base`` have cells."""
    masks = np.arange(FULL + 1)
    open_ = (masks[:, None] >> np.arange(len(CATEGORIES))) & 1 == 0
    room = (open_ * np.array(table.best)).sum(axis=1)
    ups = np.arange(table.uppers)
    bonus = (ups[None, :] < table.cap) & (ups[None, :] + _upper_room(table)[:, None] >= table.cap)
    most = room[:, None] + table.bonus * bonus
    own = own_cells(table) & ((masks & base) == base)[:, None]
    lengths = np.where(own, np.minimum(most, limit) + 2, 0)
    ends = np.cumsum(lengths.ravel())
    offsets = (ends - lengths.ravel()).reshape(lengths.shape)
    offsets = np.where(own, offsets, offsets[:, :1])  # shared with subtotal 0, or unused
    return offsets.astype(np.int64), most.astype(np.int64), int(ends[-1])


def build_cells(table: ScoreTable, limit: int, base: int = 0) -> F64:
    """Every reachable state's best probabilities of needing 0..min(most, limit) points
    (only states whose used-mask contains ``base``)."""
    offsets, most, size = layout(table, limit, base)
    cells = np.zeros(size, dtype=np.float64)
    reach = own_cells(table) & ((np.arange(FULL + 1) & base) == base)[:, None]
    cells[offsets[reach]] = 1.0
    partial = _Partial(table, limit, offsets, most, cells)
    for n_used in range(len(CATEGORIES) - 1, bin(base).count("1") - 1, -1):
        masks = layers()[n_used]
        row, up = np.nonzero(reach[masks])
        sm = masks[row]
        counts = np.minimum(most[sm, up], limit)
        cm, cu = np.repeat(sm, counts), np.repeat(up, counts)
        cn = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + 1
        for lo in range(0, cm.size, CHUNK):
            m, u, n = cm[lo : lo + CHUNK], cu[lo : lo + CHUNK], cn[lo : lo + CHUNK]
            stop = stop_values(table, _category_values(partial, m, u, n))
            cells[offsets[m, u] + n] = turn_value(stop)
    return cells


_TABLES: dict[str, list[TargetTable]] = {}
_KEEP = 4  # tables kept in memory per preset


@cache.one_at_a_time
def target_table(
    rules: Rules | str, needed: int | None = None, *, base: int = 0, use_cache: bool = True
) -> TargetTable:
    """A target table of a preset answering up to ``needed`` points needed (default: any)
    for every state whose used-mask contains ``base`` (default: every state).

    Built on first use, kept in memory and cached on disk like :func:`yacht.strategy.solve`;
    a table already known that covers the request is returned as is.
    """
    preset = rules_by_name(rules)
    table = score_table(preset)
    full = int(table.most_to_come(0, 0))
    limit = full if needed is None else max(0, min(int(needed), full))
    fp = preset.fingerprint()
    known = _TABLES.setdefault(fp, [])
    for t in known if use_cache else ():
        if t.covers(base, limit):
            return t if t.rules is preset else _rename(t, preset)
    stored = None
    for b, lim in dict.fromkeys(((0, full), (base, limit))) if use_cache else ():
        offsets, most, size = layout(table, lim, b)
        stored = cache.load(_key(fp, b, lim), shape=(size,))
        if stored is not None:
            base, limit = b, lim
            break
    if stored is not None:
        cells, seconds = stored.array, stored.seconds
    else:
        offsets, most, _ = layout(table, limit, base)
        start = time.perf_counter()
        cells = build_cells(table, limit, base)
        seconds = time.perf_counter() - start
        if use_cache:
            cache.store(_key(fp, base, limit), cells, seconds)
    result = TargetTable(preset, table, limit, base, offsets, most, cells, seconds)
    if use_cache:
        known.insert(0, result)
        del known[_KEEP:]
    return result


def _key(fingerprint: str, base: int, limit: int) -> str:
    return f"target-{fingerprint}-{base}-{limit}-v{_FORMAT}"


def _rename(known: TargetTable, preset: Rules) -> TargetTable:
    return TargetTable(
        preset,
        known.table,
        known.limit,
        known.base,
        known.offsets,
        known.most,
        known.cells,
        known.seconds,
    )


def target_probability(
    rules: Rules | str,
    used: Iterable[Category | str] | int,
    needed: int,
    *,
    upper: int = 0,
) -> float:
    """The best P(scoring at least ``needed`` more points) from a turn's start."""
    mask, up = solve(rules).state(used, upper)
    if isinstance(needed, bool) or not isinstance(needed, int):
        raise StrategyError("needed", needed=needed)
    if needed <= 0:
        return 1.0
    if needed > score_table(rules_by_name(rules)).most_to_come(mask, up):
        return 0.0
    return target_table(rules, needed, base=mask).probability(mask, needed, up)


@functools.lru_cache(maxsize=8192)
def _target_turn(table: TargetTable, mask: int, upper: int, needed: int) -> TurnArrays:
    by_category = table.category_values(np.array([mask]), np.array([upper]), np.array([needed]))
    return turn_arrays(table.table, by_category)


def option_probabilities(
    rules: Rules,
    mask: int,
    upper: int,
    roll: tuple[int, ...],
    rolls_left: int,
    target: int,
    banked: int,
) -> list[float]:
    """Each hint option's best P(final total >= target), in :func:`option_rows` order.

    ``upper`` is the tracked (capped) subtotal; ``banked`` the points on the sheet.
    """
    for code, value in (("target_points", target), ("banked_points", banked)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise StrategyError(code, value=value)
    needed = max(0, target - banked)
    table = target_table(rules, min(needed, score_table(rules).most_to_come(0, 0)), base=mask)
    needed = min(needed, int(table.most[mask, upper]) + 1)
    arrays = _target_turn(table, mask, upper, needed)
    return [row[4] for row in option_rows(arrays, table.table, mask, roll, rolls_left)]
