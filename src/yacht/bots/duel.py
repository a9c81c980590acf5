"""The ``duel`` bot: perfect heads-up play from the solved two-player tables.

``duel`` plays table (a): it maximises its exact chance of winning against an opponent who
plays perfectly against it, which is the most it can be sure of against anyone.
``duel:optimal`` plays table (b): the best response to the ``optimal`` bot, exact when the
opponent really is ``optimal``. Both need their table built (``yacht duel solve``); where it
is not built, or with more than one opponent, they play like ``winner``.
"""

from __future__ import annotations

import random

from yacht.bots.base import DecidingBot, Move
from yacht.game import TurnView
from yacht.strategy.duel.hints import AGAINST, decide
from yacht.strategy.errors import StrategyError
from yacht.strategy.win import decide as winner_decide

__all__ = ["DuelBot"]


class DuelBot(DecidingBot):
    """Maximises the exact heads-up chance of winning (``against``: "anyone" for table (a),
    "optimal" for table (b)); an exact tie goes to more expected points."""

    def __init__(self, against: str = "anyone") -> None:
        super().__init__()
        if against not in AGAINST:
            raise StrategyError("against", known=", ".join(AGAINST), against=against)
        self.against = against
        self.name = "duel" if against == "anyone" else f"duel:{against}"

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        move = decide(view, self.against)
        return winner_decide(view) if move is None else move
