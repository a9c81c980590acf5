"""Bots that play from the exact strategy tables: ``optimal``, the levels and ``target:T``.

Each reads the solver's hint for the situation: every option after a roll (each distinct keep
of 0-4 dice while rolls are left, and scoring each open category) with its ``expected`` points
still to come. ``optimal`` takes the best; a level samples with probabilities proportional to
``exp(expected / temperature)``; ``target:T`` takes the option most likely to reach T.
"""

from __future__ import annotations

import math
import random

from yacht.bots.base import DecidingBot, Move
from yacht.game import TurnView
from yacht.strategy import Option, hint_for_view
from yacht.strategy.errors import StrategyError

__all__ = ["NoisyBot", "OptimalBot", "TargetBot", "option_move"]


def option_move(option: Option) -> Move:
    """The decision a hint option stands for: its keep, or its category."""
    if option.action == "keep":
        assert option.keep is not None
        return tuple(option.keep)
    assert option.category is not None
    return option.category


class OptimalBot(DecidingBot):
    """Maximises the expected final total; on an exact tie the hint's first option wins."""

    name = "optimal"

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        return option_move(hint_for_view(view).best)


class NoisyBot(DecidingBot):
    """Softmax choice over the exact option values: P(option) ~ exp(expected / temperature).

    The temperature is in points: options worth a few times ``temperature`` less than the best
    are rarely taken. A temperature of 0 plays like ``optimal``.
    """

    def __init__(self, name: str, temperature: float) -> None:
        super().__init__()
        if not temperature >= 0:
            raise StrategyError("temperature", temperature=temperature)
        self.name = name
        self.temperature = temperature

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        options = hint_for_view(view).options
        if self.temperature == 0:
            return option_move(options[0])
        top = max(o.expected for o in options)
        weights = [math.exp((o.expected - top) / self.temperature) for o in options]
        pick = rng.random() * sum(weights)
        for option, w in zip(options, weights, strict=True):
            pick -= w
            if pick < 0:
                return option_move(option)
        return option_move(options[0])


class TargetBot(DecidingBot):
    """Maximises P(final total >= target), counting the points already on its sheet."""

    def __init__(self, target: int) -> None:
        super().__init__()
        if isinstance(target, bool) or not isinstance(target, int) or target < 0:
            raise StrategyError("bot_target", target=target)
        self.target = target
        self.name = f"target:{target}"

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        return option_move(hint_for_view(view, target=self.target).best)
