"""Many multi-player games at once: the ``optimal`` and ``winner`` bots at one table.

Every game of a run is at the same turn: round by round, seat by seat, a turn is a few array
steps for a chunk of games. ``optimal`` plays from the solver's policy tables
(:class:`yacht.strategy.policy.PolicyCache`). ``winner`` values every option of its turn
once, from the opponents' sheets (:mod:`yacht.strategy.win_tables`): a matrix product per
turn-start state against each game's weights, or, heads-up in the endgame, the exact table.
Rolls are drawn exactly from each keep's outcome distribution with a numpy Generator, so a
run is reproducible by its seed (for a given chunk size).

A game's first place is shared: each of k players tied on the top total gets 1/k.

>>> m = play_match(["winner", "optimal"], 200, seed=1, depth=1)
>>> m.games, m.shares.shape, bool(abs(m.shares.sum() - 200) < 1e-9)
(200, (200, 2), True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from yacht.rules import CATEGORIES, Rules, rules_by_name
from yacht.strategy.endgame import DEFAULT_DEPTH, endgame, settled
from yacht.strategy.errors import StrategyError
from yacht.strategy.lookahead import lookahead_scores
from yacht.strategy.policy import SAMPLES, expected_cache, sampler
from yacht.strategy.remaining import remaining
from yacht.strategy.solver import solve
from yacht.strategy.tables import I64, ROLL_KEEP, ScoreTable
from yacht.strategy.win_tables import (
    DEFAULT_PLAN,
    F32,
    PLANS,
    REROLL,
    TIE_BREAK,
    choose,
    endgame_columns,
    expected_rows,
    finish_chances,
    option_matrices,
    rollout_columns,
    row_layout,
    score_matrices,
)

__all__ = ["CHUNK", "MATCH_BOTS", "Match", "play_match"]

CHUNK = 1 << 15
"""Games played together within a turn; fixed, so a seed gives the same games."""

MATCH_BOTS = ("optimal", "winner")
"""The bots this simulator plays (any other bot plays through the engine)."""

Progress = Callable[[int, int], None]


@dataclass(frozen=True, eq=False)
class Match:
    """Results of many games with the same seats: ``totals[g, seat]`` and ``shares[g, seat]``
    (1 for a sole first place, 1/k for a first place shared by k, else 0)."""

    bots: tuple[str, ...]
    rules: str
    totals: npt.NDArray[np.int32]
    shares: npt.NDArray[np.float64]
    seconds: float
    seed: int | None

    @property
    def games(self) -> int:
        return int(self.totals.shape[0])

    def win_rate(self, seat: int) -> tuple[float, float]:
        """``(rate, half-width)``: the seat's mean share of first place and the half-width of
        its 95% confidence interval (normal approximation)."""
        s = self.shares[:, seat]
        half = 1.96 * float(s.std(ddof=1)) / math.sqrt(s.size) if s.size > 1 else math.inf
        return float(s.mean()), half

    def to_json(self) -> dict[str, Any]:
        seats = []
        for i, bot in enumerate(self.bots):
            rate, half = self.win_rate(i)
            seats.append(
                {
                    "seat": i + 1,
                    "bot": bot,
                    "win_rate": round(rate, 6),
                    "ci95": [round(rate - half, 6), round(rate + half, 6)],
                    "mean": round(float(self.totals[:, i].mean()), 4),
                }
            )
        return {
            "rules": self.rules,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "seats": seats,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }


def play_match(
    bots: Sequence[str],
    games: int,
    rules: Rules | str = "traditional",
    *,
    seed: int | None = None,
    depth: int = DEFAULT_DEPTH,
    plan: str = DEFAULT_PLAN,
    progress: Progress | None = None,
) -> Match:
    """Play ``games`` games with one bot per seat (``optimal`` or ``winner``), seat 1 first.

    ``depth``: the endgame table ``winner`` uses heads-up (0: never); ``plan``: how it values
    options before that (:data:`yacht.strategy.win_tables.PLANS`).
    """
    names = tuple(b.strip().lower() for b in bots)
    if not 1 <= len(names) <= 6:
        raise StrategyError("match_seats", n=len(names))
    unknown = [b for b in names if b not in MATCH_BOTS]
    if unknown:
        known = ", ".join(MATCH_BOTS)
        raise StrategyError("match_bots", known=known, unknown=", ".join(unknown))
    if isinstance(games, bool) or not isinstance(games, int) or games <= 0:
        raise StrategyError("games", games=games)
    if plan not in PLANS:
        raise StrategyError("plan", plan=plan, plans=", ".join(PLANS))
    preset = rules_by_name(rules)
    began = time.perf_counter()
    runner = _Runner(preset, names, games, depth, plan)
    runner.run(np.random.default_rng(seed), progress)
    totals = runner.total.T.astype(np.int32)
    top = totals.max(axis=1, keepdims=True)
    first = totals == top
    shares = first / first.sum(axis=1, keepdims=True)
    return Match(names, preset.name, totals, shares, time.perf_counter() - began, seed)


class _Runner:
    def __init__(
        self, rules: Rules, bots: tuple[str, ...], games: int, depth: int, plan: str
    ) -> None:
        self.rules = rules
        self.plan = plan
        self.bots = bots
        self.games = games
        self.solution = solve(rules)
        self.table = self.solution.table
        self.uppers = self.table.uppers
        self.depth = depth if len(bots) == 2 else 0
        self.policy = expected_cache(self.solution)
        self.sampler = sampler().ravel().astype(np.int64)
        self.counts_upper = np.array(self.table.counts_upper)
        seats = len(bots)
        self.used = np.zeros((seats, games), dtype=np.int64)
        self.upper = np.zeros((seats, games), dtype=np.int64)
        self.total = np.zeros((seats, games), dtype=np.int64)
        self.matrices: dict[tuple[str, int], F32] = {}
        if "winner" in bots:
            self.remaining = remaining(rules)

    def run(self, rng: np.random.Generator, progress: Progress | None) -> None:
        steps = len(CATEGORIES) * len(self.bots)
        for turn in range(len(CATEGORIES)):
            for seat, bot in enumerate(self.bots):
                if bot == "winner":
                    self._prepare(seat, turn)
                for lo in range(0, self.games, CHUNK):
                    g = np.arange(lo, min(lo + CHUNK, self.games))
                    dice = rng.integers(0, SAMPLES, size=(3, g.size))
                    if bot == "optimal":
                        roll, category = self._optimal(seat, g, dice)
                    else:
                        roll, category = self._winner(seat, g, dice)
                    self._score(seat, g, roll, category)
                if progress is not None:
                    progress(turn * len(self.bots) + seat + 1, steps)

    def _roll(self, keep: I64, dice: I64) -> I64:
        out: I64 = self.sampler[keep * SAMPLES + dice]
        return out

    def _score(self, seat: int, g: I64, roll: I64, category: I64) -> None:
        got = self.table.points[roll, category]
        up = self.upper[seat, g]
        if self.table.cap:
            counts = self.counts_upper[category]
            raised = up + np.where(counts, got, 0)
            got = got + np.where(
                counts & (up < self.table.cap) & (raised >= self.table.cap), self.table.bonus, 0
            )
            self.upper[seat, g] = np.minimum(raised, self.table.cap)
        self.used[seat, g] |= 1 << category
        self.total[seat, g] += got

    def _optimal(self, seat: int, g: I64, dice: I64) -> tuple[I64, I64]:
        p = self.policy
        slots = p.slots(self.used[seat, g] * self.uppers + self.upper[seat, g])
        base = slots * len(self.table.points)
        roll = self._roll(np.zeros(g.size, dtype=np.int64), dice[0])
        for step, keeps in ((1, p.keep2), (2, p.keep1)):
            roll = self._roll(keeps[base + roll].astype(np.int64), dice[step])
        return roll, p.category[base + roll].astype(np.int64)

    def _kind(self) -> str:
        """The kind of matrices the plan needs for the turn's own state."""
        return "targets" if self.plan == "targets" else "rollout"

    def _score_matrices(self, keys: I64) -> dict[int, F32]:
        """Rollout score matrices of the states ``keys``, built once and kept."""
        missing = np.array([k for k in keys.tolist() if ("rollout", k) not in self.matrices])
        if missing.size:
            masks, ups = np.divmod(missing.astype(np.int64), self.uppers)
            for k, m in zip(missing.tolist(), score_matrices(self.rules, masks, ups), strict=True):
                self.matrices["rollout", k] = m
        return {k: self.matrices["rollout", k] for k in keys.tolist()}

    def _prepare(self, seat: int, turn: int) -> None:
        """Option matrices for every state this seat starts its turn in (all games)."""
        self.matrices = {k: m for k, m in self.matrices.items() if _used_count(k[1], self) >= turn}
        states = np.unique(self.used[seat] * self.uppers + self.upper[seat])
        kind = self._kind()
        missing = np.array(
            [s for s in states.tolist() if (kind, s) not in self.matrices], dtype=np.int64
        )
        if missing.size:
            masks, ups = np.divmod(missing, self.uppers)
            build = option_matrices if kind == "targets" else score_matrices
            for s, m in zip(missing.tolist(), build(self.rules, masks, ups), strict=True):
                self.matrices[kind, s] = m

    def _values(self, seat: int, g: I64) -> F32:
        """``[row, game]``: every option's value this turn, for the games ``g``."""
        layout = row_layout(self.table)
        out = np.zeros((layout.rows, g.size), dtype=np.float32)
        used, up, total = self.used[seat, g], self.upper[seat, g], self.total[seat, g]
        others = [s for s in range(len(self.bots)) if s != seat]
        exact = np.zeros(g.size, dtype=bool)
        if self.depth:
            o = others[0]
            exact = self._covered(used, up, self.used[o, g], self.upper[o, g])
            if exact.any():
                e = np.nonzero(exact)[0]
                game = endgame(self.rules, self.depth)
                lead = total[e] - self.total[o, g[e]]
                win = endgame_columns(game, self.rules, used[e], lead, self.used[o, g[e]])
                out[:, e] = win + TIE_BREAK * expected_rows(self.rules, used[e], up[e])
        rest = np.nonzero(~exact)[0]
        if not others:  # alone: first place is certain, so play for points
            out[:] = expected_rows(self.rules, used, up)
        elif rest.size:
            states = used[rest] * self.uppers + up[rest]
            kind = self._kind()
            width = max(self.matrices[kind, s].shape[1] for s in np.unique(states).tolist())
            columns = [
                (self.used[o, g[rest]], self.upper[o, g[rest]], self.total[o, g[rest]])
                for o in others
            ]
            chances = finish_chances(self.remaining, total[rest], columns, width)
            order = np.argsort(states, kind="stable")
            parts = np.split(order, np.flatnonzero(np.diff(states[order])) + 1)
            out[:, rest] = self._planned(kind, states, parts, chances, used[rest])
        return out

    def _planned(
        self, kind: str, states: I64, parts: list[I64], chances: npt.NDArray[np.float64], used: I64
    ) -> npt.NDArray[np.float64]:
        """Option values of the plan for games in states ``states`` (grouped in ``parts``)."""
        if self.plan == "lookahead":
            masks, ups = np.divmod(states, self.uppers)
            width = int(self.remaining.most[masks, ups].max()) + 1
            ahead = lookahead_scores(
                self.table, self._score_matrices, masks, ups, chances[:, :width]
            )
            return rollout_columns(self.table, ahead, used)
        rows = self.matrices[kind, int(states[parts[0][0]])].shape[0]
        scores = np.zeros((rows, states.size), dtype=np.float32)
        weights = np.diff(chances, axis=1) if kind == "targets" else chances
        for part in parts:
            matrix = self.matrices[kind, int(states[part[0]])]
            n = matrix.shape[1] - 1
            w = np.empty((n + 1, part.size), dtype=np.float32)
            w[0] = TIE_BREAK
            w[1:] = weights[part, :n].T
            scores[:, part] = matrix @ w
        if kind == "targets":
            out: npt.NDArray[np.float64] = scores + chances[:, :1].T
            return out
        return rollout_columns(self.table, scores.astype(np.float64), used)

    def _covered(self, used: I64, up: I64, other_used: I64, other_up: I64) -> npt.NDArray[np.bool_]:
        open_me = len(CATEGORIES) - _popcounts(used)
        open_other = len(CATEGORIES) - _popcounts(other_used)
        inside = (open_me <= self.depth) & (open_other <= self.depth)
        inside &= (open_me - open_other >= 0) & (open_me - open_other <= 1)
        if self.table.cap and inside.any():
            for i in np.nonzero(inside)[0].tolist():
                inside[i] = settled(self.rules, int(used[i]), int(up[i])) and settled(
                    self.rules, int(other_used[i]), int(other_up[i])
                )
        out: npt.NDArray[np.bool_] = inside
        return out

    def _winner(self, seat: int, g: I64, dice: I64) -> tuple[I64, I64]:
        values = self._values(seat, g)
        used = self.used[seat, g]
        roll = self._roll(np.zeros(g.size, dtype=np.int64), dice[0])
        category = np.full(g.size, -1, dtype=np.int64)
        for step, rolls_left in ((1, 2), (2, 1)):
            rows, _ = choose(self.table, values, roll, rolls_left, used)
            stop = (rows >= 2 * REROLL) & (category < 0)
            category[stop] = _category_of(self.table, rows[stop])
            keep = np.where(category >= 0, ROLL_KEEP + roll, rows % REROLL)
            roll = self._roll(keep, dice[step])
        rows, _ = choose(self.table, values, roll, 0, used)
        last = _category_of(self.table, rows)
        return roll, np.where(category >= 0, category, last)


def _category_of(table: ScoreTable, rows: I64) -> I64:
    """The category (sheet index) of each score option row."""
    starts = np.array(row_layout(table).score)
    out: I64 = np.searchsorted(starts, rows, side="right") - 1
    return out


def _popcounts(masks: I64) -> I64:
    out = np.zeros_like(masks)
    for c in range(len(CATEGORIES)):
        out += (masks >> c) & 1
    return out


def _used_count(state: int, runner: _Runner) -> int:
    return bin(state // runner.uppers).count("1")
