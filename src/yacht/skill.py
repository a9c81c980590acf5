"""Skill without luck: "played like an N-point player", the win accuracy, running figures over
the last games, the bots' marks on the scale, and the flag for play implausibly close to the
optimum.

**Played like an N-point player.** N is the preset's optimum from the start (the expected
final total of optimal play, :attr:`yacht.strategy.Solution.expected`: 166.96 for
``traditional``) minus the expected points the player gave up over the whole game, the sum of
the review's :attr:`~yacht.review.Decision.points_loss`. The dice do not move N: a lucky
Yacht adds to the total, not to N; only choices do.

**Why N is an N-point player (the identity).** Let V(s) be the optimal value of a situation
(expected points still to come, the top option's ``expected``), and Q(s, a) that of the
option taken, so a decision's loss is V(s) - Q(s, a). Q(s, a) is the points the option
scores now plus the expectation of V at the player's next decision s', so summed over a
player's decisions the values telescope:

    total = V(start) - Σ (V(s) - Q(s, a)) + Σ (V(s') - E[V(s') | s, a]) + (V(s1) - V(start))

where s1 is the first decision (after the first roll). The first sum is the points lost; each
term of the second and the last (the luck of one roll) has expectation 0. So over many games
the mean of N equals the mean score, for any way of playing: a player whose N averages 150 is
expected to score 150 a game. ``tests/test_skill.py`` checks it on simulated games of a bot
(within 2 standard errors), and that the ``optimal`` bot's N is the optimum exactly.

With opponents the review rates by the chance of finishing first (``measure == "win"``);
N still comes from the points lost, and :func:`win_accuracy` gives the share of decisions
that were the best play to win and the mean chance lost per decision beside it.

>>> from yacht.bots import play_game
>>> from yacht.review import review
>>> from yacht.strategy import solve
>>> played_like(review(play_game("optimal", seed=4)), 0) == solve("traditional").expected
True
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from yacht.bots import make_bot, play_game
from yacht.dice import RandomDice
from yacht.errors import N_, YachtError
from yacht.review import TOLERANCE, Review, review
from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.strategy import solve

__all__ = [
    "FLAG_GAMES",
    "FLAG_LOSS",
    "MARK_BOTS",
    "WINDOW",
    "BotMark",
    "Running",
    "SkillError",
    "WinAccuracy",
    "bot_mark",
    "bot_marks",
    "implausible",
    "optimum",
    "played_like",
    "points_lost",
    "running",
    "win_accuracy",
]

WINDOW = 20
"""Games a profile's running figure covers: the last 20."""

MARK_BOTS: tuple[str, ...] = ("easy", "medium", "hard", "optimal")
"""The bots whose figures are marks on the scale, weakest first."""

FLAG_GAMES = 20
"""Rated games the flag looks at (the last ones); fewer never flag."""

FLAG_LOSS = 3.0
"""Expected points lost per game: a mean below this over the last :data:`FLAG_GAMES` rated
games is flagged (docs/strategy/skill.md shows the measurements it rests on)."""


class SkillError(
    YachtError,
    ValueError,
    messages={
        "skill_unfinished": N_(
            "the game is not finished: {name} has {scored} of {categories} categories "
            "filled, and the skill figure needs a finished game"
        ),
        "skill_player": N_("there is no player {player} in this game (players: 0 to {last})"),
        "skill_not_win": N_(
            "the win accuracy needs a game with opponents, rated by the chance of "
            "finishing first (this game is rated by {measure})"
        ),
        "skill_window": N_("the window must be at least 1 game, got {window}"),
        "skill_games": N_("the number of games must be at least 1, got {games}"),
    },
):
    """A skill figure asked of a game that cannot give it: unfinished, no such player, the
    wrong measure, or a window or number of games that is not a whole number from 1."""


def optimum(rules: Rules | str) -> float:
    """The preset's expected final total under optimal play from the start (computed).

    >>> round(optimum("traditional"), 2)
    166.96
    """
    return solve(rules_by_name(rules)).expected


def _check_player(result: Review, player: int) -> None:
    if isinstance(player, bool) or not isinstance(player, int):
        raise SkillError("skill_player", player=player, last=len(result.players) - 1)
    if not 0 <= player < len(result.players):
        raise SkillError("skill_player", player=player, last=len(result.players) - 1)


def _check_finished(result: Review) -> None:
    for p in result.players:
        scored = sum(d.player == p.player and d.taken.action == "score" for d in result.decisions)
        if scored != len(CATEGORIES):
            raise SkillError(
                "skill_unfinished", name=p.name, scored=scored, categories=len(CATEGORIES)
            )


def points_lost(result: Review, player: int) -> float:
    """The expected points ``player`` (a seat index from 0) gave up over a finished game.

    A decision's loss below :data:`yacht.review.TOLERANCE` counts as none, as the review's
    accuracy has it (float rounding between options of equal value), so optimal play loses
    exactly 0."""
    _check_player(result, player)
    _check_finished(result)
    mine = (d.points_loss for d in result.decisions if d.player == player)
    return sum(loss for loss in mine if loss >= TOLERANCE)


def played_like(result: Review, player: int) -> float:
    """N of "played like an N-point player": the preset's optimum minus the expected points
    ``player`` (a seat index from 0) gave up over the game. Raises :class:`SkillError` for an
    unfinished game or a player the game does not have."""
    lost = points_lost(result, player)
    return optimum(result.rules) - lost


@dataclass(frozen=True)
class WinAccuracy:
    """One player's play to win in a game with opponents: ``accuracy`` (percent of decisions
    that were the best play to win), ``mean_loss`` (chance of finishing first given up per
    decision, 0-1), ``decisions``."""

    accuracy: float
    mean_loss: float
    decisions: int

    def to_json(self) -> dict[str, Any]:
        return {
            "accuracy": round(self.accuracy, 4),
            "mean_loss": round(self.mean_loss, 8),
            "decisions": self.decisions,
        }


def win_accuracy(result: Review, player: int) -> WinAccuracy:
    """The win accuracy of ``player`` in a finished game reviewed by the chance of finishing
    first (a game with opponents and no target)."""
    _check_player(result, player)
    if result.measure != "win":
        raise SkillError("skill_not_win", measure=result.measure)
    _check_finished(result)
    mine = [d for d in result.decisions if d.player == player]
    return WinAccuracy(
        accuracy=100.0 * sum(d.accurate for d in mine) / len(mine),
        mean_loss=sum(d.loss for d in mine) / len(mine),
        decisions=len(mine),
    )


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SkillError(f"skill_{what}", **{what: value})
    return value


@dataclass(frozen=True)
class Running:
    """A running figure over a player's last games: ``mean``; ``standard_error`` (None with a
    single game); ``games`` (how many it covers, at most ``window``); ``window``."""

    mean: float
    standard_error: float | None
    games: int
    window: int

    @property
    def full(self) -> bool:
        """Whether the window is full (otherwise the figure says how many games it has)."""
        return self.games == self.window

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "standard_error": self.standard_error,
            "games": self.games,
            "window": self.window,
        }


def running(figures: Sequence[float], window: int = WINDOW) -> Running | None:
    """The mean of the last ``window`` figures (oldest first) with its standard error (the
    sample standard deviation over the square root of the count); None with no games.

    >>> running([150.0, 160.0, 170.0])
    Running(mean=160.0, standard_error=5.773502691896258, games=3, window=20)
    """
    _count(window, "window")
    last = [float(f) for f in figures[-window:]]
    if not last:
        return None
    se = statistics.stdev(last) / math.sqrt(len(last)) if len(last) > 1 else None
    return Running(statistics.fmean(last), se, len(last), window)


def implausible(
    losses: Sequence[float], *, games: int = FLAG_GAMES, bound: float = FLAG_LOSS
) -> bool:
    """The operator's flag: True when the last ``games`` rated games (``losses``: the expected
    points lost in each, oldest first) number at least ``games`` and lose on average less than
    ``bound`` points a game. It flags, never bans; the rule and its false-positive reasoning
    are in docs/strategy/skill.md.

    >>> implausible([0.0] * 19), implausible([0.0] * 20), implausible([0.0] * 19 + [80.0])
    (False, True, False)
    """
    _count(games, "games")
    if len(losses) < games:
        return False
    return statistics.fmean(losses[-games:]) < bound


@dataclass(frozen=True)
class BotMark:
    """A bot's figures over simulated solo games: the mean final score and the mean N
    ("played like"), each with its standard error, the mean points lost per game, the
    mean accuracy (percent), the lowest mean loss over any :data:`FLAG_GAMES` games in a
    row (what the flag would have seen at the bot's best stretch), and the mean of score - N
    game by game (the dice's luck, 0 in expectation by the identity) with its standard
    error."""

    bot: str
    games: int
    score: float
    score_se: float
    played_like: float
    played_like_se: float
    loss: float
    accuracy: float
    lowest_window_loss: float | None
    luck: float = 0.0
    luck_se: float = 0.0
    losses: tuple[float, ...] = field(default=(), repr=False)  # per game, in order

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "games": self.games,
            "score": round(self.score, 4),
            "score_se": round(self.score_se, 4),
            "played_like": round(self.played_like, 4),
            "played_like_se": round(self.played_like_se, 4),
            "loss": round(self.loss, 4),
            "accuracy": round(self.accuracy, 4),
            "lowest_window_loss": None
            if self.lowest_window_loss is None
            else round(self.lowest_window_loss, 4),
            "luck": round(self.luck, 4),
            "luck_se": round(self.luck_se, 4),
        }


def _se(values: Sequence[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0


def bot_mark(
    name: str, rules: Rules | str = "traditional", games: int = 100, seed: int = 0
) -> BotMark:
    """One bot's :class:`BotMark`: ``games`` solo games through the engine, each reviewed.
    Game i has the dice of (``seed``, i) whatever the bot, so the bots meet the same rolls."""
    _count(games, "games")
    preset = rules_by_name(rules)
    bot = make_bot(name)
    best = optimum(preset)
    scores: list[float] = []
    lost: list[float] = []
    accuracy: list[float] = []
    for i in range(games):
        dice = RandomDice(random.Random(f"dice:{seed}:{i}").randrange(2**63))
        rng = random.Random(f"bots:{seed}:{bot.name}:{i}")
        result = review(play_game(bot, preset, dice=dice, rng=rng))
        scores.append(result.players[0].total)
        lost.append(points_lost(result, 0))
        accuracy.append(result.players[0].accuracy or 0.0)
    luck = [s - (best - x) for s, x in zip(scores, lost, strict=True)]
    n = FLAG_GAMES
    windows = [statistics.fmean(lost[i : i + n]) for i in range(len(lost) - n + 1)]
    return BotMark(
        bot=bot.name,
        games=games,
        score=statistics.fmean(scores),
        score_se=_se(scores),
        played_like=best - statistics.fmean(lost),
        played_like_se=_se(lost),
        loss=statistics.fmean(lost),
        accuracy=statistics.fmean(accuracy),
        lowest_window_loss=min(windows) if windows else None,
        luck=statistics.fmean(luck),
        luck_se=_se(luck),
        losses=tuple(lost),
    )


def bot_marks(
    rules: Rules | str = "traditional",
    games: int = 100,
    seed: int = 0,
    bots: Sequence[str] = MARK_BOTS,
) -> list[BotMark]:
    """The marks of the scale: each bot of ``bots`` (default :data:`MARK_BOTS`) over ``games``
    solo games of ``rules`` (see :func:`bot_mark`)."""
    return [bot_mark(name, rules, games, seed) for name in bots]
