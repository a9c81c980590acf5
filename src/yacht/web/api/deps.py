"""What the endpoints share, as ``Annotated`` dependencies: the table service, the client asking,
its rate limits, the player asking (:data:`Player`: the one place a session cookie is read and
a signed-in change's CSRF token checked), and the path parameters every route validates alike."""

from __future__ import annotations

import hashlib
import hmac
from typing import Annotated, Any

from fastapi import Depends, Path, Request, Response

from yacht.web.api.cookies import clear_session, session_cookie
from yacht.web.edge.limits import client_key
from yacht.web.protocol.messages import ErrorMessage
from yacht.web.service import accounts
from yacht.web.service.accounts import GUEST, Account, refusal
from yacht.web.service.tables import TableService

__all__ = [
    "ERRORS",
    "SAFE_METHODS",
    "Client",
    "Code",
    "Creator",
    "GameId",
    "Player",
    "Service",
    "SignedIn",
    "limit",
]


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


def _client(request: Request) -> str | None:
    return client_key(request.scope)


Client = Annotated[str | None, Depends(_client)]
"""Who asks, for the per-client limits (None: the server's own machine, not limited)."""


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: the only ones a session cookie is taken on without the CSRF
token."""


async def _player(request: Request, response: Response) -> accounts.Player:
    """The account whose session the request's cookie holds, else the guest. A change (any
    method but GET, HEAD, OPTIONS) made with a live session must carry the session's token in
    the X-CSRF-Token header (403 ``csrf``, nothing done); a cookie of no live session is
    cleared and the request is a guest's. A request without the cookie is a guest's, as
    before accounts: seat tokens work exactly as they did."""
    session_id = session_cookie(request)
    if session_id is None:
        return GUEST
    found = await _service(request).accounts.session(session_id)
    if found is None:
        clear_session(request, response)
        return GUEST
    if request.method not in SAFE_METHODS:
        given = request.headers.get("x-csrf-token", "")
        if not hmac.compare_digest(given.encode(), found.csrf_token.encode()):
            raise refusal("csrf", "csrf")
    return found


Player = Annotated[accounts.Player, Depends(_player)]
"""Who makes the request: an :class:`~yacht.web.service.accounts.Account` or the guest."""


async def _signed_in(player: Player) -> Account:
    if not isinstance(player, Account):
        raise refusal("unauthorized", "not_signed_in")
    return player


SignedIn = Annotated[Account, Depends(_signed_in)]
"""The signed-in player (401 ``unauthorized`` for a guest)."""


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
        (401, "unauthorized: not signed in, or a wrong name, password or recovery code"),
        (
            403,
            "spectator, bad_token, hints_off, or csrf (a signed-in change without the "
            "session's X-CSRF-Token header)",
        ),
        (404, "not_found"),
        (
            409,
            "stale_version, not_your_turn, illegal, not_started, game_over, seat_taken or "
            "name_taken",
        ),
        (429, "rate_limited: too many requests from one client, or too many waiting tables"),
        (503, "busy"),
    )
}
"""The error answers every ``/api`` route may give, each an :class:`ErrorMessage`."""
