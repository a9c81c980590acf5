"""Table (a), minimax: one layer's win probabilities from the layer after it.

The mover maximises its probability of winning (a tie counts 1/2), the other player, who
moves next, minimises it. A turn is the endgame's turn (:mod:`yacht.strategy.turn`) with a
vector of leads per state as columns: scoring ``s`` at lead ``d`` leads to the other
player's turn at lead ``-(d + s)``, so ``W(A, B, d) = max ... 1 - W(B, A + c, -(d + s))``.
Every mover's rows are computed in batches of other-player masks of similar reach, so a
batch shares one range of leads (as :func:`yacht.strategy.endgame.build_endgame` does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from yacht.rules import CATEGORIES, Rules
from yacht.strategy.duel.layout import LAYERS, RANK, Layout, layout
from yacht.strategy.tables import F64, I64, ScoreTable, score_table
from yacht.strategy.turn import stop_values, turn_value

__all__ = ["COLUMNS", "Scored", "fill_movers", "fill_turns"]

COLUMNS = 2048
"""Columns (other-player mask x lead) per turn computation: small enough for the turn's
arrays to stay in a core's cache (6144, the endgame's, ran at about half the rate here)."""

F32 = npt.NDArray[np.float32]


def fill_movers(rules: Rules, n: int, first: int, last: int, after: Any, out: F32) -> None:
    """Write the rows of movers ``first..last-1`` of layer ``n`` into ``out`` (which starts
    at the first of those rows), from ``after``, the values of layer ``n + 1`` (unused for
    the last layer)."""
    lay = layout(rules, n)
    nxt = layout(rules, n + 1) if n + 1 < LAYERS else None
    source = None if nxt is None else np.asarray(after)

    def scored(part: I64, mover_after: int, low: int, top: int) -> F32:
        return _scored(lay, nxt, source, part, mover_after, low, top)

    fill_turns(score_table(rules), lay, first, last, out, scored)


Scored = Callable[[I64, int, int, int], F32]
"""``scored(part, mover_after, low, top)[b, u + low]``: what the mover's turn is worth once
it has scored, with used-mask ``mover_after`` and lead ``u`` (-low..top), against other-player
mask number ``part[b]`` of the layer."""


def fill_turns(
    table: ScoreTable, lay: Layout, first: int, last: int, out: F32, scored: Scored
) -> None:
    """Write the rows of movers ``first..last-1`` of a layer of turns into ``out`` (which
    starts at the first of those rows): each the best turn given ``scored``."""
    order = np.argsort(lay.high, kind="stable")
    base = int(lay.offsets[first * lay.others.size])
    for a in range(first, last):
        _fill_mover(table, lay, order, a, out, base, scored)


def _fill_mover(
    table: ScoreTable, lay: Layout, order: I64, a: int, out: F32, base: int, scored: Scored
) -> None:
    mover = int(lay.movers[a])
    low = int(lay.low[a])  # below lead -low the mover cannot even tie: 0
    count = int(lay.others.size)
    open_ = [c for c in range(len(CATEGORIES)) if not mover >> c & 1]
    lo = 0
    while lo < count:
        batch = max(1, COLUMNS // (low + int(lay.high[order[lo]]) + 1))
        part = order[lo : lo + batch]
        high = int(lay.high[part].max())  # above lead +high the other cannot catch up: 1
        leads = np.arange(-low, high + 1)
        by_category: list[F64 | None] = [None] * len(CATEGORIES)
        for c in open_:
            top = high + int(table.best[c])
            # [u + low, b]: scoring s at lead d leads to d + s, from lead -low
            after = np.ascontiguousarray(scored(part, mover | (1 << c), low, top).T)
            cols = leads[None, :] + table.values[c][:, None] + low
            worth = after[cols].reshape(cols.shape[0], -1)  # columns: lead-major, then b
            by_category[c] = cast(F64, worth)  # single precision: the turn keeps the dtype
        value = turn_value(stop_values(table, by_category))
        win = value.reshape(leads.size, part.size).T
        np.clip(win, 0.0, 1.0, out=win)  # rounding must not leave [0, 1]
        starts = lay.offsets[a * count + part] - base
        lengths = low + lay.high[part] + 1
        k = np.arange(leads.size)
        keep = k[None, :] < lengths[:, None]
        out[(starts[:, None] + k[None, :])[keep]] = win[keep]
        lo += part.size


def _scored(
    lay: Layout,
    nxt: Layout | None,
    source: F32 | None,
    part: I64,
    mover_after: int,
    low: int,
    top: int,
) -> F32:
    """``[b, u + low]``: the mover's win probability once its turn has made the lead ``u``
    (-low..top), against other-player mask number ``part[b]``; the other moves next."""
    u = np.arange(-low, top + 1)
    if nxt is None or source is None:  # both sheets are full: the lead decides
        over = np.where(u > 0, 1.0, np.where(u < 0, 0.0, 0.5)).astype(np.float32)
        return np.broadcast_to(over, (part.size, u.size))
    others = lay.others[part]
    reach_other = lay.high[part][:, None]  # the other's reach: it moves next, as the mover
    reach_after = int(nxt.high[RANK[mover_after]])
    pairs = RANK[others] * nxt.others.size + RANK[mover_after]
    # the other's row covers its leads -reach_other..reach_after; its lead is -u
    index = nxt.offsets[pairs][:, None] + reach_other - u[None, :]
    inside = (u[None, :] <= reach_other) & (u[None, :] >= -reach_after)
    got = source[np.where(inside, index, 0)]
    decided = (u[None, :] > reach_other).astype(np.float32)
    out: F32 = np.where(inside, np.float32(1.0) - got, decided)
    return out
