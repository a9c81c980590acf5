"""Static tables over the 252 sorted rolls and 462 keeps, and per-preset score tables.

Keeps are indexed as in :data:`yacht.dice.KEEPS`: by size (0..5 dice), then in sorted order.
The 252 keeps of five dice are the rolls themselves, in the order of :data:`yacht.dice.ROLLS`.

One turn is computed without any 252 x 462 matrix: keeping ``k`` and rolling the rest is
worth the average, over the six faces ``f``, of keeping ``k + f`` and rolling one die fewer
(:data:`ADD_FACE`); the best keep within a roll is found through the chain of keeps that
drop one die at a time (:data:`DROP_DIE`).

>>> KEEP_START
(0, 1, 7, 28, 84, 210, 462)
>>> [KEEPS[KEEP_START[1] + i] for i in ADD_FACE[0][0]]
[(1,), (2,), (3,), (4,), (5,), (6,)]
>>> round(float(FIRST_ROLL.sum()), 12), round(float(TRANSITION[3].sum()), 12)
(1.0, 1.0)
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from yacht.dice import KEEPS, ROLLS, outcomes
from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Rules

__all__ = [
    "ADD_FACE",
    "DROP_DIE",
    "F64",
    "FIRST_ROLL",
    "FULL",
    "I64",
    "KEEP_INDEX",
    "KEEP_START",
    "ROLL_INDEX",
    "ROLL_KEEP",
    "SUB_KEEPS",
    "TRANSITION",
    "ScoreTable",
    "by_category",
    "score_table",
]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]

FULL = (1 << len(CATEGORIES)) - 1
"""The used-category mask (bit ``Category.index``) of a full sheet."""

KEEP_INDEX: dict[tuple[int, ...], int] = {k: i for i, k in enumerate(KEEPS)}
ROLL_INDEX: dict[tuple[int, ...], int] = {r: i for i, r in enumerate(ROLLS)}
KEEP_START: tuple[int, ...] = tuple(
    [next(i for i, k in enumerate(KEEPS) if len(k) == n) for n in range(6)] + [len(KEEPS)]
)
ROLL_KEEP = KEEP_START[5]
"""KEEPS index of the first five-dice keep: roll ``r`` is keep ``ROLL_KEEP + r`` (stop)."""

if KEEPS[ROLL_KEEP:] != ROLLS:  # pragma: no cover - a guard on yacht.dice's ordering
    raise RuntimeError("yacht.dice.KEEPS must end with ROLLS in the same order")


def _local(keep: tuple[int, ...]) -> int:
    return KEEP_INDEX[keep] - KEEP_START[len(keep)]


def _add_face() -> tuple[I64, ...]:
    out = []
    for n in range(5):
        keeps = KEEPS[KEEP_START[n] : KEEP_START[n + 1]]
        out.append(
            np.array(
                [[_local(tuple(sorted((*k, f)))) for f in range(1, 7)] for k in keeps],
                dtype=np.int64,
            )
        )
    return tuple(out)


def _drop_die() -> tuple[I64, ...]:
    out = [np.zeros((1, 0), dtype=np.int64)]
    for n in range(1, 6):
        keeps = KEEPS[KEEP_START[n] : KEEP_START[n + 1]]
        rows = []
        for k in keeps:
            children = sorted({_local(k[:i] + k[i + 1 :]) for i in range(n)})
            rows.append(children + [children[0]] * (n - len(children)))
        out.append(np.array(rows, dtype=np.int64))
    return tuple(out)


ADD_FACE: tuple[I64, ...] = _add_face()
"""``ADD_FACE[n][i, f - 1]``: the keep of n + 1 dice made of keep i (of n dice) and face f,
as an index among the keeps of n + 1 dice."""

DROP_DIE: tuple[I64, ...] = _drop_die()
"""``DROP_DIE[n][i]``: the distinct keeps of n - 1 dice inside keep i of n dice (indices among
the keeps of n - 1 dice), padded with repeats to n columns."""


def _sub_keeps() -> I64:
    rows = []
    for roll in ROLLS:
        subs = sorted(
            {c for n in range(5) for c in itertools.combinations(roll, n)},
            key=lambda k: (-len(k), k),
        )
        ids = [KEEP_INDEX[k] for k in subs]
        rows.append(ids + [ids[0]] * (31 - len(ids)))
    return np.array(rows, dtype=np.int64)


SUB_KEEPS: I64 = _sub_keeps()
"""``SUB_KEEPS[r]``: KEEPS indices of the distinct keeps of 0-4 dice inside roll r, the larger
first, padded with repeats to 31 columns."""


def _transition() -> F64:
    """:func:`yacht.dice.outcome_probability` of every keep and roll, made from the outcomes of
    the dice each keep rolls (4,368 of them) rather than from all 116,424 pairs, which took a
    second at every import. Each entry is the same correctly rounded ``ways / 6**n``."""
    out = np.zeros((len(KEEPS), len(ROLLS)), dtype=np.float64)
    rolled = {n: [(m, float(p)) for m, p in outcomes(n)] for n in range(6)}
    for i, keep in enumerate(KEEPS):
        for m, p in rolled[5 - len(keep)]:
            out[i, ROLL_INDEX[tuple(sorted(keep + m))]] = p
    return out


TRANSITION: F64 = _transition()
"""``TRANSITION[k, r]``: P(the dice show roll r after keeping k and rolling the rest)."""

FIRST_ROLL: F64 = TRANSITION[0].copy()
"""P(roll r) when all five dice are rolled."""


def by_category(masks: I64 | int, scoring: Callable[[int, I64], F64]) -> list[F64 | None]:
    """What scoring each category (sheet order) is worth from the states of ``masks``.

    ``scoring(c, after)`` gives category ``c``'s values, a column per state (for an int
    ``masks``, any columns), ``after`` being the used-masks once ``c`` is filled. Where ``c``
    is filled already its column is -inf; a category filled in every state is ``None``.

    >>> worth = by_category(np.array([FULL & ~1, FULL & ~2]), lambda c, after: 0.0 * after[None, :])
    >>> [None if g is None else g.tolist() for g in worth[:3]]
    [[[0.0, -inf]], [[-inf, 0.0]], None]
    """
    out: list[F64 | None] = []
    for c in range(len(CATEGORIES)):
        bit = 1 << c
        open_ = (np.asarray(masks) & bit) == 0
        if not open_.any():
            out.append(None)
            continue
        worth = scoring(c, np.asarray(masks | bit, dtype=np.int64))
        if not open_.all():
            worth[:, ~open_] = -np.inf
        out.append(worth)
    return out


@dataclass(frozen=True, eq=False)
class ScoreTable:
    """What each roll scores under one preset, and the shape of its turn-start states.

    ``points[r, c]``: roll r in category c (sheet order). ``values[c]``: the distinct points
    of category c, ascending; ``value_index[c][r]`` the position of ``points[r, c]`` in it.
    ``cap``: the upper bonus threshold (0 without a bonus): a state's upper subtotal is kept
    as ``min(subtotal, cap)``, so there are ``cap + 1`` upper values. ``counts_upper[c]``:
    whether category c raises the tracked upper subtotal. ``best[c]``: c's best score.
    """

    points: I64
    values: tuple[I64, ...]
    value_index: tuple[I64, ...]
    cap: int
    bonus: int
    counts_upper: tuple[bool, ...]
    best: tuple[int, ...]

    @property
    def uppers(self) -> int:
        """How many upper subtotal values a state can carry: ``cap + 1``."""
        return self.cap + 1

    def raise_upper(self, upper: npt.ArrayLike, category: int, points: npt.ArrayLike) -> I64:
        """The tracked upper subtotal after scoring ``points`` in ``category``."""
        up = np.asarray(upper, dtype=np.int64)
        if not self.counts_upper[category]:
            return np.broadcast_to(up, np.broadcast_shapes(up.shape, np.shape(points))).copy()
        return np.minimum(self.cap, up + np.asarray(points, dtype=np.int64))

    def bonus_gain(self, upper: npt.ArrayLike, category: int, points: npt.ArrayLike) -> I64:
        """The bonus earned by scoring ``points`` in ``category`` from subtotal ``upper``."""
        up = np.asarray(upper, dtype=np.int64)
        pts = np.asarray(points, dtype=np.int64)
        if not self.counts_upper[category]:
            return np.zeros(np.broadcast_shapes(up.shape, pts.shape), dtype=np.int64)
        return np.where((up < self.cap) & (up + pts >= self.cap), self.bonus, 0)

    def possible_uppers(self, used_mask: int) -> frozenset[int]:
        """Every upper subtotal (uncapped) the used upper categories can add up to."""
        return _possible_uppers(used_mask & 0b111111)

    def reachable(self) -> npt.NDArray[np.bool_]:
        """``[mask, u]``: whether a game can start a turn with these categories used and the
        tracked upper subtotal u."""
        out = np.zeros((FULL + 1, self.uppers), dtype=bool)
        for low in range(64):
            ups = np.array(sorted({min(self.cap, s) for s in self.possible_uppers(low)}))
            masks = np.arange(0, FULL + 1, 64) + low
            out[np.ix_(masks, ups)] = True
        return out

    def most_to_come(self, used_mask: SupportsIndex, upper: SupportsIndex) -> int:
        """The most points still possible from this state (a bonus still in reach included)."""
        used_mask, upper = operator.index(used_mask), operator.index(upper)
        open_ = [c for c in range(len(CATEGORIES)) if not used_mask >> c & 1]
        total = sum(self.best[c] for c in open_)
        if self.bonus and upper < self.cap:
            upper_room = sum(self.best[c] for c in open_ if self.counts_upper[c])
            if upper + upper_room >= self.cap:
                total += self.bonus
        return total


@functools.cache
def _possible_uppers(low_mask: int) -> frozenset[int]:
    sums = {0}
    for i, cat in enumerate(UPPER_CATEGORIES):
        if low_mask >> i & 1:
            face = cat.face or 0
            sums = {s + face * n for s in sums for n in range(6)}
    return frozenset(sums)


_TABLES: dict[str, ScoreTable] = {}


def score_table(rules: Rules) -> ScoreTable:
    """The score table of a preset, built once per scoring behaviour (its fingerprint)."""
    key = rules.fingerprint()
    table = _TABLES.get(key)
    if table is None:
        table = _TABLES[key] = _build(rules)
    return table


def _build(rules: Rules) -> ScoreTable:
    points = np.array(
        [[rules.score_counts(Counter(r), c) for c in CATEGORIES] for r in ROLLS], dtype=np.int64
    )
    values = []
    index = []
    for c in range(len(CATEGORIES)):
        distinct, where = np.unique(points[:, c], return_inverse=True)
        values.append(distinct.astype(np.int64))
        index.append(where.astype(np.int64).reshape(-1))
    b = rules.upper_bonus
    cap = b.threshold if b is not None else 0
    upper = {c.index for c in UPPER_CATEGORIES}
    return ScoreTable(
        points=points,
        values=tuple(values),
        value_index=tuple(index),
        cap=cap,
        bonus=b.points if b is not None else 0,
        counts_upper=tuple(b is not None and c in upper for c in range(len(CATEGORIES))),
        best=tuple(int(points[:, c].max()) for c in range(len(CATEGORIES))),
    )
