"""yacht: the traditional Yacht dice game, exactly right, with exact strategy.

>>> from yacht import score, Category, Game, rules_by_name
>>> score([5, 5, 5, 2, 1], "fives")
15
>>> score([2, 3, 4, 5, 6], Category.BIG_STRAIGHT)
30
"""

from yacht.actions import (
    Action,
    CategoryFilledError,
    GameError,
    GameOverError,
    Hold,
    IllegalActionError,
    InvalidActionError,
    InvalidRollError,
    NoRollsLeftError,
    NotRolledError,
    NotYourTurnError,
    Roll,
    Score,
    Undo,
    UndoNotAllowedError,
    hold_for_keep,
)
from yacht.dice import FairDice, RandomDice, ScriptedDice
from yacht.game import Event, Game, Phase, TurnView
from yacht.rules import (
    CATEGORIES,
    Category,
    InvalidDiceError,
    Rules,
    RulesError,
    preset_names,
    rules_by_name,
    score,
)

__version__ = "0.1.0"

__all__ = [
    "CATEGORIES",
    "Action",
    "Category",
    "CategoryFilledError",
    "Event",
    "FairDice",
    "Game",
    "GameError",
    "GameOverError",
    "Hold",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDiceError",
    "InvalidRollError",
    "NoRollsLeftError",
    "NotRolledError",
    "NotYourTurnError",
    "Phase",
    "RandomDice",
    "Roll",
    "Rules",
    "RulesError",
    "Score",
    "ScriptedDice",
    "TurnView",
    "Undo",
    "UndoNotAllowedError",
    "hold_for_keep",
    "preset_names",
    "rules_by_name",
    "score",
]
