"""The inbox: the correspondence games waiting on the player who asks
(docs/web/correspondence.md)."""

from __future__ import annotations

from fastapi import APIRouter

from yacht.web.api.deps import Player, Service, limit
from yacht.web.protocol.accounts import ClaimSeats
from yacht.web.protocol.inbox import Inbox
from yacht.web.service import inbox as inboxes
from yacht.web.service.accounts import Account

__all__ = ["router"]

router = APIRouter(tags=["inbox"])
LOOK = [limit("inbox")]


@router.get("/inbox", dependencies=LOOK)
async def inbox(service: Service, player: Player) -> Inbox:
    """The correspondence games waiting on the signed-in player, on all their devices, soonest
    deadline first (a guest's is empty here: a guest's browser sends its seats' tokens with
    ``POST /api/inbox``)."""
    account = player if isinstance(player, Account) else None
    if account is None:
        return Inbox(count=0, games=[])
    return await inboxes.inbox(service, account, {})


@router.post("/inbox", dependencies=LOOK)
async def inbox_of_seats(body: ClaimSeats, service: Service, player: Player) -> Inbox:
    """The inbox of the seats whose tokens this browser holds (its ``yacht:tokens``: table code
    -> seat -> token, at most 50 tables), and of the signed-in player's account too. A wrong
    token is passed over. Changes nothing."""
    account = player if isinstance(player, Account) else None
    tokens = {code: {int(k): v for k, v in given.items()} for code, given in body.root.items()}
    return await inboxes.inbox(service, account, tokens)
