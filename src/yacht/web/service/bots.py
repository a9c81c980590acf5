"""The web game's links to the players and judges: bots, hints and reviews.

The server never plays or judges on its own: it asks :mod:`yacht.bots`, :mod:`yacht.strategy`
and :mod:`yacht.review`, and turns their answers into what the page shows. What costs CPU (a
hint, a ``winner`` or ``target:T`` move, a review, building a table) is worked out in the
server's worker process (:mod:`yacht.web.service.workers`), so moves never wait for it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from yacht.actions import Action, Score, hold_for_keep
from yacht.game import Game, TurnView
from yacht.rules import Rules, preset_names
from yacht.web.service.workers import workers

if TYPE_CHECKING:
    from yacht.strategy import Option
    from yacht.strategy.win import WinOption

    Choice = Option | WinOption

__all__ = [
    "BotSeat",
    "bot_action",
    "bot_levels",
    "bot_name",
    "bot_turn",
    "build_tables",
    "check_bot",
    "hint_reply",
    "in_worker",
    "load_code",
    "portable",
    "prepare_tables",
    "prepare_win_tables",
    "review",
    "review_json",
    "solve_in_worker",
    "solve_presets",
    "tables_ready",
]

log = logging.getLogger(__name__)
_PREPARING: set[tuple[str, bool]] = set()
_TABLES: list[Future[float]] = []  # the build started by prepare_tables, once per process


TARGET_LEVELS = ("target:200", "target:250")
"""The only ``target:T`` bots the web seats: each new T costs 10-24 s of CPU and some 5 MB
of cache the first time, so the web offers a fixed few (the command line takes any T)."""


def load_code() -> None:
    """Import the strategy code that bots, hints and reviews use, now: a server loads it
    before it serves (seconds of imports and module tables), so no first request waits for it."""
    import yacht.bots
    import yacht.review
    import yacht.strategy.win  # noqa: F401


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
    ``players`` seats, once per preset and per process, in the worker that computes hints
    and bot moves (the serving process never builds a table). Returns whether a build was
    started. Needed only for presets :func:`prepare_tables` did not build: the first hint or
    winner move then finds them ready (cached on disk, once per machine).
    """
    key = (rules.name, players == 2)  # heads-up also needs the endgame table
    if players < 2 or key in _PREPARING:
        return False
    _PREPARING.add(key)
    from yacht.strategy.win import prepare

    done = workers().submit(prepare, rules, players)
    done.add_done_callback(_log_failure)
    return True


def _log_failure(done: Future[Any]) -> None:
    if not done.cancelled() and (error := done.exception()) is not None:
        # the hint or bot that needs the table says what is wrong
        log.error("preparing strategy tables failed: %s: %s", type(error).__name__, error)


def build_tables(presets: tuple[str, ...] | None = None) -> float:
    """Build (or read from the disk cache) every table the web's tables use for ``presets``
    (all of them by default): the solver's values (every bot, hint and review) and the
    tables of P(win) hints and the ``winner`` bot, heads-up (the endgame table) and with
    more players. Runs in the worker; returns the seconds it took."""
    from yacht.strategy.win import prepare

    start = time.perf_counter()
    for name in presets or preset_names():
        prepare(name, 2)
    return time.perf_counter() - start


def prepare_tables(presets: tuple[str, ...] | None = None) -> Future[float]:
    """Start :func:`build_tables` in the worker, once per process (the first call's
    ``presets`` count); the future gives its seconds. The worker keeps the tables in
    memory for the hints and bot moves it computes; the disk cache keeps them for the next
    start (then this takes about a second)."""
    if not _TABLES or _failed(_TABLES[0]):
        _TABLES[:] = [workers().submit(build_tables, presets)]
        _TABLES[0].add_done_callback(_log_failure)
    return _TABLES[0]


def solve_presets() -> float:
    """Read (or build) every preset's solved values; returns the seconds it took. Runs in the
    worker, so that its first hint, bot move or review finds them in memory."""
    from yacht.strategy import solve

    start = time.perf_counter()
    for name in preset_names():
        solve(name)
    return time.perf_counter() - start


def solve_in_worker() -> Future[float]:
    """Start :func:`solve_presets` in the worker (its failure is logged)."""
    done = workers().submit(solve_presets)
    done.add_done_callback(_log_failure)
    return done


def tables_ready() -> bool:
    """Whether :func:`prepare_tables` has finished building (False before it is called)."""
    return bool(_TABLES) and _TABLES[0].done() and not _failed(_TABLES[0])


def _failed(done: Future[Any]) -> bool:
    return done.done() and (done.cancelled() or done.exception() is not None)


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


def portable(view: TurnView) -> TurnView:
    """The same view with plain dicts for sheets, so it pickles (for the worker)."""
    return dataclasses.replace(
        view, sheet=dict(view.sheet), sheets=tuple(dict(s) for s in view.sheets)
    )


def bot_turn(seat: BotSeat, view: TurnView) -> tuple[Action, BotSeat]:
    """The bot's action, computed in the worker, and the seat as it is after acting (its
    random generator and remembered decision move on, so the next action follows on)."""
    return seat.act(view), seat


def in_worker(level: str) -> bool:
    """Whether a bot of ``level`` decides in the worker process rather than in a thread:
    ``winner`` takes tens to hundreds of milliseconds a move (P(win) of every option) and
    ``target:T`` a table of seconds to build; the others decide in a tenth of a millisecond
    (median; a little more the first time a state's policy is looked up), less than the
    trip to the worker costs."""
    return level == "winner" or level.startswith("target:")


async def bot_action(seat: BotSeat, view: TurnView) -> tuple[Action, BotSeat]:
    """:func:`bot_turn` away from the event loop: in the worker for heavy bots, else in a
    thread (the seat returned is the one to keep: a copy back from the worker)."""
    if in_worker(seat.level):
        return await workers().run(bot_turn, seat, portable(view))
    return await asyncio.to_thread(bot_turn, seat, view)


def hint_reply(view: TurnView, limit: int = 5) -> dict[str, Any]:
    """``{"options": [...], "exact": ..., "solved": ...}`` for the HintReply schema.

    Alone at the table: the options with the most expected points (``exact`` None). With
    opponents: the options with the best chance of finishing first
    (:func:`yacht.strategy.win.win_hint_for_view`), each with ``win_probability``; ``exact``
    says whether an exact table decided them and ``solved`` whether that was the solved
    two-player table. Each option's ``reasons`` (:func:`yacht.strategy.explain.reasons_for`):
    what a keep plays for and, alone at the table, how it differs from the best."""
    from yacht.strategy import hint_for_view
    from yacht.strategy.explain import reasons_for
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
    reasons = reasons_for(
        view.rules,
        view.used,
        dice,
        view.rolls_left,
        [row[0] for row in rows],
        upper=view.upper_total,
        versus=len(view.sheets) == 1,
    )
    out = []
    for (option, expected, probability, win_probability), why in zip(rows, reasons, strict=True):
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
                "reasons": [r.to_json() for r in why],
            }
        )
    return {"options": out, "exact": exact, "solved": solved}


async def review(game: Game) -> dict[str, Any]:
    """:func:`review_json` worked out in the worker process: a two-player game's review is
    about half a second of CPU (P(win) at every decision), which in a thread of the serving
    process would hold every table's moves up as a game ends."""
    return await workers().run(review_json, game)


WHY_LOSS = 0.5
"""A decision that lost at least this many expected points is explained in the review (as
the review's chart marks the biggest losses, from 0.5 points)."""
WHY_DECISIONS = 3
"""How many of a player's costliest decisions the review explains."""


def _why(rules: Rules, decision: Any) -> dict[str, Any]:
    from yacht.review import decision_reasons

    best, taken = decision_reasons(rules, decision)
    return {"best": [r.to_json() for r in best], "taken": [r.to_json() for r in taken]}


def review_json(game: Game) -> dict[str, Any]:
    """Each player's review: accuracy by the measure the table's hint ranks by (``measure``:
    ``points`` alone, ``win`` with opponents), what was lost by it (``chance_loss``, a
    probability, with opponents) and in expected points (``loss``), every decision (with
    ``accurate``, and ``why`` for the :data:`WHY_DECISIONS` costliest of at least
    :data:`WHY_LOSS` points: the reasons of the best option and of the one taken,
    :func:`yacht.review.decision_reasons`), and the expected final total after each decision
    (the chart), starting from the preset's expected score."""
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
        costly = sorted(
            (d for d in mine if d.points_loss >= WHY_LOSS), key=lambda d: -d.points_loss
        )
        explained = {id(d) for d in costly[:WHY_DECISIONS]}
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
                    "why": _why(game.rules, d) if id(d) in explained else None,
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
