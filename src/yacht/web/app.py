"""The app factory, wiring only: ``create_app()`` puts the rooms together (settings, store, bus,
service, endpoints, pages) and its lifespan starts and stops the background work.

>>> app = create_app("sqlite://")
>>> schemas = app.openapi()["components"]["schemas"]
>>> [s["$ref"].split("/")[-1] for s in schemas["ServerMessage"]["oneOf"]]
... # doctest: +NORMALIZE_WHITESPACE
['StateMessage', 'ErrorMessage', 'HintReply', 'CoachReply', 'WelcomeMessage', 'PongMessage',
 'NoticeMessage', 'ElsewhereMessage']
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

import yacht
from yacht.web.api.errors import add_error_handlers
from yacht.web.api.health import router as health_router
from yacht.web.api.metrics import router as metrics_router
from yacht.web.api.offline import add_offline
from yacht.web.api.pages import RootPath, add_pages, describe_api, openapi_with_messages
from yacht.web.api.routes import router
from yacht.web.api.sockets import table_socket
from yacht.web.bus.broadcast import Broadcaster, LocalBroadcaster
from yacht.web.edge.access import AccessLog
from yacht.web.edge.headers import SecurityHeaders
from yacht.web.edge.limits import BodyLimit
from yacht.web.edge.serving import OPEN
from yacht.web.edge.shared import SharedLimits
from yacht.web.service import bots
from yacht.web.service.deadlines import Deadlines
from yacht.web.service.runner import Runner
from yacht.web.service.tables import TableService
from yacht.web.settings import Settings
from yacht.web.storage.store import Store

__all__ = ["create_app"]


async def share_limits(settings: Settings, service: TableService) -> SharedLimits | None:
    """With Redis, count the per-client limits with every other process of the server
    (:mod:`yacht.web.edge.shared`); without it, nothing to do (None)."""
    if not settings.redis:
        return None
    from yacht.web.bus.redis import connection_pool

    shared = SharedLimits(
        connection_pool(settings.redis), ttl=settings.limits_ttl, slots=lambda: OPEN.counts
    )
    service.limits.share(shared)
    await shared.start()
    OPEN.shared = shared
    service.metrics.processes.set_function(lambda: shared.processes)
    return shared


async def unshare_limits(shared: SharedLimits) -> None:
    if OPEN.shared is shared:
        OPEN.shared = None
    await shared.stop()


def create_app(
    database: str | None = None,
    *,
    settings: Settings | None = None,
    broadcaster: Broadcaster | None = None,
    seeds: Callable[[], str] | None = None,
    bot_delay: float | None = None,
    redis: str | None = None,
) -> FastAPI:
    """The web game on a database URL (default: an SQLite file in the user data dir).

    ``seeds`` replaces the source of secret dice seeds (tests use a fixed one so games
    repeat); ``bot_delay`` is the pause before each bot move in seconds; ``redis`` (a
    ``redis://`` URL) shares tables with other server processes (see :mod:`yacht.web.bus.redis`).
    """
    settings = settings or Settings()
    given = {"database": database, "seeds": seeds, "bot_delay": bot_delay, "redis": redis}
    settings = settings.model_copy(update={k: v for k, v in given.items() if v is not None})
    store = Store(settings.database_url(), direct=settings.pg_direct)
    store.migrate()
    if broadcaster is None and settings.redis:
        from yacht.web.bus.redis import RedisBroadcaster

        broadcaster = RedisBroadcaster(settings.redis)
    service = TableService(store, broadcaster or LocalBroadcaster(), settings)
    runner = Runner(service, settings.bot_delay)
    deadlines = Deadlines(service)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        bots.load_code()  # before the first request, not during it
        service.metrics.start()
        shared = await share_limits(settings, service)
        if settings.prepare_tables:
            service.warmup.start()
        await runner.resume()
        chores = [
            asyncio.create_task(service.sweep()),
            asyncio.create_task(service.presence.refresh()),
            asyncio.create_task(deadlines.watch()),
        ]
        if settings.push_send:  # Web Push: this process delivers the outbox too
            chores.append(asyncio.create_task(service.push.watch()))
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
            await asyncio.gather(*chores, return_exceptions=True)
            await runner.stop()
            await service.push.aclose()
            await service.presence.settle()
            service.hints.close()
            service.accounts.close()
            close = getattr(service.broadcaster, "aclose", None)
            if close is not None:
                await close()
            await store.aclose()
            store.close()
            await service.metrics.stop()
            if shared is not None:
                await unshare_limits(shared)

    app = FastAPI(
        title="Yacht",
        version=yacht.__version__,
        description=describe_api(),
        lifespan=lifespan,
        docs_url=None,  # served below from files installed with the server: no CDN, works offline
        redoc_url=None,
    )
    app.state.service = service
    app.state.runner = runner
    app.state.deadlines = deadlines
    app.state.settings = settings
    app.state.metrics = service.metrics

    add_error_handlers(app)
    app.include_router(router)
    app.include_router(health_router)
    app.include_router(metrics_router)
    app.add_middleware(BodyLimit)
    app.add_middleware(SecurityHeaders)  # on every answer, the errors of the layers below too
    app.add_middleware(AccessLog, metrics=service.metrics)
    app.add_api_websocket_route("/ws/tables/{code}", table_socket)
    add_offline(app)  # the installable app; its tables' mount goes before add_pages' /static
    add_pages(app)
    if settings.root_path:
        app.add_middleware(RootPath, root_path=settings.root_path)
    app.openapi = openapi_with_messages(app)  # type: ignore[method-assign]
    return app
