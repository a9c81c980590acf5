"""Bots that need no strategy tables: ``random`` and ``greedy``."""

from __future__ import annotations

import functools
import random
from collections import Counter

from yacht.bots.base import DecidingBot, Move
from yacht.dice import ROLLS, sub_keeps
from yacht.game import TurnView
from yacht.rules import CATEGORIES, Category, Rules

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot(DecidingBot):
    """Picks uniformly among the decisions open after each roll: every distinct keep of 0-4
    dice (while rolls are left) and every open category."""

    name = "random"

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        assert view.dice is not None
        options: list[Move] = list(view.open_categories)
        if view.rolls_left > 0:
            options.extend(k for k in sub_keeps(view.dice) if len(k) < 5)
        return options[rng.randrange(len(options))]


class GreedyBot(DecidingBot):
    """Best immediate score with simple holds.

    While rolls are left it stops when an open category already scores its best possible
    points, and otherwise keeps the dice of its most common face (the higher face on a tie)
    and rolls the rest. When it stops, it scores the open category worth the most points now
    (the first in sheet order on a tie).
    """

    name = "greedy"

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        assert view.dice is not None
        counts = Counter(view.dice)
        points = {c: view.rules.score_counts(counts, c) for c in view.open_categories}
        tops = _category_maxima(view.rules)
        perfect = any(p == tops[c] for c, p in points.items())
        face, count = max(counts.items(), key=lambda fc: (fc[1], fc[0]))
        if view.rolls_left > 0 and not perfect and count < 5:
            return (face,) * count
        return max(points, key=lambda c: (points[c], -c.index))


@functools.cache
def _category_maxima(rules: Rules) -> dict[Category, int]:
    return {c: max(rules.score(r, c) for r in ROLLS) for c in CATEGORIES}
