"""Two turns ahead: scoring now, then one more turn played to finish first, then for points.

The ``rollout`` plan of :mod:`yacht.strategy.win_tables` values scoring s points in a category
by the chance of finishing first if the rest of the game is played for points. Here the next
turn is played for first place too (against the same opponents' distributions): for every
score option of every game, the next turn's value is one more turn computation, a column of
its own. That is some 50 columns per game and turn, so it is about ten times the work.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from yacht.strategy.solver import FULL
from yacht.strategy.tables import F64, I64, ScoreTable
from yacht.strategy.turn import stop_values, turn_value
from yacht.strategy.win_tables import F32, TIE_BREAK

__all__ = ["BATCH", "lookahead_scores"]

BATCH = 8192
"""Columns (game x score option) computed together."""

Matrices = Callable[[I64], Mapping[int, F32]]


def lookahead_scores(
    table: ScoreTable,
    matrices: Matrices,
    used: I64,
    uppers: I64,
    chances: F64,
    *,
    tie_break: float = TIE_BREAK,
) -> F64:
    """``[score row, game]``: every score option of each game's turn (the score rows of
    :class:`~yacht.strategy.win_tables.RowLayout`), valued two turns ahead, plus
    ``tie_break`` (:data:`TIE_BREAK`) times the expected points; rows of filled categories
    are 0.

    ``chances[g, m]``: u(b + m) of game g; ``matrices(keys)``: the
    :func:`~yacht.strategy.win_tables.score_matrices` of the states ``mask * uppers + upper``.
    """
    games, rows, shifts, keys = _columns(table, used, uppers)
    out = np.zeros((sum(v.size for v in table.values), used.size))
    done = (keys // table.uppers) == FULL  # the last turn: nothing after it
    values = np.empty(keys.size)
    values[done] = chances[games[done], shifts[done]]
    todo = np.nonzero(~done)[0]
    todo = todo[np.argsort(keys[todo], kind="stable")]
    known = matrices(np.unique(keys[todo]))
    for lo in range(0, todo.size, BATCH):
        part = todo[lo : lo + BATCH]
        values[part] = _next_turn(
            table, known, games[part], shifts[part], keys[part], chances, tie_break
        )
    out[rows, games] = values + tie_break * shifts
    return out


def _columns(table: ScoreTable, used: I64, uppers: I64) -> tuple[I64, I64, I64, I64]:
    """One column per game and open category's distinct score: game, score row, points
    scored (bonus included) and the state after."""
    games: list[I64] = []
    rows: list[I64] = []
    shifts: list[I64] = []
    keys: list[I64] = []
    start = 0
    for c, values in enumerate(table.values):
        g = np.nonzero((used >> c) & 1 == 0)[0]
        gg = np.repeat(g, values.size)
        v = np.tile(values, g.size)
        up = uppers[gg]
        raised = table.raise_upper(up, c, v)
        games.append(gg)
        rows.append(np.tile(start + np.arange(values.size), g.size))
        shifts.append(v + table.bonus_gain(up, c, v))
        keys.append((used[gg] | 1 << c) * table.uppers + raised)
        start += values.size
    g, r, s, k = (np.concatenate(a).astype(np.int64) for a in (games, rows, shifts, keys))
    return g, r, s, k


def _next_turn(
    table: ScoreTable,
    known: Mapping[int, F32],
    games: I64,
    shifts: I64,
    keys: I64,
    chances: F64,
    tie_break: float,
) -> F64:
    """The value of the next turn played to finish first, for columns sorted by state."""
    rows = sum(v.size for v in table.values)
    scores = np.empty((rows, keys.size), dtype=np.float32)
    bounds = np.flatnonzero(np.diff(keys)) + 1
    for part in np.split(np.arange(keys.size), bounds):
        matrix = known[int(keys[part[0]])]
        width = matrix.shape[1] - 1
        w = np.empty((part.size, width + 1), dtype=np.float32)
        w[:, 0] = tie_break
        w[:, 1:] = chances[games[part, None], shifts[part, None] + np.arange(width)]
        scores[:, part] = matrix @ w.T
    masks = keys // table.uppers
    by_category: list[F64 | None] = []
    start = 0
    for c, values in enumerate(table.values):
        filled = (masks >> c) & 1 == 1
        block: F64 = scores[start : start + values.size].astype(np.float64)
        start += values.size
        if filled.all():
            by_category.append(None)
            continue
        block[:, filled] = -np.inf
        by_category.append(block)
    out: F64 = turn_value(stop_values(table, by_category))
    return out
