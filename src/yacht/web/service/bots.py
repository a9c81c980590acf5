"""The web game's links to the players and judges: bots, hints and reviews.

The server never plays or judges on its own: it asks :mod:`yacht.bots`, :mod:`yacht.strategy`
and :mod:`yacht.review`, and turns their answers into what the page shows.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import TYPE_CHECKING, Any

from yacht.actions import Action, Score, hold_for_keep
from yacht.game import Game, TurnView
from yacht.rules import Rules

if TYPE_CHECKING:
    from yacht.strategy import Option
    from yacht.strategy.win import WinOption

    Choice = Option | WinOption

__all__ = [
    "BotSeat",
    "bot_levels",
    "bot_name",
    "check_bot",
    "hint_reply",
    "prepare_win_tables",
    "review_json",
]

log = logging.getLogger(__name__)
_PREPARING: set[tuple[str, bool]] = set()
_PREPARING_LOCK = threading.Lock()


TARGET_LEVELS = ("target:200", "target:250")
"""The only ``target:T`` bots the web seats: each new T costs 10-24 s of CPU and some 5 MB
of cache the first time, so the web offers a fixed few (the command line takes any T)."""


def bot_levels() -> list[str]:
    """The bot levels a table can seat on the web, weakest first, then the target bots."""
    from yacht.bots import BOT_NAMES

    return [*BOT_NAMES, *TARGET_LEVELS]


def check_bot(level: str | None) -> str:
    """The level if the web seats a bot of that name; else ValueError naming the ones it does.

    >>> check_bot("target:201")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: no bot 'target:201' on the web; the levels are: random, greedy, ..., target:250
    """
    if not level:
        raise ValueError("a bot seat needs a level, e.g. 'medium'")
    levels = bot_levels()
    if level not in levels:
        raise ValueError(f"no bot {level[:40]!r} on the web; the levels are: {', '.join(levels)}")
    return level


def bot_name(level: str | None, number: int = 0) -> str:
    """A bot's default name: ``Medium bot``, or ``Medium bot 2`` when there are several."""
    base = f"{str(level).replace(':', ' ').capitalize()} bot"
    return f"{base} {number}" if number else base


def prepare_win_tables(rules: Rules, players: int) -> bool:
    """Start building the tables of P(win) hints and the ``winner`` bot for a new table of
    ``players`` seats, once per preset and per process, in a daemon thread of its own (so no
    database worker waits on it, and shutting down does not wait for it). Returns whether a
    build was started. The first hint or winner move then finds them ready (seconds for
    traditional, about 30 s for clubhouse, once per machine: they are cached on disk).
    """
    key = (rules.name, players == 2)  # heads-up also needs the endgame table
    with _PREPARING_LOCK:
        if players < 2 or key in _PREPARING:
            return False
        _PREPARING.add(key)

    def run() -> None:
        from yacht.strategy.win import prepare

        try:
            prepare(rules, players)
        except Exception:  # the hint or bot that needs the table says what is wrong
            log.exception("preparing the win tables of %s failed", rules.name)

    threading.Thread(target=run, name=f"prepare-{rules.name}", daemon=True).start()
    return True


class BotSeat:
    """One bot playing one seat, with its own seeded random generator.

    The same object serves while a process drives the table (a bot's whole turn at least);
    a new one, made later or after a restart, decides again from the position it finds.
    """

    def __init__(self, level: str, seed: str) -> None:
        from yacht.bots import make_bot

        self.level = level
        self.bot = make_bot(level)
        self.rng = random.Random(seed)

    def act(self, view: TurnView) -> Action:
        return self.bot.act(view, self.rng)


def hint_reply(view: TurnView, limit: int = 5) -> dict[str, Any]:
    """``{"options": [...], "exact": ..., "solved": ...}`` for the HintReply schema.

    Alone at the table: the options with the most expected points (``exact`` None). With
    opponents: the options with the best chance of finishing first
    (:func:`yacht.strategy.win.win_hint_for_view`), each with ``win_probability``; ``exact``
    says whether an exact table decided them and ``solved`` whether that was the solved
    two-player table."""
    from yacht.strategy import hint_for_view
    from yacht.strategy.win import win_hint_for_view

    if view.dice is None:
        raise ValueError("roll first: a hint needs dice on the table")
    dice = view.dice
    exact: bool | None = None
    solved: bool | None = None
    rows: list[tuple[Choice, float, float | None, float | None]]
    if len(view.sheets) > 1:
        win = win_hint_for_view(view)
        exact, solved = win.exact, win.solved
        rows = [(o, o.expected, None, o.win_probability) for o in win.options[:limit]]
    else:
        hint = hint_for_view(view)
        rows = [(o, o.expected, o.probability, None) for o in hint.options[:limit]]
    out = []
    for option, expected, probability, win_probability in rows:
        keep = list(option.keep) if option.keep is not None else None
        out.append(
            {
                "action": option.action,
                "keep": keep,
                "hold": list(hold_for_keep(dice, keep).positions) if keep is not None else None,
                "category": option.category,
                "points": option.points,
                "expected": expected,
                "expected_total": expected + view.banked,
                "probability": probability,
                "win_probability": win_probability,
            }
        )
    return {"options": out, "exact": exact, "solved": solved}


def review_json(game: Game) -> dict[str, Any]:
    """Each player's review: accuracy by the measure the table's hint ranks by (``measure``:
    ``points`` alone, ``win`` with opponents), what was lost by it (``chance_loss``, a
    probability, with opponents) and in expected points (``loss``), every decision (with
    ``accurate``), and the expected final total after each decision (the chart), starting
    from the preset's expected score."""
    from yacht.review import review
    from yacht.strategy import solve

    result = review(game)
    start = float(solve(game.rules).expected)
    banked: list[list[int]] = [[0] for _ in game.players]  # total before each of their turns
    sheets: list[dict[Any, int]] = [{} for _ in game.players]
    for event in game.events:
        if isinstance(event.action, Score):
            sheets[event.player][event.action.category] = event.points or 0
            banked[event.player].append(game.rules.total(sheets[event.player]))
    players = []
    for summary in result.players:
        mine = [d for d in result.decisions if d.player == summary.player]
        series = [start]
        decisions = []
        for d in mine:
            series.append(banked[d.player][d.turn - 1] + d.taken.expected)
            decisions.append(
                {
                    "turn": d.turn,
                    "roll": d.roll,
                    "dice": list(d.dice),
                    "taken": d.taken.to_json(),
                    "best": d.best.to_json(),
                    "loss": round(d.points_loss, 3),
                    "chance_loss": None if d.measure == "points" else round(d.loss, 6),
                    "accurate": d.accurate,
                    "exact": d.exact,
                }
            )
        players.append(
            {
                "seat": summary.player,
                "name": summary.name,
                "total": summary.total,
                "loss": round(summary.points_loss, 2),
                "chance_loss": None if summary.measure == "points" else round(summary.loss, 6),
                "accuracy": None if summary.accuracy is None else round(summary.accuracy, 1),
                "decisions": decisions,
                "series": [round(x, 2) for x in series],
            }
        )
    return {
        "rules": result.rules,
        "measure": result.measure,
        "expected": round(start, 2),
        "players": players,
    }
