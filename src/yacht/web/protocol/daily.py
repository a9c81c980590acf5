"""The daily game's request bodies (``/api/daily``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

__all__ = ["DailyMove", "DailyStart"]


class DailyStart(BaseModel):
    """Start (or resume) today's game of a preset."""

    model_config = ConfigDict(extra="forbid")

    preset: StrictStr = Field("traditional", min_length=1, max_length=40)


class DailyMove(BaseModel):
    """A move in one's daily game: the action's words and the version it was decided on."""

    model_config = ConfigDict(extra="forbid")

    action: StrictStr = Field(
        min_length=1, max_length=60, examples=["roll", "hold 1 3", "score fives"]
    )
    version: StrictInt = Field(ge=0, le=10_000)
