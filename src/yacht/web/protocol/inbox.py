"""The inbox's answer: every correspondence game waiting on the player who asks."""

from __future__ import annotations

from pydantic import Field

from yacht.web.protocol.views import Model

__all__ = ["Inbox", "InboxEntry", "InboxScore"]


class InboxScore(Model):
    seat: int
    name: str | None
    total: int


class InboxEntry(Model):
    code: str = Field(description="the table's code (its page is /t/CODE)")
    seat: int = Field(description="your seat there")
    token: str | None = Field(
        default=None,
        description="the seat's token for a signed-in player (the account's): opens the seat "
        "on this device; None for a guest's seat (the browser has its own)",
    )
    preset: str
    rated: bool
    opponents: list[str] = Field(description="the other players' names")
    round: int
    rounds: int
    scores: list[InboxScore] = Field(description="every seat's total so far")
    deadline: float = Field(description="Unix time your move is due")
    seconds_left: float = Field(description="seconds until then (0: due, the bot moves soon)")
    move_days: int


class Inbox(Model):
    count: int = Field(description="games waiting on you")
    games: list[InboxEntry] = Field(
        description="soonest deadline first: the game whose move runs out first is on top"
    )
