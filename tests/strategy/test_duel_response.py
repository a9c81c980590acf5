"""Table (b), the best response to ``optimal``, on the endgame layers: the other player's
turn outcomes, a plain-Python expectimax with an independently played optimal opponent, and
the order against table (a)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from yacht.dice import ROLLS, sub_keeps
from yacht.dice import outcomes as roll_outcomes
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy.duel import MINIMAX, Kind, build_layers
from yacht.strategy.duel.layout import FULL, layout
from yacht.strategy.duel.response import FIRST, SECOND, mine, outcomes, response_layout
from yacht.strategy.duel.store import error_bound, layer_path
from yacht.strategy.solver import solve
from yacht.strategy.tables import score_table

from .brute import turn, value
from .test_endgame import used_except

TRADITIONAL = rules_by_name("traditional")
Roll = tuple[int, ...]


@pytest.fixture(scope="module")
def tables(duel_layers: Callable[[Kind], Path]) -> dict[str, Path]:
    """Layers 20-23 of both seats' chains and of table (a), by the table's name: built once
    by this code (``duel_layers``) and kept between runs."""
    return {kind.name: duel_layers(kind) for kind in (FIRST, SECOND, MINIMAX)}


def test_outcomes_are_the_optimal_turn() -> None:
    p = outcomes(TRADITIONAL)
    table = score_table(TRADITIONAL)
    solution = solve(TRADITIONAL)
    for used in (0, 0b101010101010, used_except(Category.YACHT, Category.ONES)):
        assert p[used].sum() == pytest.approx(1.0, abs=1e-12)
        # the expected points of the turn plus what is left after it: the solver's value
        worth = sum(
            p[used, c, k] * (table.values[c][k] + solution.value(used | 1 << c))
            for c in range(len(CATEGORIES))
            for k in range(table.values[c].size)
        )
        assert worth == pytest.approx(solution.value(used), abs=1e-9)
        assert not p[used, [c for c in range(12) if used >> c & 1]].any()  # used: never
    assert not p[FULL].any()


def _points(roll: Roll, c: Category) -> int:
    return TRADITIONAL.score(roll, c)


@functools.cache
def optimal_turn(open_: frozenset[Category]) -> dict[tuple[Category, int], float]:
    """The outcome of the optimal player's turn, by plain dictionaries: each keep chosen for
    the most expected points (brute.value), each final roll scored likewise."""

    def best(roll: Roll) -> tuple[float, Category]:
        return max((_points(roll, c) + value(TRADITIONAL, open_ - {c}), c) for c in open_)

    moves = {
        k: [(tuple(sorted(k + m)), float(p)) for m, p in roll_outcomes(5 - len(k))]
        for k in {k for r in ROLLS for k in sub_keeps(r) if len(k) < 5}
    }
    worth = {r: best(r)[0] for r in ROLLS}
    plans = []
    for _ in range(2):  # the decision at 1 roll left, then at 2 rolls left
        kept = {k: sum(p * worth[r] for r, p in to) for k, to in moves.items()}
        choice = {}
        for r in ROLLS:
            stop = [(worth[r], 5, r)]
            options = stop + [(kept[k], len(k), k) for k in sub_keeps(r) if len(k) < 5]
            options.sort(key=lambda o: (-o[0], -o[1]))  # the most points; stop, larger keeps
            choice[r] = options[0][2]
        plans.append(choice)
        worth = {r: kept[choice[r]] if choice[r] != r else worth[r] for r in ROLLS}
    now = {r: float(p) for r, p in roll_outcomes(5)}
    out: dict[tuple[Category, int], float] = {}
    for plan in reversed(plans):  # 2 rolls left first
        after: dict[Roll, float] = {}
        for r, p in now.items():
            if plan[r] == r:
                c = best(r)[1]
                out[c, _points(r, c)] = out.get((c, _points(r, c)), 0.0) + p
                continue
            for r2, q in moves[plan[r]]:
                after[r2] = after.get(r2, 0.0) + p * q
        now = after
    for r, p in now.items():
        c = best(r)[1]
        out[c, _points(r, c)] = out.get((c, _points(r, c)), 0.0) + p
    return out


@functools.cache
def best_response(me: frozenset[Category], other: frozenset[Category], lead: int) -> float:
    """My win probability at the start of my turn against the optimal player."""
    if not me:
        return others_turn(me, other, lead)

    def stop(roll: Roll) -> float:
        return max(others_turn(me - {c}, other, lead + _points(roll, c)) for c in me)

    return turn({r: stop(r) for r in ROLLS})


@functools.cache
def others_turn(me: frozenset[Category], other: frozenset[Category], lead: int) -> float:
    if not other:
        return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
    return sum(
        p * best_response(me, other - {c}, lead - s) for (c, s), p in optimal_turn(other).items()
    )


POSITIONS = [  # (seat chain, my open, the other's open, my lead)
    ("first", (Category.YACHT, Category.SIXES), (Category.CHOICE, Category.BIG_STRAIGHT), -10),
    ("first", (Category.FULL_HOUSE,), (Category.SIXES,), 3),
    ("second", (Category.YACHT, Category.ONES), (Category.CHOICE,), 5),
    ("second", (Category.LITTLE_STRAIGHT,), (), -20),
]


@pytest.mark.parametrize(("seat", "me", "other", "lead"), POSITIONS)
def test_values_equal_plain_expectimax_against_optimal(
    tables: dict[str, Path],
    seat: str,
    me: tuple[Category, ...],
    other: tuple[Category, ...],
    lead: int,
) -> None:
    want = best_response(frozenset(me), frozenset(other), lead)
    folder = tables[f"response-{seat}"]
    n = 24 - len(me) - len(other)
    assert mine(n, seat)
    lay = response_layout(TRADITIONAL, n, seat)
    a, b = used_except(*me), used_except(*other)
    row = lay.offsets[lay.pair(a, b)] + lead + int(lay.low[np.searchsorted(lay.movers, a)])
    got = np.fromfile(layer_path(folder, n, "u16"), dtype=np.uint16)[row] / 65535
    assert got == pytest.approx(want, abs=error_bound(n))
    assert 0 < got < 1


def test_best_response_wins_at_least_as_often_as_against_perfect_defence(
    tables: dict[str, Path],
) -> None:
    for n in range(20, 24):
        seat = "first" if n % 2 == 0 else "second"
        response = np.fromfile(layer_path(tables[f"response-{seat}"], n, "u16"), np.uint16)
        minimax = np.fromfile(layer_path(tables["minimax"], n, "u16"), np.uint16)
        assert response.size == minimax.size == layout(TRADITIONAL, n).size
        gap = response.astype(np.int64) - minimax
        assert gap.min() >= -2  # two 16-bit steps of rounding
        if n < 23:  # with a category left to the other, its play matters
            assert gap.mean() > 10


def test_two_processes_write_the_same_chains(tables: dict[str, Path], tmp_path: Path) -> None:
    for kind in (FIRST, SECOND):
        build_layers(TRADITIONAL, kind, lowest=21, folder=tmp_path / kind.name, jobs=2)
        for n in (21, 22, 23):
            one = layer_path(tables[kind.name], n, "u16").read_bytes()
            assert layer_path(tmp_path / kind.name, n, "u16").read_bytes() == one
