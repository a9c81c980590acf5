"""The score sheet as every face shows it: what is written in each box, a cell per player.

A row per category in sheet order, the upper bonus when the preset has one, then the total.
A filled box shows its points; an open box of the player on turn shows, in parentheses,
what the dice on the table would score there. The bonus box shows the bonus once earned, 0
once the upper section is filled without it, else the upper subtotal against the threshold.
Faces add the labels (in their own words and language) and the layout.

>>> from yacht.dice import ScriptedDice
>>> g = Game(["Ann", "Bob"], "clubhouse", ScriptedDice([3, 3, 3, 1, 2]))
>>> _ = g.apply("roll")
>>> rows = sheet_rows(g)
>>> rows[2]
Row(kind='category', category=Category.THREES, cells=('(9)', ''))
>>> _ = g.apply("score threes")
>>> [(r.kind, r.cells) for r in sheet_rows(g) if r.category is None]
[('bonus', ('9/63', '0/63')), ('total', ('9', '0'))]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from yacht.game import Game
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Category, Rules

__all__ = ["Row", "bonus_cell", "sheet_rows"]


@dataclass(frozen=True)
class Row:
    """One line of the sheet: a category's row (``category`` set), the bonus or the total."""

    kind: Literal["category", "bonus", "total"]
    category: Category | None
    cells: tuple[str, ...]


def sheet_rows(game: Game) -> list[Row]:
    """Every row of the sheet of ``game``, top to bottom (the bonus row only with a bonus)."""
    rows = []
    for category in CATEGORIES:
        cells = []
        for p in range(len(game.players)):
            filled = game.sheet(p).get(category)
            if filled is not None:
                cells.append(str(filled))
            elif p == game.current and game.dice is not None and not game.finished:
                cells.append(f"({game.potential(category)})")
            else:
                cells.append("")
        rows.append(Row("category", category, tuple(cells)))
        if category is UPPER_CATEGORIES[-1] and game.rules.upper_bonus is not None:
            cells = [bonus_cell(game.rules, s) for s in game.sheets]
            rows.append(Row("bonus", None, tuple(cells)))
    rows.append(Row("total", None, tuple(str(t) for t in game.totals)))
    return rows


def bonus_cell(rules: Rules, sheet: Mapping[Category, int]) -> str:
    """The bonus box of one sheet: the bonus once earned, 0 once the upper section is filled
    without it, else the upper subtotal against the threshold ('' for a preset without one).

    >>> from yacht.rules import rules_by_name
    >>> rules = rules_by_name("clubhouse")
    >>> bonus_cell(rules, {Category.SIXES: 24}), bonus_cell(rules, {Category.SIXES: 30})
    ('24/63', '30/63')
    >>> full = {c: 3 * (c.face or 0) for c in UPPER_CATEGORIES}
    >>> bonus_cell(rules, full), bonus_cell(rules, {**full, Category.ONES: 0})
    ('35', '0')
    """
    bonus = rules.upper_bonus
    if bonus is None:
        return ""
    upper = sum(sheet.get(c, 0) for c in UPPER_CATEGORIES)
    if upper >= bonus.threshold:
        return str(bonus.points)
    if all(c in sheet for c in UPPER_CATEGORIES):
        return "0"
    return f"{upper}/{bonus.threshold}"
