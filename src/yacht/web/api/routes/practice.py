"""Practice (docs/strategy/training.md): the next position to solve and the judged answer.
For guests too; a signed-in player's first answer to a position changes their practice
rating, so both are cookie-authenticated changes (the CSRF token is checked: POST), and both
spend the ``practice`` quota."""

from __future__ import annotations

from fastapi import APIRouter

from yacht.web.api.deps import Player, Service, limit
from yacht.web.protocol.practice import (
    PracticeAnswer,
    PracticeNext,
    PracticePosition,
    PracticeVerdict,
)
from yacht.web.service.practice import PracticeService
from yacht.web.storage.accounts import AccountStore

__all__ = ["router"]

router = APIRouter(prefix="/practice", tags=["practice"])


def _practice(service: Service) -> PracticeService:
    store = AccountStore(service.store.engine, service.store.guarded)
    return PracticeService(store, service.clock)


@router.post("/next", dependencies=[limit("practice")])
async def next_position(body: PracticeNext, player: Player, service: Service) -> PracticePosition:
    """The costliest decision not yet solved: from the signed-in player's own finished games
    first, then everyone's at public tables, then the easy bot's games. ``skip``: keys of
    positions to leave out (a guest's page sends those it solved). 404 ``not_found``: none
    left; 422 ``invalid``: no such preset."""
    return await _practice(service).next(player, body.skip, body.rules)


@router.post("/answer", dependencies=[limit("practice")])
async def answer(body: PracticeAnswer, player: Player, service: Service) -> PracticeVerdict:
    """Judge an answer to a served position (named by its ``ref``): the best option, what
    the answer gave up, the five best options. A signed-in player's first answer to a
    position rates both. 404 ``not_found``: no such position; 409 ``illegal``: not an option
    there; 422 ``invalid``: a malformed answer."""
    return await _practice(service).answer(player, body)
