"""What everyone may see of a table, its games and finished games: the pydantic models of the
state (sent on every change) and of the lobby, replay and text endpoints.

:mod:`yacht.web.service.state` builds their JSON; :mod:`yacht.web.protocol.messages` re-exports
them with the
messages, so the OpenAPI document and the imports see one place.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from yacht.rules import Category

__all__ = [
    "Catalog",
    "CoachMark",
    "Contribution",
    "EventOut",
    "FairState",
    "Frame",
    "GameState",
    "GameStatus",
    "GameSummary",
    "Preset",
    "RematchState",
    "Replay",
    "RulesInfo",
    "SeatKind",
    "SeatState",
    "TableState",
    "TableSummary",
    "UpperBonusInfo",
    "Watchers",
]


SeatKind = Literal["human", "bot"]
"""Who plays a seat: a person (who holds its token) or a bot."""
GameStatus = Literal["waiting", "playing", "finished"]
"""Where a game is: waiting for players, in play, or over."""


class Model(BaseModel):
    """Every body and message: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class UpperBonusInfo(Model):
    threshold: int
    points: int


class RulesInfo(Model):
    name: str
    description: str
    categories: list[Category]
    upper_bonus: UpperBonusInfo | None


class SeatState(Model):
    seat: int
    name: str | None = Field(description="the player's name (None while the seat is free)")
    kind: SeatKind
    bot: str | None = Field(description="the bot level of a bot seat")
    taken: bool = Field(description="a person holds the seat, or it is a bot")
    connected: bool = Field(description="the seat's holder has a live connection")
    deadline: float | None = Field(
        default=None,
        description="a correspondence game: Unix time this seat's move is due (while the game "
        "waits on it)",
    )
    missed: int = Field(default=0, description="moves the bot made for this seat in time's stead")
    stand_in: bool = Field(
        default=False, description="the bot makes this one move for the seat's holder"
    )


class EventOut(Model):
    version: int = Field(description="the game version this event made (1 for the first)")
    seat: int
    action: str = Field(description="text form: roll, hold 1 3, score fives")
    dice: list[int] | None = None
    points: int | None = None


class Contribution(Model):
    seat: int
    seed: str
    at: str = Field(description="when the server received it (ISO 8601)")


class FairState(Model):
    """Fair dice (docs/web/fairness.md): the rule the game is dealt by, the players' seeds and
    the key they make."""

    rule: int = Field(description="3: each die by its place; 2: one counter (older games)")
    contributions: list[Contribution] = Field(description="the seeds given for this game")
    key: str | None = Field(description="the dice key, fixed when the game started")
    next_commitment: str | None = Field(
        description="SHA-256 of the next game's secret seed: give your seed for it now"
    )
    next_contributions: list[Contribution]


class RematchState(Model):
    """A rematch proposed after a finished game: it starts when every person agreed."""

    by: int | None = Field(description="the seat that proposed it")
    agreed: list[int] = Field(description="the seats that agreed (bots always do)")
    waiting: list[int] = Field(description="the seats still asked")
    declined: int | None = Field(description="the seat that declined the last proposal")


class Watchers(Model):
    """Who watches the table without a seat (on this server process)."""

    count: int
    names: list[str] = Field(description="the names watchers gave, a few at most")


class CoachMark(Model):
    """A seat that plays this game with the live coach, and the threshold it last set."""

    seat: int
    unit: Literal["points", "win"]
    value: float = Field(description="points, or percentage points of the chance of winning")


class GameState(Model):
    id: int
    number: int
    status: GameStatus
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
    series: list[int] = Field(
        default_factory=list,
        description="wins per seat over the table's games so far, this one included once "
        "it is over (a shared first place is a win for each)",
    )
    rematch: RematchState | None = Field(
        default=None, description="the rematch proposed after this game, once it is over"
    )
    coach: list[CoachMark] = Field(
        default_factory=list,
        description="the seats playing this game with the live coach (never rated)",
    )


class TableState(Model):
    code: str
    invite_path: str
    rules: RulesInfo
    hints: bool
    rated: bool = Field(default=False, description="its games change the players' ratings")
    turn_seconds: int | None
    move_days: int | None = Field(
        default=None, description="a correspondence table's days per move (None: real time)"
    )
    missed_limit: int | None = Field(
        default=None, description="missed moves after which the bot keeps a seat"
    )
    start_rule: str
    client_seed: str
    revision: int
    seats: list[SeatState]
    game: GameState
    watchers: Watchers = Field(default_factory=lambda: Watchers(count=0, names=[]))


class TableSummary(Model):
    code: str
    preset: str
    seats: list[SeatState]
    free_seats: int
    created_at: str


class GameSummary(Model):
    id: int
    table: str
    number: int
    preset: str
    players: list[str]
    totals: list[int]
    winners: list[int]
    finished_at: str | None


class Frame(Model):
    """The game right after one event (``version``), for replays of finished games."""

    version: int
    event: EventOut | None
    round: int
    current: int | None
    dice: list[int] | None
    held: list[int]
    sheets: list[dict[Category, int]]
    totals: list[int]


class Replay(Model):
    id: int
    table: str
    number: int
    rules: RulesInfo
    players: list[str]
    winners: list[int]
    frames: list[Frame]
    reviewed: bool = Field(
        description="whether /api/games/{id}/review has the review yet (it is made after the game)"
    )


class Catalog(Model):
    """The web page's texts in one language: gettext catalog ``yacht_web`` as JSON."""

    lang: str
    languages: dict[str, str]
    messages: dict[str, str] = Field(description="English text -> translated text")
    plurals: dict[str, list[str]] = Field(
        description="English singular -> the forms of a text with a count, in the order of the "
        "catalog's Plural-Forms (fi, bg, nb: one, other)"
    )
    categories: dict[Category, str]


class Preset(Model):
    name: str
    description: str
