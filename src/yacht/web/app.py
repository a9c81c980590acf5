"""The app factory: ``create_app()`` builds the whole web game (API, WebSocket, pages).

>>> app = create_app("sqlite://")
>>> schemas = app.openapi()["components"]["schemas"]
>>> [s["$ref"].split("/")[-1] for s in schemas["ServerMessage"]["oneOf"]]
['StateMessage', 'ErrorMessage', 'HintReply', 'WelcomeMessage', 'PongMessage']
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request, Response
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter
from starlette.exceptions import HTTPException as StarletteHTTPException

import yacht
from yacht.web.api.health import router as health_router
from yacht.web.api.routes import router
from yacht.web.api.sockets import table_socket
from yacht.web.bus.broadcast import Broadcaster, LocalBroadcaster
from yacht.web.edge.limits import BodyLimit
from yacht.web.edge.metrics import router as metrics_router
from yacht.web.protocol.messages import ClientMessage, ErrorMessage, ServerMessage
from yacht.web.service.play import GameService
from yacht.web.service.runner import Runner
from yacht.web.service.tables import TableError
from yacht.web.settings import Settings
from yacht.web.storage.store import Store

__all__ = ["create_app"]

STATIC = Path(__file__).parent / "static"
# Swagger UI 5 (it reads the OpenAPI 3.1 that FastAPI writes), as shipped by fastapi-offline.
SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"
PAGES = {"/": "index.html", "/games": "games.html"}

DESCRIPTION = """\
Play Yacht at a table of friends and bots.

**WebSocket** `/ws/tables/{code}`: send `ClientMessage` values (JSON, tagged by `type`:
`hello`, `action`, `hint`, `hand_to_bot`, `rematch`, `ping`) and receive `ServerMessage`
values (`state`, `error`, `hint`, `welcome`, `pong`). Both unions are in the schema
components below. The server sends the table's `state` on connect and after every change.
Every `action` names the game number and the `version` it was decided on; a stale, repeated,
malformed, out-of-turn or unauthorised message is answered by an `error` and changes nothing.
The in-game REST endpoints take the same messages.
"""


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
    if database is not None:
        settings = replace(settings, database=database)
    if seeds is not None:
        settings = replace(settings, seeds=seeds)
    if bot_delay is not None:
        settings = replace(settings, bot_delay=bot_delay)
    store = Store(settings.database_url())
    store.migrate()
    if broadcaster is None and redis:
        from yacht.web.bus.redis import RedisBroadcaster

        broadcaster = RedisBroadcaster(redis)
    service = GameService(store, broadcaster or LocalBroadcaster(), settings)
    runner = Runner(service, settings.bot_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.metrics.start()
        await runner.resume()
        chores = [
            asyncio.create_task(service.sweep()),
            asyncio.create_task(service.presence.refresh()),
        ]
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
            await asyncio.gather(*chores, return_exceptions=True)
            await runner.stop()
            await service.presence.settle()
            service.hints.close()
            close = getattr(service.broadcaster, "aclose", None)
            if close is not None:
                await close()
            await store.aclose()
            store.close()
            await service.metrics.stop()

    app = FastAPI(
        title="Yacht",
        version=yacht.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # served below from files installed with the server: no CDN, works offline
        redoc_url=None,
    )
    app.state.service = service
    app.state.runner = runner
    app.state.settings = settings
    app.state.metrics = service.metrics

    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        body = ErrorMessage(code=exc.code, message=exc.message)
        return JSONResponse(body.model_dump(), status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 400:  # a body FastAPI could not parse (too deep, huge numbers)
            body = ErrorMessage(code="invalid", message=f"bad request: {exc.detail}")
            return JSONResponse(body.model_dump(), status_code=422)
        return await http_exception_handler(request, exc)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [
            f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in list(exc.errors())[:3]
        ]
        body = ErrorMessage(code="invalid", message="bad request: " + "; ".join(parts))
        return JSONResponse(body.model_dump(), status_code=422)

    app.include_router(router)
    app.include_router(health_router)
    app.include_router(metrics_router)
    app.add_middleware(BodyLimit)
    app.add_api_websocket_route("/ws/tables/{code}", table_socket)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs/assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")
    app.add_api_route("/docs", _docs, include_in_schema=False, methods=["GET"])
    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), include_in_schema=False, methods=["GET"])
    app.add_api_route("/games/{game_id}", _page("replay.html"), include_in_schema=False)
    app.add_api_route("/t/{code}", _table_page, include_in_schema=False, methods=["GET"])
    app.openapi = _openapi(app)  # type: ignore[method-assign]
    return app


async def _docs() -> HTMLResponse:
    """The interactive API documentation (Swagger UI), from files installed with the server."""
    return get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="Yacht API",
        swagger_js_url="/docs/assets/swagger-ui-bundle.js",
        swagger_css_url="/docs/assets/swagger-ui.css",
        swagger_favicon_url="/static/favicon.svg",
    )


def _page(name: str) -> Callable[[], Any]:
    async def page() -> FileResponse:
        return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

    page.__name__ = f"page_{name.split('.')[0]}"
    return page


async def _table_page(code: str, request: Request) -> FileResponse:
    """A table's page; answered 404 when no table has the code (the page then says so)."""
    status = 200
    try:
        await request.app.state.service.latest(code)
    except TableError:
        status = 404
    headers = {"Cache-Control": "no-cache"}
    return FileResponse(STATIC / "table.html", status_code=status, headers=headers)


def _openapi(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """The default document plus the WebSocket message unions as schema components."""
    default = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        doc = default()
        schemas = doc.setdefault("components", {}).setdefault("schemas", {})
        unions: tuple[tuple[str, Any], ...] = (
            ("ClientMessage", ClientMessage),
            ("ServerMessage", ServerMessage),
        )
        for name, union in unions:
            adapter: TypeAdapter[Any] = TypeAdapter(union)
            schema = adapter.json_schema(ref_template="#/components/schemas/{model}")
            for key, value in schema.pop("$defs", {}).items():
                schemas.setdefault(key, value)
            schemas[name] = schema
        # Validation failures answer with an ErrorMessage (code "invalid"), not FastAPI's default.
        for item in doc.get("paths", {}).values():
            for operation in item.values():
                if isinstance(operation, dict) and "422" in operation.get("responses", {}):
                    operation["responses"]["422"] = {
                        "description": "invalid: a malformed request; nothing changed",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/ErrorMessage"}
                            }
                        },
                    }
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = doc
        return doc

    return openapi
