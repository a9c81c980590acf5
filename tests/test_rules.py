"""Scoring: the seed pages' worked examples, each category's edges under each preset, maxima,
and every ordered roll checked against a second, deliberately plain implementation."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yacht import Category, InvalidDiceError, RulesError, rules_by_name, score
from yacht.dice import ROLLS
from yacht.rules import (
    CATEGORIES,
    UPPER_CATEGORIES,
    Choice,
    FaceSum,
    FullHouse,
    OfAKind,
    Rules,
    Straight,
    UpperBonus,
    YachtScorer,
    preset_names,
    register,
    validate_dice,
)

PRESETS = ("traditional", "all-dice-four", "knizia", "clubhouse")
ORDERED_ROLLS = list(itertools.product(range(1, 7), repeat=5))


def plain_score(dice: tuple[int, ...], category: str, preset: str) -> int:
    """The rules written out again from their text, one preset at a time, sharing no code
    with yacht, so a mistake in the engine cannot hide by being repeated here."""
    total = sum(dice)
    counts = sorted(dice.count(face) for face in set(dice))
    faces = set(dice)
    uppers = ["ones", "twos", "threes", "fours", "fives", "sixes"]
    if category in uppers:
        face = uppers.index(category) + 1
        return face * dice.count(face)
    if category == "choice":
        return total
    if category == "yacht":
        return 50 if counts == [5] else 0
    if category == "full_house":
        if counts == [2, 3]:
            return total
        if counts == [5] and preset in ("knizia", "clubhouse"):
            return total
        return 0
    if category == "four_of_a_kind":
        for face in faces:
            if dice.count(face) >= 4:
                return 4 * face if preset == "traditional" else total
        return 0
    if category == "little_straight":
        if preset == "clubhouse":
            runs = [{1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}]
            return 15 if any(run <= faces for run in runs) else 0
        return 30 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if category == "big_straight":
        if preset == "clubhouse":
            return 30 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
        return 30 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    raise AssertionError(category)


def plain_bonus(upper: int, preset: str) -> int:
    return 35 if preset == "clubhouse" and upper >= 63 else 0


# --- the seed pages ------------------------------------------------------------------------


def test_seed_000_and_001_cubiri_rules_page() -> None:
    # 000 (fi) and 001 (bg): "5-5-5-2-1 antaa Vitosissa 15 pistettä" / "носи 15 точки в Петици".
    assert score([5, 5, 5, 2, 1], "fives") == 15
    # Only the chosen face counts; the other dice are ignored.
    assert score([5, 5, 5, 2, 1], "twos") == 2
    assert score([5, 5, 5, 2, 1], "sixes") == 0
    # Full House: three of one face and two of another, the sum of all five dice.
    assert score([3, 3, 3, 6, 6], "full_house") == 21
    # Four of a Kind: at least four alike, four times the face; the fifth die never adds.
    assert score([2, 2, 2, 2, 6], "four_of_a_kind") == 8
    assert score([2, 2, 2, 2, 2], "four_of_a_kind") == 8
    # Straights: exactly 1-2-3-4-5 and 2-3-4-5-6, 30 each; Choice: the sum; Yacht: 50.
    assert score([5, 3, 1, 4, 2], "little_straight") == 30
    assert score([6, 2, 5, 3, 4], "big_straight") == 30
    assert score([6, 2, 5, 3, 4], "little_straight") == 0
    assert score([6, 6, 1, 2, 3], "choice") == 18
    assert score([4, 4, 4, 4, 4], "yacht") == 50
    # A roll that does not fit scores 0 there.
    assert score([1, 2, 3, 4, 6], "yacht") == 0


def test_seed_002_encyclopedia_article() -> None:
    # "Yacht-tulosta ei voi käyttää mökin kategoriaan ..., mutta sen voi käyttää neljään
    # samaan, jolloin ylimääräinen silmäluku jätetään huomiotta."
    assert score([4, 4, 4, 4, 4], "full_house") == 0
    assert score([4, 4, 4, 4, 4], "four_of_a_kind") == 16
    # Its table's example points, each reached by a roll of that category.
    table = {
        "ones": ([1, 1, 1, 2, 3], 3),
        "twos": ([2, 2, 2, 1, 5], 6),
        "threes": ([3, 3, 3, 3, 1], 12),
        "fours": ([4, 4, 1, 2, 3], 8),
        "fives": ([1, 2, 3, 4, 6], 0),
        "sixes": ([6, 6, 6, 1, 2], 18),
        "full_house": ([3, 3, 3, 5, 5], 19),
        "four_of_a_kind": ([5, 5, 5, 5, 2], 20),
        "little_straight": ([1, 2, 3, 4, 5], 30),
        "big_straight": ([2, 3, 4, 5, 6], 30),
        "choice": ([1, 2, 3, 3, 4], 13),
        "yacht": ([2, 2, 2, 2, 2], 50),
    }
    for category, (dice, points) in table.items():
        assert score(dice, category) == points, category
    # "suurin pistemäärä on 297"
    assert rules_by_name("traditional").max_total() == 297


def test_seed_003_all_dice_four_preset() -> None:
    # "4-4-4-4-1 ville score 17 poeng ... 6-6-6-6-6 ville score 30 poeng"
    assert score([4, 4, 4, 4, 1], "four_of_a_kind", "all-dice-four") == 17
    assert score([6, 6, 6, 6, 6], "four_of_a_kind", "all-dice-four") == 30
    # "3-3-3-6-6 vil score 21 poeng ... de tre må være forskjellige enn paret"
    assert score([3, 3, 3, 6, 6], "full_house", "all-dice-four") == 21
    assert score([3, 3, 3, 3, 3], "full_house", "all-dice-four") == 0
    # Per-category maxima the page lists: Full House up to 28, Four of a Kind up to 30,
    # Choice up to 30, Sixes 30 ... Ones 5.
    rules = rules_by_name("all-dice-four")
    best = {c: max(rules.score(r, c) for r in ROLLS) for c in CATEGORIES}
    assert best[Category.FULL_HOUSE] == 28
    assert best[Category.FOUR_OF_A_KIND] == 30
    assert best[Category.CHOICE] == 30
    assert [best[c] for c in UPPER_CATEGORIES] == [5, 10, 15, 20, 25, 30]
    assert best[Category.YACHT] == 50
    assert best[Category.LITTLE_STRAIGHT] == best[Category.BIG_STRAIGHT] == 30


def test_seed_004_norwegian_rules_page() -> None:
    # "Har du 4, 4, 4, 2 og 6, gir firer-raden 12 poeng"
    assert score([4, 4, 4, 2, 6], "fours") == 12
    # "6-6-6-5-5 blir dermed 28 poeng, mens 1-1-1-2-2 så vidt gir 7. Fem like er ikke et hus"
    assert score([6, 6, 6, 5, 5], "full_house") == 28
    assert score([1, 1, 1, 2, 2], "full_house") == 7
    assert score([5, 5, 5, 5, 5], "full_house") == 0
    # "Slår du 6-6-6-6-2, gir raden 24 poeng ... Fører du en Yacht her, faller den femte
    # terningen utenfor"
    assert score([6, 6, 6, 6, 2], "four_of_a_kind") == 24
    assert score([6, 6, 6, 6, 6], "four_of_a_kind") == 24
    # "Yacht er fem like og gir 50 poeng. Mer kan ingen enkelt rad gi."
    assert score([3, 3, 3, 3, 3], "yacht") == 50
    assert max(score(r, c) for r in ROLLS for c in CATEGORIES) == 50
    # The worked opening: 6, 6, 6, 3 and 3 is a house worth 24; Sixes would give 18.
    assert score([6, 6, 6, 3, 3], "full_house") == 24
    assert score([6, 6, 6, 3, 3], "sixes") == 18
    # Four 6s after the reroll: 24 in Four of a Kind or the same 24 in Sixes.
    assert score([6, 6, 6, 4, 6], "four_of_a_kind") == score([6, 6, 6, 4, 6], "sixes") == 24


def test_seed_004_perfect_sheet_is_297_with_its_breakdown() -> None:
    # "105 fra tallradene, 30 for hver av straightene, 28 for det beste huset, 24 for fire
    # like, 30 i valgfri og 50 for Yacht"
    rules = rules_by_name("traditional")
    best = {c: max(rules.score(r, c) for r in ROLLS) for c in CATEGORIES}
    assert sum(best[c] for c in UPPER_CATEGORIES) == 105
    assert best[Category.LITTLE_STRAIGHT] == best[Category.BIG_STRAIGHT] == 30
    assert best[Category.FULL_HOUSE] == 28
    assert best[Category.FOUR_OF_A_KIND] == 24
    assert best[Category.CHOICE] == 30
    assert best[Category.YACHT] == 50
    assert rules.total(best) == 105 + 30 + 30 + 28 + 24 + 30 + 50 == 297


# --- each category's edges under each preset -----------------------------------------------


def same(points: int) -> tuple[int, ...]:
    return (points,) * len(PRESETS)


# (dice, category, points under traditional, all-dice-four, knizia, clubhouse)
EDGES: list[tuple[list[int], str, tuple[int, ...]]] = [
    # five of a kind is not a full house in traditional/all-dice-four, but is in the others
    ([5, 5, 5, 5, 5], "full_house", (0, 0, 25, 25)),
    ([2, 2, 3, 3, 3], "full_house", same(13)),
    ([2, 2, 2, 2, 3], "full_house", same(0)),
    ([1, 2, 2, 3, 3], "full_house", same(0)),
    # four of a kind: 4 x face (traditional) or all five dice
    ([4, 4, 4, 4, 1], "four_of_a_kind", (16, 17, 17, 17)),
    ([6, 6, 6, 6, 6], "four_of_a_kind", (24, 30, 30, 30)),
    ([1, 1, 1, 1, 6], "four_of_a_kind", (4, 10, 10, 10)),
    ([3, 3, 3, 6, 6], "four_of_a_kind", same(0)),
    # straights: exact in three presets, any four / any five in a row in clubhouse
    ([1, 2, 3, 4, 5], "little_straight", (30, 30, 30, 15)),
    ([1, 2, 3, 4, 6], "little_straight", (0, 0, 0, 15)),
    ([2, 3, 4, 5, 5], "little_straight", (0, 0, 0, 15)),
    ([6, 3, 5, 4, 1], "little_straight", (0, 0, 0, 15)),
    ([2, 3, 4, 5, 6], "little_straight", (0, 0, 0, 15)),
    ([1, 2, 3, 5, 6], "little_straight", same(0)),
    ([2, 3, 4, 5, 6], "big_straight", same(30)),
    ([1, 2, 3, 4, 5], "big_straight", (0, 0, 0, 30)),
    ([2, 3, 4, 5, 5], "big_straight", same(0)),
    ([1, 3, 4, 5, 6], "big_straight", same(0)),
    # choice, yacht and the upper rows are the same everywhere
    ([6, 6, 6, 6, 5], "choice", same(29)),
    ([6, 6, 6, 6, 5], "yacht", same(0)),
    ([1, 1, 1, 1, 1], "yacht", same(50)),
    ([1, 1, 1, 1, 1], "ones", same(5)),
    ([6, 5, 6, 5, 6], "fives", same(10)),
]  # fmt: skip


@pytest.mark.parametrize(("dice", "category", "expected"), EDGES)
def test_category_edges_under_each_preset(
    dice: list[int], category: str, expected: tuple[int, ...]
) -> None:
    assert tuple(score(dice, category, preset) for preset in PRESETS) == expected


def test_clubhouse_upper_bonus_is_35_at_63_and_not_at_62() -> None:
    rules = rules_by_name("clubhouse")
    assert (rules.bonus(62), rules.bonus(63), rules.bonus(105)) == (0, 35, 35)
    # Three of each face is exactly 63: 3 + 6 + 9 + 12 + 15 + 18.
    sheet = {c: 3 * (c.index + 1) for c in UPPER_CATEGORIES}
    assert rules.total(sheet) == 63 + 35
    sheet[Category.ONES] = 2
    assert rules.total(sheet) == 62
    for other in ("traditional", "all-dice-four", "knizia"):
        assert rules_by_name(other).bonus(105) == 0


def test_maximum_totals_per_preset() -> None:
    for preset in PRESETS:
        best = {c: max(plain_score(r, c.value, preset) for r in ROLLS) for c in CATEGORIES}
        upper = sum(best[c] for c in UPPER_CATEGORIES)
        expected = sum(best.values()) + plain_bonus(upper, preset)
        assert rules_by_name(preset).max_total() == expected
    # By hand: 297 (seed 004); Four of a Kind 30 instead of 24 gives 303; Full House 30
    # instead of 28 on top gives 305; clubhouse: 105 + 35 + 30 + 30 + 15 + 30 + 30 + 50.
    maxima = [rules_by_name(p).max_total() for p in PRESETS]
    assert maxima == [297, 303, 305, 325]


# --- exhaustive: every ordered roll, category and preset -----------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_ordered_roll_matches_the_plain_implementation(preset: str) -> None:
    assert len(ORDERED_ROLLS) == 7776
    rules = rules_by_name(preset)
    wrong = []
    for roll in ORDERED_ROLLS:
        for c in CATEGORIES:
            got, expected = score(list(roll), c, preset), plain_score(roll, c.value, preset)
            if got != expected:
                wrong.append((roll, c.value, got, expected))
    assert wrong == []
    # The solvers' fast path agrees on every sorted roll.
    for roll in ROLLS:
        counts = Counter(roll)
        for c in CATEGORIES:
            assert rules.score_counts(counts, c) == plain_score(roll, c.value, preset)


# --- properties ----------------------------------------------------------------------------

dice_strategy = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=200, deadline=None)
@given(dice=dice_strategy, order=st.permutations(range(5)), preset=st.sampled_from(PRESETS))
def test_scores_do_not_depend_on_dice_order(dice: list[int], order: list[int], preset: str) -> None:
    shuffled = [dice[i] for i in order]
    for c in CATEGORIES:
        assert score(dice, c, preset) == score(shuffled, c, preset)


BEST = {
    p: {c: max(rules_by_name(p).score(r, c) for r in ROLLS) for c in CATEGORIES} for p in PRESETS
}


@settings(max_examples=200, deadline=None)
@given(dice=dice_strategy, preset=st.sampled_from(PRESETS))
def test_scores_stay_within_each_categorys_bounds(dice: list[int], preset: str) -> None:
    for c in CATEGORIES:
        points = score(dice, c, preset)
        assert 0 <= points <= BEST[preset][c]
        if c.face is not None:
            assert points % c.face == 0
        elif c in (Category.LITTLE_STRAIGHT, Category.BIG_STRAIGHT, Category.YACHT):
            assert points in (0, BEST[preset][c])
        elif c in (Category.FULL_HOUSE, Category.CHOICE):
            assert points in (0, sum(dice))
        else:
            assert points <= sum(dice) and BEST[preset][c] <= 30


# --- inputs, names and the registry --------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7], [1, 2, 3, 4, -1],
     [True, 1, 1, 1, 1], [1.0, 2, 3, 4, 5], ["1", 2, 3, 4, 5], "12345", 12345, None],
)  # fmt: skip
def test_invalid_dice_are_rejected_quoting_them(bad: object) -> None:
    with pytest.raises(
        InvalidDiceError, match=r"^invalid dice: .* \(need five faces from 1 to 6\)$"
    ):
        score(bad, "choice")  # type: ignore[arg-type]
    assert issubclass(InvalidDiceError, ValueError)


def test_dice_may_be_any_integers_such_as_numpys() -> None:
    assert validate_dice(np.array([6, 6, 6, 5, 5])) == (6, 6, 6, 5, 5)
    assert score(np.array([6, 6, 6, 5, 5]), "full_house") == 28
    assert score((6, 6, 6, 5, 5), "full_house") == 28


def test_categories_parse_from_their_names() -> None:
    assert [c.index for c in CATEGORIES] == list(range(12))
    assert [c.face for c in UPPER_CATEGORIES] == [1, 2, 3, 4, 5, 6]
    assert Category.CHOICE.face is None
    for c in CATEGORIES:
        assert Category.parse(c.value) is c
        assert Category.parse(c.value.upper().replace("_", " ")) is c
        assert Category.parse(c) is c
    assert Category.parse(" Four-Of-A-Kind ") is Category.FOUR_OF_A_KIND
    with pytest.raises(RulesError, match=r"'bonus' \(expected one of ones, twos, .*, yacht\)"):
        Category.parse("bonus")
    with pytest.raises(RulesError):
        score([1, 2, 3, 4, 5], "large_straight")


def test_registry_lookup_and_errors() -> None:
    assert preset_names() == list(PRESETS)
    for name in PRESETS:
        rules = rules_by_name(name)
        assert rules.name == name and rules_by_name(rules) is rules
        assert repr(rules) == f"rules_by_name({name!r})"
    with pytest.raises(RulesError, match="unknown rules preset: 'yahtzee'"):
        rules_by_name("yahtzee")
    with pytest.raises(RulesError):
        rules_by_name(["traditional"])  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="already registered"):
        register(rules_by_name("traditional"))
    with pytest.raises(RulesError, match="no scorer for yacht"):
        Rules("broken", {c: Choice() for c in CATEGORIES[:-1]})


def test_a_new_preset_is_data_and_fingerprints_follow_scoring() -> None:
    base = rules_by_name("traditional")
    twin = Rules("twin", dict(base.scorers))
    assert twin.fingerprint() == base.fingerprint()
    assert twin.max_total() == 297
    fixed = Rules(
        "fixed-house",
        {**base.scorers, Category.FULL_HOUSE: FullHouse(fixed=25)},
        UpperBonus(60, 10),
    )
    assert fixed.score([1, 1, 1, 2, 2], "full_house") == 25
    assert fixed.total({Category.SIXES: 30, Category.FIVES: 25, Category.FOURS: 8}) == 73
    assert fixed.fingerprint() != base.fingerprint()
    fingerprints = {rules_by_name(p).fingerprint() for p in PRESETS}
    assert len(fingerprints) == len(PRESETS)
    assert "fixed-house" in repr(fixed) and "FullHouse(yacht_counts=False, fixed=25)" in repr(fixed)


def test_scorers_describe_themselves_through_a_gettext_function() -> None:
    def shout(message: str) -> str:
        return message.replace("sum", "SUM")

    assert FaceSum(3).describe() == "the sum of the dice showing 3"
    assert FaceSum(3).describe(shout) == "the SUM of the dice showing 3"
    assert FullHouse(yacht_counts=True).describe().endswith("five of a kind also counts")
    assert (
        FullHouse(fixed=25).describe().startswith("three of one face and two of another: 25 points")
    )
    assert OfAKind(4, all_dice=True).describe() == (
        "at least 4 dice of one face: the sum of all five dice"
    )
    assert Straight(5, (1, 2), 30).describe() == (
        "any 5 in a row (1-2-3-4-5 or 2-3-4-5-6): 30 points"
    )
    assert Straight(4, (1,), 20).describe() == "any 4 in a row (1-2-3-4): 20 points"
    assert YachtScorer(100).describe() == "five of a kind: 100 points"
    assert UpperBonus(63, 35).describe() == "35 points when Ones to Sixes total at least 63"
