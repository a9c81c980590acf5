"""The two-player endgame table against an independent brute force, and its invariants."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from yacht.dice import outcomes, sub_keeps
from yacht.rules import Category, rules_by_name
from yacht.strategy.cache import ENV_VAR
from yacht.strategy.endgame import FULL, Endgame, build_endgame, endgame, settled

from .conftest import exact_endgame

TRADITIONAL = rules_by_name("traditional")


def used_except(*open_: Category) -> int:
    """The used-mask of a sheet with only ``open_`` still open."""
    mask = FULL
    for c in open_:
        mask &= ~(1 << c.index)
    return mask


@functools.cache
def _rest(n: int) -> list[tuple[tuple[int, ...], float]]:
    return [(m, float(p)) for m, p in outcomes(n)]


@functools.cache
def brute_force(mover: frozenset[Category], other: frozenset[Category], lead: int) -> float:
    """Win probability by plain expectiminimax over sorted rolls with exact multinomial
    probabilities (:func:`yacht.dice.outcomes`), trying every keep of every roll, in plain
    Python: nothing is shared with the table's code."""
    if not mover and not other:
        return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0

    @functools.cache
    def roll_value(roll: tuple[int, ...], rolls_left: int) -> float:
        best = max(
            1 - brute_force(other, mover - {c}, -(lead + TRADITIONAL.score(roll, c))) for c in mover
        )
        if rolls_left:
            for keep in sub_keeps(roll):
                if len(keep) < 5:
                    best = max(best, keep_value(keep, rolls_left))
        return best

    @functools.cache
    def keep_value(keep: tuple[int, ...], rolls_left: int) -> float:
        return sum(
            p * roll_value(tuple(sorted(keep + rest)), rolls_left - 1)
            for rest, p in _rest(5 - len(keep))
        )

    return keep_value((), 3)


@pytest.fixture(scope="module")
def exact() -> Endgame:
    # Built by this code once and then read from the tests' table cache (keyed by the code's
    # digest, conftest.TABLES); test_the_double_table_from_the_cache_is_the_one_built checks
    # that a table read back is the table built.
    return exact_endgame()


ONE_EACH = [
    ((Category.ONES,), (Category.ONES,), 0),
    ((Category.ONES,), (Category.ONES,), 2),
    ((Category.YACHT,), (Category.FOUR_OF_A_KIND,), -10),
    ((Category.BIG_STRAIGHT,), (Category.YACHT,), 20),
    ((Category.FOUR_OF_A_KIND,), (Category.BIG_STRAIGHT,), -4),
]


@pytest.mark.parametrize(("mover", "other", "lead"), ONE_EACH)
def test_one_category_each_matches_brute_force(
    exact: Endgame, mover: tuple[Category, ...], other: tuple[Category, ...], lead: int
) -> None:
    want = brute_force(frozenset(mover), frozenset(other), lead)
    got = exact.win_probability(used_except(*mover), used_except(*other), lead)
    assert got == pytest.approx(want, abs=1e-12)
    assert 0 < got < 1


TWO_AGAINST_ONE = [
    ((Category.YACHT, Category.BIG_STRAIGHT), (Category.LITTLE_STRAIGHT,), 0),
    ((Category.YACHT, Category.BIG_STRAIGHT), (Category.LITTLE_STRAIGHT,), 25),
    ((Category.YACHT, Category.LITTLE_STRAIGHT), (Category.YACHT,), -30),
]


@pytest.mark.parametrize(("mover", "other", "lead"), TWO_AGAINST_ONE)
def test_two_against_one_matches_brute_force(
    exact: Endgame, mover: tuple[Category, ...], other: tuple[Category, ...], lead: int
) -> None:
    want = brute_force(frozenset(mover), frozenset(other), lead)
    got = exact.win_probability(used_except(*mover), used_except(*other), lead)
    assert got == pytest.approx(want, abs=1e-12)


def test_single_precision_table_agrees_with_double() -> None:
    single = build_endgame(TRADITIONAL, 1)
    double = build_endgame(TRADITIONAL, 1, double=True)
    assert single.table.dtype.itemsize == 4
    assert single.table.shape == double.table.shape == (156, 101)  # 12 + 12 x 12 pairs
    assert float(abs(single.table - double.table).max()) < 1e-6


def test_decided_leads_and_symmetry(exact: Endgame) -> None:
    ones = used_except(Category.ONES)
    # five points can never be made up with Ones left on both sides (at most 5 to 0)
    assert exact.win_probability(ones, ones, 6) == 1.0
    assert exact.win_probability(ones, ones, -6) == 0.0
    # equal sheets, level scores: the mover wins exactly as often as it loses
    both = used_except(Category.YACHT, Category.CHOICE)
    p = exact.win_probability(both, both, 0)
    q = exact.win_probability(both, both, -1)
    assert 0.0 < q < p < 1.0
    assert exact.win_probability(FULL, FULL, 3) == 1.0


def test_positions_outside_the_table_are_refused(exact: Endgame) -> None:
    three = used_except(Category.ONES, Category.TWOS, Category.THREES)
    with pytest.raises(ValueError, match="depth 2"):
        exact.win_probability(three, three, 0)
    ones = used_except(Category.ONES)
    with pytest.raises(ValueError, match="no turn"):
        exact.win_probability(FULL, ones, 0)  # the player with a category open moves
    with pytest.raises(ValueError, match="depth"):
        build_endgame(TRADITIONAL, 0)


def test_table_is_cached_on_disk_by_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yacht.strategy import endgame as module

    monkeypatch.setenv(ENV_VAR, str(tmp_path))  # not the session's: built here, then written
    monkeypatch.setattr(module, "_BUILT", {})  # forget tables other tests built
    first = endgame("traditional", 1)
    assert any(p.startswith("endgame-") for p in os.listdir(tmp_path))
    assert endgame(TRADITIONAL, 1) is first
    monkeypatch.setattr(module, "_BUILT", {})
    loaded = endgame("traditional", 1)  # from the disk this time
    assert loaded is not first and loaded.seconds == pytest.approx(first.seconds)
    fresh = endgame("traditional", 1, use_cache=False)
    assert fresh is not first
    assert float(abs(fresh.table - first.table).max()) == 0.0


def test_the_double_table_from_the_cache_is_the_one_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    built = endgame("traditional", 1, double=True)
    assert built.table.dtype == "float64"
    names = sorted(os.listdir(tmp_path))
    assert any("-k1-f64-" in name for name in names), names
    read = endgame("traditional", 1, double=True)  # not kept in memory: read from the disk
    assert read is not built and read.table.dtype == "float64"
    assert (read.table == built.table).all()
    single = endgame("traditional", 1)  # a key of its own: the double file is not taken
    assert single.table.dtype == "float32"


def test_bonus_is_settled_when_earned_or_out_of_reach() -> None:
    club = rules_by_name("clubhouse")
    assert settled(TRADITIONAL, 0, 0)
    assert settled(club, used_except(Category.ONES), 63)
    assert settled(club, used_except(Category.ONES), 40)  # 40 + 5 < 63
    assert not settled(club, used_except(Category.SIXES), 40)  # 40 + 30 >= 63
