"""Offline games (docs/web/offline.md): the ``/play`` page sends a signed-in player's games
played with no server, once the network is back. Cookie-authenticated, so the CSRF token is
checked (:data:`~yacht.web.api.deps.Player`); limited per client (the ``sync`` quota) and to
:data:`~yacht.web.protocol.offline.MAX_GAMES` games a request."""

from __future__ import annotations

from fastapi import APIRouter

from yacht.web.api.deps import Service, SignedIn, limit
from yacht.web.protocol.offline import OfflineGames, Synced
from yacht.web.service.offline import OfflineService
from yacht.web.storage.accounts import AccountStore

__all__ = ["router"]

router = APIRouter(tags=["accounts"])


@router.post("/me/offline-games", dependencies=[limit("sync")])
async def sync_offline(body: OfflineGames, account: SignedIn, service: Service) -> Synced:
    """Put games played offline into the signed-in player's history. The server replays each
    with the engine (the dice from its seed under fair dice rule 3) and refuses one that is
    not a real game: illegal moves, dice the seed does not deal, wrong totals, a bot's seat,
    a finish in the future. A game is stored once per account and page id: sending it again
    answers the same record. Offline games are listed on the profile, marked offline, and
    never rated or counted in its figures or on a leaderboard."""
    store = AccountStore(service.store.engine, service.store.guarded)
    return await OfflineService(store, service.clock).sync(account, body.games)
