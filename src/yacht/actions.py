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
from functools import cached_property

from yacht.errors import N_, Message, Term, YachtError
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


class GameError(YachtError, ValueError):
    """Base of every error an action can raise. The game is left exactly as it was.

    ``action`` in a template is what the player asked for (see :meth:`Action.words`),
    ``state`` the game in a few words (:meth:`yacht.game.Game.situation`)."""


class InvalidActionError(
    GameError,
    messages={
        "action_not_text": N_("invalid action: {text!r} (expected text)"),
        "action_empty": N_("invalid action: {text!r} (try {roll}, {hold} 1 3, {score} {fives})"),
        "action_positions": N_("invalid action: {text!r} (dice positions are 1 to 5)"),
        "action_position_repeated": N_(
            "invalid action: {text!r} (position {position} is repeated)"
        ),
        "action_category": N_("invalid action: {text!r} ({reason})"),
        "action_unknown": N_(
            "invalid action: {text!r} (try {roll}, {hold} 1 3, {score} {fives}, {undo})"
        ),
        "hold_positions": N_("invalid hold: {positions!r} (dice positions are 1 to 5)"),
        "hold_repeated": N_("invalid hold: {positions!r} (a position is repeated)"),
        "score_not_category": N_("invalid score: {category} is not a Category"),
        "keep_not_in_dice": N_("cannot keep {keep!r} from dice {dice!r}"),
        "action_in_state": N_("{reason} ({state})"),
        "not_an_action": N_("invalid action: {action!r} (expected an action or its text; {state})"),
        "dice_without_roll": N_("cannot {action} with dice {dice!r}: only a roll shows dice"),
    },
):
    """The action cannot be parsed or is malformed (wrong words, positions, types)."""


class InvalidRollError(
    InvalidActionError,
    messages={
        "roll_invalid_dice": N_("cannot roll {dice!r}: {reason} ({state})"),
        "roll_changes_held": N_("cannot roll {dice!r}: it changes held dice ({state})"),
    },
):
    """A given roll the dice cannot show: not five faces from 1 to 6, or a held die changed."""


class IllegalActionError(GameError):
    """A well-formed action that the rules do not allow now."""


class NoRollsLeftError(
    IllegalActionError,
    messages={"no_rolls_left": N_("cannot {action}: no rolls left, score a category ({state})")},
):
    """A fourth roll, or holding dice when no roll is left to use them."""


class NotRolledError(
    IllegalActionError, messages={"not_rolled": N_("cannot {action}: roll first ({state})")}
):
    """Scoring or holding before the turn's first roll."""


class CategoryFilledError(
    IllegalActionError,
    messages={
        "category_filled": N_(
            "cannot {action}: {category} is already filled with {points} ({state})"
        )
    },
):
    """Scoring in a category that is already filled (a zero included)."""


class GameOverError(
    IllegalActionError,
    messages={
        "game_over": N_("cannot {action}: {state}"),
        "bot_game_over": N_("{bot} bot cannot play a turn: the game is over"),
    },
):
    """Any action after the game has ended."""


class NotYourTurnError(
    IllegalActionError,
    messages={
        "not_your_turn": N_("cannot {action} for player {player!r}: it is {state}"),
        "undo_not_yours": N_(
            "cannot {action} for player {player!r}: only {name} can take back their "
            "{category} ({state})"
        ),
    },
):
    """An action on behalf of a player whose turn it is not."""


class UndoNotAllowedError(
    IllegalActionError,
    messages={
        "undo_off": N_("cannot {action}: the undo house rule is off ({state})"),
        "undo_nothing_scored": N_("cannot {action}: nothing has been scored yet ({state})"),
        "undo_already": N_("cannot {action}: the last scoring was already taken back ({state})"),
        "undo_after_roll": N_(
            "cannot {action}: {name} has rolled since the last scoring ({state})"
        ),
    },
):
    """Undo when the house rule is off, or there is no scoring to take back."""


def _commands() -> dict[str, object]:
    """The commands an error suggests, each translated as the plain game's command."""
    words = {verb: Term("command", verb) for verb in ("roll", "hold", "score", "undo")}
    return {**words, "fives": Category.FIVES}


@dataclass(frozen=True)
class Action:
    """Base of the action values. Use :meth:`parse` to read the text form."""

    @cached_property
    def words(self) -> Message:
        """The action quoted as a person types it, for an error: ``'score fives'`` in English;
        :func:`yacht.i18n.error_text` shows the command and the category in the face's language.
        Made once per action, when first asked.

        >>> str(Action.parse("score fives").words), str(Action.parse("hold 1 3").words)
        ("'score fives'", "'hold 1 3'")
        """
        verb, _, rest = str(self).partition(" ")
        if isinstance(self, Score):
            return Message(
                "'{verb} {category}'", verb=Term("command", verb), category=self.category
            )
        if rest:
            return Message("'{verb} {rest}'", verb=Term("command", verb), rest=rest)
        return Message("'{verb}'", verb=Term("command", verb))

    @staticmethod
    def parse(text: str) -> Roll | Hold | Score | Undo:
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
            raise InvalidActionError("action_not_text", text=text)
        words = text.strip().lower().split()
        if not words:
            raise InvalidActionError("action_empty", text=text, **_commands())
        verb, args = words[0], words[1:]
        if verb == "roll" and not args:
            return Roll()
        if verb == "undo" and not args:
            return Undo()
        if verb == "hold":
            args = " ".join(args).replace(",", " ").split()
            if not all(a.isascii() and a.isdigit() and 1 <= int(a) <= 5 for a in args):
                raise InvalidActionError("action_positions", text=text) from None
            positions = [int(a) for a in args]
            for p in positions:
                if positions.count(p) > 1:
                    raise InvalidActionError("action_position_repeated", text=text, position=p)
            return Hold(tuple(positions))
        if verb == "score" and args:
            try:
                return Score(Category.parse("_".join(args)))
            except RulesError as e:
                raise InvalidActionError("action_category", text=text, reason=e) from None
        raise InvalidActionError("action_unknown", text=text, **_commands())


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
            raise InvalidActionError("hold_positions", positions=ps)
        if len(set(ps)) != len(ps):
            raise InvalidActionError("hold_repeated", positions=ps)
        object.__setattr__(self, "positions", tuple(sorted(ps)))
        # written once: a saved game and every state message write each event's action
        object.__setattr__(self, "_text", " ".join(["hold", *map(str, self.positions)]))

    def __str__(self) -> str:
        text: str = self.__dict__["_text"]
        return text


@dataclass(frozen=True)
class Score(Action):
    """Fill an open category with the current dice."""

    category: Category

    def __post_init__(self) -> None:
        if not isinstance(self.category, Category):
            raise InvalidActionError("score_not_category", category=repr(self.category))
        object.__setattr__(self, "_text", f"score {self.category.value}")  # as Hold's

    def __str__(self) -> str:
        text: str = self.__dict__["_text"]
        return text


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
        raise InvalidActionError("keep_not_in_dice", keep=sorted(keep), dice=list(dice))
    return Hold(tuple(positions))
