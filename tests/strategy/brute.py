"""An independent, slow evaluation of small positions, straight from the game's definition.

Dictionaries over sorted rolls and keeps, probabilities from :func:`yacht.dice.outcomes`,
points from ``Rules.score``; keeping all five dice is passing a roll with the same dice.
No numpy and nothing from :mod:`yacht.strategy`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from yacht.dice import ROLLS, outcomes, sub_keeps
from yacht.rules import UPPER_CATEGORIES, Category, Rules

Roll = tuple[int, ...]


@functools.cache
def _moves() -> dict[Roll, list[tuple[Roll, float]]]:
    """Each keep of 0-4 dice: the rolls it can become, with their probabilities."""
    keeps = {k for r in ROLLS for k in sub_keeps(r) if len(k) < 5}
    return {k: [(tuple(sorted(k + m)), float(p)) for m, p in outcomes(5 - len(k))] for k in keeps}


def turn(stop: dict[Roll, float]) -> float:
    """A turn's value from each final roll's value: three rolls, best keeps."""
    now = stop
    for _ in range(2):
        kept = {k: sum(p * now[r] for r, p in to) for k, to in _moves().items()}
        now = {r: max([now[r]] + [kept[k] for k in sub_keeps(r) if len(k) < 5]) for r in ROLLS}
    return sum(p * now[r] for r, p in outcomes(5))


def value(rules: Rules, open_: Iterable[Category], upper: int = 0) -> float:
    """Expected points still to come with ``open_`` categories left, upper subtotal ``upper``."""
    return _value(rules, frozenset(open_), upper)


def _after(rules: Rules, c: Category, points: int, upper: int) -> tuple[int, int]:
    """(points earned including any bonus, new upper subtotal)."""
    if c not in UPPER_CATEGORIES:
        return points, upper
    return points + rules.bonus(upper + points) - rules.bonus(upper), upper + points


@functools.cache
def _value(rules: Rules, open_: frozenset[Category], upper: int) -> float:
    if not open_:
        return 0.0

    def best(roll: Roll) -> float:
        out = []
        for c in open_:
            earned, up = _after(rules, c, rules.score(roll, c), upper)
            out.append(earned + _value(rules, open_ - {c}, up))
        return max(out)

    return turn({r: best(r) for r in ROLLS})


def chance(rules: Rules, open_: Iterable[Category], needed: int, upper: int = 0) -> float:
    """Best P(scoring at least ``needed`` more points)."""
    return _chance(rules, frozenset(open_), needed, upper)


@functools.cache
def _chance(rules: Rules, open_: frozenset[Category], needed: int, upper: int) -> float:
    if needed <= 0:
        return 1.0
    if not open_:
        return 0.0
    best: Callable[[Roll], float] = lambda roll: max(  # noqa: E731
        _chance(rules, open_ - {c}, needed - e, up)
        for c in open_
        for e, up in [_after(rules, c, rules.score(roll, c), upper)]
    )
    return turn({r: best(r) for r in ROLLS})
