"""Game review: every decision of every player, rated by its expected-points loss.

A decision is what a player did with the dice of one roll: keep some and roll again (only
with rolls left), or score a category. Each is compared with the best option of the exact
hint for that situation (the player's own sheet, the game's preset); the **loss** is the best
option's ``expected`` minus the taken option's ``expected``: the points the choice gives up
on average. A decision is **accurate** when its loss is below :data:`TOLERANCE`; a player's
**accuracy** is the percentage of their decisions that are accurate.

Holding all five dice and rolling is allowed by the rules and changes nothing but the rolls
left; it is rated as the best play with the same dice and one roll fewer.

>>> from yacht.bots import play_game
>>> r = review(play_game(["optimal", "optimal"], seed=4))
>>> [(p.name, p.loss, p.accuracy) for p in r.players]
[('optimal', 0.0, 100.0), ('optimal 2', 0.0, 100.0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from yacht.actions import Hold, Roll, Score, Undo
from yacht.game import Event, Game
from yacht.rules import UPPER_CATEGORIES, Category, Rules
from yacht.strategy import Option, hint

__all__ = ["TOLERANCE", "Decision", "PlayerReview", "Review", "review"]

TOLERANCE = 1e-9
"""Losses below this many points count as none (float rounding of exactly equal options)."""


@dataclass(frozen=True)
class Decision:
    """One decision: who, when, the dice, the option taken and the best one."""

    player: int
    turn: int  # the player's turn, 1..12
    roll: int  # which roll of the turn the dice come from, 1..3
    dice: tuple[int, ...]
    taken: Option
    best: Option

    @property
    def rolls_left(self) -> int:
        return 3 - self.roll

    @property
    def loss(self) -> float:
        """Expected points given up by the option taken (0 for the best option)."""
        return max(0.0, self.best.expected - self.taken.expected)

    @property
    def accurate(self) -> bool:
        return self.loss < TOLERANCE

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "turn": self.turn,
            "roll": self.roll,
            "rolls_left": self.rolls_left,
            "dice": list(self.dice),
            "taken": self.taken.to_json(),
            "best": self.best.to_json(),
            "loss": self.loss,
        }


@dataclass(frozen=True)
class PlayerReview:
    """One player's summary: decisions rated, total loss, accuracy in percent (None before
    the player's first decision)."""

    player: int
    name: str
    total: int
    decisions: int
    loss: float
    accuracy: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "name": self.name,
            "total": self.total,
            "decisions": self.decisions,
            "loss": round(self.loss, 6),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 2),
        }


@dataclass(frozen=True)
class Review:
    """Every decision of a game in order, and a summary per player."""

    rules: str
    decisions: tuple[Decision, ...]
    players: tuple[PlayerReview, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
        }


def review(game: Game | Mapping[str, Any]) -> Review:
    """Rate every decision of a game (a :class:`Game` or its JSON); unfinished games too.

    Raises ValueError when the JSON is not a valid game.
    """
    g = game if isinstance(game, Game) else Game.from_json(game)
    sheets: list[dict[Category, int]] = [{} for _ in g.players]
    decisions: list[Decision] = []
    turn: list[Event] = []
    for event in _settled(g.events):
        turn.append(event)
        if isinstance(event.action, Score):
            decisions.extend(_rate_turn(g.rules, event.player, sheets[event.player], turn))
            sheets[event.player][event.action.category] = event.points or 0
            turn = []
    if turn:
        decisions.extend(_rate_turn(g.rules, turn[0].player, sheets[turn[0].player], turn))
    players = []
    for p, name in enumerate(g.players):
        mine = [d for d in decisions if d.player == p]
        accurate = sum(d.accurate for d in mine)
        players.append(
            PlayerReview(
                player=p,
                name=name,
                total=g.rules.total(sheets[p]),
                decisions=len(mine),
                loss=sum(d.loss for d in mine),
                accuracy=100.0 * accurate / len(mine) if mine else None,
            )
        )
    return Review(g.rules.name, tuple(decisions), tuple(players))


def _settled(events: Sequence[Event]) -> list[Event]:
    """The events that stand: an undo removes the scoring it takes back (and itself)."""
    out: list[Event] = []
    for e in events:
        if isinstance(e.action, Undo):
            last = max(i for i, x in enumerate(out) if isinstance(x.action, Score))
            del out[last]
        else:
            out.append(e)
    return out


def _rate_turn(
    rules: Rules, player: int, sheet: Mapping[Category, int], turn: Sequence[Event]
) -> list[Decision]:
    """The decisions of one turn's events (a scoring ends a complete turn)."""
    out: list[Decision] = []
    used = frozenset(sheet)
    upper = sum(sheet.get(c, 0) for c in UPPER_CATEGORIES)
    dice: tuple[int, ...] | None = None
    held: frozenset[int] = frozenset()
    rolls = 0
    for e in turn:
        action = e.action
        if isinstance(action, Hold):
            held = frozenset(action.positions)
            continue
        if dice is not None and isinstance(action, Roll | Score):
            options = hint(rules, used, dice, 3 - rolls, upper=upper)
            if isinstance(action, Score):
                taken = _find(options.options, category=action.category)
            else:
                keep = tuple(sorted(dice[p - 1] for p in held))
                if len(keep) < 5:
                    taken = _find(options.options, keep=keep)
                else:  # the same dice with a roll fewer: worth that situation's best
                    later = hint(rules, used, dice, 2 - rolls, upper=upper).best.expected
                    taken = Option("keep", keep, None, None, later)
            out.append(Decision(player, len(sheet) + 1, rolls, dice, taken, options.best))
        if isinstance(action, Roll):
            assert e.dice is not None
            dice, rolls = e.dice, rolls + 1
    return out


def _find(
    options: Sequence[Option],
    *,
    keep: tuple[int, ...] | None = None,
    category: Category | None = None,
) -> Option:
    for o in options:
        if category is not None and o.action == "score" and o.category == category:
            return o
        if keep is not None and o.action == "keep" and tuple(o.keep or ()) == keep:
            return o
    raise RuntimeError(f"the hint lists no option keep={keep!r} category={category!r}")
