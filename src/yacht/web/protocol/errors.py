"""The one error every refused request raises, and its HTTP status (:mod:`yacht.web.service.tables`
re-exports both)."""

from __future__ import annotations

from yacht.actions import GameError, GameOverError, InvalidActionError, NotYourTurnError
from yacht.web.protocol.messages import ErrorCode

__all__ = ["ERROR_STATUS", "TableError", "engine_error"]

ERROR_STATUS: dict[str, int] = {
    "invalid": 422,
    "not_found": 404,
    "spectator": 403,
    "bad_token": 403,
    "hints_off": 403,
    "stale_version": 409,
    "not_your_turn": 409,
    "illegal": 409,
    "not_started": 409,
    "game_over": 409,
    "seat_taken": 409,
    "busy": 503,
    "too_large": 413,
    "rate_limited": 429,
}


class TableError(Exception):
    """A request that cannot be done; nothing was changed. ``code`` says which case."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message

    @property
    def status(self) -> int:
        return ERROR_STATUS[self.code]


def engine_error(e: GameError) -> TableError:
    """The refusal of an action the rules engine rejected."""
    if isinstance(e, InvalidActionError):
        return TableError("invalid", str(e))
    if isinstance(e, NotYourTurnError):
        return TableError("not_your_turn", str(e))
    if isinstance(e, GameOverError):
        return TableError("game_over", str(e))
    return TableError("illegal", str(e))
