"""Evaluate a policy in the Gymnasium environment against the exact optimum.

:func:`evaluate` plays N solo games of a policy (episode ``i`` reset with ``seed + i``) and
rates every decision with :func:`yacht.review.review`: the **loss** of a decision is the
expected points it gives up against the best option of the exact hint (below
:data:`yacht.review.TOLERANCE`, float rounding between equal options, it counts as none).
The result tells the mean final total, its standard error and percentiles, the loss per
decision and per game, and where the points go: each category's mean points next to optimal
play's
(:func:`yacht.strategy.simulate`, 100,000 games).

A policy is any ``policy(obs, info) -> action`` for the environment :func:`evaluate` builds:
``wrap`` (for example :class:`yacht.env.Features`) wraps :class:`YachtEnv` as in training.

A game an illegal action ends (``illegal_action="terminate"``, the default) or truncates
(``"penalize"``, after ``illegal_limit`` of them) is **unfinished**: its total counts in the
mean as it stands, it is counted in ``Evaluation.unfinished``, and its decisions are not rated
(a half-filled sheet has no optimum to compare with), so the losses are over finished games.

>>> from yacht.env.agents import bot_action, view_from_observation
>>> import random
>>> from yacht.bots import make_bot
>>> bot, rng = make_bot("optimal"), random.Random(0)
>>> def optimal(obs, info):
...     return bot_action(bot, view_from_observation(obs, "traditional"), rng)
>>> result = evaluate(optimal, games=3, seed=1, name="optimal")
>>> result.games, result.loss_per_decision, len(result.totals)
(3, 0.0, 3)
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from yacht.env.gym_env import YachtEnv
from yacht.review import review
from yacht.rules import CATEGORIES, Rules, rules_by_name

__all__ = ["PERCENTILES", "Evaluation", "Policy", "evaluate", "masked_random"]

Policy = Callable[[Any, dict[str, Any]], Any]
PERCENTILES = (5, 25, 50, 75, 95)
OPTIMAL_GAMES = 100_000


@dataclass(frozen=True)
class Evaluation:
    """N games of one policy, rated against the exact optimum; ``str()`` is the report."""

    name: str
    rules: str
    totals: tuple[int, ...]
    points: tuple[tuple[int, ...], ...]  # per game, per category in sheet order
    decisions: int
    loss: float  # expected points given up, summed over every decision of every game
    illegal: int  # illegal actions penalized (never with a mask-following policy)
    optimum: float  # the exact expected total of optimal play
    optimal_points: tuple[float, ...]  # optimal play's mean points per category
    unfinished: int = 0  # games an illegal action ended or truncated; not in decisions or loss

    @property
    def games(self) -> int:
        return len(self.totals)

    @property
    def mean(self) -> float:
        return float(np.mean(self.totals))

    @property
    def standard_error(self) -> float:
        if self.games < 2:
            return math.nan
        return float(np.std(self.totals, ddof=1)) / math.sqrt(self.games)

    @property
    def loss_per_decision(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    @property
    def finished(self) -> int:
        """Games played to a full sheet: the ones :attr:`loss` rates."""
        return self.games - self.unfinished

    @property
    def loss_per_game(self) -> float:
        """Points given up per finished game (NaN when none finished)."""
        return self.loss / self.finished if self.finished else math.nan

    def percentiles(self) -> dict[int, int]:
        qs = np.percentile(self.totals, PERCENTILES, method="inverted_cdf")
        return {p: int(q) for p, q in zip(PERCENTILES, qs, strict=True)}

    def category_gaps(self) -> dict[str, tuple[float, float]]:
        """Per category: (this policy's mean points, optimal play's mean points)."""
        means = np.mean(np.asarray(self.points), axis=0)
        return {
            c.value: (float(m), o)
            for c, m, o in zip(CATEGORIES, means, self.optimal_points, strict=True)
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rules": self.rules,
            "games": self.games,
            "mean": round(self.mean, 3),
            "standard_error": round(self.standard_error, 3),
            "percentiles": {str(p): q for p, q in self.percentiles().items()},
            "optimum": round(self.optimum, 3),
            "decisions": self.decisions,
            "loss_per_decision": round(self.loss_per_decision, 4),
            "loss_per_game": round(self.loss_per_game, 3),
            "unfinished_games": self.unfinished,
            "illegal_actions": self.illegal,
            "categories": {
                k: {"mean": round(m, 3), "optimal": round(o, 3)}
                for k, (m, o) in self.category_gaps().items()
            },
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2) + "\n"

    def __str__(self) -> str:
        pct = ", ".join(f"p{p} {q}" for p, q in self.percentiles().items())
        lines = [
            f"{self.name} under {self.rules}: mean {self.mean:.2f} +- {self.standard_error:.2f} "
            f"over {self.games} games ({self.mean / self.optimum:.1%} of the exact optimum "
            f"{self.optimum:.2f})",
            f"percentiles: {pct}",
            f"points lost per decision {self.loss_per_decision:.3f} ({self.decisions} decisions, "
            f"{self.loss_per_game:.2f} per game against the exact hints, "
            f"over the {self.finished} finished games)",
        ]
        if self.unfinished:
            lines.append(
                f"UNFINISHED games: {self.unfinished} of {self.games} (ended by illegal actions; "
                "their totals are in the mean, their decisions are not rated)"
            )
        if self.illegal:
            lines.append(f"illegal actions: {self.illegal}")
        lines.append("category          mean  optimal    gap")
        for name, (mean, best) in self.category_gaps().items():
            lines.append(f"{name:<16}{mean:6.2f}  {best:7.2f}  {best - mean:5.2f}")
        return "\n".join(lines)


@functools.lru_cache(maxsize=8)
def _optimal_points(rules: Rules) -> tuple[float, ...]:
    from yacht.strategy.simulate import simulate

    run = simulate(OPTIMAL_GAMES, rules, seed=0)
    return tuple(float(m) for m in run.points.mean(axis=0))


def evaluate(
    policy: Policy,
    games: int = 1000,
    rules: Rules | str = "traditional",
    seed: int = 0,
    *,
    wrap: Callable[[YachtEnv], gymnasium.Env[Any, Any]] | None = None,
    name: str = "policy",
    illegal_action: str = "terminate",
) -> Evaluation:
    """Play ``games`` games of ``policy`` and rate them (see the module docstring).

    Raises ValueError for a bad ``games`` or ``rules``; a policy's illegal action is handled
    as ``illegal_action`` says (``"terminate"`` or ``"penalize"``), counted in
    ``Evaluation.illegal``, and its game, if it ends unfinished, in ``Evaluation.unfinished``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a whole number >= 1, got {games!r}")
    preset = rules_by_name(rules)
    base = YachtEnv(rules=preset, illegal_action=illegal_action)
    env: gymnasium.Env[Any, Any] = wrap(base) if wrap is not None else base
    totals, points = [], []
    decisions, loss, illegal, unfinished = 0, 0.0, 0, 0
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(policy(obs, info))
            illegal += int(info["illegal_action"])
            done = terminated or truncated
        game = base.game
        if game.finished:
            rated = review(game).decisions
            decisions += len(rated)
            loss += sum(d.loss for d in rated if not d.accurate)  # float ties count as none
        else:
            unfinished += 1
        sheet = game.sheet(0)
        totals.append(game.totals[0])
        points.append(tuple(sheet.get(c, 0) for c in CATEGORIES))
    optimum = _optimum(preset)
    return Evaluation(
        name,
        preset.name,
        tuple(totals),
        tuple(points),
        decisions,
        loss,
        illegal,
        optimum,
        _optimal_points(preset),
        unfinished,
    )


def _optimum(rules: Rules) -> float:
    from yacht.strategy import solve

    return solve(rules).expected


def masked_random(seed: int = 0) -> Policy:
    """A uniform choice among the legal actions of ``info["action_mask"]``."""
    rng = np.random.default_rng(seed)

    def act(obs: Any, info: dict[str, Any]) -> int:
        mask: npt.NDArray[Any] = info["action_mask"]
        return int(rng.choice(np.flatnonzero(mask)))

    return act
