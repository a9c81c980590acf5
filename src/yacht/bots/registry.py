"""Bots by name: :func:`make_bot`, :data:`BOT_NAMES`, and the levels' temperatures."""

from __future__ import annotations

from yacht.bots.base import Bot, BotError
from yacht.bots.basic import GreedyBot, RandomBot
from yacht.bots.solver import NoisyBot, OptimalBot, TargetBot

__all__ = ["BOT_LEVELS", "BOT_NAMES", "DUEL_NAMES", "make_bot"]

BOT_LEVELS: dict[str, float] = {"easy": 1.75, "medium": 0.9, "hard": 0.5}
"""Softmax temperature (in points) of each level; the measured means are in docs/bots.md."""

BOT_NAMES: tuple[str, ...] = ("random", "greedy", "easy", "medium", "hard", "optimal", "winner")
"""Every plain bot name, weakest first; ``target:T`` (T a whole number) is accepted too."""

DUEL_NAMES: tuple[str, ...] = ("duel", "duel:optimal")
"""Heads-up bots of the solved two-player tables (``yacht duel solve``, 3-6 GB each): the
command line and the library take them; the faces do not list them, since a server or a
terminal without the tables would seat a bot that only plays like ``winner``."""


def make_bot(name: str) -> Bot:
    """A new bot by name.

    >>> make_bot("optimal").name
    'optimal'
    >>> make_bot("target:150").name
    'target:150'
    >>> make_bot("grandmaster")
    Traceback (most recent call last):
    ...
    yacht.bots.base.BotError: unknown bot: 'grandmaster' (known: random, greedy, easy, ...)
    """
    key = name.strip().lower() if isinstance(name, str) else name
    if key == "random":
        return RandomBot()
    if key == "greedy":
        return GreedyBot()
    if key == "optimal":
        return OptimalBot()
    if key == "winner":  # plays for first place; its tables load on first use
        from yacht.bots.winner import WinnerBot

        return WinnerBot()
    if key in ("duel", "duel:optimal"):  # exact heads-up play; needs `yacht duel solve`'s table
        from yacht.bots.duel import DuelBot

        return DuelBot("anyone" if key == "duel" else "optimal")
    if key in BOT_LEVELS:
        return NoisyBot(key, BOT_LEVELS[key])
    if isinstance(key, str) and key.startswith("target:"):
        text = key.removeprefix("target:")
        if not text.isdigit():
            raise BotError("target_name", name=name)
        return TargetBot(int(text))
    raise BotError("unknown", name=name, known=", ".join((*BOT_NAMES, *DUEL_NAMES, "target:T")))
