"""A table: its state, taking a seat, and the in-game requests (the WebSocket's messages)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from yacht.web.api.deps import Code, Player, Service, limit
from yacht.web.edge.limits import client_key
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import (
    ActionMessage,
    CoachMessage,
    CoachReply,
    HandToBotMessage,
    HintMessage,
    HintReply,
    Joined,
    JoinSeat,
    RematchMessage,
    SeedMessage,
    TableState,
    TakeBackMessage,
)
from yacht.web.service.accounts import Account
from yacht.web.service.state import public_game_json

__all__ = ["router"]

router = APIRouter(prefix="/tables/{code}")
ACTION = [limit("action")]


@router.get("", tags=["table"])
async def table(code: Code, service: Service, request: Request) -> TableState:
    """The table's state. A client asking for many codes no table has is refused for a while
    (429 ``rate_limited``)."""
    return await service.lookup(code, client_key(request.scope))


@router.post("/join", tags=["table"], dependencies=[limit("join")])
async def join(code: Code, body: JoinSeat, service: Service, player: Player) -> Joined:
    """Take a free seat: the answer holds the seat's secret token (keep it). Send your own
    ``seed`` for the dice, made after you saw the table's ``game.commitment``. Signed in, you
    sit under your account's name and the seat follows the account
    (``GET /api/tables/{code}/mine`` gives its token on any device)."""
    return await service.join(code, body, player if isinstance(player, Account) else None)


@router.post("/actions", tags=["play"], dependencies=ACTION)
async def act(code: Code, body: ActionMessage, service: Service) -> TableState:
    """The WebSocket ``action`` message over HTTP: roll, hold or score."""
    return TableState.model_validate(await service.act(code, body))


@router.post("/hint", tags=["play"], dependencies=[limit("hint")])
async def hint(code: Code, body: HintMessage, service: Service) -> HintReply:
    return await service.hint(code, body)


@router.post("/coach", tags=["play"], dependencies=[limit("hint")])
async def coach(code: Code, body: CoachMessage, service: Service) -> CoachReply | TableState:
    """The WebSocket ``coach`` message over HTTP: play this game with the live coach (the seat
    is marked; refused as ``hints_off`` at a table without hints, as a rated one) and, with
    ``action`` and ``version``, its word on that move before it is made (a ``coach`` reply);
    without a move, the table's state."""
    reply = await service.coach(code, body)
    return reply if reply is not None else await service.state(code)


@router.post("/hand-to-bot", tags=["play"], dependencies=ACTION)
async def hand_to_bot(code: Code, body: HandToBotMessage, service: Service) -> TableState:
    return TableState.model_validate(await service.hand_to_bot(code, body))


@router.post("/take-back", tags=["play"], dependencies=ACTION)
async def take_back(code: Code, body: TakeBackMessage, service: Service) -> TableState:
    """Take your seat back from the bot playing it."""
    return TableState.model_validate(await service.take_back(code, body))


@router.post("/seed", tags=["play"], dependencies=ACTION)
async def seed(code: Code, body: SeedMessage, service: Service) -> TableState:
    """Give your seed for the dice of the waiting game or of the next one (fair dice)."""
    return TableState.model_validate(await service.contribute(code, body))


@router.post("/rematch", tags=["play"], dependencies=ACTION)
async def rematch(code: Code, body: RematchMessage, service: Service) -> TableState:
    return TableState.model_validate(await service.rematch(code, body))


@router.get("/game.json", tags=["games"])
async def current_game_json(code: Code, service: Service) -> dict[str, Any]:
    """The table's current game as a file; the dice seed is in it once the game is over."""
    snap, game = await service.load(code)
    if game is None:
        raise TableError("not_started", "the game starts when every seat is taken")
    return public_game_json(snap.game, snap.table, game)
