"""The solver's exact values: published figures computed here, not stored."""

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from yacht.dice import KEEPS, ROLLS, outcome_probability
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy import cache, solve, solver
from yacht.strategy.cache import cache_dir
from yacht.strategy.solver import build_values
from yacht.strategy.tables import ROLL_INDEX, ROLL_KEEP, TRANSITION, score_table

from . import brute


def test_every_keep_and_roll_has_the_exact_chance_of_the_dice() -> None:
    """The table of chances is built from the outcomes each keep rolls; every one of its
    116,424 entries is the rounded exact fraction of the rules of chance, zeros included."""
    exact = [[float(outcome_probability(k, r)) for r in ROLLS] for k in KEEPS]
    assert TRANSITION.tolist() == exact
    assert np.count_nonzero(TRANSITION) == 4368


def test_traditional_expected_score_matches_the_published_figure() -> None:
    # 166.9550677: two independent computations agree.
    values = build_values(score_table(rules_by_name("traditional")))
    assert values[0, 0] == pytest.approx(166.9550677, abs=1e-6)


def test_clubhouse_expected_score_matches_the_published_figure() -> None:
    # 191.774369: published by an independent Yacht Dice solver.
    assert solve("clubhouse").expected == pytest.approx(191.774369, abs=1e-6)


@pytest.mark.parametrize("preset", ["all-dice-four", "knizia"])
def test_other_presets_score_more_than_traditional(preset: str) -> None:
    # Four of a Kind counting all five dice can only add points.
    assert solve(preset).expected > solve("traditional").expected + 2


def test_small_positions_agree_with_a_brute_force_from_the_rules() -> None:
    rules = rules_by_name("traditional")
    open_ = [Category.YACHT, Category.CHOICE, Category.FOURS]
    used = [c for c in CATEGORIES if c not in open_]
    assert solve(rules).value(used) == pytest.approx(brute.value(rules, open_), abs=1e-9)


def test_bonus_positions_agree_with_a_brute_force_from_the_rules() -> None:
    rules = rules_by_name("clubhouse")
    open_ = [Category.SIXES, Category.CHOICE]
    used = [c for c in CATEGORIES if c not in open_]
    for upper in (45, 63, 70):
        expected = brute.value(rules, open_, upper)
        assert solve(rules).value(used, upper) == pytest.approx(expected, abs=1e-9)


def test_full_sheet_is_worth_nothing_and_values_fall_as_categories_fill() -> None:
    s = solve("traditional")
    assert s.value(frozenset(CATEGORIES)) == 0.0
    assert s.value([Category.YACHT]) < s.value([]) == s.expected
    assert s.value(1 << Category.YACHT.index) == s.value(["yacht"])


def test_impossible_upper_subtotal_and_bad_masks_are_rejected() -> None:
    s = solve("clubhouse")
    with pytest.raises(ValueError, match="upper subtotal 7 is impossible with ones used"):
        s.value(["ones"], upper=7)
    with pytest.raises(ValueError, match=r"outside 0\.\.4095"):
        s.value(4096)
    with pytest.raises(ValueError, match="unknown category"):
        s.value(["bonus"])
    assert s.value(["ones"], upper=5) > s.value(["ones"], upper=0)


def test_turn_policy_stops_on_a_yacht_and_keeps_four_of_a_kind() -> None:
    s = solve("traditional")
    policy = s.turn_policy([])
    yacht, four = ROLL_INDEX[(6, 6, 6, 6, 6)], ROLL_INDEX[(1, 6, 6, 6, 6)]
    assert policy.keep2[yacht] == ROLL_KEEP + yacht
    assert CATEGORIES[policy.category[yacht]] is Category.YACHT
    assert KEEPS[policy.keep2[four]] == (6, 6, 6, 6)
    many = s.turn_policies(np.array([0, 1 << Category.YACHT.index]), np.array([0, 0]))
    assert many.keep2.shape == (252, 2)
    assert (many.keep2[:, 0] == policy.keep2).all()
    assert CATEGORIES[many.category[yacht, 1]] is not Category.YACHT


def test_corrupt_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "SHIPPED", tmp_path / "none")  # not the package's copy
    monkeypatch.setattr(solver, "_SOLVED", {})
    first = solve("traditional")
    files = list(cache_dir().glob("values-*.npz"))
    assert len(files) == 1
    files[0].write_bytes(b"not a table")
    monkeypatch.setattr(solver, "_SOLVED", {})
    again = solve("traditional")
    assert again.expected == first.expected
    assert files[0].read_bytes() != b"not a table"
    monkeypatch.setattr(solver, "_SOLVED", {})
    assert solve("traditional").seconds == again.seconds  # read back from the cache


def test_threads_asking_for_an_unbuilt_table_wait_for_one_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot and a hint (or web workers) asking at once build the table once, and all get it."""
    monkeypatch.setenv("YACHT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "SHIPPED", tmp_path / "none")  # not the package's copy
    monkeypatch.setattr(solver, "_SOLVED", {})
    builds: list[int] = []

    def counted(table: object) -> object:
        builds.append(1)
        return build_values(table)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "build_values", counted)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda _: solve("traditional"), range(8)))
    assert len(builds) == 1
    assert all(s is got[0] for s in got)
    assert round(got[0].expected, 7) == 166.9550677
