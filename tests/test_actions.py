"""Action values: text forms that parse back, malformed input, and the error family."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yacht import (
    Action,
    CategoryFilledError,
    GameError,
    GameOverError,
    Hold,
    IllegalActionError,
    InvalidActionError,
    NoRollsLeftError,
    NotRolledError,
    NotYourTurnError,
    Roll,
    Score,
    Undo,
    UndoNotAllowedError,
    hold_for_keep,
)
from yacht.rules import CATEGORIES, Category

EVERY_ACTION: list[Action] = [
    Roll(),
    Undo(),
    *(Hold(ps) for n in range(6) for ps in itertools.combinations(range(1, 6), n)),
    *(Score(c) for c in CATEGORIES),
]


def test_every_action_has_a_text_form_that_parses_back() -> None:
    assert len(EVERY_ACTION) == 2 + 32 + 12
    for action in EVERY_ACTION:
        assert Action.parse(str(action)) == action
    assert [str(a) for a in (Roll(), Undo(), Hold(()), Hold((5, 1, 3)))] == [
        "roll",
        "undo",
        "hold",
        "hold 1 3 5",
    ]
    assert str(Score(Category.FULL_HOUSE)) == "score full_house"


def test_reprs_paste_back_as_code() -> None:
    for action in EVERY_ACTION:
        assert eval(repr(action)) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("  ROLL ", Roll()),
        ("Undo", Undo()),
        ("hold 3 1", Hold((1, 3))),
        ("hold 1,3,5", Hold((1, 3, 5))),
        ("hold 1, 3", Hold((1, 3))),
        ("HOLD", Hold(())),
        ("score Full House", Score(Category.FULL_HOUSE)),
        ("score four-of-a-kind", Score(Category.FOUR_OF_A_KIND)),
        ("score  little straight ", Score(Category.LITTLE_STRAIGHT)),
        ("Score YACHT", Score(Category.YACHT)),
    ],
)
def test_forgiving_spellings(text: str, action: Action) -> None:
    assert Action.parse(text) == action


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "try roll"),
        ("   ", "try roll"),
        ("jump", "try roll, hold 1 3, score fives, undo"),
        ("roll 2", "try roll"),
        ("undo now", "try roll"),
        ("hold 0", "dice positions are 1 to 5"),
        ("hold 6", "dice positions are 1 to 5"),
        ("hold 9", "dice positions are 1 to 5"),
        ("hold -1", "dice positions are 1 to 5"),
        ("hold x", "dice positions are 1 to 5"),
        ("hold 1.5", "dice positions are 1 to 5"),
        ("hold ٣", "dice positions are 1 to 5"),
        ("hold 2 2", "position 2 is repeated"),
        ("hold 1,1", "position 1 is repeated"),
        ("score", "try roll"),
        ("score bonus", "unknown category: 'bonus'"),
        ("score large straight", "unknown category: 'large_straight'"),
    ],
)
def test_malformed_text_is_an_invalid_action_quoting_the_input(text: str, why: str) -> None:
    with pytest.raises(InvalidActionError) as e:
        Action.parse(text)
    assert repr(text) in str(e.value)
    assert why in str(e.value)


@pytest.mark.parametrize("thing", [None, 5, b"roll", ["roll"], Roll])
def test_non_text_is_an_invalid_action(thing: object) -> None:
    with pytest.raises(InvalidActionError, match="expected text"):
        Action.parse(thing)  # type: ignore[arg-type]


def test_action_values_validate_themselves() -> None:
    for bad in [(0,), (6,), (1, 1), (True,), ("1",), [1, 2]]:
        with pytest.raises(InvalidActionError, match="invalid hold"):
            Hold(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidActionError, match="is not a Category"):
        Score("ones")  # type: ignore[arg-type]
    assert Hold((5, 2)).positions == (2, 5)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_text_either_parses_to_an_action_that_prints_back_or_is_invalid(text: str) -> None:
    try:
        action = Action.parse(text)
    except InvalidActionError as e:
        assert repr(text) in str(e)
    else:
        assert Action.parse(str(action)) == action


def test_hold_for_keep_holds_the_leftmost_dice_with_those_faces() -> None:
    assert hold_for_keep([6, 2, 6, 3, 6], [6, 6]) == Hold((1, 3))
    assert hold_for_keep([1, 2, 3, 4, 5], []) == Hold(())
    assert hold_for_keep([4, 4, 4, 4, 4], (4, 4, 4, 4, 4)) == Hold((1, 2, 3, 4, 5))
    with pytest.raises(InvalidActionError, match=r"cannot keep \[2, 2\] from dice"):
        hold_for_keep([1, 2, 3, 4, 5], [2, 2])


@settings(max_examples=200, deadline=None)
@given(
    dice=st.lists(st.integers(1, 6), min_size=5, max_size=5),
    mask=st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_hold_for_keep_holds_exactly_the_kept_faces(dice: list[int], mask: list[bool]) -> None:
    keep = [d for d, m in zip(dice, mask, strict=True) if m]
    hold = hold_for_keep(dice, keep)
    assert sorted(dice[p - 1] for p in hold.positions) == sorted(keep)


def test_every_error_is_a_value_error_naming_its_case() -> None:
    illegal: list[type[GameError]] = [
        NoRollsLeftError,
        NotRolledError,
        CategoryFilledError,
        GameOverError,
        NotYourTurnError,
        UndoNotAllowedError,
    ]
    for cls in illegal:
        assert issubclass(cls, IllegalActionError)
    for cls in [*illegal, InvalidActionError, IllegalActionError]:
        assert issubclass(cls, GameError) and issubclass(cls, ValueError)
    assert not issubclass(InvalidActionError, IllegalActionError)
