"""Actions a player can take, their text forms, and the errors an action can raise.

Every action has a text form that parses back:

>>> Action.parse("hold 1 3 5")
Hold(positions=(1, 3, 5))
>>> str(Action.parse("  SCORE Full-House "))
'score full_house'
>>> Action.parse("hold 6")
Traceback (most recent call last):
...
yacht.actions.InvalidActionError: invalid action: 'hold 6' (dice positions are 1 to 5)

Die positions are 1-based everywhere a person sees them: text, keys and JSON.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from yacht.rules import Category, RulesError

__all__ = [
    "Action",
    "CategoryFilledError",
    "GameError",
    "GameOverError",
    "Hold",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidRollError",
    "NoRollsLeftError",
    "NotRolledError",
    "NotYourTurnError",
    "Roll",
    "Score",
    "Undo",
    "UndoNotAllowedError",
    "hold_for_keep",
]


class GameError(ValueError):
    """Base of every error an action can raise. The game is left exactly as it was."""


class InvalidActionError(GameError):
    """The action cannot be parsed or is malformed (wrong words, positions, types)."""


class InvalidRollError(InvalidActionError):
    """A given roll the dice cannot show: not five faces from 1 to 6, or a held die changed."""


class IllegalActionError(GameError):
    """A well-formed action that the rules do not allow now."""


class NoRollsLeftError(IllegalActionError):
    """A fourth roll, or holding dice when no roll is left to use them."""


class NotRolledError(IllegalActionError):
    """Scoring or holding before the turn's first roll."""


class CategoryFilledError(IllegalActionError):
    """Scoring in a category that is already filled (a zero included)."""


class GameOverError(IllegalActionError):
    """Any action after the game has ended."""


class NotYourTurnError(IllegalActionError):
    """An action on behalf of a player whose turn it is not."""


class UndoNotAllowedError(IllegalActionError):
    """Undo when the house rule is off, or there is no scoring to take back."""


@dataclass(frozen=True)
class Action:
    """Base of the action values. Use :meth:`parse` to read the text form."""

    @staticmethod
    def parse(text: str) -> Action:
        """Read a text form: ``roll``, ``hold 1 3``, ``hold``, ``score fives``, ``undo``.

        Case and spacing are forgiven, hold positions may be separated by commas, and a
        category may be written with spaces:

        >>> Action.parse("Hold 1,3"), Action.parse("score Four of a Kind")
        (Hold(positions=(1, 3)), Score(category=Category.FOUR_OF_A_KIND))
        >>> Action.parse("hold 2 2")
        Traceback (most recent call last):
        ...
        yacht.actions.InvalidActionError: invalid action: 'hold 2 2' (position 2 is repeated)
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"invalid action: {text!r} (expected text)")
        words = text.strip().lower().split()
        if not words:
            raise InvalidActionError(f"invalid action: {text!r} (try roll, hold 1 3, score fives)")
        verb, args = words[0], words[1:]
        if verb == "roll" and not args:
            return Roll()
        if verb == "undo" and not args:
            return Undo()
        if verb == "hold":
            args = " ".join(args).replace(",", " ").split()
            if not all(a.isascii() and a.isdigit() and 1 <= int(a) <= 5 for a in args):
                raise InvalidActionError(
                    f"invalid action: {text!r} (dice positions are 1 to 5)"
                ) from None
            positions = [int(a) for a in args]
            for p in positions:
                if positions.count(p) > 1:
                    raise InvalidActionError(f"invalid action: {text!r} (position {p} is repeated)")
            return Hold(tuple(positions))
        if verb == "score" and args:
            try:
                return Score(Category.parse("_".join(args)))
            except RulesError as e:
                raise InvalidActionError(f"invalid action: {text!r} ({e})") from None
        raise InvalidActionError(
            f"invalid action: {text!r} (try roll, hold 1 3, score fives, undo)"
        )


@dataclass(frozen=True)
class Roll(Action):
    """Roll every die that is not held (all five on a turn's first roll)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True)
class Hold(Action):
    """Set which dice are held, by 1-based position; ``Hold(())`` releases all."""

    positions: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        ps = self.positions
        if not isinstance(ps, tuple) or not all(
            isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 5 for p in ps
        ):
            raise InvalidActionError(f"invalid hold: {ps!r} (dice positions are 1 to 5)")
        if len(set(ps)) != len(ps):
            raise InvalidActionError(f"invalid hold: {ps!r} (a position is repeated)")
        object.__setattr__(self, "positions", tuple(sorted(ps)))

    def __str__(self) -> str:
        return " ".join(["hold", *map(str, self.positions)])


@dataclass(frozen=True)
class Score(Action):
    """Fill an open category with the current dice."""

    category: Category

    def __post_init__(self) -> None:
        if not isinstance(self.category, Category):
            raise InvalidActionError(f"invalid score: {self.category!r} is not a Category")

    def __str__(self) -> str:
        return f"score {self.category.value}"


@dataclass(frozen=True)
class Undo(Action):
    """House rule: take back the last scoring while the next player has not rolled."""

    def __str__(self) -> str:
        return "undo"


def hold_for_keep(dice: Sequence[int], keep: Iterable[int]) -> Hold:
    """The hold that keeps the faces ``keep`` (a multiset) of ``dice``, leftmost dice first.

    >>> hold_for_keep([6, 2, 6, 3, 6], [6, 6])
    Hold(positions=(1, 3))
    >>> hold_for_keep([1, 2, 3, 4, 5], [6])
    Traceback (most recent call last):
    ...
    yacht.actions.InvalidActionError: cannot keep [6] from dice [1, 2, 3, 4, 5]
    """
    want = Counter(keep)
    positions = []
    for i, face in enumerate(dice, start=1):
        if want[face] > 0:
            want[face] -= 1
            positions.append(i)
    if +want:
        raise InvalidActionError(f"cannot keep {sorted(keep)!r} from dice {list(dice)!r}")
    return Hold(tuple(positions))
