"""A vectorised simulator: many solo games at once, the policy as lookup tables.

Every game of a batch is at the same turn; a turn is a few array look-ups: the first roll,
the keep for that roll at 2 rolls left, the next roll, the keep at 1, the last roll, the
category. Rolls are drawn exactly from each keep's outcome distribution (an inverse
cumulative table over the 252 sorted rolls, see :mod:`yacht.strategy.policy`) with a numpy
Generator, so a run is reproducible by its seed.

``temperature`` 0 plays optimally (maximum expected total). A positive temperature samples
each decision with probability proportional to ``exp(expected / temperature)`` over the
options a hint lists: every distinct keep of 0-4 dice while rolls are left, and every open
category. With ``target`` T, each game plays to maximise P(final total >= T) from the points it
has banked (the solver's target tables).
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.dice import ROLLS
from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.strategy.errors import StrategyError
from yacht.strategy.policy import (
    REROLL_KEEPS,
    SAMPLES,
    expected_cache,
    sampler,
    score_values,
    sub_keep_mask,
    target_cache,
)
from yacht.strategy.solver import FULL, Solution, solve
from yacht.strategy.tables import KEEP_INDEX, ROLL_KEEP, SUB_KEEPS

__all__ = ["CHUNK", "PERCENTILES", "Simulation", "simulate"]

CHUNK = 1 << 16
"""Games simulated together. Part of what a seed means: change it and a seed plays other games."""

PERCENTILES = (1, 5, 25, 50, 75, 95, 99)

Progress = Callable[[int, int], None]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Simulation:
    """Final totals and per-category points of simulated solo games.

    ``method`` says how they were played: ``"vectorised"`` (policy tables, many games at
    once) or ``"engine"`` (one action at a time through :class:`yacht.game.Game`).
    """

    bot: str
    rules: str
    totals: npt.NDArray[np.int32]
    points: npt.NDArray[np.int16]
    seconds: float
    method: str

    @property
    def games(self) -> int:
        return int(self.totals.size)

    @property
    def mean(self) -> float:
        return float(self.totals.mean())

    @property
    def stdev(self) -> float:
        """Sample standard deviation of the totals (0 for a single game)."""
        return float(self.totals.std(ddof=1)) if self.games > 1 else 0.0

    @property
    def standard_error(self) -> float:
        return self.stdev / math.sqrt(self.games)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def percentiles(self) -> dict[str, int]:
        """For each p in :data:`PERCENTILES`, the smallest total with at least p% of the games
        at or below it."""
        qs = np.percentile(self.totals, PERCENTILES, method="inverted_cdf")
        return {str(p): int(q) for p, q in zip(PERCENTILES, qs, strict=True)}

    def category_means(self) -> dict[str, float]:
        means = self.points.mean(axis=0)
        return {c.value: round(float(m), 4) for c, m in zip(CATEGORIES, means, strict=True)}

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "rules": self.rules,
            "games": self.games,
            "mean": round(self.mean, 4),
            "stdev": round(self.stdev, 4),
            "min": int(self.totals.min()),
            "max": int(self.totals.max()),
            "percentiles": self.percentiles(),
            "category_means": self.category_means(),
            "games_per_second": round(self.games_per_second, 1),
            "method": self.method,
        }


def simulate(
    games: int,
    rules: Rules | str = "traditional",
    *,
    seed: int | None = None,
    temperature: float = 0.0,
    target: int | None = None,
    bot: str | None = None,
    progress: Progress | None = None,
) -> Simulation:
    """Simulate ``games`` solo games: optimal play by default (``temperature`` 0); noisy
    play with a positive ``temperature``; with ``target`` T, play maximising P(total >= T).

    >>> run = simulate(20_000, seed=1)
    >>> run.games, run.method, abs(run.mean - 166.955) < 4 * run.standard_error
    (20000, 'vectorised', True)
    >>> run.totals.tolist() == simulate(20_000, seed=1).totals.tolist()
    True
    """
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise StrategyError("games_at_least_one", games=games)
    if not temperature >= 0:
        raise StrategyError("temperature", temperature=temperature)
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise StrategyError("target", target=target)
    preset = rules_by_name(rules)
    if bot is None:
        bot = f"target:{target}" if target is not None else "optimal"
    began = time.perf_counter()
    runner = _runner(solve(preset), temperature, target)
    rng = np.random.default_rng(seed)
    totals = np.empty(games, dtype=np.int32)
    points = np.empty((games, len(CATEGORIES)), dtype=np.int16)
    for lo in range(0, games, CHUNK):
        n = min(CHUNK, games - lo)
        step = None
        if progress is not None:
            step = functools.partial(_turn_done, progress, lo, n, games)
        totals[lo : lo + n], points[lo : lo + n] = runner.run(n, rng, step)
    return Simulation(bot, preset.name, totals, points, time.perf_counter() - began, "vectorised")


def _turn_done(progress: Progress, start: int, n: int, games: int, turns: int) -> None:
    progress(start + n * turns // len(CATEGORIES), games)


@functools.lru_cache(maxsize=2)
def _runner(solution: Solution, temperature: float, target: int | None) -> _Runner:
    """Runners keep their tables, so a second run of the same kind starts at full speed."""
    return _Runner(solution, temperature, target)


class _Runner:
    def __init__(self, solution: Solution, temperature: float, target: int | None) -> None:
        self.solution = solution
        self.rules = solution.rules
        self.uppers = solution.table.uppers
        self.temperature = temperature
        self.target = target
        self.sampler = sampler().ravel()
        self.first = KEEP_INDEX[()] * SAMPLES
        self.points = solution.table.points
        self.real = sub_keep_mask()
        if target is not None:
            from yacht.strategy.target import target_table

            full = solution.table.most_to_come(0, 0)
            self.table = target_table(solution.rules, max(0, min(target, full)))
            self.policy = target_cache(self.table)
        else:
            self.policy = expected_cache(solution, keep_values=temperature > 0)
            if self.uppers == 1:
                self.policy.slots(np.arange(FULL))  # every state with a category open

    def run(
        self, n: int, rng: np.random.Generator, turn_done: Callable[[int], None] | None = None
    ) -> tuple[I64, I64]:
        masks = np.zeros(n, dtype=np.int64)
        uppers = np.zeros(n, dtype=np.int64)
        points = np.zeros((n, len(CATEGORIES)), dtype=np.int64)
        banked = np.zeros(n, dtype=np.int64)
        games = np.arange(n)
        cap = self.uppers - 1
        bonus = self.rules.upper_bonus
        for turn in range(len(CATEGORIES)):
            u = rng.integers(0, SAMPLES, size=(3, n))
            states = masks * self.uppers + uppers
            if self.target is not None:
                needed = np.minimum(
                    np.maximum(self.target - banked, 0), self.table.most[masks, uppers] + 1
                )
                states = states * (self.table.limit + 2) + needed
            slots = self.policy.slots(states)
            roll = self.sampler[self.first + u[0]].astype(np.int64)
            if self.temperature == 0 or self.target is not None:
                roll, category = self._best_turn(slots, roll, u)
            else:
                roll, category = self._noisy_turn(slots, masks, uppers, roll, u, rng)
            got = self.points[roll, category]
            points[games, category] = got
            banked += got
            masks |= 1 << category
            if cap and bonus is not None:
                raised = uppers + np.where(category < 6, got, 0)
                banked += np.where((uppers < cap) & (raised >= cap), bonus.points, 0)
                uppers = np.minimum(raised, cap)
            if turn_done is not None:
                turn_done(turn + 1)
        return banked, points

    def _best_turn(self, slots: I64, roll: I64, u: I64) -> tuple[I64, I64]:
        p = self.policy
        base = slots * len(ROLLS)
        keep = p.keep2[base + roll].astype(np.int64)
        roll = self.sampler[keep * SAMPLES + u[1]].astype(np.int64)
        keep = p.keep1[base + roll].astype(np.int64)
        roll = self.sampler[keep * SAMPLES + u[2]].astype(np.int64)
        return roll, p.category[base + roll].astype(np.int64)

    def _noisy_turn(
        self, slots: I64, masks: I64, uppers: I64, roll: I64, u: I64, rng: np.random.Generator
    ) -> tuple[I64, I64]:
        n = slots.size
        rows = np.arange(n)
        width = SUB_KEEPS.shape[1]
        chosen = np.full(n, -1, dtype=np.int64)  # the category of a game that stopped early
        base = slots[:, None] * REROLL_KEEPS
        for step, keep_value in ((1, self.policy.keep_value2), (2, self.policy.keep_value1)):
            keeps = SUB_KEEPS[roll]  # (n, 31) keeps of 0-4 dice; stopping = the categories
            options = np.concatenate(
                [
                    np.where(self.real[roll], keep_value[base + keeps], -np.inf),
                    score_values(self.solution, masks, uppers, roll),
                ],
                axis=1,
            )
            pick = self._sample(options, rng)
            stop = (pick >= width) & (chosen < 0)
            chosen[stop] = pick[stop] - width
            reroll = keeps[rows, np.minimum(pick, width - 1)]
            keep = np.where(chosen >= 0, ROLL_KEEP + roll, reroll)
            roll = self.sampler[keep * SAMPLES + u[step]].astype(np.int64)
        last = self._sample(score_values(self.solution, masks, uppers, roll), rng)
        return roll, np.where(chosen >= 0, chosen, last)

    def _sample(self, values: npt.NDArray[np.float64], rng: np.random.Generator) -> I64:
        """Each row's option with probability proportional to exp(value / temperature)."""
        noise = rng.gumbel(size=values.shape)
        out: I64 = np.argmax(values / self.temperature + noise, axis=1)
        return out
