"""The ``winner`` bot: plays for first place, not for points.

At every decision it takes the option with the best chance of finishing first against the
actual opponents' sheets (a shared first place counts as a fraction), as
:func:`yacht.strategy.win.win_hint` computes it: heads-up in the endgame exactly, otherwise
from the opponents' exact score distributions. Alone at the table it plays like ``optimal``.

>>> import random
>>> from yacht.bots import make_bot
>>> from yacht.dice import RandomDice
>>> from yacht.game import Game
>>> game = Game(["W", "O"], dice=RandomDice(seed=4))
>>> bots = [WinnerBot(depth=1), make_bot("optimal")]
>>> while not game.finished:
...     _ = game.apply(bots[game.current].act(game.view(), random.Random(0)))
>>> len(game.sheet(0)), len(game.sheet(1))
(12, 12)
"""

from __future__ import annotations

import random

from yacht.bots.base import DecidingBot, Move
from yacht.game import TurnView
from yacht.strategy.errors import StrategyError
from yacht.strategy.win import decide
from yacht.strategy.win_tables import DEFAULT_PLAN, PLANS

__all__ = ["WinnerBot"]


class WinnerBot(DecidingBot):
    """Maximises the chance of finishing first; an exact tie goes to more expected points.

    ``depth``: the endgame table it uses heads-up (0: none; None: depth 3 once ``yacht
    endgame`` has built it, else depth 2, built in seconds); ``plan``: how options are valued
    before that (:data:`yacht.strategy.win_tables.PLANS`).
    """

    name = "winner"

    def __init__(self, depth: int | None = None, plan: str = DEFAULT_PLAN) -> None:
        super().__init__()
        if plan not in PLANS:
            raise StrategyError("plan", plan=plan, plans=", ".join(PLANS))
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or not 0 <= depth <= 6
        ):
            raise StrategyError("endgame_depth_zero", depth=depth)
        self.depth = depth
        self.plan = plan

    def decide(self, view: TurnView, rng: random.Random) -> Move:
        return decide(view, depth=self.depth, plan=self.plan)
