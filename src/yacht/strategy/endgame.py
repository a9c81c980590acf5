"""The exact two-player endgame: win probabilities under best play by both players.

A position is a turn start: the mover's used categories, the other player's used
categories and the lead ``d`` = mover's total - other's total. Its value is the mover's
probability of winning (a tie counts 1/2) when the mover maximises it and the other player,
moving next, minimises it (zero-sum). The table holds every position in which both players
have at most ``depth`` categories open; each player has 0..``depth`` open and the mover has
as many open as the other player, or one more (the other has already played this round).

A turn is the solver's turn (:mod:`yacht.strategy.turn`) with a vector of leads per state
as columns: scoring ``s`` points shifts the lead, and the next position is seen from the
other player's seat: ``W(A, B, d) = max ... 1 - W(B, A - c, -(d + s))``. Leads beyond what
the open categories can still make up are decided (1 or 0) and not stored: a row covers
``d`` in ``-spread..spread``, ``spread`` the most points ``depth`` categories can score.

Presets with an upper bonus are covered where the bonus is settled for both players (earned
already, so it is in the totals, or out of reach): there the bonus plays no further part.

>>> g = endgame("traditional", depth=1)
>>> ones, yacht = FULL & ~1, FULL & ~(1 << 11)  # only Ones / only Yacht left
>>> round(g.win_probability(ones, ones, 0), 4), round(g.win_probability(ones, ones, 1), 4)
(0.5, 0.7282)
>>> round(g.win_probability(yacht, yacht, -50), 4)  # must roll a Yacht, then see it missed
0.022
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from yacht.rules import CATEGORIES, UPPER_CATEGORIES, Rules, rules_by_name
from yacht.strategy import cache
from yacht.strategy.errors import StrategyError
from yacht.strategy.tables import F64, FULL, I64, ScoreTable, by_category, score_table
from yacht.strategy.turn import stop_values, turn_value

__all__ = [
    "DEFAULT_DEPTH",
    "FULL",
    "QUICK_DEPTH",
    "Endgame",
    "build_endgame",
    "endgame",
    "play_depth",
    "settled",
]

DEFAULT_DEPTH = 3
"""The deepest table the bots and hints use: built in a minute or two, then cached on disk."""

QUICK_DEPTH = 2
"""The table built on demand during a game (a few seconds) when the deeper one is not built:
``yacht endgame`` builds that one ahead."""

_FORMAT = 1
_COLUMNS = 6144
"""Columns (state x lead) per turn computation: large enough for numpy, small enough for cache."""

Floats = npt.NDArray[np.floating[Any]]


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


@dataclass(frozen=True, eq=False)
class Endgame:
    """The solved endgame table of a preset down to ``depth`` open categories per player.

    ``masks``: the used-masks with at most ``depth`` categories open; ``rank[mask]`` the
    position of a mask in it (-1 beyond the depth). ``row[rank(mover), rank(other)]``: the
    row of ``table`` for that pair (-1 for a pair that never starts a turn). ``table[row, i]``
    is the mover's win probability at lead ``i - spread``.
    """

    rules: Rules
    depth: int
    spread: int
    masks: I64 = field(repr=False)
    rank: I64 = field(repr=False)
    row: I64 = field(repr=False)
    table: Floats = field(repr=False)
    seconds: float

    @property
    def positions(self) -> int:
        """How many (mover, other) category pairs the table holds."""
        return int(self.table.shape[0])

    @property
    def size(self) -> int:
        """How many win probabilities the table stores."""
        return int(self.table.size)

    def covers(self, mover_used: int, other_used: int) -> bool:
        """Whether this pair of used-masks starts a turn inside the table."""
        a, b = _open_count(mover_used), _open_count(other_used)
        return a <= self.depth and b <= self.depth and a - b in (0, 1) and a > 0

    def rows(self, mover_used: npt.ArrayLike, other_used: npt.ArrayLike) -> I64:
        """Table rows of many pairs at once (-1 where a pair is not in the table)."""
        ra = self.rank[np.asarray(mover_used, dtype=np.int64)]
        rb = self.rank[np.asarray(other_used, dtype=np.int64)]
        inside = (ra >= 0) & (rb >= 0)
        out: I64 = np.where(inside, self.row[np.maximum(ra, 0), np.maximum(rb, 0)], -1)
        return out

    def values(self, rows: npt.ArrayLike, leads: npt.ArrayLike) -> F64:
        """Win probabilities at table ``rows`` and ``leads`` (broadcast); decided leads are 1/0.

        Rows of finished games (both sheets full) may be given as :attr:`FINISHED`.
        """
        r = np.asarray(rows, dtype=np.int64)
        d = np.asarray(leads, dtype=np.int64)
        inside = np.clip(d + self.spread, 0, 2 * self.spread)
        stored = self.table[r, inside].astype(np.float64)
        over = np.where(d > 0, 1.0, np.where(d < 0, 0.0, 0.5))
        done = r == FINISHED
        out: F64 = np.where(
            done, over, np.where(d > self.spread, 1.0, np.where(d < -self.spread, 0.0, stored))
        )
        return out

    def win_probability(self, mover_used: int, other_used: int, lead: int) -> float:
        """The mover's win probability at the start of its turn (a tie counts 1/2).

        ``mover_used`` / ``other_used``: used-category masks; ``lead``: mover's total minus
        the other player's total (bonus included).
        """
        if mover_used == FULL and other_used == FULL:
            return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
        if not self.covers(mover_used, other_used):
            raise StrategyError(
                "endgame_not_covered",
                depth=self.depth,
                mover=_open_count(mover_used),
                other=_open_count(other_used),
            )
        return float(self.values(self.rows(mover_used, other_used), lead))


FINISHED = -2
"""A pseudo-row: both sheets are full, the lead decides."""


def _open_count(mask: int) -> int:
    return len(CATEGORIES) - _popcount(mask)


def settled(rules: Rules, used: int, upper: int) -> bool:
    """Whether a player's upper bonus can no longer change: none in the preset, already
    earned, or out of reach with the upper categories still open."""
    bonus = rules.upper_bonus
    if bonus is None or upper >= bonus.threshold:
        return True
    room = sum(5 * (c.face or 0) for c in UPPER_CATEGORIES if not used >> c.index & 1)
    return upper + room < bonus.threshold


def _index(depth: int) -> tuple[I64, I64, I64, list[tuple[int, int, I64, I64]]]:
    """Masks, ranks, the pair-to-row index and the levels ``(a, b, movers, others)``."""
    masks = np.array(
        sorted(
            (m for m in range(FULL + 1) if _open_count(m) <= depth),
            key=lambda m: (_open_count(m), m),
        ),
        dtype=np.int64,
    )
    rank = np.full(FULL + 1, -1, dtype=np.int64)
    rank[masks] = np.arange(masks.size)
    row = np.full((masks.size, masks.size), -1, dtype=np.int64)
    opens = np.array([_open_count(int(m)) for m in masks])
    levels = []
    count = 0
    for a in range(1, depth + 1):
        for b in (a - 1, a):
            movers, others = masks[opens == a], masks[opens == b]
            ra, rb = rank[movers], rank[others]
            row[np.ix_(ra, rb)] = count + np.arange(ra.size * rb.size).reshape(ra.size, rb.size)
            count += ra.size * rb.size
            levels.append((a, b, movers, others))
    return masks, rank, row, levels


def build_endgame(rules: Rules, depth: int, *, double: bool = False) -> Endgame:
    """Solve the endgame table afresh (see :func:`endgame` for the cached one).

    The table is computed in single precision (win probabilities to about 1e-6), or in
    double precision with ``double=True`` (about twice as slow).
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 6:
        raise StrategyError("endgame_depth", depth=depth)
    start = time.perf_counter()
    table = score_table(rules)
    spread = sum(sorted(table.best, reverse=True)[:depth])
    masks, rank, row, levels = _index(depth)
    count = sum(m.size * o.size for _, _, m, o in levels)
    values = np.zeros((count, 2 * spread + 1), dtype=np.float64 if double else np.float32)
    reach = np.array([_reach(table, m) for m in range(FULL + 1)], dtype=np.int64)
    for _a, _b, movers, others in levels:
        others = others[np.argsort(reach[others], kind="stable")]
        for mover in movers:
            _solve_mover(table, spread, rank, row, values, reach, int(mover), others)
    return Endgame(rules, depth, spread, masks, rank, row, values, time.perf_counter() - start)


def _reach(table: ScoreTable, used: int) -> int:
    """The most points the open categories of a used-mask can still score."""
    return sum(table.best[c] for c in range(len(CATEGORIES)) if not used >> c & 1)


def _solve_mover(
    table: ScoreTable,
    spread: int,
    rank: I64,
    row: I64,
    values: Floats,
    reach: I64,
    mover: int,
    others: I64,
) -> None:
    """Fill the rows of one mover's used-mask against every other-player mask of its level
    (``others`` sorted by reach, so that a batch shares one range of open leads)."""
    low = int(reach[mover])  # below lead -low the mover cannot even tie: 0
    lo = 0
    while lo < others.size:
        high = int(reach[others[lo]])  # above lead +high the other cannot catch up: 1
        batch = max(1, _COLUMNS // (low + high + 1))
        part = others[lo : lo + batch]
        high = int(reach[part].max())
        leads = np.arange(-low, high + 1)

        def scoring(c: int, mover_after: I64, part: I64 = part, leads: I64 = leads) -> F64:
            after = _next_values(rank, row, values, spread, part, int(mover_after))
            # scoring s at lead d leads to d + s; ``after`` starts at lead -spread
            cols = (leads[None, :] + table.values[c][:, None]) + spread
            return after[:, cols].transpose(1, 0, 2).reshape(cols.shape[0], -1)

        worth = by_category(mover, scoring)
        win = turn_value(stop_values(table, worth)).reshape(part.size, leads.size)
        np.clip(win, 0.0, 1.0, out=win)  # rounding must not leave [0, 1]
        rows = row[rank[mover], rank[part]]
        values[rows, : spread - low] = 0.0
        values[rows, spread - low : spread + high + 1] = win
        values[rows, spread + high + 1 :] = 1.0
        lo += part.size


def _next_values(
    rank: I64, row: I64, values: Floats, spread: int, others: I64, mover_after: int
) -> F64:
    """For each other-player mask: the mover's win probability after scoring, by the lead
    after scoring from -spread to 2 * spread + 64 (the next turn is the other player's)."""
    pad = 64  # more than any category scores
    width = 2 * spread + 1 + pad
    if mover_after == FULL and bool(np.all(others == FULL)):  # the game is over
        lead = np.arange(-spread, spread + 1 + pad)
        over = np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, 0.5))
        return np.broadcast_to(over, (others.size, width))
    out = np.ones((others.size, width), dtype=values.dtype)
    rows = row[rank[others], rank[mover_after]]
    # the other player moves at lead -d: W_other(-d) for d in -spread..spread is the
    # stored row reversed; beyond +spread the other player is out of reach (mover wins)
    out[:, : 2 * spread + 1] = 1.0 - values[rows, ::-1]
    return cast(F64, out)


def _cache_key(rules: Rules, depth: int, double: bool = False) -> str:
    precision = "-f64" if double else ""
    return f"endgame-{rules.fingerprint()}-k{depth}{precision}-v{_FORMAT}"


def _load(rules: Rules, depth: int, double: bool = False) -> Endgame | None:
    masks, rank, row, levels = _index(depth)
    count = sum(m.size * o.size for _, _, m, o in levels)
    spread = sum(sorted(score_table(rules).best, reverse=True)[:depth])
    dtype = np.float64 if double else np.float32
    stored = cache.load(_cache_key(rules, depth, double), (count, 2 * spread + 1), dtype)
    if stored is None:
        return None
    return Endgame(rules, depth, spread, masks, rank, row, stored.array, stored.seconds)


_BUILT: dict[tuple[str, int], Endgame] = {}


@cache.one_at_a_time
def endgame(
    rules: Rules | str,
    depth: int = DEFAULT_DEPTH,
    *,
    use_cache: bool = True,
    double: bool = False,
) -> Endgame:
    """The endgame table of a preset to ``depth`` open categories per player: from memory,
    the disk cache (keyed by the preset's fingerprint and the depth), or built now.

    ``use_cache=False`` builds afresh and touches neither cache. ``double=True`` gives the
    double-precision table (see :func:`build_endgame`), cached on disk under a key of its own
    and not kept in memory: it is for checks against exact figures, not for play.
    """
    preset = rules_by_name(rules)
    key = (preset.fingerprint(), depth)
    if use_cache:
        known = None if double else _BUILT.get(key)
        known = known or _load(preset, depth, double)
        if known is not None:
            if not double:
                _BUILT[key] = known
            return known
    game = build_endgame(preset, depth, double=double)
    if use_cache:
        if not double:
            _BUILT[key] = game
        cache.store(_cache_key(preset, depth, double), game.table, game.seconds)
    return game


def play_depth(rules: Rules | str, depth: int | None = None) -> int:
    """The endgame depth to play with: ``depth`` if given; else :data:`DEFAULT_DEPTH` when
    that table is in memory or on disk, and :data:`QUICK_DEPTH` otherwise (no long wait)."""
    if depth is not None:
        return depth
    preset = rules_by_name(rules)
    if (preset.fingerprint(), DEFAULT_DEPTH) in _BUILT or cache.exists(
        _cache_key(preset, DEFAULT_DEPTH)
    ):
        return DEFAULT_DEPTH
    return QUICK_DEPTH
