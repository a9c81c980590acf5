"""REST endpoints under ``/api``, one module per resource: the lobby, a table (seats and play),
finished games, the page's texts, accounts (optional), offline games synced, players'
profiles and leaderboards, the inbox of correspondence games, the daily game, practice, and
Web Push subscriptions.

The in-game endpoints take exactly the WebSocket messages (``ActionMessage``, ``HintMessage``,
...), so the OpenAPI document describes them and a client without WebSockets can play too.
"""

from __future__ import annotations

from fastapi import APIRouter

from yacht.web.api.deps import ERRORS
from yacht.web.api.routes import (
    accounts,
    daily,
    games,
    inbox,
    lobby,
    offline,
    players,
    practice,
    push,
    tables,
    texts,
)

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=ERRORS)
for part in (
    lobby,
    tables,
    games,
    texts,
    accounts,
    offline,
    players,
    inbox,
    daily,
    practice,
    push,
):
    router.include_router(part.router)
