"""Players: a profile (``/api/players/{name}``), its games (paged) and a preset's leaderboard
(``/api/leaderboard``). Read only, for guests too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from yacht.web.api.deps import Service
from yacht.web.protocol.names import MAX_NAME
from yacht.web.protocol.players import Leaderboard, PlayerGames, Profile
from yacht.web.service.players import CURSOR, PAGE, PlayerService

__all__ = ["router"]

router = APIRouter(tags=["players"])

Name = Annotated[
    str,
    Path(
        min_length=1,
        max_length=4 * MAX_NAME,
        description="the account's name, as it looks (case and look-alike letters do not matter)",
    ),
]


def _players(service: Service) -> PlayerService:
    return PlayerService(service.store)


@router.get("/players/{name}")
async def player(name: Name, service: Service) -> Profile:
    """A player's profile: per preset played, their games, wins, average and best total,
    Yachts, accuracy and points lost per decision (over all their finished games, private
    tables' too), their rating and its history, and the skill figure ("played like an
    N-point player", over the last 20 reviewed games) with the bots' marks. 404
    ``not_found``: no account, or a deleted one, has that name."""
    return await _players(service).profile(name)


@router.get("/players/{name}/games")
async def player_games(
    name: Name,
    service: Service,
    before: Annotated[
        str | None,
        Query(
            max_length=30,
            pattern=CURSOR,
            description="the ``next`` cursor of the previous page (omit for the newest)",
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = PAGE,
) -> PlayerGames:
    """The player's finished games at public tables, newest first, a page at a time: each
    with its game id (``/games/{id}`` replays it and shows its review). A private table's
    games count in the profile's figures but are not listed."""
    return await _players(service).games(name, before, limit)


@router.get("/leaderboard")
async def board(
    service: Service,
    rules: Annotated[str, Query(max_length=40, description="the preset")] = "traditional",
) -> Leaderboard:
    """The preset's best 100 ratings, by mu - 3 sigma (so a lucky newcomer does not top it),
    of players rated in the last 30 days. 422 ``invalid``: no such preset."""
    return await _players(service).leaderboard(rules)
