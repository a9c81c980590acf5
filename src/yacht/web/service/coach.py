"""The live coach of the web table: a seat marked as playing a game with it, and its word on a
move before the move is made.

A player who turns the coach on sends a ``coach`` message: the seat is marked in the game
(``games.coach``, with the threshold it set), everyone sees it, the game's file says so and
the game is never rated. The coach is a hint, so it is refused wherever hints are
(``hints_off``): a rated table plays without hints, so a rated game can never be coached.
With a move to weigh (a roll, with the dice held now, or a score), the coach prices it
against the best move by the threshold's unit, expected points or the chance of finishing
first, worked out in the server's worker process like a hint
(:mod:`yacht.web.service.workers`), and says whether it loses more than the threshold.

>>> from yacht.game import Game
>>> from yacht.dice import ScriptedDice
>>> game = Game(["Ann"], dice=ScriptedDice([6, 6, 6, 6, 6]))
>>> _ = game.apply("roll")
>>> reply = weigh(game.view(), ("score", "choice"), "points")
>>> reply["best"]["category"].value, reply["taken"]["category"].value, round(reply["loss"], 1)
('yacht', 'choice', 34.6)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from yacht.actions import hold_for_keep
from yacht.game import Game, TurnView
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import CoachMessage, RollBody
from yacht.web.service.bots import portable
from yacht.web.service.decisions import _yours, check_token, playing
from yacht.web.service.workers import workers
from yacht.web.storage.changes import Change
from yacht.web.storage.store import TableSnapshot

if TYPE_CHECKING:
    from yacht.strategy import Option
    from yacht.strategy.win import WinOption

__all__ = ["QUEUE", "coached_seats", "mark", "marked", "wanted", "weigh", "weighed"]

QUEUE = 8
"""Moves being weighed at once in this process, as many as hints being worked out
(:data:`yacht.web.service.hints.QUEUE`); more are answered ``busy``: the quota bounds one
client, this all of them together."""
_weighing = [0]

Wanted = tuple[str, Any]
"""The move asked about, as the hint names options: ``("keep", faces)`` or ``("score", name)``."""


def coached_seats(coach: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The game's marks as :class:`~yacht.web.protocol.views.CoachMark` data, by seat.

    >>> coached_seats({"1": {"unit": "win", "value": 2.0}, "0": {"unit": "points", "value": 1.0}})
    [{'seat': 0, 'unit': 'points', 'value': 1.0}, {'seat': 1, 'unit': 'win', 'value': 2.0}]
    """
    marks = sorted((coach or {}).items(), key=lambda item: int(item[0]))
    return [{"seat": int(seat), **mark} for seat, mark in marks]


def marked(snap: TableSnapshot, msg: CoachMessage) -> bool:
    """Whether the seat is already marked in game ``msg.game`` with this threshold."""
    if snap.game.number != msg.game:
        return False
    return (snap.game.coach or {}).get(str(msg.seat)) == msg.threshold.model_dump()


def check(snap: TableSnapshot, game: Game | None, msg: CoachMessage) -> Game:
    """The game the coach is asked of, or why it is not given (nothing changes)."""
    if not snap.table.hints:
        raise TableError(
            "hints_off",
            "this table plays without hints, and the live coach is one"
            + (": a rated game's players play on their own" if snap.table.rated else ""),
        )
    _yours(check_token(snap, msg.seat, msg.token))
    game = playing(snap, game, msg.game)
    if msg.threshold.unit == "win" and len(game.players) < 2:
        raise TableError(
            "invalid", "a threshold in the chance of winning needs opponents: use points"
        )
    return game


def mark(snap: TableSnapshot, game: Game | None, msg: CoachMessage) -> Change:
    """Mark the seat as playing game ``msg.game`` with the live coach (its threshold kept)."""
    game = check(snap, game, msg)
    coach = {**(snap.game.coach or {}), str(msg.seat): msg.threshold.model_dump()}
    return Change(game={"coach": coach}, engine=game)


def wanted(game: Game, msg: CoachMessage) -> Wanted:
    """The move ``msg`` asks about, checked as the game would check it (nothing is played)."""
    if msg.version != game.version:
        raise TableError(
            "stale_version",
            f"the move was weighed on version {msg.version}, the game is at {game.version}",
        )
    if msg.seat != game.current:
        raise TableError("not_your_turn", "the coach weighs the moves of the player on turn")
    dice = game.dice
    if dice is None:
        raise TableError("illegal", "roll first: the coach weighs a move with dice on the table")
    if msg.action is None:
        raise TableError("invalid", "no move to weigh")
    if isinstance(msg.action, RollBody):
        if game.rolls_left == 0:
            raise TableError("illegal", "no rolls left: score a category")
        return ("keep", tuple(sorted(dice[p - 1] for p in game.held)))
    category = msg.action.category
    if category in game.sheets[game.current]:
        raise TableError("illegal", f"{category.value} is already scored")
    return ("score", category.value)


def weigh(view: TurnView, move: Wanted, unit: str) -> dict[str, Any]:
    """The coach's word on ``move`` (worked out in the worker): the best option by ``unit``
    (expected points, or the chance of finishing first), the move's option, what it loses in
    that unit and in expected points, with the coach's reasons for both."""
    from yacht.review import chance_of
    from yacht.strategy import hint_for_view
    from yacht.strategy.explain import reasons_for
    from yacht.strategy.win import win_hint_for_view

    if view.dice is None:
        raise ValueError("roll first: the coach needs dice on the table")
    options: tuple[Option | WinOption, ...]
    win = unit == "win"
    options = win_hint_for_view(view).options if win else hint_for_view(view).options
    best = options[0]
    taken = next((o for o in options if _names(o) == move), None)
    chosen = [best] if taken is None or taken is best else [best, taken]
    reasons = reasons_for(
        view.rules,
        view.used,
        view.dice,
        view.rolls_left,
        chosen,
        upper=view.upper_total,
        versus=len(view.sheets) == 1 and not win,
    )
    shown = [_option(o, view, why) for o, why in zip(chosen, reasons, strict=True)]
    if taken is None:  # all five held: the same dice, one roll fewer
        return {"best": shown[0], "taken": None, "loss": 0.0, "points_loss": 0.0}
    most = max(o.expected for o in options)
    top, mine = chance_of(best), chance_of(taken)
    if win and top is not None and mine is not None:
        loss = top - mine
    else:
        loss = best.expected - taken.expected
    return {
        "best": shown[0],
        "taken": shown[-1],
        "loss": max(loss, 0.0),
        "points_loss": max(most - taken.expected, 0.0),
    }


async def weighed(view: TurnView, move: Wanted, unit: str) -> dict[str, Any]:
    """:func:`weigh` in the server's worker process, at most :data:`QUEUE` at once."""
    if _weighing[0] >= QUEUE:
        raise TableError("busy", f"{QUEUE} moves are being weighed: ask again in a moment")
    _weighing[0] += 1
    try:
        return await workers().run(weigh, portable(view), move, unit)
    finally:
        _weighing[0] -= 1


def _names(option: Option | WinOption) -> Wanted:
    if option.action == "keep":
        return ("keep", tuple(option.keep or ()))
    return ("score", option.category.value if option.category is not None else None)


def _option(option: Option | WinOption, view: TurnView, why: Any) -> dict[str, Any]:
    dice = view.dice or ()
    keep = list(option.keep) if option.keep is not None else None
    return {
        "action": option.action,
        "keep": keep,
        "hold": list(hold_for_keep(dice, keep).positions) if keep is not None else None,
        "category": option.category,
        "points": option.points,
        "expected": option.expected,
        "expected_total": option.expected + view.banked,
        "probability": getattr(option, "probability", None),
        "win_probability": getattr(option, "win_probability", None),
        "reasons": [r.to_json() for r in why],
    }
