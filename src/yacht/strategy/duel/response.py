"""Table (b), the best response to ``optimal``: the other player plays the expected-score
optimal policy, the mover maximises its probability of winning against it.

The other player's turn is then chance alone: from its used-mask B it ends the turn
scoring category c with s points with a fixed probability (:func:`outcomes`, from the
solver's policy, :meth:`yacht.strategy.solver.Solution.turn_policies`). So the table has
two kinds of layers, by whose turn it is, and two chains of them by seat: ``first`` (my
turns at even layers: I moved first) and ``second`` (my turns at odd layers). Leads and
masks are always mine first: a row of pair (A, B) covers my leads ``-reach(A)..reach(B)``.

- my turn (A, B, d): the best turn, scoring s in c leading to the other's turn
  ``X(A + c, B, d + s)`` (:func:`yacht.strategy.duel.minimax.fill_turns`);
- the other's turn: ``X(A, B, e) = sum P_B(c, s) V(A, B + c, e - s)``.

>>> from yacht.rules import rules_by_name
>>> p = outcomes(rules_by_name("traditional"))
>>> p.shape, round(float(p[0].sum()), 12)  # a new sheet: every turn ends in one score
((4096, 12, 26), 1.0)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from yacht.rules import CATEGORIES, Rules
from yacht.strategy.duel.layout import FULL, LAYERS, RANK, Layout, pairs_layout
from yacht.strategy.duel.minimax import F32, fill_turns
from yacht.strategy.duel.stream import Kind
from yacht.strategy.solver import solve
from yacht.strategy.tables import F64, FIRST_ROLL, I64, ROLL_KEEP, TRANSITION, score_table

__all__ = ["FIRST", "SECOND", "fill_layer", "mine", "outcomes", "response_layout"]

SPAN = 1 << 16
"""Values (other-player mask x lead) per step of the other player's turn."""


@functools.lru_cache(maxsize=4)
def outcomes(rules: Rules) -> F64:
    """``[B, c, k]``: P(the optimal player, starting a turn with used-mask B, scores
    category c with its k-th distinct score, ``score_table(rules).values[c][k]``)."""
    table = score_table(rules)
    policy = solve(rules).turn_policies(np.arange(FULL), np.zeros(FULL, dtype=np.int64))
    width = max(v.size for v in table.values)
    out = np.zeros((FULL + 1, len(CATEGORIES), width))
    ends = np.zeros((FULL, 252))  # P(the turn ends on roll r), by state
    now = np.broadcast_to(FIRST_ROLL[None, :], (FULL, 252)).copy()
    for keep in (policy.keep2.T, policy.keep1.T):  # [state, roll]
        stop = keep >= ROLL_KEEP
        ends += np.where(stop, now, 0.0)
        rolling = np.where(stop, 0.0, now)
        # P(keeping k) by state, then the rolls those keeps lead to
        slots = np.arange(FULL)[:, None] * len(TRANSITION) + keep
        kept = np.bincount(slots.ravel(), rolling.ravel(), FULL * len(TRANSITION))
        after = kept.reshape(FULL, len(TRANSITION)) @ TRANSITION
        now = after
    ends += now
    category = policy.category.T  # [state, roll]
    for c in range(len(CATEGORIES)):
        chosen = np.where(category == c, ends, 0.0)
        for k in range(table.values[c].size):
            out[:FULL, c, k] = chosen[:, table.value_index[c] == k].sum(axis=1)
    return out


def mine(n: int, seat: str) -> bool:
    """Whether layer ``n`` of the chain ``seat`` ("first"/"second") holds my turns."""
    return (n % 2 == 0) == (seat == "first")


def response_layout(rules: Rules, n: int, seat: str) -> Layout:
    """Layer ``n`` of a chain: pairs (my mask, the other's mask) with as many categories
    used as that layer's turn has."""
    mover, waiting = n // 2, n - n // 2  # the one to move has used as many, or one fewer
    return (
        pairs_layout(rules, mover, waiting)
        if mine(n, seat)
        else pairs_layout(rules, waiting, mover)
    )


def fill_layer(
    rules: Rules, n: int, first: int, last: int, after: Any, out: F32, *, seat: str
) -> None:
    """Write the rows of movers ``first..last-1`` of layer ``n`` of the chain ``seat``."""
    lay = response_layout(rules, n, seat)
    nxt = response_layout(rules, n + 1, seat) if n + 1 < LAYERS else None
    source = None if nxt is None else np.asarray(after)
    if not mine(n, seat):
        _fill_chance(rules, lay, nxt, source, first, last, out)
        return

    def scored(part: I64, mover_after: int, low: int, top: int) -> F32:
        return _read(nxt, source, mover_after, lay.others[part], np.arange(-low, top + 1))

    fill_turns(score_table(rules), lay, first, last, out, scored)


def _read(nxt: Layout | None, source: F32 | None, me: int, others: I64, leads: I64) -> F32:
    """``[b, i]``: my values at (me, others[b], leads[i]) in layer ``nxt`` (None: the game
    is over and the lead decides), 1 / 0 where decided."""
    if nxt is None or source is None:
        over = np.where(leads > 0, 1.0, np.where(leads < 0, 0.0, 0.5)).astype(np.float32)
        return np.broadcast_to(over, (others.size, leads.size))
    low = int(nxt.low[RANK[me]])
    high = nxt.high[RANK[others]][:, None]
    start = nxt.offsets[RANK[me] * nxt.others.size + RANK[others]][:, None]
    inside = (leads[None, :] >= -low) & (leads[None, :] <= high)
    got = source[np.where(inside, start + leads[None, :] + low, 0)]
    out: F32 = np.where(inside, got, (leads[None, :] > high).astype(np.float32))
    return out


def _fill_chance(
    rules: Rules,
    lay: Layout,
    nxt: Layout | None,
    source: F32 | None,
    first: int,
    last: int,
    out: F32,
) -> None:
    """The other player's turns: my rows of movers ``first..last-1`` (``lay.movers`` are my
    masks here), each the average over the other's outcomes of my next turn."""
    table = score_table(rules)
    chance = outcomes(rules).astype(np.float32)
    base = int(lay.offsets[first * lay.others.size])
    count = int(lay.others.size)
    for a in range(first, last):
        me = int(lay.movers[a])
        low = int(lay.low[a])
        lo = 0
        while lo < count:
            batch = max(1, SPAN // (low + int(lay.high[lo:].max()) + 1))
            part = np.arange(lo, min(count, lo + batch))
            others = lay.others[part]
            leads = np.arange(-low, int(lay.high[part].max()) + 1)
            total = np.zeros((part.size, leads.size), dtype=np.float32)
            for c in range(len(CATEGORIES)):
                open_ = (others >> c & 1) == 0
                if not open_.any():
                    continue
                scores = table.values[c]
                shifted = leads[None, :] - scores[:, None]  # [k, i]: my lead after s_k
                after = others[open_] | (1 << c)
                got = _read(nxt, source, me, after, np.arange(int(shifted.min()), leads[-1] + 1))
                weights = chance[others[open_], c, : scores.size]  # [b, k]
                part_total = np.zeros((after.size, leads.size), dtype=np.float32)
                for k in range(scores.size):
                    w = weights[:, k]
                    if not w.any():
                        continue
                    cols = shifted[k] - shifted.min()
                    part_total += w[:, None] * got[:, cols]
                total[open_] += part_total
            np.clip(total, 0.0, 1.0, out=total)
            starts = lay.offsets[a * count + part] - base
            lengths = low + lay.high[part] + 1
            i = np.arange(leads.size)
            keep = i[None, :] < lengths[:, None]
            out[(starts[:, None] + i[None, :])[keep]] = total[keep]
            lo += part.size


def _kind(seat: str) -> Kind:
    return Kind(
        f"response-{seat}",
        1,
        functools.partial(response_layout, seat=seat),
        functools.partial(fill_layer, seat=seat),  # module-level: worker processes unpickle it
    )


FIRST = _kind("first")
"""Table (b) with me moving first: my turns at even layers (layer 0 is the game's start)."""

SECOND = _kind("second")
"""Table (b) with me moving second: my turns at odd layers (layer 0 is the other's first turn)."""
