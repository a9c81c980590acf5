"""What the endpoints share, as ``Annotated`` dependencies: the table service, the client asking,
its rate limits, and the path parameters every route validates alike."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any

from fastapi import Depends, Path, Request

from yacht.web.edge.limits import client_key
from yacht.web.protocol.messages import ErrorMessage
from yacht.web.service.tables import TableService

__all__ = ["ERRORS", "Code", "Creator", "GameId", "Service", "limit"]


def _service(request: Request) -> TableService:
    found: TableService = request.app.state.service
    return found


Service = Annotated[TableService, Depends(_service)]
"""The server's one table service."""


def limit(kind: str) -> Any:
    """A dependency spending one of the client's ``kind`` tokens (429 ``rate_limited``)."""

    async def spend(request: Request) -> None:
        await _service(request).limits.take(kind, client_key(request.scope))

    spend.__name__ = f"limit_{kind}"
    return Depends(spend)


def _creator(request: Request) -> str | None:
    """The client who opens a table, as a hash of its address (for the waiting-table cap)."""
    key = client_key(request.scope)
    if key is None or key in _service(request).limits.exempt:
        return None
    return hashlib.sha256(key.encode()).hexdigest()


Creator = Annotated[str | None, Depends(_creator)]

Code = Annotated[
    str, Path(min_length=1, max_length=16, description="the table's code (13 characters: private)")
]
# Ids and offsets are INTEGER columns: PostgreSQL refuses larger numbers with a server error.
INT_MAX = 2**31 - 1
GameId = Annotated[int, Path(ge=1, le=INT_MAX, description="a game's id")]

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorMessage, "description": what}
    for status, what in (
        (403, "spectator, bad_token or hints_off"),
        (404, "not_found"),
        (409, "stale_version, not_your_turn, illegal, not_started, game_over or seat_taken"),
        (429, "rate_limited: too many requests from one client, or too many waiting tables"),
        (503, "busy"),
    )
}
"""The error answers every ``/api`` route may give, each an :class:`ErrorMessage`."""
