"""Exact heads-up option values from the duel tables, for hints and the ``duel`` bot.

For the player to move against one opponent: every option of the turn (the rows of
:func:`yacht.strategy.win_tables.row_layout`: keeps with 2 and 1 rolls left, each score of
each category) with its exact win probability, from table (a) (the opponent plays
perfectly against me) or table (b) (the opponent plays ``optimal``), when that table is
built; None otherwise, so callers fall back to their own method.
"""

from __future__ import annotations

import numpy as np

from yacht.game import TurnView
from yacht.rules import Category, Rules
from yacht.strategy.duel.layout import FULL, LAYERS, POPCOUNT
from yacht.strategy.duel.table import DuelTable, open_table
from yacht.strategy.errors import StrategyError
from yacht.strategy.tables import F64, ROLL_INDEX, score_table
from yacht.strategy.win_tables import (
    TIE_BREAK,
    choose,
    decode,
    expected_rows,
    seat_of,
    stack_rows,
)

__all__ = ["AGAINST", "decide", "option_values", "table_for"]

AGAINST = ("anyone", "optimal")
"""Whom the values assume the opponent is: ``anyone`` (table (a): it plays to beat me) or
``optimal`` (table (b): it plays the expected-score optimal policy)."""


def table_for(rules: Rules, me: int, other: int, against: str = "anyone") -> DuelTable | None:
    """The built table holding the positions after my turn at (me, other), or None."""
    if against not in AGAINST:
        raise StrategyError("against", known=", ".join(AGAINST), against=against)
    if rules.upper_bonus is not None:
        return None
    n = int(POPCOUNT[me] + POPCOUNT[other])
    if me == FULL or not 0 <= int(POPCOUNT[other]) - int(POPCOUNT[me]) <= 1:
        return None
    after = n + 1  # the layer my scoring leads to
    if after == LAYERS:
        after = LAYERS - 1  # any finished table answers a finished game
    if against == "anyone":
        return open_table(rules, "minimax", lowest=after)
    seat = "first" if n % 2 == 0 else "second"
    return open_table(rules, f"response-{seat}", lowest=after)


def option_values(
    rules: Rules, me: int, other: int, lead: int, against: str = "anyone"
) -> F64 | None:
    """``[row]``: each option's exact win probability for me (used-mask ``me``, ``lead``
    points ahead) against one opponent (used-mask ``other``), or None without the table."""
    table = table_for(rules, me, other, against)
    if table is None:
        return None
    scores = score_table(rules)
    by_category: list[F64 | None] = []
    for c, points in enumerate(scores.values):
        if me >> c & 1:
            by_category.append(None)
            continue
        after = me | 1 << c
        leads = lead + points.astype(np.int64)
        if table.kind == "minimax":  # the other moves next, from its seat
            worth = 1.0 - table.values(other, after, -leads)
        else:
            worth = table.values(after, other, leads)
        by_category.append(worth[:, None])
    return stack_rows(scores, by_category, 1)[:, 0]


def decide(view: TurnView, against: str = "anyone") -> tuple[int, ...] | Category | None:
    """The ``duel`` bot's decision heads-up: the option with the best exact chance of
    winning (an exact tie goes to the higher expected score), or None when the game is not
    heads-up or the table is not built."""
    if view.dice is None:
        raise StrategyError("no_dice")
    if len(view.sheets) != 2:
        return None
    rules = view.rules
    me = seat_of(rules, view.sheet)
    other = seat_of(rules, view.sheets[1 - view.player])
    win = option_values(rules, me.used, other.used, me.total - other.total, against)
    if win is None:
        return None
    expected = expected_rows(rules, np.array([me.used]), np.array([me.upper]))[:, 0]
    ranking = win + TIE_BREAK * expected
    table = score_table(rules)
    roll = np.array([ROLL_INDEX[tuple(sorted(view.dice))]])
    rows, _ = choose(table, ranking[:, None], roll, view.rolls_left, np.array([me.used]))
    return decode(table, int(rows[0]))
