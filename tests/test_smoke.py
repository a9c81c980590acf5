"""First user-view checks; the full suites live beside this file."""

import subprocess
import sys

import pytest

from yacht import CategoryFilledError, Game, ScriptedDice, score


def test_score_examples_from_the_seed_pages() -> None:
    assert score([5, 5, 5, 2, 1], "fives") == 15
    assert score([6, 6, 6, 5, 5], "full_house") == 28
    assert score([1, 1, 1, 2, 2], "full_house") == 7
    assert score([3, 3, 3, 3, 3], "full_house") == 0
    assert score([6, 6, 6, 6, 2], "four_of_a_kind") == 24
    assert score([3, 3, 3, 3, 3], "four_of_a_kind") == 12


def test_filled_category_is_rejected_and_nothing_changes() -> None:
    g = Game(["Ann"], dice=ScriptedDice([1, 2, 3, 4, 5] * 2))
    g.apply("roll")
    g.apply("score little_straight")
    g.apply("roll")
    before = g.to_json()
    with pytest.raises(CategoryFilledError, match="little_straight"):
        g.apply("score little_straight")
    assert g.to_json() == before


def test_cli_score_json() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "yacht",
            "score",
            "6",
            "6",
            "6",
            "5",
            "5",
            "-c",
            "full_house",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert '"score": 28' in out
