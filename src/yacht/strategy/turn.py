"""One turn, vectorised over a batch of columns (turn-start states, or states and targets).

Arrays have one row per roll (252) or per keep, and one column per state of the batch.
A turn is: ``stop[r]`` = the best category for roll r (given by the caller, from the value
of every state after scoring), then twice: keep values from roll values
(:func:`keep_values`), roll values from keep values (:func:`roll_values`). Keeping all five
dice is never better than stopping at once, so only keeps of 0-4 dice are kept as options.

>>> import numpy as np
>>> stop = np.ones((252, 1))
>>> round(float(turn_value(stop)[0]), 12)
1.0
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from yacht.rules import CATEGORIES, Category
from yacht.strategy.errors import StrategyError
from yacht.strategy.tables import (
    ADD_FACE,
    DROP_DIE,
    F64,
    FIRST_ROLL,
    I64,
    KEEP_INDEX,
    KEEP_START,
    ROLL_INDEX,
    ScoreTable,
)

__all__ = [
    "OptionRow",
    "TurnArrays",
    "best_categories",
    "best_keeps",
    "keep_values",
    "option_rows",
    "roll_values",
    "stop_values",
    "turn_arrays",
    "turn_value",
]

_SIXTH = 1.0 / 6.0


def keep_values(after: F64) -> list[F64]:
    """Values of keeping 0-4 dice and rolling the rest, by keep size.

    ``after[r]``: the value of roll r with one roll fewer left. Returns five arrays, the n-th
    with a row per keep of n dice (in :data:`yacht.dice.KEEPS` order).
    """
    out: list[F64] = []
    above = after
    for n in range(4, -1, -1):
        idx = ADD_FACE[n]
        acc = np.take(above, idx[:, 0], axis=0)
        tmp = np.empty_like(acc)
        for f in range(1, 6):
            np.take(above, idx[:, f], axis=0, out=tmp, mode="clip")
            acc += tmp
        acc *= _SIXTH
        out.append(acc)
        above = acc
    out.reverse()
    return out


def roll_values(stop: F64, keeps: list[F64], *, spend: bool = False) -> F64:
    """The value of each roll: stopping now, or its best keep of 0-4 dice.

    ``spend=True`` lets the computation overwrite ``keeps`` (saves copying them).
    """
    best = keeps[0]
    for n in range(1, 6):
        cur = stop.copy() if n == 5 else keeps[n] if spend else keeps[n].copy()
        drop = DROP_DIE[n]
        tmp = np.empty_like(cur)
        for j in range(drop.shape[1]):
            np.take(best, drop[:, j], axis=0, out=tmp, mode="clip")
            np.maximum(cur, tmp, out=cur)
        best = cur
    return best


def turn_value(stop: F64) -> F64:
    """The value of a turn's start (three rolls ahead), given every roll's stop value."""
    first = roll_values(stop, keep_values(stop), spend=True)
    second = roll_values(stop, keep_values(first), spend=True)
    out: F64 = FIRST_ROLL @ second
    return out


def stop_values(table: ScoreTable, by_category: list[F64 | None]) -> F64:
    """``stop[r]``: the best over categories of ``by_category[c][value_index[c][r]]``.

    ``by_category[c]`` has a row per distinct score of c (-inf in columns where c is filled),
    or is None when c is filled in every column.
    """
    out: F64 | None = None
    tmp: F64 | None = None
    for c, values in enumerate(by_category):
        if values is None:
            continue
        if out is None:
            out = np.take(values, table.value_index[c], axis=0)
            tmp = np.empty_like(out)
            continue
        assert tmp is not None
        np.take(values, table.value_index[c], axis=0, out=tmp, mode="clip")
        np.maximum(out, tmp, out=out)
    if out is None:
        raise StrategyError("no_turn")
    return out


def best_categories(table: ScoreTable, by_category: list[F64 | None]) -> I64:
    """``[r, col]``: the best category index for each roll (the first in sheet order on a tie)."""
    best_value: F64 | None = None
    best: I64 | None = None
    for c, values in enumerate(by_category):
        if values is None:
            continue
        v = np.take(values, table.value_index[c], axis=0)
        if best_value is None or best is None:
            best_value, best = v, np.full(v.shape, c, dtype=np.int64)
            continue
        better = v > best_value
        best_value = np.where(better, v, best_value)
        best[better] = c
    if best is None:
        raise StrategyError("no_turn")
    return best


def best_keeps(stop: F64, keeps: list[F64]) -> I64:
    """``[r, col]``: the best KEEPS index for each roll; ``ROLL_KEEP + r`` (the whole roll)
    means stop and score. Stopping wins ties, then larger keeps.

    The best keep inside each keep is carried up the chain of keeps one die smaller.
    """
    best_value = keeps[0]
    best: I64 = np.zeros(keeps[0].shape, dtype=np.int64)
    for n in range(1, 6):
        own = stop if n == 5 else keeps[n]
        value = own.copy()
        ids = (KEEP_START[n] + np.arange(own.shape[0]))[:, None]
        index = np.broadcast_to(ids, own.shape).copy()
        v = np.empty_like(value)
        i = np.empty_like(index)
        better = np.empty(value.shape, dtype=bool)
        drop = DROP_DIE[n]
        for j in range(drop.shape[1]):
            np.take(best_value, drop[:, j], axis=0, out=v, mode="clip")
            np.take(best, drop[:, j], axis=0, out=i, mode="clip")
            np.greater(v, value, out=better)
            np.copyto(value, v, where=better)
            np.copyto(index, i, where=better)
        best_value, best = value, index
    return best


@dataclass(frozen=True, eq=False)
class TurnArrays:
    """One turn's arrays: per category the value of scoring each of its distinct scores (as
    :func:`stop_values` takes them), and the keep values with 1 and 2 rolls left."""

    by_category: list[F64 | None]
    keeps1: list[F64]
    keeps2: list[F64]


def turn_arrays(table: ScoreTable, by_category: list[F64 | None]) -> TurnArrays:
    """Keep values of a turn from its per-category values."""
    stop = stop_values(table, by_category)
    keeps1 = keep_values(stop)
    keeps2 = keep_values(roll_values(stop, keeps1))
    return TurnArrays(by_category, keeps1, keeps2)


OptionRow = tuple[str, tuple[int, ...] | None, Category | None, int | None, float]
"""``(action, keep, category, points, value)``: one option of a roll and its value."""


def _keeps_of(roll: tuple[int, ...]) -> list[tuple[int, ...]]:
    subs = {c for n in range(5) for c in itertools.combinations(roll, n)}
    return sorted(subs, key=lambda k: (-len(k), k))


_ROLL_KEEPS = {roll: _keeps_of(roll) for roll in ROLL_INDEX}


def option_rows(
    arrays: TurnArrays, table: ScoreTable, mask: int, roll: tuple[int, ...], rolls_left: int
) -> list[OptionRow]:
    """Every option of ``roll`` with its value in ``arrays`` (column 0): each distinct keep of
    0-4 dice while rolls are left, then each category open in ``mask``.

    Expected points and target chances are both read through it, so their rows line up.
    """
    r = ROLL_INDEX[roll]
    out: list[OptionRow] = []
    if rolls_left:
        keeps = arrays.keeps1 if rolls_left == 1 else arrays.keeps2
        for k in _ROLL_KEEPS[roll]:
            value = keeps[len(k)][KEEP_INDEX[k] - KEEP_START[len(k)], 0]
            out.append(("keep", k, None, None, float(value)))
    for c in CATEGORIES:
        values = arrays.by_category[c.index]
        if mask >> c.index & 1 or values is None:
            continue
        at = table.value_index[c.index][r]
        out.append(("score", None, c, int(table.points[r, c.index]), float(values[at, 0])))
    return out
