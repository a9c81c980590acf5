"""Game review: every decision of every player, rated by the measure the coach's hint uses.

A decision is what a player did with the dice of one roll: keep some and roll again (only
with rolls left), or score a category. Each is compared with the top option of the hint the
terminal game, the web table and ``yacht hint`` give for that situation (:func:`coach_hint`),
so following the hint's top option is always rated accurate. The **measure** is

- ``points`` alone at the table: the expected points still to come;
- ``win`` with opponents: the chance of finishing first (exact once the heads-up endgame
  table decides it: ``Decision.exact``);
- ``target`` with a target score T: the chance of a final total of at least T.

A decision's **loss** is the top option's value minus the taken option's, in the measure's
unit (points, or a probability from 0 to 1); **points_loss** is beside it in every game: the
expected points the choice gives up against the option with the most. A decision is
**accurate** when its loss is below :data:`TOLERANCE` and, on equal chances, it expects as
many points as the top option (the hint breaks such ties on the expected total); a player's
**accuracy** is the percentage of their decisions that are accurate.

Holding all five dice and rolling is allowed by the rules and changes nothing but the rolls
left; it is rated as the best play with the same dice and one roll fewer.

>>> from yacht.bots import play_game
>>> r = review(play_game(["optimal"], seed=4))
>>> [(p.name, p.measure, p.loss, p.accuracy) for p in r.players]
[('optimal', 'points', 0.0, 100.0)]
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from yacht.actions import Hold, Roll, Score, Undo
from yacht.errors import N_, YachtError
from yacht.game import Event, Game, TurnView
from yacht.rules import Category, Rules
from yacht.strategy import Hint, Option, hint_for_view

if TYPE_CHECKING:
    from yacht.strategy.explain import Reason
    from yacht.strategy.win import WinHint, WinOption

    Choice = Option | WinOption

__all__ = [
    "MEASURES",
    "TOLERANCE",
    "Decision",
    "PlayerReview",
    "Review",
    "ReviewError",
    "coach_hint",
    "decision_reasons",
    "measure_of",
    "review",
    "settled",
]

TOLERANCE = 1e-9
"""Losses below this count as none (float rounding of exactly equal options)."""

POINTS_TOLERANCE = 1e-6
"""Expected totals closer than this are equal when they break a tie of chances."""

MEASURES = ("points", "win", "target")


class ReviewError(
    YachtError,
    ValueError,
    messages={
        "target_type": N_("the target score must be a whole number, got {target!r}"),
        "target_low": N_("the target score must be at least 1, got {target}"),
    },
):
    """A review asked for with a target score that cannot be one."""


def measure_of(players: int, target: int | None = None) -> str:
    """What the coach plays for: ``target`` with a target score, ``win`` with opponents,
    else ``points``.

    >>> measure_of(1), measure_of(3), measure_of(2, target=200)
    ('points', 'win', 'target')
    """
    if target is not None:
        return "target"
    return "win" if players > 1 else "points"


def coach_hint(view: TurnView, target: int | None = None) -> Hint | WinHint:
    """The hint for the player on turn, by the measure of :func:`measure_of`: the exact
    points hint alone, P(total >= ``target``) with a target, P(win) with opponents.

    The last few hundred answers are kept, so the review of a game finds the hints its
    players were shown already worked out."""
    sheets = tuple(tuple(sorted(s.items(), key=lambda kv: kv[0].index)) for s in view.sheets)
    dice = None if view.dice is None else tuple(view.dice)
    return _coach(view.rules, view.player, sheets, dice, view.rolls_used, target)


@functools.lru_cache(maxsize=512)
def _coach(
    rules: Rules,
    player: int,
    sheets: tuple[tuple[tuple[Category, int], ...], ...],
    dice: tuple[int, ...] | None,
    rolls_used: int,
    target: int | None,
) -> Hint | WinHint:
    mappings = tuple(dict(s) for s in sheets)
    view = TurnView(rules, player, mappings[player], mappings, dice, frozenset(), rolls_used)
    if measure_of(len(sheets), target) == "win":
        from yacht.strategy.win import win_hint_for_view

        return win_hint_for_view(view)
    return hint_for_view(view, target)


def chance_of(option: Choice) -> float | None:
    """An option's chance by its hint's measure: P(win), P(total >= T), or None (points)."""
    chance = getattr(option, "win_probability", None)
    return chance if chance is not None else getattr(option, "probability", None)


@dataclass(frozen=True)
class Decision:
    """One decision: who, when, the dice, the option taken and the hint's top option."""

    player: int
    turn: int  # the player's turn, 1..12 (the table's round)
    roll: int  # which roll of the turn the dice come from, 1..3
    dice: tuple[int, ...]
    taken: Choice
    best: Choice
    measure: str = "points"
    most_points: float | None = None  # the most expected points of any option (None: best's)
    exact: bool = False  # P(win) from the solved endgame
    used: frozenset[Category] = frozenset()  # the player's filled categories at the decision
    upper: int = 0  # and their upper subtotal

    @property
    def rolls_left(self) -> int:
        return 3 - self.roll

    @property
    def loss(self) -> float:
        """What the option taken gives up by the measure: points, or a probability (0-1)."""
        if self.measure == "points":
            return self.points_loss
        return max(0.0, (chance_of(self.best) or 0.0) - (chance_of(self.taken) or 0.0))

    @property
    def points_loss(self) -> float:
        """Expected points given up against the option with the most (0 for it)."""
        most = self.best.expected if self.most_points is None else self.most_points
        return max(0.0, most - self.taken.expected)

    @property
    def accurate(self) -> bool:
        """The hint's top option or as good: by the measure, and on equal chances by the
        expected total, the tie-break the hint ranks by (100% to win both ways, the option
        with fewer points is not the best play)."""
        if self.loss >= TOLERANCE:
            return False
        if self.measure == "points":
            return True
        return self.taken.expected > self.best.expected - POINTS_TOLERANCE

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "turn": self.turn,
            "roll": self.roll,
            "rolls_left": self.rolls_left,
            "dice": list(self.dice),
            "taken": self.taken.to_json(),
            "best": self.best.to_json(),
            "measure": self.measure,
            "loss": self.loss,
            "points_loss": self.points_loss,
            "accurate": self.accurate,
            "exact": self.exact,
        }


@dataclass(frozen=True)
class PlayerReview:
    """One player's summary: decisions rated, total loss by the measure and in points,
    accuracy in percent (None before the player's first decision)."""

    player: int
    name: str
    total: int
    decisions: int
    loss: float
    accuracy: float | None
    measure: str = "points"
    points_loss: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "name": self.name,
            "total": self.total,
            "decisions": self.decisions,
            "measure": self.measure,
            "loss": round(self.loss, 6),
            "points_loss": round(self.points_loss, 6),
            "accuracy": None if self.accuracy is None else round(self.accuracy, 2),
        }


@dataclass(frozen=True)
class Review:
    """Every decision of a game in order, and a summary per player."""

    rules: str
    decisions: tuple[Decision, ...]
    players: tuple[PlayerReview, ...]
    measure: str = "points"
    target: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "measure": self.measure,
            "target": self.target,
            "players": [p.to_json() for p in self.players],
            "decisions": [d.to_json() for d in self.decisions],
        }


def review(game: Game | Mapping[str, Any], *, target: int | None = None) -> Review:
    """Rate every decision of a game (a :class:`Game` or its JSON); unfinished games too.

    ``target``: the game's target score, if it had one (game JSON may carry it as
    ``"target"``). Raises ValueError when the JSON is not a valid game or the target is not
    a positive number.
    """
    if target is None and not isinstance(game, Game):
        target = game.get("target")
    if target is not None and (not isinstance(target, int) or isinstance(target, bool)):
        raise ReviewError("target_type", target=target)
    if target is not None and target < 1:
        raise ReviewError("target_low", target=target)
    g = game if isinstance(game, Game) else Game.from_json(game)
    measure = measure_of(len(g.players), target)
    sheets: list[dict[Category, int]] = [{} for _ in g.players]
    decisions: list[Decision] = []
    turn: list[Event] = []
    for event in settled(g.events):
        turn.append(event)
        if isinstance(event.action, Score):
            decisions.extend(_rate_turn(g, sheets, event.player, turn, target))
            sheets[event.player][event.action.category] = event.points or 0
            turn = []
    if turn:
        decisions.extend(_rate_turn(g, sheets, turn[0].player, turn, target))
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
                measure=measure,
                points_loss=sum(d.points_loss for d in mine),
            )
        )
    return Review(g.rules.name, tuple(decisions), tuple(players), measure, target)


def decision_reasons(
    rules: Rules, decision: Decision
) -> tuple[tuple[Reason, ...], tuple[Reason, ...]]:
    """Why the hint's top option beat the one taken, in exact numbers (codes and arguments,
    :mod:`yacht.strategy.explain`): the reasons of the best option and of the taken one. By
    expected points (``measure`` points) the taken one is compared with the best, this turn
    against later; with opponents or a target only what each keep plays for is said, since
    the ranking there is by a chance. Holding all five dice has no reasons.

    >>> from yacht.bots import play_game
    >>> from yacht.rules import rules_by_name
    >>> r = review(play_game(["easy"], seed=3))
    >>> d = max(r.decisions, key=lambda d: d.loss)
    >>> best, taken = decision_reasons(rules_by_name(r.rules), d)
    >>> taken[-1].code in ("vs_keep", "vs_all", "vs_score", "score_keeps_open")
    True
    """
    from yacht.strategy.explain import reasons_for

    best, taken = reasons_for(
        rules,
        decision.used,
        decision.dice,
        decision.rolls_left,
        [decision.best, decision.taken],
        upper=decision.upper,
        versus=decision.measure == "points",
    )
    return best, taken


def settled(events: Sequence[Event]) -> list[Event]:
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
    game: Game,
    sheets: Sequence[Mapping[Category, int]],
    player: int,
    turn: Sequence[Event],
    target: int | None,
) -> list[Decision]:
    """The decisions of one turn's events (a scoring ends a complete turn), each rated by
    the hint the player could have asked for with those dice."""
    out: list[Decision] = []
    frozen = tuple(dict(s) for s in sheets)
    measure = measure_of(len(sheets), target)
    dice: tuple[int, ...] | None = None
    held: frozenset[int] = frozenset()
    rolls = 0

    def coach(rolls_used: int) -> Hint | WinHint:
        assert dice is not None
        view = TurnView(game.rules, player, frozen[player], frozen, dice, held, rolls_used)
        return coach_hint(view, target)

    for e in turn:
        action = e.action
        if isinstance(action, Hold):
            held = frozenset(action.positions)
            continue
        if dice is not None and isinstance(action, Roll | Score):
            options = coach(rolls)
            taken: Choice
            if isinstance(action, Score):
                taken = _find(options.options, category=action.category)
            else:
                keep = tuple(sorted(dice[p - 1] for p in held))
                if len(keep) < 5:
                    taken = _find(options.options, keep=keep)
                else:  # the same dice with a roll fewer: worth that situation's best
                    taken = _same_dice_later(coach(rolls + 1).options[0], keep)
            most = max(o.expected for o in options.options)
            exact = bool(getattr(options, "exact", False))
            out.append(
                Decision(
                    player,
                    len(sheets[player]) + 1,
                    rolls,
                    dice,
                    taken,
                    options.options[0],
                    measure,
                    most,
                    exact,
                    frozenset(frozen[player]),
                    sum(v for c, v in frozen[player].items() if c.face is not None),
                )
            )
        if isinstance(action, Roll):
            assert e.dice is not None
            dice, rolls = e.dice, rolls + 1
    return out


def _same_dice_later(later: Choice, keep: tuple[int, ...]) -> Choice:
    """Holding all five and rolling, valued as the best option a roll later."""
    return replace(later, action="keep", keep=keep, category=None, points=None)


def _find(
    options: Sequence[Choice],
    *,
    keep: tuple[int, ...] | None = None,
    category: Category | None = None,
) -> Choice:
    for o in options:
        if category is not None and o.action == "score" and o.category == category:
            return o
        if keep is not None and o.action == "keep" and tuple(o.keep or ()) == keep:
            return o
    raise RuntimeError(f"the hint lists no option keep={keep!r} category={category!r}")
