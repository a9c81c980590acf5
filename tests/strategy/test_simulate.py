"""The vectorised simulator: exact sampling, the solver's policy, the solver's values."""

from __future__ import annotations

import numpy as np
import pytest

from yacht.dice import KEEPS, ROLLS
from yacht.rules import CATEGORIES, Category
from yacht.strategy import TRANSITION, solve
from yacht.strategy.distribution import distribution
from yacht.strategy.policy import DENSE_KEYS, PolicyCache, expected_cache, sampler
from yacht.strategy.simulate import PERCENTILES, simulate
from yacht.strategy.tables import KEEP_INDEX, ROLL_KEEP
from yacht.strategy.target import target_probability


def test_sampler_reaches_each_roll_exactly_as_often_as_its_probability() -> None:
    table = sampler()
    counts = np.stack([np.bincount(row, minlength=len(ROLLS)) for row in table])
    assert np.array_equal(counts, np.rint(TRANSITION * 7776).astype(np.int64))
    # A five-dice keep is the roll itself, whatever is drawn.
    assert (table[ROLL_KEEP + 17] == 17).all()
    assert KEEPS[ROLL_KEEP + 17] == ROLLS[17]


@pytest.mark.parametrize(("rules", "games"), [("traditional", 200_000), ("clubhouse", 10_000)])
def test_optimal_simulated_mean_is_within_4_standard_errors_of_the_exact_value(
    rules: str, games: int
) -> None:
    exact = solve(rules).expected  # 166.9550677 and 191.774369, checked in test_solver.py
    run = simulate(games, rules, seed=7)
    assert run.games == games and run.method == "vectorised"
    assert abs(run.mean - exact) < 4 * run.standard_error


def test_simulated_totals_follow_the_exact_score_distribution() -> None:
    exact = distribution("traditional")
    run = simulate(200_000, seed=11)
    for total in (100, 140, 160, 180, 200, 250):
        p = exact.at_least(total)
        seen = float((run.totals >= total).mean())
        assert abs(seen - p) < 4 * (p * (1 - p) / run.games) ** 0.5, total


def test_category_points_add_up_to_each_total() -> None:
    run = simulate(5_000, "traditional", seed=1)
    assert np.array_equal(run.points.sum(axis=1), run.totals)
    run = simulate(5_000, "clubhouse", seed=1)
    bonus = np.where(run.points[:, :6].sum(axis=1) >= 63, 35, 0)
    assert np.array_equal(run.points.sum(axis=1) + bonus, run.totals)


def test_runs_are_reproducible_by_seed() -> None:
    a, b, c = (simulate(70_000, seed=s) for s in (3, 3, 4))
    assert np.array_equal(a.totals, b.totals) and np.array_equal(a.points, b.points)
    assert not np.array_equal(a.totals, c.totals)


def test_policy_tables_are_the_solvers_turn_policy() -> None:
    solution = solve("traditional")
    cache = expected_cache(solution)
    used = [Category.YACHT, Category.ONES, Category.CHOICE]
    mask = sum(1 << c.index for c in used)
    slot = int(cache.slots(np.array([0, mask]))[1])
    policy = solution.turn_policy(used)
    rows = slice(slot * len(ROLLS), (slot + 1) * len(ROLLS))
    assert np.array_equal(cache.keep2[rows], policy.keep2)
    assert np.array_equal(cache.keep1[rows], policy.keep1)
    assert np.array_equal(cache.category[rows], policy.category)
    # Found by search instead of a dense index: the same tables.
    searched = PolicyCache(DENSE_KEYS + 1, cache.policy)
    again = int(searched.slots(np.array([mask, 5, mask]))[2])
    assert np.array_equal(searched.keep2[again * 252 : (again + 1) * 252], policy.keep2)


def test_target_play_reaches_its_target_as_often_as_the_exact_probability() -> None:
    target = 150
    exact = target_probability("traditional", [], target)
    run = simulate(30_000, seed=5, target=target)
    hits = float((run.totals >= target).mean())
    assert abs(hits - exact) < 4 * (exact * (1 - exact) / run.games) ** 0.5
    assert run.bot == "target:150"
    optimal = simulate(30_000, seed=5)
    assert hits > float((optimal.totals >= target).mean())  # the target policy is for this


def test_noisy_play_falls_with_temperature_and_nearly_zero_is_optimal() -> None:
    exact = solve("traditional").expected
    cold = simulate(20_000, seed=2, temperature=0.01)
    assert abs(cold.mean - exact) < 4 * cold.standard_error
    warm, hot = simulate(20_000, seed=2, temperature=1.0), simulate(20_000, seed=2, temperature=3)
    assert exact - 40 < warm.mean < exact - 10
    assert hot.mean < warm.mean - 10


def test_summary_json_has_every_field() -> None:
    seen: list[tuple[int, int]] = []
    run = simulate(2_000, "knizia", seed=1, progress=lambda done, total: seen.append((done, total)))
    data = run.to_json()
    assert seen[-1] == (2_000, 2_000)
    assert data["bot"] == "optimal" and data["rules"] == "knizia" and data["games"] == 2_000
    assert list(data["percentiles"]) == [str(p) for p in PERCENTILES]
    values = list(data["percentiles"].values())
    assert data["min"] <= values[0] and values == sorted(values) and values[-1] <= data["max"]
    assert list(data["category_means"]) == [c.value for c in CATEGORIES]
    assert sum(data["category_means"].values()) == pytest.approx(data["mean"], abs=1e-3)
    assert data["stdev"] > 0 and data["games_per_second"] > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be at least 1"),
        ({"games": True}, "games must be at least 1"),
        ({"temperature": -1.0}, "temperature must be >= 0"),
        ({"temperature": float("nan")}, "temperature must be >= 0"),
        ({"target": 1.5}, "target must be a whole number"),
        ({"rules": "yahtzee"}, "unknown rules preset"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"games": 10, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate(**args)  # type: ignore[arg-type]


def test_keep_index_of_no_dice_is_the_first_keep() -> None:
    assert KEEP_INDEX[()] == 0 and KEEPS[0] == ()
