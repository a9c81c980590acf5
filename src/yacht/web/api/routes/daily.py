"""The daily game (``/api/daily``): the days' commitments and revealed seeds, starting or
resuming today's attempt, its moves, its game file once the day is over, and the day's ranking.

A guest's browser names itself by a random token in the ``X-Yacht-Guest`` header (16-64 of
``A-Z a-z 0-9 _ -``, kept in its storage): its attempt is unofficial and never ranked. A
signed-in player's changes carry the session's CSRF token, as every signed-in change does.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response

from yacht.web.api.deps import GameId, Player, SignedIn, limit
from yacht.web.protocol.daily import DailyMove, DailyStart
from yacht.web.service.daily import DailyService

__all__ = ["router"]

router = APIRouter(tags=["daily"])

GUEST = r"^[A-Za-z0-9_-]{16,64}$"
Guest = Annotated[
    str | None,
    Header(alias="X-Yacht-Guest", pattern=GUEST, description="a guest browser's own token"),
]
Preset = Annotated[str, Query(max_length=40, description="the preset")]
Day = Annotated[
    str | None, Query(pattern=r"^\d{4}-\d{2}-\d{2}$", description="a UTC day (today if omitted)")
]


def daily_service(app: Any) -> DailyService:
    """The app's daily service, made on first use from its table service's store and seeds
    (tests move its ``clock``)."""
    found: DailyService | None = getattr(app.state, "daily", None)
    if found is None:
        service = app.state.service
        found = app.state.daily = DailyService(service.store, service.settings.seeds)
    return found


def _daily(request: Request) -> DailyService:
    return daily_service(request.app)


@router.get("/daily")
async def days(
    request: Request, player: Player, guest: Guest = None, preset: Preset = "traditional"
) -> dict[str, Any]:
    """Today's and tomorrow's commitments (published before the day starts), yesterday's
    revealed seed, the asker's attempt at today's game (``mine``, null if none), the id of
    their finished game of yesterday (``yesterday_game``: its file now has the seed) and
    their streak of days played (signed in). 422 ``invalid``: no such preset."""
    daily = _daily(request)
    shown = await daily.days(preset)
    mine = await daily.mine(preset, player, guest)
    before = await daily.mine(preset, player, guest, days_ago=1)
    return shown | {
        "mine": None if mine is None else daily.view(mine),
        "yesterday_game": before.id if before is not None and before.status == "finished" else None,
        "streak": await daily.streak(player),
    }


@router.post("/daily", dependencies=[limit("create")])
async def start(
    body: DailyStart, request: Request, response: Response, player: Player, guest: Guest = None
) -> dict[str, Any]:
    """Start today's game, or get back the one started before (in progress or finished: one
    attempt a day; 201 when started now). A guest needs the ``X-Yacht-Guest`` header."""
    daily = _daily(request)
    played, new = await daily.start(body.preset, player, guest)
    if new:
        response.status_code = 201
    return daily.view(played)


@router.get("/daily/games/{game_id}")
async def game(
    game_id: GameId, request: Request, player: Player, guest: Guest = None
) -> dict[str, Any]:
    """The asker's own attempt (404 ``not_found`` for anyone else's)."""
    daily = _daily(request)
    return daily.view(await daily.owned(game_id, player, guest))


@router.post("/daily/games/{game_id}/action", dependencies=[limit("action")])
async def act(
    game_id: GameId, body: DailyMove, request: Request, player: Player, guest: Guest = None
) -> dict[str, Any]:
    """A move in the asker's attempt (``roll``, ``hold 1 3``, ``score fives``) decided on
    ``version``: 409 ``stale_version`` if the game moved on, ``illegal`` if the rules refuse
    it, ``game_over`` once the day (or the game) is over; 422 ``invalid`` for words that are
    no move. Nothing changes on a refusal."""
    daily = _daily(request)
    return daily.view(await daily.act(game_id, player, guest, body.action, body.version))


@router.get("/daily/games/{game_id}/file")
async def game_file(game_id: GameId, request: Request) -> dict[str, Any]:
    """A finished attempt's game file with the day's seed, for ``yacht verify``: only once
    the day is over (409 ``not_started`` before)."""
    return await _daily(request).file(game_id)


@router.get("/daily/ranking")
async def ranking(
    request: Request,
    player: Player,
    guest: Guest = None,
    preset: Preset = "traditional",
    day: Day = None,
) -> dict[str, Any]:
    """A day's ranking of signed-in players by the skill figure (mean points lost per
    decision, lower is better), then the total; the optimal player's total on the day's dice
    (``optimal``) only for a player who finished that day's game, or once the day is over."""
    daily = _daily(request)
    mine = await daily.mine(preset, player, guest)
    return await daily.ranking(preset, day, mine)


@router.get("/me/daily", tags=["accounts"])
async def my_streaks(request: Request, account: SignedIn, response: Response) -> dict[str, Any]:
    """The signed-in player's daily streaks, for their own profile: the current streak of
    days in a row (up to today, or yesterday while today's game is not finished), the best
    one and the days played, over every preset and per preset. Private: 401
    ``unauthorized`` for a guest, and nobody can ask for another player's."""
    response.headers["Cache-Control"] = "no-store"
    return await _daily(request).streaks(account)
