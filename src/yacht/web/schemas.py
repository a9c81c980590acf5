"""Pydantic schemas of every REST body and WebSocket message (they make the OpenAPI document).

A WebSocket client sends :data:`ClientMessage` values and receives :data:`ServerMessage` values,
both tagged by ``type``. Every action names the game (``game``: its number at the table) and
the game ``version`` it was decided on; anything else is rejected with an ``error`` message
and changes nothing.

>>> from pydantic import TypeAdapter
>>> msg = TypeAdapter(ClientMessage).validate_json(
...     '{"type": "action", "seat": 0, "token": "t", "game": 1, "version": 3,'
...     ' "action": {"kind": "hold", "positions": [1, 3]}}')
>>> msg.action.to_action()
Hold(positions=(1, 3))
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    field_validator,
)

from yacht.actions import Action, Hold, Roll, Score
from yacht.rules import Category
from yacht.web.names import MAX_NAME, check_name

__all__ = [
    "ActionBody",
    "ActionMessage",
    "Catalog",
    "ClientMessage",
    "Contribution",
    "CreateTable",
    "ErrorCode",
    "ErrorMessage",
    "EventOut",
    "FairState",
    "Frame",
    "GameState",
    "GameSummary",
    "HandToBotMessage",
    "HelloMessage",
    "HintMessage",
    "HintOption",
    "HintReply",
    "JoinSeat",
    "Joined",
    "PingMessage",
    "PongMessage",
    "Preset",
    "RematchMessage",
    "Replay",
    "RulesInfo",
    "SeatSpec",
    "SeatState",
    "SeatToken",
    "SeedMessage",
    "ServerMessage",
    "StateMessage",
    "TableState",
    "TableSummary",
    "TakeBackMessage",
    "WelcomeMessage",
]

MAX_SEATS = 6
# One rule for every name (see yacht.web.names); the raw length cap stops huge inputs early.
Name = Annotated[str, StringConstraints(max_length=4 * MAX_NAME), AfterValidator(check_name)]
Token = Annotated[str, StringConstraints(max_length=200)]
Ref = Annotated[str | None, Field(default=None, max_length=64, description="echoed in replies")]
SeatIndex = Annotated[StrictInt, Field(ge=0, lt=MAX_SEATS, description="0-based seat position")]
BotLevel = Annotated[str, StringConstraints(min_length=1, max_length=40)]
PlayerSeed = Annotated[
    str,
    StringConstraints(min_length=1, max_length=64, pattern=r"^[!-~]+$"),
    Field(description="your own random seed for the dice key (printable ASCII, no spaces)"),
]

ErrorCode = Literal[
    "invalid",  # malformed message or body
    "not_found",  # no such table or game
    "spectator",  # no seat token: spectators watch, they cannot act
    "bad_token",  # the token is not this seat's
    "stale_version",  # the action was decided on another game version (or repeated)
    "not_your_turn",
    "illegal",  # the rules do not allow it now
    "not_started",  # waiting for players
    "game_over",
    "seat_taken",
    "hints_off",
    "busy",  # the table kept changing under us; try again
    "too_large",  # a message or request body over the size limit (the socket is closed)
    "rate_limited",  # too many messages on one connection (the socket is closed)
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- actions ---------------------------------------------------------------------------------


class RollBody(_Model):
    kind: Literal["roll"] = "roll"

    def to_action(self) -> Action:
        return Roll()


class HoldBody(_Model):
    """Set exactly which dice are held, by 1-based position (``[]`` releases all)."""

    kind: Literal["hold"] = "hold"
    positions: list[Annotated[StrictInt, Field(ge=1, le=5)]] = Field(
        default_factory=list, max_length=5
    )

    @field_validator("positions")
    @classmethod
    def _distinct(cls, value: list[int]) -> list[int]:
        if len(set(value)) != len(value):
            raise ValueError("a die position is repeated")
        return value

    def to_action(self) -> Action:
        return Hold(tuple(self.positions))


class ScoreBody(_Model):
    kind: Literal["score"] = "score"
    category: Category

    def to_action(self) -> Action:
        return Score(self.category)


ActionBody = Annotated[RollBody | HoldBody | ScoreBody, Field(discriminator="kind")]


# --- client messages (WebSocket; the action one is also POSTed to /api/tables/{code}/actions) --


class SeatToken(_Model):
    seat: SeatIndex
    token: Token


class HelloMessage(_Model):
    """Announce the seats this connection holds (marks them present); answered by ``welcome``."""

    type: Literal["hello"] = "hello"
    seats: list[SeatToken] = Field(default_factory=list, max_length=MAX_SEATS)
    ref: Ref = None


class ActionMessage(_Model):
    """Roll, hold or score for ``seat``, decided on game number ``game`` at ``version``."""

    type: Literal["action"] = "action"
    seat: SeatIndex
    token: Token | None = None
    game: StrictInt = Field(ge=1, description="the game's number at the table (rematches count up)")
    version: StrictInt = Field(ge=0, description="the game version the action was decided on")
    action: ActionBody
    ref: Ref = None


class HintMessage(_Model):
    """Ask for the best options of the current turn (only where the table allows hints)."""

    type: Literal["hint"] = "hint"
    seat: SeatIndex
    token: Token | None = None
    ref: Ref = None


class HandToBotMessage(_Model):
    """Hand ``seat`` to a bot. Your own seat: at the level you pick, and your token takes it
    back at any time (``take_back``). Another player's seat: only once its holder has been
    away for the grace period (60 s) or its turn clock ran out, and at the default level."""

    type: Literal["hand_to_bot"] = "hand_to_bot"
    seat: SeatIndex
    bot: BotLevel = "medium"
    by: SeatIndex = Field(description="the seat of the player asking")
    token: Token | None = None
    ref: Ref = None


class TakeBackMessage(_Model):
    """Take your seat back from the bot playing it (the token you got when you joined)."""

    type: Literal["take_back"] = "take_back"
    seat: SeatIndex
    token: Token | None = None
    ref: Ref = None


class SeedMessage(_Model):
    """Give your seed for the dice of game ``game``: the waiting game, or the next one once
    its commitment (``fair.next_commitment``) is published. Once per seat and game."""

    type: Literal["seed"] = "seed"
    seat: SeatIndex
    token: Token | None = None
    game: StrictInt = Field(ge=1, description="the game's number at the table")
    seed: PlayerSeed
    ref: Ref = None


class RematchMessage(_Model):
    """Start the next game at this table with the same seats, once game ``game`` is over."""

    type: Literal["rematch"] = "rematch"
    seat: SeatIndex
    token: Token | None = None
    game: StrictInt = Field(ge=1)
    ref: Ref = None


class PingMessage(_Model):
    type: Literal["ping"] = "ping"
    ref: Ref = None


ClientMessage = Annotated[
    HelloMessage
    | ActionMessage
    | HintMessage
    | HandToBotMessage
    | TakeBackMessage
    | SeedMessage
    | RematchMessage
    | PingMessage,
    Field(discriminator="type"),
]


# --- state -----------------------------------------------------------------------------------


class UpperBonusInfo(_Model):
    threshold: int
    points: int


class RulesInfo(_Model):
    name: str
    description: str
    categories: list[Category]
    upper_bonus: UpperBonusInfo | None


class SeatState(_Model):
    seat: int
    name: str | None = Field(description="the player's name (None while the seat is free)")
    kind: Literal["human", "bot"]
    bot: str | None = Field(description="the bot level of a bot seat")
    taken: bool = Field(description="a person holds the seat, or it is a bot")
    connected: bool = Field(description="the seat's holder has a live connection")


class EventOut(_Model):
    version: int = Field(description="the game version this event made (1 for the first)")
    seat: int
    action: str = Field(description="text form: roll, hold 1 3, score fives")
    dice: list[int] | None = None
    points: int | None = None


class Contribution(_Model):
    seat: int
    seed: str
    at: str = Field(description="when the server received it (ISO 8601)")


class FairState(_Model):
    """Fair dice rule 2 (docs/web/fairness.md): the players' seeds and the key they make."""

    rule: int
    contributions: list[Contribution] = Field(description="the seeds given for this game")
    key: str | None = Field(description="the dice key, fixed when the game started")
    next_commitment: str | None = Field(
        description="SHA-256 of the next game's secret seed: give your seed for it now"
    )
    next_contributions: list[Contribution]


class GameState(_Model):
    id: int
    number: int
    status: Literal["waiting", "playing", "finished"]
    version: int
    round: int
    rounds: int
    current: int | None = Field(description="the seat whose turn it is")
    phase: Literal["waiting", "roll", "decide", "finished"]
    dice: list[int] | None
    held: list[int] = Field(description="1-based positions of the held dice")
    rolls_used: int
    rolls_left: int
    sheets: list[dict[Category, int]]
    upper_totals: list[int]
    bonuses: list[int]
    totals: list[int]
    potentials: dict[Category, int] = Field(
        description="what the dice would score in each open category of the current player"
    )
    winners: list[int]
    deadline: float | None = Field(description="Unix time the turn times out, if timed")
    start_rolls: list[list[int]]
    first: int | None
    recent: list[EventOut] = Field(description="the last events, oldest first")
    commitment: str = Field(description="SHA-256 of the secret server seed, hex")
    server_seed: str | None = Field(description="revealed once the game is over")
    review: dict[str, Any] | None = None
    fair: FairState | None = Field(default=None, description="None: a game of rule 1")


class TableState(_Model):
    code: str
    invite_path: str
    rules: RulesInfo
    hints: bool
    turn_seconds: int | None
    start_rule: str
    client_seed: str
    revision: int
    seats: list[SeatState]
    game: GameState


class TableSummary(_Model):
    code: str
    preset: str
    seats: list[SeatState]
    free_seats: int
    created_at: str


class GameSummary(_Model):
    id: int
    table: str
    number: int
    preset: str
    players: list[str]
    totals: list[int]
    winners: list[int]
    finished_at: str | None


class Frame(_Model):
    """The game right after one event (``version``), for replays of finished games."""

    version: int
    event: EventOut | None
    round: int
    current: int | None
    dice: list[int] | None
    held: list[int]
    sheets: list[dict[Category, int]]
    totals: list[int]


class Replay(_Model):
    id: int
    table: str
    number: int
    rules: RulesInfo
    players: list[str]
    winners: list[int]
    frames: list[Frame]


class Catalog(_Model):
    """The web page's texts in one language: gettext catalog ``yacht_web`` as JSON."""

    lang: str
    languages: dict[str, str]
    messages: dict[str, str] = Field(description="English text -> translated text")
    categories: dict[Category, str]


class Preset(_Model):
    name: str
    description: str


# --- REST bodies -----------------------------------------------------------------------------


class SeatSpec(_Model):
    kind: Literal["human", "bot"] = "human"
    bot: BotLevel | None = Field(default=None, description="the level of a bot seat")
    name: Name | None = Field(default=None, description="a bot's name (people name themselves)")


class CreateTable(_Model):
    preset: str = "traditional"
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    hints: StrictBool = True
    turn_seconds: StrictInt | None = Field(default=None, ge=10, le=3600)
    start: Literal["seat", "roll-off", "random"] = "seat"
    client_seed: Annotated[str, StringConstraints(max_length=64, pattern=r"^[ -~]*$")] = ""


class JoinSeat(_Model):
    seat: SeatIndex
    name: Name
    seed: PlayerSeed | None = Field(
        default=None,
        description="your seed for the dice key, made after you saw the table's commitment "
        "(without one you add no randomness of your own)",
    )


class Joined(_Model):
    seat: int
    token: str = Field(description="the secret that lets only you act for this seat")
    table: TableState


# --- server messages -------------------------------------------------------------------------


class StateMessage(_Model):
    """The whole table as everyone may see it; sent on connect and after every change."""

    type: Literal["state"] = "state"
    table: TableState


class ErrorMessage(_Model):
    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    ref: Ref = None


class HintOption(_Model):
    action: Literal["keep", "score"]
    keep: list[int] | None = Field(description="the faces to keep before rolling again")
    hold: list[int] | None = Field(description="the 1-based positions that keep them")
    category: Category | None
    points: int | None
    expected: float = Field(description="expected points still to come after this option")
    expected_total: float = Field(description="expected final total: the sheet plus expected")
    probability: float | None = None
    win_probability: float | None = Field(
        default=None,
        description="with opponents: the chance of finishing first after this option "
        "(a shared first place counts 1/k); options then come best first by it",
    )


class HintReply(_Model):
    type: Literal["hint"] = "hint"
    seat: int
    version: int
    options: list[HintOption]
    exact: bool | None = Field(
        default=None,
        description="with opponents: true when the win probabilities come from the exact "
        "two-player endgame table, false for the estimate; null at a one-player table",
    )
    ref: Ref = None


class WelcomeMessage(_Model):
    type: Literal["welcome"] = "welcome"
    seats: list[int] = Field(description="the seats whose tokens were accepted")
    ref: Ref = None


class PongMessage(_Model):
    type: Literal["pong"] = "pong"
    ref: Ref = None


ServerMessage = Annotated[
    StateMessage | ErrorMessage | HintReply | WelcomeMessage | PongMessage,
    Field(discriminator="type"),
]
