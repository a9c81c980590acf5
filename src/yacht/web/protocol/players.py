"""The answers of the profile and leaderboard endpoints (``/api/players/{name}``,
``/api/players/{name}/games``, ``/api/leaderboard``): plain data for the OpenAPI document.

A profile's figures count every finished game of the player, private tables' too (they are
the player's own numbers, and tell no table's code); its list of games shows the games of
public tables only. Ratings are shown as :attr:`RatingView.shown` (60 times OpenSkill's mu: a
new player shows 1500), provisional until 10 rated games.
"""

from __future__ import annotations

from pydantic import Field

from yacht.web.protocol.views import Model

__all__ = [
    "BoardLine",
    "BotMarkView",
    "Leaderboard",
    "OfflineGameView",
    "PlayerGameView",
    "PlayerGames",
    "PresetProfile",
    "Profile",
    "RatingPointView",
    "RatingView",
    "SkillGameView",
    "SkillView",
]


class RatingView(Model):
    shown: int = Field(description="the rating as shown: round(60 * mu); a new player has 1500")
    provisional: bool = Field(description="fewer than 10 rated games: shown with a '?'")
    games: int = Field(description="rated games of this preset")
    mu: float
    sigma: float


class RatingPointView(Model):
    """The rating after one rated game."""

    game: int = Field(description="the game's id (/games/{id})")
    rank: int = Field(description="the player's final rank in it, 1 for first")
    shown: int
    games: int
    at: str = Field(description="when (ISO 8601, UTC)")


class SkillGameView(Model):
    """One reviewed game's skill figure."""

    game: int
    played_like: float = Field(description="the preset's optimum minus the points lost")
    at: str


class BotMarkView(Model):
    """A bot's own figure on the scale (measured by simulation)."""

    bot: str
    played_like: float


class SkillView(Model):
    """'Played like an N-point player': the mean of N over the last ``games`` (at most
    ``window``) reviewed games."""

    played_like: float = Field(description="mean of N over the last games (see yacht.skill)")
    standard_error: float | None = Field(description="of that mean; null with one game")
    games: int
    window: int
    optimum: float = Field(description="the preset's optimal mean score: N's best")
    marks: list[BotMarkView] = Field(
        description="the bots' N, weakest first (measured: docs/strategy/skill.md); empty "
        "for a preset not measured"
    )
    series: list[SkillGameView] = Field(description="the newest reviewed games, oldest first")


class PresetProfile(Model):
    """A player's figures for one preset, over all their finished games of it."""

    preset: str
    games: int
    wins: int = Field(description="first places, shared ones too")
    average: float = Field(description="mean final total")
    best: int = Field(description="best final total")
    yachts: int
    reviewed: int = Field(description="games whose review is made")
    accuracy: float | None = Field(
        description="percent of decisions that were the best play (reviewed games)"
    )
    loss_per_decision: float | None = Field(description="expected points lost per decision")
    rating: RatingView | None = Field(description="null: no rated game of this preset")
    history: list[RatingPointView] = Field(description="the newest 200 ratings, oldest first")
    skill: SkillView | None = Field(description="null: no reviewed game yet")


class OfflineGameView(Model):
    """A game the player played offline (``/play``) and synced: listed, never counted."""

    record: int = Field(description="the stored record's number")
    preset: str
    players: int
    seat: int = Field(description="the player's seat, from 0")
    total: int
    rank: int
    yachts: int
    finished_at: str


class Profile(Model):
    name: str
    created: str = Field(description="when the account was made (ISO 8601, UTC)")
    presets: list[PresetProfile] = Field(
        description="the presets played, most games first (offline games not counted)"
    )
    offline_games: int = Field(
        default=0, description="offline games synced: never rated, never in the figures"
    )
    offline: list[OfflineGameView] = Field(
        default_factory=list, description="the newest 20 offline games, newest first"
    )


class PlayerGameView(Model):
    """One finished game of the player at a public table."""

    id: int = Field(description="the game's id: /games/{id} replays it (and shows its review)")
    table: str
    number: int = Field(description="the game's number at its table")
    seat: int
    preset: str
    rated: bool
    players: int
    total: int
    rank: int
    yachts: int
    loss: float | None = Field(description="expected points lost (null until reviewed)")
    finished_at: str


class PlayerGames(Model):
    games: list[PlayerGameView] = Field(description="newest first")
    next: str | None = Field(
        description="the cursor of the next (older) page, for ?before=; null on the last page"
    )


class BoardLine(Model):
    rank: int
    name: str
    rating: RatingView


class Leaderboard(Model):
    preset: str
    active_days: int = Field(description="only players rated in the last this many days")
    players: list[BoardLine] = Field(description="at most 100, best first (by mu - 3 sigma)")
