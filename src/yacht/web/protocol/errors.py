"""The web's one error design: an :data:`ErrorCode` and a message, raised as :class:`TableError`
anywhere below the endpoints, answered as an ``error`` message with the code's HTTP status."""

from __future__ import annotations

from typing import Literal

from yacht.actions import GameError, GameOverError, InvalidActionError, NotYourTurnError

__all__ = ["ERROR_STATUS", "ErrorCode", "TableError", "engine_error"]

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
    "not_allowed",  # an HTTP method the route does not take
    "unavailable",  # the database cannot be reached now; nothing changed, try again soon
    "unauthorized",  # not signed in, or a wrong name, password or recovery code
    "csrf",  # a signed-in change without the session's X-CSRF-Token header
    "name_taken",  # an account has that name, or one that looks the same, or it is reserved
]
"""What went wrong, one word per case; every refusal names one (its HTTP status:
:data:`ERROR_STATUS`)."""

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
    "not_allowed": 405,
    "unavailable": 503,
    "unauthorized": 401,
    "csrf": 403,
    "name_taken": 409,
}


class TableError(Exception):
    """A request that cannot be done; nothing was changed. ``code`` says which case."""

    def __init__(self, code: ErrorCode, message: str, cause: BaseException | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.cause = cause  # the library's error behind it, which a face can say in any language

    @property
    def status(self) -> int:
        return ERROR_STATUS[self.code]


def engine_error(e: GameError) -> TableError:
    """The refusal of an action the rules engine rejected."""
    if isinstance(e, InvalidActionError):
        return TableError("invalid", str(e), e)
    if isinstance(e, NotYourTurnError):
        return TableError("not_your_turn", str(e), e)
    if isinstance(e, GameOverError):
        return TableError("game_over", str(e), e)
    return TableError("illegal", str(e), e)
