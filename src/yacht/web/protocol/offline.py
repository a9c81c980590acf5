"""The body and answer of ``POST /api/me/offline-games``: the games a signed-in player played
on their device with no server (``/play``), sent when the network came back
(docs/web/offline.md).

A game is what the server needs to replay it with the engine: its preset, its seats (a person
or a bot level), the secret seed the page dealt the dice from (fair dice rule 3, key
``offline``), every action in the engine's words with the dice each roll showed, and the
totals and the finishing time the page claims.
"""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, Field

from yacht.web.protocol.views import Model

__all__ = [
    "MAX_GAMES",
    "MAX_MOVES",
    "OfflineGame",
    "OfflineGames",
    "OfflineMove",
    "SeatKind",
    "Synced",
    "SyncedGame",
]

MAX_GAMES = 10
"""Games one request may carry (the page sends more in several requests)."""

MAX_MOVES = 6 * 12 * 6
"""Actions one game may have: 6 seats, 12 turns, at most roll, hold, roll, hold, roll, score."""

SeatKind = Literal["human", "random", "greedy", "easy", "medium", "hard", "optimal"]


class OfflineMove(Model):
    action: str = Field(
        min_length=1, max_length=40, description="the engine's words: roll, hold 1 3, score fives"
    )
    dice: list[int] | None = Field(
        default=None,
        min_length=5,
        max_length=5,
        description="after a roll, the five dice it showed (a die's place from 1 to 5)",
    )


class OfflineGame(Model):
    id: str = Field(
        pattern=r"^[0-9a-z][0-9a-z-]{0,63}$",
        description="the page's own id for the game: sending it again stores nothing new",
    )
    preset: str = Field(max_length=40)
    seed: str = Field(pattern=r"^[0-9a-f]{64}$", description="the dice's secret seed, hex")
    players: list[SeatKind] = Field(min_length=1, max_length=6)
    seat: int = Field(ge=0, le=5, description="the signed-in player's seat (a person's), from 0")
    moves: list[OfflineMove] = Field(max_length=MAX_MOVES)
    totals: list[int] = Field(min_length=1, max_length=6, description="the final totals")
    finished_at: AwareDatetime = Field(description="when the game ended (ISO 8601 with zone)")


class OfflineGames(Model):
    games: list[OfflineGame] = Field(min_length=1, max_length=MAX_GAMES)


class SyncedGame(Model):
    id: str = Field(description="the page's id for the game")
    status: Literal["stored", "already", "refused"] = Field(
        description="stored now; stored before (the same record); refused (not a real game)"
    )
    record: int | None = Field(description="the stored record's number (null: refused)")
    reason: str | None = Field(default=None, description="why it was refused")


class Synced(Model):
    games: list[SyncedGame] = Field(description="one per game sent, in the same order")
