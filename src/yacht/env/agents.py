"""Seat any :mod:`yacht.bots` bot at an environment, acting from the observation alone.

:func:`view_from_observation` rebuilds the bot's :class:`~yacht.game.TurnView` from an
observation vector; :func:`bot_action` asks the bot and returns the environment action.

>>> import random
>>> from yacht.env.gym_env import YachtEnv
>>> env = YachtEnv()
>>> obs, info = env.reset(seed=0)
>>> view = view_from_observation(obs, env.rules)
>>> view.dice == env.game.dice, view.rolls_left, view.open_categories == env.view().open_categories
(True, 2, True)
"""

from __future__ import annotations

import dataclasses
import random
from typing import TYPE_CHECKING

import numpy.typing as npt

from yacht.actions import Hold, Roll, Score
from yacht.env.spaces import decode_observation, hold_action, score_action
from yacht.game import MAX_ROLLS, TurnView
from yacht.rules import Rules, rules_by_name

if TYPE_CHECKING:
    from yacht.bots import Bot

__all__ = ["bot_action", "view_from_observation"]


def view_from_observation(obs: npt.ArrayLike, rules: Rules | str, num_players: int = 1) -> TurnView:
    """The observer's :class:`TurnView` (seat 0, its sheet first), with no dice held.

    Holding is part of each action here, so a fresh turn view holds nothing.
    """
    seen = decode_observation(obs, num_players)
    sheets = tuple(p["sheet"] for p in seen["players"])
    dice = seen["dice"] if all(seen["dice"]) else None
    return TurnView(
        rules_by_name(rules),
        0,
        sheets[0],
        sheets,
        dice,
        frozenset(),
        MAX_ROLLS - seen["rolls_left"],
    )


def bot_action(bot: Bot, view: TurnView, rng: random.Random) -> int:
    """The environment action for the bot's next decision in ``view``.

    A bot answers ``Hold(...)`` then ``Roll()``, or ``Score(...)``; the environment takes the
    hold and the roll as one action.
    """
    for _ in range(2):
        act = bot.act(view, rng)
        if isinstance(act, Score):
            return score_action(act.category)
        if isinstance(act, Roll):
            return hold_action(sorted(view.held))
        if not isinstance(act, Hold):
            break
        view = dataclasses.replace(view, held=frozenset(act.positions))
    raise ValueError(f"bot {bot.name!r} gave {act!r} where a hold, roll or score was expected")
