"""Hints: every option of a situation with its exact value, best first.

The options after a roll are each distinct keep of 0-4 dice to reroll around (only while
rolls are left; keeping all five is stopping, shown by the score options) and scoring each
open category now. ``expected`` is the expected number of points still to be scored in the
game from this decision on, this turn included: points already on the sheet are excluded,
a bonus still to come is included. With a target T, ``probability`` is the best chance of
finishing with at least T points after taking the option, and options are ordered by it.

>>> h = hint("traditional", [], [1, 2, 3, 4, 6], rolls_left=2)
>>> h.best.to_json()["action"], h.best.keep
('keep', (1, 2, 3, 4))
>>> [o for o in h.options if o.category is Category.LITTLE_STRAIGHT][0].to_json()
{'action': 'score', 'category': 'little_straight', 'points': 0, 'expected': 149.188...}
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from yacht.game import TurnView
from yacht.rules import CATEGORIES, Category, Rules, rules_by_name, validate_dice
from yacht.strategy.errors import StrategyError
from yacht.strategy.solver import FULL, Solution, category_values, solve
from yacht.strategy.target import option_probabilities
from yacht.strategy.turn import TurnArrays, option_rows, turn_arrays

__all__ = ["Hint", "Option", "hint", "hint_for_view", "option_rows"]

MAX_ROLLS_LEFT = 2


@dataclass(frozen=True)
class Option:
    """One choice after a roll: keep some dice and reroll the rest, or score a category.

    ``keep``: the sorted faces kept (0-4 dice) for a keep; ``category`` and ``points`` for a
    score. ``expected``: points still to come from this decision on (sheet excluded).
    ``probability``: P(final total >= target) after it, with a target; else None.
    """

    action: str
    keep: tuple[int, ...] | None
    category: Category | None
    points: int | None
    expected: float
    probability: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"action": "keep", "keep": [...], "expected": x}`` or ``{"action": "score",
        "category": name, "points": n, "expected": x}``, plus ``"probability"`` with a target.
        """
        out = option_json(self.action, self.keep, self.category, self.points)
        out["expected"] = self.expected
        if self.probability is not None:
            out["probability"] = self.probability
        return out

    def __str__(self) -> str:
        return option_text(self.action, self.keep, self.category, self.points)


def option_json(
    action: str, keep: tuple[int, ...] | None, category: Category | None, points: int | None
) -> dict[str, Any]:
    """What an option is, as JSON: ``{"action": "keep", "keep": [...]}`` or
    ``{"action": "score", "category": name, "points": n}``."""
    if action == "keep":
        return {"action": action, "keep": list(keep or ())}
    assert category is not None
    return {"action": action, "category": category.value, "points": points}


def option_text(
    action: str, keep: tuple[int, ...] | None, category: Category | None, points: int | None
) -> str:
    """An option's short text: ``keep 1 2 3 4``, ``reroll all`` or ``score yacht (50)``."""
    if action == "keep":
        faces = " ".join(map(str, keep or ()))
        return f"keep {faces}" if faces else "reroll all"
    assert category is not None
    return f"score {category.value} ({points})"


@dataclass(frozen=True)
class Hint:
    """Every option of a situation, best first (by ``probability`` with a target, else by
    ``expected``)."""

    rules: Rules
    used: frozenset[Category]
    dice: tuple[int, ...]
    rolls_left: int
    upper: int
    target: int | None
    banked: int
    options: tuple[Option, ...]

    @property
    def best(self) -> Option:
        return self.options[0]

    def to_json(self) -> dict[str, Any]:
        """``{"best": OPTION, "options": [OPTION, ...]}``."""
        return {"best": self.best.to_json(), "options": [o.to_json() for o in self.options]}


@functools.lru_cache(maxsize=8192)
def _expected_turn(solution: Solution, mask: int, upper: int) -> TurnArrays:
    import numpy as np

    by_category = category_values(
        solution.table, solution.state_values, np.array([mask]), np.array([upper])
    )
    return turn_arrays(solution.table, by_category)


def _order(option: Option) -> tuple[float, float, int, int, tuple[int, ...], int]:
    p = -round(option.probability, 12) if option.probability is not None else 0.0
    keep = option.keep or ()
    cat = option.category.index if option.category is not None else -1
    return (p, -round(option.expected, 9), option.action == "keep", -len(keep), keep, cat)


def hint(
    rules: Rules | str,
    used: Iterable[Category | str] | int,
    dice: Iterable[int],
    rolls_left: int,
    *,
    upper: int = 0,
    target: int | None = None,
    banked: int = 0,
) -> Hint:
    """Every option for ``dice`` with ``rolls_left`` (0, 1 or 2) rolls left, best first.

    ``used``: the filled categories (or their int mask); ``upper``: the upper subtotal on the
    sheet (capped at the bonus threshold; ignored without a bonus). With ``target`` T, each
    option gets the best probability of a final total >= T, counting ``banked`` points
    already on the sheet (bonus included), and options are ordered by it.
    """
    preset = rules_by_name(rules)
    roll = tuple(sorted(validate_dice(dice)))
    if isinstance(rolls_left, bool) or rolls_left not in range(MAX_ROLLS_LEFT + 1):
        raise StrategyError("rolls_left", rolls=rolls_left)
    solution = solve(preset)
    mask, up = solution.state(used, upper)
    if mask == FULL:
        raise StrategyError("all_used")
    rows = option_rows(_expected_turn(solution, mask, up), solution.table, mask, roll, rolls_left)
    chances: list[float | None] = [None] * len(rows)
    if target is not None:
        chances = list(option_probabilities(preset, mask, up, roll, rolls_left, target, banked))
    options = sorted(
        (Option(*row, probability=p) for row, p in zip(rows, chances, strict=True)),
        key=_order,
    )
    return Hint(
        preset,
        frozenset(c for c in CATEGORIES if mask >> c.index & 1),
        tuple(validate_dice(dice)),
        rolls_left,
        upper,
        target,
        banked,
        tuple(options),
    )


def hint_for_view(view: TurnView, target: int | None = None) -> Hint:
    """The hint for the current player of a game, from its :meth:`yacht.game.Game.view`."""
    if view.dice is None:
        raise StrategyError("no_dice")
    return hint(
        view.rules,
        view.used,
        view.dice,
        view.rolls_left,
        upper=view.upper_total,
        target=target,
        banked=view.banked,
    )
