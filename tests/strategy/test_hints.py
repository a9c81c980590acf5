"""Hints: every option, exact values, best first; the user's view through the API."""

import pytest

from yacht.dice import ROLLS, ScriptedDice, sub_keeps
from yacht.game import Game
from yacht.rules import CATEGORIES, Category
from yacht.strategy import FIRST_ROLL, hint, hint_for_view, solve
from yacht.strategy.target import TargetTable


def test_first_roll_average_of_best_options_is_the_game_value() -> None:
    average = sum(
        float(p) * hint("traditional", [], roll, 2).best.expected
        for roll, p in zip(ROLLS, FIRST_ROLL, strict=True)
    )
    assert average == pytest.approx(solve("traditional").expected, abs=1e-9)


def test_options_are_every_distinct_keep_and_every_open_category_best_first() -> None:
    h = hint("traditional", ["ones", "yacht"], [2, 2, 5, 5, 5], 1)
    keeps = [o.keep for o in h.options if o.keep is not None]
    assert sorted(keeps) == sorted(k for k in sub_keeps((2, 2, 5, 5, 5)) if len(k) < 5)
    scored = {o.category for o in h.options if o.action == "score"}
    assert scored == set(CATEGORIES) - {Category.ONES, Category.YACHT}
    values = [o.expected for o in h.options]
    assert values == sorted(values, reverse=True)
    assert h.best is h.options[0]
    full_house = next(o for o in h.options if o.category is Category.FULL_HOUSE)
    assert full_house.points == 19
    assert all(o.probability is None for o in h.options)


def test_no_keeps_without_rolls_left_and_json_shapes() -> None:
    h = hint("traditional", [], [1, 2, 3, 4, 6], 0)
    assert {o.action for o in h.options} == {"score"}
    data = h.to_json()
    assert data["best"] == data["options"][0]
    little = next(o for o in data["options"] if o["category"] == "little_straight")
    assert list(little) == ["action", "category", "points", "expected"]
    assert little["points"] == 0
    keep = hint("traditional", [], [1, 2, 3, 4, 6], 2).best.to_json()
    assert keep == {"action": "keep", "keep": [1, 2, 3, 4], "expected": keep["expected"]}


def test_expected_counts_what_is_still_to_come_bonus_included() -> None:
    # Clubhouse, only Sixes open, 45 on the upper section: 18 more reaches the 63 bonus.
    used = [c for c in CATEGORIES if c is not Category.SIXES]
    (only,) = hint("clubhouse", used, [6, 6, 6, 1, 2], 0, upper=45).options
    assert (only.points, only.expected) == (18, 18 + 35)
    (only,) = hint("clubhouse", used, [6, 6, 1, 1, 2], 0, upper=45).options
    assert (only.points, only.expected) == (12, 12)


def test_hint_for_view_follows_the_game(targets: TargetTable) -> None:
    g = Game(["Ann"], dice=ScriptedDice([1, 2, 3, 4, 5, 6, 6, 6, 6, 6]))
    with pytest.raises(ValueError, match="no dice"):
        hint_for_view(g.view())
    g.apply("roll")
    h = hint_for_view(g.view())
    assert h.best.action == "score" and h.best.category is Category.LITTLE_STRAIGHT
    g.apply("score little_straight")
    g.apply("roll")
    h = hint_for_view(g.view(), target=80)
    assert h.best.category is Category.YACHT and h.best.probability is not None
    assert h.banked == 30


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([], [1, 2, 3, 4, 5, 6], 2), "invalid dice"),
        (([], [1, 2, 3, 4, 7], 2), "invalid dice"),
        (([], [1, 2, 3, 4, 5], 3), "rolls left must be 0, 1 or 2"),
        ((["bonus"], [1, 2, 3, 4, 5], 1), "unknown category"),
        ((list(CATEGORIES), [1, 2, 3, 4, 5], 1), "all categories are used"),
    ],
)
def test_bad_situations_are_clear_errors(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hint("traditional", *args)  # type: ignore[arg-type]
