"""Playing to win, the arrays: every option's chance of finishing first, for many games.

A player's chance of finishing first (a first place shared by k players counts 1/k) depends
on its own final total M and each opponent's final total X_j. The opponents' points to come
are independent of this player's choices, and under optimal play their distribution is
exact (:mod:`yacht.strategy.remaining`), so u(m) = P(finishing first | M = m) is exact for
every m (:func:`finish_chances`). An option is valued by E[u(M)] under a plan (:data:`PLANS`):

- ``rollout``: this turn played to maximise it, the rest of the game for points. Scoring s
  points is worth the sum over x of P(x more points after it) * u(b + s + x), with b the
  points on the sheet (:func:`score_matrices`); keeps follow by the turn's usual average and
  max steps (:func:`rollout_columns`). A chance the player can really reach.
- ``lookahead`` (the default): the next turn is played to maximise it too
  (:mod:`yacht.strategy.lookahead`).
- ``targets``: u(b) + sum over n >= 1 of (u(b + n) - u(b + n - 1)) * P(M - b >= n), each
  P(M - b >= n) at its best for its own n (the target table, :func:`option_matrices`): an
  upper bound, since every n gets its own plan.

Heads-up, once both players have at most :data:`yacht.strategy.endgame.DEFAULT_DEPTH`
categories open, the values are exact instead: the endgame table's win probability under
best play by both (:func:`endgame_columns`). Options are compared by value; an exact tie goes
to the option with the higher expected score (a weight of :data:`TIE_BREAK` per point).

Values are laid out in rows, one per option of a turn (:class:`RowLayout`): keeps of 0-4
dice with 2 rolls left, the same with 1 roll left, then each category's distinct scores.
:mod:`yacht.strategy.win` answers for one game (hints, the ``winner`` bot);
:mod:`yacht.strategy.match` plays many games at once."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Category, Rules
from yacht.strategy.endgame import FINISHED, Endgame, endgame, settled
from yacht.strategy.remaining import Remaining, remaining
from yacht.strategy.solver import category_values, solve
from yacht.strategy.tables import F64, FULL, I64, KEEP_START, SUB_KEEPS, ScoreTable, by_category
from yacht.strategy.target import target_table
from yacht.strategy.turn import keep_values, roll_values, stop_values

__all__ = [
    "DEFAULT_PLAN",
    "PLANS",
    "TIE_BREAK",
    "RowLayout",
    "Seat",
    "choose",
    "decode",
    "endgame_columns",
    "expected_rows",
    "finish_chances",
    "heads_up_endgame",
    "option_matrices",
    "rollout_columns",
    "row_layout",
    "score_matrices",
    "seat_of",
    "stack_rows",
]

F32 = npt.NDArray[np.float32]
REROLL = KEEP_START[5]
"""Keeps of 0-4 dice: the first 210 of :data:`yacht.dice.KEEPS`."""

PLANS = ("rollout", "lookahead", "targets")
"""How options are valued away from the endgame table (see the module's text); ``lookahead``
is about ten times the work of the others."""

DEFAULT_PLAN = "lookahead"

TIE_BREAK = 1e-5
"""Weight of one expected point against a win probability of 1 when options are compared."""

COLUMNS = 8192
"""Columns (state x points needed) computed together when option matrices are built."""


@dataclass(frozen=True)
class RowLayout:
    """Rows of a turn's option values: ``keep2 + k`` / ``keep1 + k`` for keep k (a KEEPS
    index below 210) with 2 / 1 rolls left; ``score[c] + i`` for scoring the i-th distinct
    score of category c (``ScoreTable.values[c][i]``)."""

    keep2: int
    keep1: int
    score: tuple[int, ...]
    rows: int


@functools.cache
def row_layout(table: ScoreTable) -> RowLayout:
    sizes = [v.size for v in table.values]
    starts = 2 * REROLL + np.concatenate([[0], np.cumsum(sizes)[:-1]])
    return RowLayout(0, REROLL, tuple(int(s) for s in starts), 2 * REROLL + sum(sizes))


@dataclass(frozen=True)
class Seat:
    """One player as the tables see it: used-category mask, tracked (capped) upper subtotal
    and total points on the sheet (bonus included)."""

    used: int
    upper: int
    total: int


def seat_of(rules: Rules, sheet: Mapping[Category, int]) -> Seat:
    """The :class:`Seat` of a score sheet."""
    used = 0
    for c in sheet:
        used |= 1 << c.index
    upper = sum(sheet.get(c, 0) for c in UPPER_CATEGORIES)
    cap = rules.upper_bonus.threshold if rules.upper_bonus is not None else 0
    return Seat(used, min(upper, cap), rules.total(sheet))


def stack_rows(table: ScoreTable, by_category: list[F64 | None], columns: int) -> F64:
    """Stack a turn's option values: keeps with 2 and 1 rolls left, then every score."""
    stop = stop_values(table, by_category)
    keeps1 = keep_values(stop)
    keeps2 = keep_values(roll_values(stop, keeps1))
    scores = [
        np.zeros((table.values[c].size, columns)) if v is None else v
        for c, v in enumerate(by_category)
    ]
    out: F64 = np.concatenate([*keeps2, *keeps1, *scores])
    out[~np.isfinite(out)] = 0.0  # filled categories: never offered (see :func:`choose`)
    return out


def expected_rows(rules: Rules, masks: I64, uppers: I64) -> F64:
    """``[row, state]``: each option's expected points to come (the solver's values)."""
    solution = solve(rules)
    by_category = category_values(solution.table, solution.state_values, masks, uppers)
    return stack_rows(solution.table, by_category, masks.size)


def option_matrices(rules: Rules, masks: I64, uppers: I64) -> list[F32]:
    """One matrix per state: ``[row, 0]`` the option's expected points to come, ``[row, n]``
    its best P(scoring at least n more points) for n = 1..most (the state's most to come)."""
    target = target_table(rules)
    most = target.most[masks, uppers]
    expected = expected_rows(rules, masks, uppers).astype(np.float32)
    out: list[F32] = []
    lo = 0
    while lo < masks.size:
        hi = lo + 1
        while hi < masks.size and int(most[lo : hi + 1].sum()) <= COLUMNS:
            hi += 1
        count = most[lo:hi]
        cm, cu = np.repeat(masks[lo:hi], count), np.repeat(uppers[lo:hi], count)
        cn = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count) + 1
        values = stack_rows(target.table, target.category_values(cm, cu, cn), cn.size)
        start = 0
        for i, n in enumerate(count.tolist()):
            m = np.empty((values.shape[0], n + 1), dtype=np.float32)
            m[:, 0] = expected[:, lo + i]
            m[:, 1:] = values[:, start : start + n]
            out.append(m)
            start += n
        lo = hi
    return out


def finish_chances(
    rest: Remaining,
    own_total: I64,
    opponents: Sequence[tuple[I64, I64, I64]],
    width: int,
) -> F64:
    """``[g, n]``: u(b + n), the chance of finishing first with a final total n points above
    the ``own_total`` b of game g, for n = 0..width - 1 (a first place shared by k counts 1/k).

    ``opponents``: per opponent, arrays ``(used masks, tracked uppers, totals)`` by game.
    """
    games = own_total.size
    coefficients = np.ones((1, games, width))  # of z in prod_j (F_j + f_j z)
    for masks, uppers, totals in opponents:
        start = own_total - totals  # x = m - T_j = start + n: points the opponent must make
        pmf, below = rest.window(masks, uppers, start, width)
        grown = np.zeros((coefficients.shape[0] + 1, games, width))
        grown[:-1] += coefficients * below
        grown[1:] += coefficients * pmf
        coefficients = grown
    share = 1.0 / np.arange(1, coefficients.shape[0] + 1)
    out: F64 = np.tensordot(share, coefficients, axes=1)
    return out


def score_matrices(rules: Rules, masks: I64, uppers: I64) -> list[F32]:
    """One matrix per state, a row per category and distinct score (:class:`RowLayout`
    order, less the keep rows): ``[row, 0]`` the points plus the expected points to come
    after scoring them, ``[row, 1 + m]`` P(scoring them and then m - points more under
    optimal play) for m = 0..most; rows of filled categories are 0."""
    rest = remaining(rules)
    table = rest.table
    solution = solve(rules)
    out: list[F32] = []
    for mask, up in zip(masks.tolist(), uppers.tolist(), strict=True):
        most = int(rest.most[mask, up])
        m = np.zeros((sum(v.size for v in table.values), most + 2), dtype=np.float32)
        row = 0
        for c, values in enumerate(table.values):
            if not mask >> c & 1:
                after = np.full(values.size, mask | 1 << c)
                raised = table.raise_upper(np.full(values.size, up), c, values)
                shift = values + table.bonus_gain(np.full(values.size, up), c, values)
                later = solution.state_values[after, raised]
                m[row : row + values.size, 0] = shift + later
                pmf = rest.rows(after, raised, most + 1)
                for i, k in enumerate(shift.tolist()):
                    m[row + i, 1 + k :] = pmf[i, : most + 1 - k]
            row += values.size
        out.append(m)
    return out


def endgame_columns(game: Endgame, rules: Rules, used: I64, leads: I64, other_used: I64) -> F64:
    """``[row, game]``: each option's exact win probability for heads-up games whose
    positions the endgame table covers (see :meth:`Endgame.covers`); ``leads`` are this
    player's total minus the other's, ``other_used`` the other player's used masks."""
    table = solve(rules).table

    def scoring(c: int, after: I64) -> F64:
        rows = game.rows(other_used, after)
        rows = np.where((after == FULL) & (other_used == FULL), FINISHED, rows)
        pts = table.values[c][:, None]
        return 1.0 - game.values(rows[None, :], -(leads[None, :] + pts))

    return stack_rows(table, by_category(used, scoring), used.size)


def rollout_columns(table: ScoreTable, scores: F64, used: I64) -> F64:
    """``[row, game]`` from each game's score rows (``score_matrices(...) @ weights``): this
    turn played for the best chance of finishing first, the rest of the game optimally."""
    by_category: list[F64 | None] = []
    row = 0
    for c, values in enumerate(table.values):
        part = scores[row : row + values.size].astype(np.float64)
        filled = (used >> c) & 1 == 1
        if filled.all():
            by_category.append(None)
        else:
            part[:, filled] = -np.inf
            by_category.append(part)
        row += values.size
    return stack_rows(table, by_category, used.size)


def choose(
    table: ScoreTable, values: F64 | F32, rolls: I64, rolls_left: int, used: I64
) -> tuple[I64, F64]:
    """The best option row of each game (columns of ``values``) and its value.

    ``rolls``: ROLLS indices; ``used``: each game's used-category mask. With rolls left the
    options are the keeps of 0-4 dice of the roll and every open category; with none, only
    the open categories.
    """
    layout = row_layout(table)
    games = np.arange(rolls.size)
    scores = np.stack(
        [layout.score[c] + table.value_index[c][rolls] for c in range(len(CATEGORIES))], axis=1
    )
    closed = ((used[:, None] >> np.arange(len(CATEGORIES))) & 1) == 1
    score_values = np.where(closed, -np.inf, values[scores, games[:, None]])
    if rolls_left:
        base = layout.keep2 if rolls_left == 2 else layout.keep1
        keeps = base + SUB_KEEPS[rolls]
        candidates = np.concatenate([scores, keeps], axis=1)  # stopping wins exact ties
        option_values = np.concatenate([score_values, values[keeps, games[:, None]]], axis=1)
    else:
        candidates, option_values = scores, score_values
    pick = np.argmax(option_values, axis=1)
    best: F64 = option_values[games, pick].astype(np.float64)
    out: I64 = candidates[games, pick]
    return out, best


def decode(table: ScoreTable, row: int) -> tuple[int, ...] | Category:
    """The keep (faces) or the category an option row stands for."""
    from yacht.dice import KEEPS

    layout = row_layout(table)
    if row < 2 * REROLL:
        return KEEPS[row % REROLL]
    c = max(i for i, s in enumerate(layout.score) if s <= row)
    return CATEGORIES[c]


def heads_up_endgame(rules: Rules, me: Seat, other: Seat, depth: int) -> Endgame | None:
    """The endgame table if it covers this heads-up position (bonus settled for both)."""
    if not (settled(rules, me.used, me.upper) and settled(rules, other.used, other.upper)):
        return None
    game = endgame(rules, depth)
    return game if game.covers(me.used, other.used) else None
