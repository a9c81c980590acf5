"""Computer players: one small interface, a registry by name, and the engine-driven play loop.

A bot gets a read-only :class:`~yacht.game.TurnView` and a random generator and returns one
action. Every bot sits in any game through the engine:

>>> import random
>>> from yacht.game import Game
>>> from yacht.dice import RandomDice
>>> game = Game(["Bot"], dice=RandomDice(seed=3))
>>> bot, rng = make_bot("greedy"), random.Random(3)
>>> while not game.finished:
...     _ = game.apply(bot.act(game.view(), rng))
>>> len(game.sheet(0))
12

Names (:data:`BOT_NAMES`, weakest first): ``random``, ``greedy``, ``easy``, ``medium``,
``hard``, ``optimal``, ``winner`` (plays for the best chance of finishing first against the
other sheets at the table, not for points; alone it plays like ``optimal``), and
``target:T`` (plays to maximise the chance of a final total of at least T). ``duel`` and
``duel:optimal`` play heads-up exactly from the solved two-player table (``yacht duel
solve``).
"""

from __future__ import annotations

from yacht.bots.base import Bot, DecidingBot, Move
from yacht.bots.basic import GreedyBot, RandomBot
from yacht.bots.play import play_game, play_turn
from yacht.bots.registry import BOT_LEVELS, BOT_NAMES, make_bot
from yacht.bots.solver import NoisyBot, OptimalBot, TargetBot

__all__ = [
    "BOT_LEVELS",
    "BOT_NAMES",
    "Bot",
    "DecidingBot",
    "GreedyBot",
    "Move",
    "NoisyBot",
    "OptimalBot",
    "RandomBot",
    "TargetBot",
    "make_bot",
    "play_game",
    "play_turn",
]
