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

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StringConstraints,
    field_validator,
    model_validator,
)

from yacht.actions import Action, Hold, Roll, Score
from yacht.errors import YachtError
from yacht.i18n import LANGUAGES, error_text
from yacht.rules import Category
from yacht.web.protocol.errors import ErrorCode, TableError
from yacht.web.protocol.names import MAX_NAME, check_name
from yacht.web.protocol.views import (
    Catalog,
    Contribution,
    EventOut,
    FairState,
    Frame,
    GameState,
    GameSummary,
    Model,
    Preset,
    RematchState,
    Replay,
    RulesInfo,
    SeatState,
    TableState,
    TableSummary,
    Watchers,
)

__all__ = [
    "COACH_RANGE",
    "ActionBody",
    "ActionMessage",
    "Catalog",
    "ClientMessage",
    "CoachMessage",
    "CoachReply",
    "CoachThreshold",
    "Contribution",
    "CreateTable",
    "ElsewhereMessage",
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
    "NoticeMessage",
    "PingMessage",
    "PongMessage",
    "Preset",
    "RematchMessage",
    "RematchState",
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
    "Watchers",
    "WelcomeMessage",
    "error_message",
    "reader_language",
]

MAX_SEATS = 6
# One rule for every name (see yacht.web.protocol.names); the raw length cap stops huge inputs
# early.
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


_Model = Model


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
    """Announce the seats this connection holds (marks them present); answered by ``welcome``.
    A connection that holds no seat watches: the table counts it, with its ``name`` if given.
    A seat another connection held before moves here: that one is sent ``elsewhere``."""

    type: Literal["hello"] = "hello"
    seats: list[SeatToken] = Field(default_factory=list, max_length=MAX_SEATS)
    name: Name | None = Field(default=None, description="a watcher's name, shown to the table")
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
    back at any time (``take_back``). Another player's seat: only when the game waits on it
    (its turn) and has for 60 s with no sign of its holder, or its turn clock ran out; at the
    default level."""

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
    """Propose the next game at this table with the same seats once game ``game`` is over, or
    agree to the one proposed; it starts when every seat a person plays has agreed (bots
    agree). ``agree: false`` declines it (the proposal is withdrawn). Once per seat and game."""

    type: Literal["rematch"] = "rematch"
    seat: SeatIndex
    token: Token | None = None
    game: StrictInt = Field(ge=1)
    agree: StrictBool = True
    ref: Ref = None


class PingMessage(_Model):
    type: Literal["ping"] = "ping"
    ref: Ref = None


COACH_RANGE: dict[str, tuple[float, float]] = {"points": (0.1, 5.0), "win": (0.1, 10.0)}
"""The live coach's thresholds: expected points (0.1 to 5, as the terminal's ``--coach``), or
percentage points of the chance of winning (0.1 to 10, with opponents)."""


class CoachThreshold(_Model):
    """When the live coach warns: a move that loses more than ``value`` expected points
    (``points``: 0.1 to 5), or more than ``value`` percentage points of the chance of
    finishing first (``win``: 0.1 to 10, only at a table with opponents)."""

    unit: Literal["points", "win"]
    value: StrictFloat = Field(description="points, or percentage points of the chance of winning")

    @model_validator(mode="after")
    def _in_range(self) -> CoachThreshold:
        least, most = COACH_RANGE[self.unit]
        if not least <= self.value <= most:  # NaN fails too
            unit = "points" if self.unit == "points" else "percentage points"
            raise ValueError(f"the live coach's threshold is {least} to {most} {unit}")
        return self


class CoachMessage(_Model):
    """Play game ``game`` with the live coach: the seat is marked in the game (its file says
    so, everyone sees it, and a coached game is never rated; refused as ``hints_off`` where
    the table plays without hints, as a rated table does). With ``action`` (a roll, with the
    dice held now, or a score) and ``version``, also ask the coach about that move before
    making it: answered by a ``coach`` message. Nothing is played."""

    type: Literal["coach"] = "coach"
    seat: SeatIndex
    token: Token | None = None
    game: StrictInt = Field(ge=1, description="the game's number at the table")
    threshold: CoachThreshold
    version: StrictInt | None = Field(
        default=None, ge=0, description="with ``action``: the game version it is decided on"
    )
    action: Annotated[RollBody | ScoreBody, Field(discriminator="kind")] | None = Field(
        default=None, description="the move to weigh: a roll or a score (none: only mark)"
    )
    ref: Ref = None

    @model_validator(mode="after")
    def _versioned(self) -> CoachMessage:
        if self.action is not None and self.version is None:
            raise ValueError("a move to weigh needs the game version it is decided on")
        return self


ClientMessage = Annotated[
    HelloMessage
    | ActionMessage
    | HintMessage
    | CoachMessage
    | HandToBotMessage
    | TakeBackMessage
    | SeedMessage
    | RematchMessage
    | PingMessage,
    Field(discriminator="type"),
]


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
    move_days: StrictInt | None = Field(
        default=None,
        description="a correspondence table: days each player has for a move (1, 2, 3 or 7; "
        "none: real time); a move not made in time is made by the medium bot",
        json_schema_extra={"enum": [1, 2, 3, 7, None]},
    )
    missed_moves: StrictInt = Field(
        default=3,
        ge=1,
        le=10,
        description="a correspondence table: missed moves after which the bot keeps the seat "
        "to the end (a rated game is then a loss for its player)",
    )
    start: Literal["seat", "roll-off", "random"] = "seat"
    client_seed: Annotated[str, StringConstraints(max_length=64, pattern=r"^[ -~]*$")] = ""
    private: StrictBool = Field(
        default=False,
        description="a table for those you invite: never listed, nor its finished games, and "
        "its code has 13 characters (65 bits) instead of 6",
    )
    rated: StrictBool = Field(
        default=False,
        description="a rated table: 2 to 6 seats, all for signed-in people (open it signed "
        "in); it plays without hints, and each game's final ranks change the players' ratings "
        "for its preset",
    )

    @field_validator("move_days")
    @classmethod
    def _move_days(cls, days: int | None) -> int | None:
        if days is not None and days not in (1, 2, 3, 7):
            raise ValueError(f"a time per move is 1, 2, 3 or 7 days, not {days}")
        return days


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
    message: str = Field(description="what was refused and why, in English")
    ref: Ref = None
    detail: str | None = Field(
        default=None,
        description="the reason in the reader's language (the WebSocket's `?lang=`, HTTP's "
        "`Accept-Language`: fi, bg or nb), when the refusal came from the rules; in English "
        "`message` says it",
    )


def error_message(error: TableError, lang: str | None = None, ref: Ref = None) -> ErrorMessage:
    """The ``error`` message of a refusal, its rules' reason also in ``lang``.

    >>> from yacht.rules import RulesError
    >>> cause = RulesError("unknown_preset", name="x", known="traditional")
    >>> error_message(TableError("invalid", str(cause), cause), "fi").detail
    "tuntematon sääntöversio 'x' (tunnetut: traditional)"
    """
    detail = None
    if lang not in (None, "en") and isinstance(error.cause, YachtError):
        detail = error_text(error.cause, lang)
    return ErrorMessage(code=error.code, message=error.message, ref=ref, detail=detail)


def reader_language(value: str | None) -> str | None:
    """The first of the languages in ``value`` (``fi``, ``nb-NO,en;q=0.5``) that the game
    speaks; None when none is (the reader then gets English).

    >>> reader_language("nb-NO,nb;q=0.9,en;q=0.5"), reader_language("de"), reader_language(None)
    ('nb', None, None)
    """
    for part in (value or "").split(","):
        code = part.split(";")[0].strip().lower().split("-")[0]
        if code in LANGUAGES:
            return code
    return None


class HintReason(_Model):
    code: str = Field(
        description="which sentence (yacht.strategy.explain): keep_two, keep_one, keep_ends, "
        "all_two, all_one, all_ends, score_now, vs_keep, vs_all, vs_score, score_keeps_open"
    )
    args: dict[str, int | float | str | list[int] | None] = Field(
        description="the sentence's numbers (chances 0-1, points), category names and dice"
    )


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
    reasons: list[HintReason] = Field(
        default_factory=list,
        description="why, in exact numbers: what a keep plays for and, alone at the table, "
        "how the option differs from the best, this turn against later",
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
    solved: bool | None = Field(
        default=None,
        description="heads-up: true when the win probabilities come from the solved "
        "two-player table (`yacht duel solve`), exact at every position; null at a "
        "one-player table",
    )
    ref: Ref = None


class CoachReply(_Model):
    """The live coach on a move before it is made: what it loses against the best move."""

    type: Literal["coach"] = "coach"
    seat: int
    game: int
    version: int
    measure: Literal["points", "win"] = Field(
        description="the threshold's unit: expected points, or the chance of finishing first"
    )
    loss: float = Field(
        description="what the move gives up against the best: expected points, or (``win``) "
        "the chance of finishing first, 0 to 1"
    )
    points_loss: float = Field(description="the expected points it gives up, in every measure")
    warn: bool = Field(description="the loss is over the threshold: ask before making it")
    best: HintOption = Field(description="the best move by the measure, with its reasons")
    taken: HintOption | None = Field(
        description="the move asked about, with its reasons (none: a roll holding all five "
        "dice, which changes nothing but the rolls left)"
    )
    ref: Ref = None


class WelcomeMessage(_Model):
    type: Literal["welcome"] = "welcome"
    seats: list[int] = Field(description="the seats whose tokens were accepted")
    ref: Ref = None


class PongMessage(_Model):
    type: Literal["pong"] = "pong"
    ref: Ref = None


class NoticeMessage(_Model):
    """What this server process lacks now, and when it is back: ``database`` (moves are
    refused as ``unavailable`` until it answers) or ``redis`` (moves made through other server
    processes reach this socket late; the state is sent again when Redis is back). Sent to
    every socket at each change and, on connect, for whatever is down then."""

    type: Literal["notice"] = "notice"
    kind: Literal["database", "redis"]
    ok: bool = Field(description="false: lost; true: back")


class ElsewhereMessage(_Model):
    """The seats this connection held are now open in another tab or device (a newer
    ``hello`` for them): this page should stop playing them. ``browser`` and ``system``
    name that device, from its User-Agent (empty when unknown); a new ``hello`` takes them
    back here."""

    type: Literal["elsewhere"] = "elsewhere"
    seats: list[int]
    browser: str = Field(description="e.g. Firefox, Chrome, Safari")
    system: str = Field(description="e.g. Android, iOS, Windows")


ServerMessage = Annotated[
    StateMessage
    | ErrorMessage
    | HintReply
    | CoachReply
    | WelcomeMessage
    | PongMessage
    | NoticeMessage
    | ElsewhereMessage,
    Field(discriminator="type"),
]
