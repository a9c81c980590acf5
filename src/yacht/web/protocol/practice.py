"""The bodies of the practice endpoints (``POST /api/practice/next``, ``POST
/api/practice/answer``): plain data for the OpenAPI document.

A served position is named by a :class:`PracticeRef`: where it comes from (a stored game, a
seat, a round and the rolls left, or the ``easy`` bot's game of a seed), never by its dice,
so an answer is always to a position the server finds again itself.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from yacht.web.protocol.messages import HintReason
from yacht.web.protocol.views import Model

__all__ = [
    "MAX_SKIP",
    "PracticeAnswer",
    "PracticeNext",
    "PracticeOption",
    "PracticePosition",
    "PracticeRating",
    "PracticeRef",
    "PracticeVerdict",
]

MAX_SKIP = 200
"""Position keys a guest's page may ask to leave out (the ones it solved)."""


class PracticeRef(Model):
    """Where a position is: ``game`` (a stored game's id, the seat, the round, the rolls
    left) or ``bot`` (the ``easy`` bot's solo game of ``seed``)."""

    source: Literal["game", "bot"] = Field(description="a stored game, or the easy bot's")
    game: int | None = Field(default=None, ge=1, le=2**31 - 1)
    seed: int | None = Field(default=None, ge=0, le=999)
    player: int = Field(ge=0, le=5)
    turn: int = Field(ge=1, le=12)
    rolls_left: int = Field(ge=0, le=2)


class PracticeNext(Model):
    skip: list[Annotated[str, StringConstraints(max_length=220)]] = Field(
        default_factory=list,
        max_length=MAX_SKIP,
        description="keys of positions to leave out (a guest's page sends the ones it solved; "
        "a signed-in player's solved positions are left out anyway)",
    )
    rules: str | None = Field(default=None, max_length=40, description="only this preset")


class PracticeRating(Model):
    shown: int = Field(description="round(60 * mu): a new player shows 1500")
    provisional: bool = Field(description="fewer than 10 answers: shown with a '?'")
    attempts: int
    solved: int


class PracticePosition(Model):
    """A position to answer: the question is always *what is best here?*"""

    ref: PracticeRef
    key: str = Field(description="the position's key: preset, filled categories, dice, rolls")
    rules: str
    sheet: dict[str, int] = Field(description="the player's filled categories and points")
    dice: list[int]
    rolls_left: int
    scores: dict[str, int] = Field(description="what the dice score in each open category")
    name: str = Field(description="who played it (a seat's name, or the bot's)")
    own: bool = Field(description="from the signed-in player's own game")
    rating: PracticeRating | None = Field(description="the signed-in player's practice rating")


class PracticeAnswer(Model):
    ref: PracticeRef
    keep: list[int] | None = Field(
        default=None, max_length=4, description="the faces kept to roll the rest (0-4 dice)"
    )
    category: str | None = Field(default=None, max_length=40, description="the category scored")


class PracticeOption(Model):
    action: Literal["keep", "score"]
    keep: list[int] | None = None
    category: str | None = None
    points: int | None = None
    expected: float = Field(description="expected points still to come after it")
    loss: float = Field(description="what it gives up against the best option")


class PracticeVerdict(Model):
    key: str
    solved: bool = Field(description="the answer is the best option")
    loss: float
    taken: PracticeOption
    best: PracticeOption
    options: list[PracticeOption] = Field(description="the five best, and the answer's own")
    why: list[HintReason] = Field(
        description="why, in exact numbers: the best option's reasons, then the answer's "
        "(how it differs from the best, this turn against later)"
    )
    rated: bool = Field(description="the answer changed the ratings (a first answer, signed in)")
    before: PracticeRating | None
    after: PracticeRating | None
