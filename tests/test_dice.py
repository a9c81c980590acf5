"""Roll and keep multisets with exact probabilities, and the dice sources."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from yacht.dice import (
    KEEPS,
    MAX_DRAWN,
    ROLLS,
    DiceExhaustedError,
    FairDice,
    RandomDice,
    ScriptedDice,
    dice_from_description,
    outcome_probability,
    outcomes,
    sub_keeps,
)


def brute_force(keep: tuple[int, ...]) -> Counter[tuple[int, ...]]:
    """How many ordered throws of the other dice turn ``keep`` into each sorted roll."""
    found: Counter[tuple[int, ...]] = Counter()
    for throw in itertools.product(range(1, 7), repeat=5 - len(keep)):
        found[tuple(sorted(keep + throw))] += 1
    return found


def test_rolls_and_keeps_are_the_sorted_multisets() -> None:
    assert len(ROLLS) == 252 == len(set(ROLLS))
    assert all(list(r) == sorted(r) and len(r) == 5 for r in ROLLS)
    assert set(ROLLS) == {tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=5)}
    assert len(KEEPS) == 462 == len(set(KEEPS))
    sizes = Counter(len(k) for k in KEEPS)
    assert [sizes[n] for n in range(6)] == [1, 6, 21, 56, 126, 252]
    assert all(list(k) == sorted(k) for k in KEEPS)


@pytest.mark.parametrize("n", range(6))
def test_outcomes_are_exact_multinomials(n: int) -> None:
    got = dict(outcomes(n))
    assert sum(got.values()) == 1
    throws = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    assert got == {multiset: Fraction(ways, 6**n) for multiset, ways in throws.items()}


def test_outcome_probability_matches_brute_force_for_every_keep_and_roll() -> None:
    for keep in KEEPS:
        counted = brute_force(keep)
        total = 6 ** (5 - len(keep))
        probabilities = {roll: outcome_probability(keep, roll) for roll in ROLLS}
        assert sum(probabilities.values()) == 1, keep
        for roll, p in probabilities.items():
            assert p == Fraction(counted[roll], total), (keep, roll)


def test_sub_keeps_are_every_distinct_sub_multiset() -> None:
    for roll in ROLLS:
        expected = {tuple(sorted(c)) for n in range(6) for c in itertools.combinations(roll, n)}
        got = sub_keeps(roll)
        assert set(got) == expected and len(got) == len(expected)
        assert all(k in KEEPS for k in got)
    assert sub_keeps((3, 1, 1)) == [(), (1,), (3,), (1, 1), (1, 3), (1, 1, 3)]


def test_random_dice_are_reproducible_and_continue_after_a_rebuild() -> None:
    a, b = RandomDice(seed=42), RandomDice(seed=42)
    first = a.roll(5)
    assert first == b.roll(5)
    assert all(1 <= f <= 6 for f in first)
    assert a.describe() == {"kind": "random", "seed": 42, "drawn": 5}
    again = dice_from_description(a.describe())
    assert again.roll(7) == a.roll(7)
    assert RandomDice(seed=43).roll(20) != RandomDice(seed=42).roll(20)
    unseeded = RandomDice()
    assert isinstance(unseeded.seed, int)
    assert RandomDice(unseeded.seed).roll(10) == unseeded.roll(10)
    assert repr(RandomDice(seed=1, drawn=2)) == "RandomDice(seed=1, drawn=2)"


def test_scripted_dice_hand_out_their_faces_then_say_they_ran_out() -> None:
    src = ScriptedDice([1, 2, 3, 4, 5, 6])
    assert src.roll(5) == [1, 2, 3, 4, 5]
    assert src.describe() == {"kind": "scripted", "faces": [1, 2, 3, 4, 5, 6], "position": 5}
    with pytest.raises(DiceExhaustedError, match="2 needed at position 5 of 6"):
        src.roll(2)
    assert src.position == 5  # nothing was consumed by the failed roll
    assert src.roll(1) == [6]
    for bad in ([0], [7], [True], ["3"], [2.0]):
        with pytest.raises(ValueError, match=r"scripted faces must be 1\.\.6"):
            ScriptedDice(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"outside 0\.\.2"):
        ScriptedDice([1, 2], position=3)


def test_fair_dice_can_be_checked_by_anyone_after_the_reveal() -> None:
    seed = "ab" * 32
    src = FairDice(seed, client_seed="table-7")
    assert src.commitment == hashlib.sha256(seed.encode()).hexdigest()
    faces = src.roll(600)
    assert faces == [FairDice.die(seed, "table-7", i) for i in range(600)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    again = dice_from_description(src.describe())
    assert again.roll(5) == src.roll(5)
    assert FairDice(seed, "other").roll(20) != FairDice(seed, "table-7").roll(20)
    assert FairDice("", "x").server_seed == ""  # an empty seed is kept, not replaced
    assert len(FairDice().server_seed) == 64
    assert "commitment" in repr(src) and seed not in repr(src)


@pytest.mark.parametrize(
    ("desc", "match"),
    [
        ({"kind": "loaded"}, "unknown dice source"),
        ({}, "unknown dice source"),
        ("random", "need a JSON object"),
        ({"kind": "random"}, "seed: need an integer"),
        ({"kind": "random", "seed": "7"}, "seed: need an integer"),
        ({"kind": "random", "seed": 7, "drawn": -1}, "drawn: 0 to"),
        ({"kind": "random", "seed": 7, "drawn": MAX_DRAWN + 1}, "drawn: 0 to"),
        ({"kind": "random", "seed": 7, "drawn": 1.5}, "drawn: need an integer"),
        ({"kind": "scripted", "faces": "123"}, "faces: need a list"),
        ({"kind": "scripted", "faces": [1, 9]}, r"scripted faces must be 1\.\.6"),
        ({"kind": "scripted", "faces": [1], "position": 2}, r"outside 0\.\.1"),
        ({"kind": "fair", "server_seed": 5}, "server_seed: need a string"),
        ({"kind": "fair", "server_seed": "s", "client_seed": None}, "client_seed"),
    ],
)
def test_bad_dice_descriptions_are_rejected(desc: Any, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        dice_from_description(desc)
