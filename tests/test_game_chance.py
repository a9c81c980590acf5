"""Chance in the open: a roll given to the game, a given start, and copies of a game."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest

from yacht import (
    GameOverError,
    InvalidActionError,
    InvalidRollError,
    NoRollsLeftError,
    NotYourTurnError,
    RandomDice,
    ScriptedDice,
)
from yacht.actions import Hold, Roll, Score
from yacht.game import Game, Phase
from yacht.rules import CATEGORIES


def state(game: Game) -> dict[str, Any]:
    return {**game.to_json(), "dice_now": game.dice, "held": game.held, "phase": game.phase}


def test_a_given_roll_is_the_roll_and_the_dice_source_is_not_drawn() -> None:
    source = ScriptedDice([1, 1, 1, 1, 1])
    g = Game(["Ann"], dice=source)
    event = g.apply("roll", dice=[6, 6, 6, 6, 6])
    assert event.dice == (6, 6, 6, 6, 6) and g.dice == (6, 6, 6, 6, 6)
    assert source.position == 0
    assert g.apply("score yacht").points == 50
    assert g.apply("roll").dice == (1, 1, 1, 1, 1)  # the source goes on where it was


def test_a_given_roll_after_a_hold_keeps_the_held_dice() -> None:
    g = Game(["Ann"], dice=ScriptedDice([]))
    g.apply("roll", dice=(2, 5, 5, 1, 5))
    g.apply("hold 2 3 5")
    assert g.apply("roll", dice=[4, 5, 5, 5, 5]).dice == (4, 5, 5, 5, 5)
    assert g.rolls_used == 2


BAD_ROLLS = [
    ("four dice", [1, 2, 3, 4], InvalidRollError, "invalid dice"),
    ("six dice", [1, 2, 3, 4, 5, 6], InvalidRollError, "invalid dice"),
    ("a seven", [1, 2, 3, 4, 7], InvalidRollError, "invalid dice"),
    ("a zero", [0, 2, 3, 4, 5], InvalidRollError, "invalid dice"),
    ("not numbers", ["1", "2", "3", "4", "5"], InvalidRollError, "invalid dice"),
    ("a true", [True, 2, 3, 4, 5], InvalidRollError, "invalid dice"),
    ("held die changed", [3, 3, 3, 3, 3], InvalidRollError, "changes held dice"),
]


@pytest.mark.parametrize(("name", "dice", "error", "why"), BAD_ROLLS, ids=[b[0] for b in BAD_ROLLS])
def test_a_bad_given_roll_is_refused_and_changes_nothing(
    name: str, dice: list[Any], error: type[Exception], why: str
) -> None:
    source = ScriptedDice([6] * 20)
    g = Game(["Ann", "Bob"], dice=source)
    g.apply("roll", dice=[1, 2, 3, 4, 5])
    g.apply("hold 1 2")
    before, position = state(g), source.position
    with pytest.raises(error, match=why) as raised:
        g.apply("roll", dice=dice)
    assert repr(dice) in str(raised.value) and "Ann's turn" in str(raised.value)
    assert state(g) == before and source.position == position


def test_a_given_roll_when_it_is_not_the_time_to_roll_changes_nothing() -> None:
    g = Game(["Ann", "Bob"], dice=ScriptedDice([]))
    for dice in ([1, 1, 1, 1, 1], [2, 2, 2, 2, 2], [3, 3, 3, 3, 3]):
        g.apply("roll", dice=dice)
    before = state(g)
    with pytest.raises(NoRollsLeftError, match="no rolls left"):
        g.apply("roll", dice=[4, 4, 4, 4, 4])
    with pytest.raises(NotYourTurnError):
        g.apply("roll", player=1, dice=[4, 4, 4, 4, 4])
    assert state(g) == before

    solo = Game(["Ann"], dice=ScriptedDice([6] * 60))
    for category in CATEGORIES:
        solo.apply("roll")
        solo.apply(Score(category))
    assert solo.phase is Phase.FINISHED
    done = state(solo)
    with pytest.raises(GameOverError):
        solo.apply("roll", dice=[1, 2, 3, 4, 5])
    assert state(solo) == done


@pytest.mark.parametrize("action", ["hold 1", "score choice", "undo"])
def test_dice_come_only_with_a_roll(action: str) -> None:
    g = Game(["Ann"], dice=ScriptedDice([]), undo=True)
    g.apply("roll", dice=[1, 2, 3, 4, 5])
    before = state(g)
    with pytest.raises(InvalidActionError, match="only a roll shows dice"):
        g.apply(action, dice=[1, 2, 3, 4, 5])
    assert state(g) == before


def random_game(seed: int) -> Game:
    """A whole two-player game of random legal actions (undo on)."""
    pick = random.Random(seed)
    g = Game(["Ann", "Bob"], dice=RandomDice(seed), start="roll-off", undo=True)
    while not g.finished:
        g.apply(pick.choice(g.legal_actions()))
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replaying_the_log_through_given_rolls_rebuilds_the_game(seed: int) -> None:
    played = random_game(seed)
    again = Game(
        played.players,
        played.rules,
        ScriptedDice([]),  # any draw would raise: every die comes from the log
        start=played.start_rule,
        undo=True,
        start_rolls=played.start_rolls,
    )
    for event in played.events:
        shown = event.dice if isinstance(event.action, Roll) else None
        assert again.apply(event.action, player=event.player, dice=shown) == event
    assert again.to_json(include_dice_source=False) == played.to_json(include_dice_source=False)


def test_given_start_rolls_decide_the_first_player_without_drawing() -> None:
    source = ScriptedDice([])
    g = Game(["A", "B", "C"], dice=source, start="roll-off", start_rolls=[[5, 6, 6], [2, 4]])
    assert (g.first, g.current_name, g.start_rolls) == (2, "C", [[5, 6, 6], [2, 4]])
    assert Game(["A", "B"], start="random", start_rolls=[[4], [2]]).first == 1
    assert Game(["A", "B"], start_rolls=[]).first == 0


@pytest.mark.parametrize(
    ("rule", "rolls", "why"),
    [
        ("roll-off", [[5, 6, 6]], "are not a roll-off start"),  # still tied
        ("roll-off", [[5, 6, 4], [1]], "are not a roll-off start"),  # a roll too many
        ("roll-off", [[5, 6]], "are not a roll-off start"),  # a die short
        ("random", [[5]], "are not a random start"),  # 5 names no seat of 3
        ("seat", [[3]], "are not a seat start"),
        ("roll-off", [[9, 1, 1]], "faces must be 1..6"),
        ("roll-off", [6, 1, 1], "lists of faces"),
    ],
)
def test_start_rolls_that_are_no_such_start_are_refused(
    rule: str, rolls: list[Any], why: str
) -> None:
    with pytest.raises(ValueError, match=why):
        Game(["A", "B", "C"], dice=ScriptedDice([]), start=rule, start_rolls=rolls)


def test_a_copy_plays_on_alone() -> None:
    g = Game(["Ann", "Bob"], dice=RandomDice(seed=11), undo=True)
    g.apply("roll")
    g.apply("hold 1")
    before = state(g)
    trial = g.copy()
    assert state(trial) == before
    trial.apply("roll")
    trial.apply("score choice")
    trial.apply("undo")
    trial.apply("score yacht")
    trial.apply("roll")
    assert state(g) == before  # sheets, log, dice and the dice source untouched
    assert g.apply("roll") == trial.events[2]  # the copy drew the same dice the game now draws


def test_a_copy_with_other_dice_and_a_copy_of_a_finished_game() -> None:
    g = Game(["Ann"], dice=RandomDice(seed=5))
    trial = g.copy(dice=ScriptedDice([6, 6, 6, 6, 6]))
    assert trial.apply("roll").dice == (6, 6, 6, 6, 6)
    assert g.dice_source.describe() == {"kind": "random", "seed": 5, "drawn": 0}
    done = random_game(4)
    assert done.copy().to_json() == done.to_json()
    assert done.copy().winners() == done.winners()


def expected_yacht_points(game: Game) -> Fraction:
    """A one-turn search through the public door: every outcome of the roll, on a copy."""
    total = Fraction(0)
    for dice, chance in game.roll_outcomes():
        trial = game.copy(dice=ScriptedDice([]))
        trial.apply("roll", dice=dice)
        points = trial.apply("score yacht").points
        assert points is not None
        total += chance * points
    return total


@pytest.mark.parametrize("held", [0, 1, 2, 3, 4, 5])
def test_roll_outcomes_are_every_roll_with_its_exact_chance(held: int) -> None:
    g = Game(["Ann"], dice=ScriptedDice([]))
    g.apply("roll", dice=[6, 5, 4, 3, 2])
    positions = list(range(1, held + 1))
    g.apply(Hold(tuple(positions)))
    before = state(g)
    found = g.roll_outcomes()
    assert len(found) == math.comb(5 - held + 5, 5) and sum(p for _, p in found) == 1
    assert all(dice[p - 1] == (6, 5, 4, 3, 2)[p - 1] for dice, _ in found for p in positions)
    assert len({dice for dice, _ in found}) == len(found)
    assert state(g) == before


def test_a_search_through_the_public_door_gets_the_exact_chance_of_a_yacht() -> None:
    g = Game(["Ann"], dice=ScriptedDice([]))
    assert expected_yacht_points(g) == Fraction(50 * 6, 6**5)
    g.apply("roll", dice=[6, 6, 6, 6, 1])
    g.apply("hold 1 2 3 4")
    assert expected_yacht_points(g) == Fraction(50, 6)
    assert g.rolls_used == 1 and g.events[-1].action == Hold((1, 2, 3, 4))


def test_no_outcomes_when_no_roll_is_possible() -> None:
    g = Game(["Ann"], dice=ScriptedDice([]))
    for dice in ([1, 1, 1, 1, 2], [1, 1, 1, 2, 2], [1, 1, 2, 2, 2]):
        g.apply("roll", dice=dice)
    with pytest.raises(NoRollsLeftError, match="no rolls left"):
        g.roll_outcomes()
    finished = random_game(6)
    with pytest.raises(GameOverError):
        finished.roll_outcomes()
