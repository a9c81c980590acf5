"""Where each two-player position lives: layers, mask pairs and their rows of leads.

A position is a turn start: the mover's used categories A, the other player's used B and
the lead d (mover's total - other's). Layer ``n`` holds the positions with ``|A| + |B| = n``
categories used: the mover has ``n // 2`` used and the other ``n - n // 2`` (the other has
moved as often as the mover, or once more). Scoring takes a position of layer n to one of
layer n + 1, seen from the other seat; layer 24 (both sheets full) is the end.

In a layer, pairs are numbered mover-major: ``pair = rank[A] * count(B) + rank[B]``, ``rank``
the position of a mask among the masks with as many categories used, in ascending order.
A pair's row holds the leads that are not decided yet: ``-reach(A) .. reach(B)``, reach the
most points the open categories can still score (beyond them the game is decided: 1 or 0).
Rows are stored one after the other; ``offsets[pair]`` is where a row starts.

>>> from yacht.rules import rules_by_name
>>> lay = layout(rules_by_name("traditional"), 23)  # the last turn: one category left
>>> lay.movers.size, lay.others.size, lay.size
(12, 1, 309)
>>> yacht_left = FULL & ~(1 << 11)
>>> lay.row_length(yacht_left, FULL)  # leads -50..0 are open
51
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from yacht.rules import CATEGORIES, Rules
from yacht.strategy.tables import FULL, I64, score_table

__all__ = ["FULL", "LAYERS", "RANK", "Layout", "by_used", "layout", "reach_of"]

LAYERS = 2 * len(CATEGORIES)
"""Layers 0 .. 23 start turns; layer 24 is the finished game."""


def _popcounts() -> I64:
    return np.array([bin(m).count("1") for m in range(FULL + 1)], dtype=np.int64)


POPCOUNT = _popcounts()


def by_used(count: int) -> I64:
    """The used-masks with ``count`` categories used, ascending."""
    return np.flatnonzero(count == POPCOUNT).astype(np.int64)


def _rank() -> I64:
    out = np.empty(FULL + 1, dtype=np.int64)
    for n in range(len(CATEGORIES) + 1):
        masks = by_used(n)
        out[masks] = np.arange(masks.size)
    return out


RANK = _rank()
"""``RANK[mask]``: the position of ``mask`` among the masks with as many categories used."""


@functools.lru_cache(maxsize=8)
def reach_of(rules: Rules) -> I64:
    """``[mask]``: the most points the categories open in ``mask`` can still score."""
    best = np.array(score_table(rules).best, dtype=np.int64)
    bits = (np.arange(FULL + 1)[:, None] >> np.arange(len(CATEGORIES))[None, :]) & 1
    out: I64 = ((1 - bits) * best[None, :]).sum(axis=1)
    return out


@dataclass(frozen=True, eq=False)
class Layout:
    """The rows of one layer (or any set of pairs with ``mine`` and ``theirs`` categories
    used). ``movers``/``others``: the masks, ascending; ``offsets[pair]`` the start of a
    pair's row (``offsets[-1]`` the layer's size); ``low[a]`` = reach of mover ``a``,
    ``high[b]`` = reach of other ``b``: the row of (a, b) covers leads ``-low[a]..high[b]``.
    """

    mine: int
    theirs: int
    movers: I64 = field(repr=False)
    others: I64 = field(repr=False)
    low: I64 = field(repr=False)
    high: I64 = field(repr=False)
    offsets: I64 = field(repr=False)

    @property
    def pairs(self) -> int:
        return int(self.movers.size * self.others.size)

    @property
    def size(self) -> int:
        """How many win probabilities the layer stores."""
        return int(self.offsets[-1])

    def pair(self, mover: int, other: int) -> int:
        return int(RANK[mover]) * int(self.others.size) + int(RANK[other])

    def row_length(self, mover: int, other: int) -> int:
        return int(self.low[RANK[mover]] + self.high[RANK[other]] + 1)

    def mover_span(self, a: int) -> tuple[int, int]:
        """The stretch of the layer holding every row of mover number ``a``."""
        n = int(self.others.size)
        return int(self.offsets[a * n]), int(self.offsets[(a + 1) * n])


def pairs_layout(rules: Rules, mine: int, theirs: int) -> Layout:
    """The rows of every pair of masks with ``mine`` and ``theirs`` categories used."""
    reach = reach_of(rules)
    movers, others = by_used(mine), by_used(theirs)
    low, high = reach[movers], reach[others]
    lengths = (low[:, None] + high[None, :] + 1).reshape(-1)
    offsets = np.zeros(lengths.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return Layout(mine, theirs, movers, others, low, high, offsets)


def layout(rules: Rules, n: int) -> Layout:
    """The rows of layer ``n`` (0..23)."""
    if not 0 <= n < LAYERS:
        raise ValueError(f"layer must be 0 to {LAYERS - 1}, got {n}")
    return _layout(rules, n)


@functools.lru_cache(maxsize=64)
def _layout(rules: Rules, n: int) -> Layout:
    return pairs_layout(rules, n // 2, n - n // 2)
