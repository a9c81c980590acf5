"""The bot interface and the shared turn logic: decide a keep or a category, then act.

A turn is a chain of decisions, one after each roll: keep some dice and roll again (only while
rolls are left), or score a category. :class:`DecidingBot` turns a decision into engine actions:
``Hold(...)`` when the held dice must change to the desired keep, then ``Roll()``, or
``Score(category)``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Protocol, runtime_checkable

from yacht.actions import Action, Roll, Score, hold_for_keep
from yacht.errors import N_, YachtError
from yacht.game import TurnView
from yacht.rules import Category

__all__ = ["Bot", "BotError", "DecidingBot", "Move"]


class BotError(
    YachtError,
    ValueError,
    messages={
        "target_name": N_("bad bot name: {name!r} (target:T needs a whole number T >= 0)"),
        "unknown": N_("unknown bot: {name!r} (known: {known})"),
    },
):
    """A bot asked for by a name no bot has."""


Move = tuple[int, ...] | Category
"""What a bot chooses after a roll: a keep (sorted faces to hold, 0-4 dice; the rest are
rolled again) or a category to score."""


@runtime_checkable
class Bot(Protocol):
    """A computer player: a name, and one action for a view of the game."""

    @property
    def name(self) -> str: ...

    def act(self, view: TurnView, rng: random.Random) -> Action:
        """The next action for the player whose turn ``view`` shows; always legal there."""
        ...


class DecidingBot:
    """Base of the built-in bots: subclasses implement :meth:`decide`; this class acts on it.

    The last decision is remembered for the exact situation it was made in, so that ``Hold``
    and the ``Roll`` after it carry out one choice even when the choice is random.
    """

    name: str = "bot"

    def __init__(self) -> None:
        self._last: tuple[object, Move] | None = None

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        """A keep to roll around (only with rolls left) or an open category to score."""
        raise NotImplementedError

    def act(self, view: TurnView, rng: random.Random) -> Action:
        if view.dice is None:
            return Roll()
        key = (
            view.rules.name,
            view.player,
            view.dice,
            view.rolls_used,
            tuple(sorted((c.index, p) for c, p in view.sheet.items())),
        )
        if self._last is not None and self._last[0] == key:
            decision = self._last[1]
        else:
            decision = self.decide(view, rng)
            self._last = (key, decision)
        if isinstance(decision, Category):
            if decision in view.sheet:
                raise RuntimeError(f"{self.name} bot chose filled category {decision.value}")
            return Score(decision)
        if view.rolls_left == 0:
            raise RuntimeError(f"{self.name} bot chose to keep {decision} with no rolls left")
        held = Counter(view.dice[p - 1] for p in view.held)
        if held == Counter(decision):
            return Roll()
        return hold_for_keep(view.dice, decision)

    def __repr__(self) -> str:
        return f"make_bot({self.name!r})"
