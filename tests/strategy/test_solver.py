"""The solver's exact values: published figures computed here, not stored."""

import pytest

from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy import solve
from yacht.strategy.solver import build_values
from yacht.strategy.tables import score_table


def test_traditional_expected_score_matches_the_published_figure() -> None:
    # 166.9550677: two independent computations agree (issue 3).
    values = build_values(score_table(rules_by_name("traditional")))
    assert values[0, 0] == pytest.approx(166.9550677, abs=1e-6)


def test_clubhouse_expected_score_matches_the_published_figure() -> None:
    # 191.774369: published by an independent Yacht Dice solver (issue 3).
    assert solve("clubhouse").expected == pytest.approx(191.774369, abs=1e-6)


def test_full_sheet_is_worth_nothing_and_values_fall_as_categories_fill() -> None:
    s = solve("traditional")
    assert s.value(frozenset(CATEGORIES)) == 0.0
    assert s.value([Category.YACHT]) < s.value([]) == s.expected
    assert s.value(1 << Category.YACHT.index) == s.value(["yacht"])


def test_impossible_upper_subtotal_is_rejected() -> None:
    s = solve("clubhouse")
    with pytest.raises(ValueError, match="upper subtotal 7 is impossible with ones used"):
        s.value(["ones"], upper=7)
    assert s.value(["ones"], upper=5) > s.value(["ones"], upper=0)
