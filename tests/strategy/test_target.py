"""Target play: the best chance of reaching a total, against the optimal policy and a brute
force from the rules."""

import pytest

from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy import hint
from yacht.strategy.distribution import distribution
from yacht.strategy.target import TargetTable, target_probability

from . import brute

TARGETS = (60, 100, 140)


def test_target_policy_beats_the_expected_score_policy_at_its_own_target(
    targets: TargetTable,
) -> None:
    table = targets
    optimal = distribution("traditional")
    for t in TARGETS:
        # Both exact: the target table by backward induction, the optimal policy's chance
        # from its exact distribution of final totals.
        assert table.probability([], t) >= optimal.at_least(t) - 1e-12
    # Aiming at 140 (below the mean) gives up points to be surer of it.
    assert table.probability([], 140) > optimal.at_least(140) + 0.01


def test_small_positions_agree_with_a_brute_force_from_the_rules(targets: TargetTable) -> None:
    rules = rules_by_name("traditional")
    open_ = [Category.YACHT, Category.BIG_STRAIGHT, Category.FOURS]
    used = [c for c in CATEGORIES if c not in open_]
    for needed in (20, 45, 70, 100):
        expected = brute.chance(rules, open_, needed)
        assert target_probability(rules, used, needed) == pytest.approx(expected, abs=1e-12)


def test_certain_and_hopeless_targets() -> None:
    assert target_probability("traditional", [], 0) == 1.0
    assert target_probability("traditional", [], -5) == 1.0
    assert target_probability("traditional", [], 298) == 0.0
    only_yacht = [c for c in CATEGORIES if c is not Category.YACHT]
    assert target_probability("traditional", only_yacht, 51) == 0.0


def test_target_hint_orders_by_probability(targets: TargetTable) -> None:
    # Only Yacht open, four sixes and one roll left: 50 more points need the fifth six.
    used = [c for c in CATEGORIES if c is not Category.YACHT]
    h = hint("traditional", used, [6, 6, 6, 6, 1], 1, target=150, banked=100)
    assert h.best.keep == (6, 6, 6, 6)
    assert h.best.probability == pytest.approx(1 / 6, abs=1e-12)
    chances = [o.probability for o in h.options]
    assert chances == sorted(chances, reverse=True)  # type: ignore[type-var]
    assert h.to_json()["best"]["probability"] == h.best.probability
    reached = hint("traditional", used, [6, 6, 6, 6, 1], 1, target=100, banked=100)
    assert {o.probability for o in reached.options} == {1.0}


def test_bad_targets_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="target must be a whole number"):
        hint("traditional", [], [1, 2, 3, 4, 5], 1, target=-1)
    with pytest.raises(ValueError, match="banked points must be a whole number"):
        hint("traditional", [], [1, 2, 3, 4, 5], 1, target=10, banked=-2)


def test_bonus_positions_agree_with_a_brute_force_from_the_rules() -> None:
    # Clubhouse, Sixes and Choice open: from 45 the bonus is in reach, from 10 it is not.
    rules = rules_by_name("clubhouse")
    open_ = [Category.SIXES, Category.CHOICE]
    used = [c for c in CATEGORIES if c not in open_]
    for upper in (10, 45):
        for needed in (30, 60, 90):
            expected = brute.chance(rules, open_, needed, upper)
            got = target_probability(rules, used, needed, upper=upper)
            assert got == pytest.approx(expected, abs=1e-12)
