"""The pages (lobby, games, replay, a table, a player's profile, the leaderboard), the
interactive API documentation and the OpenAPI document with the WebSocket messages in it.

The game may be served under a sub-path behind a reverse proxy (https://example.org/yacht/, the
``root_path`` setting or uvicorn's ``--root-path``). Every page's ``<head>`` has
``<base href="/">`` before any URL, served as the root path (``<base href="/yacht/">``), and
every URL the page and its scripts make (static files, API, WebSocket, links) is relative to it.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter
from starlette.types import ASGIApp, Receive, Scope, Send

from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import ClientMessage, ServerMessage
from yacht.web.service.players import PlayerService

__all__ = ["BASE", "STATIC", "RootPath", "add_pages", "openapi_with_messages", "page_html"]

STATIC = Path(__file__).parents[1] / "static"
# Swagger UI 5 (it reads the OpenAPI 3.1 that FastAPI writes), as shipped by fastapi-offline.
SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"
PAGES = {
    "/": "index.html",
    "/games": "games.html",
    "/leaderboard": "leaderboard.html",
    "/daily": "daily.html",
    "/practice": "practice.html",
    "/inbox": "inbox.html",
}
BASE = '<base href="/">'
"""What every page's ``<head>`` starts with, as written in its file."""


def message_types(union: Any) -> list[str]:
    """The ``type`` tags of a message union, in its order.

    >>> message_types(ClientMessage)[:3]
    ['hello', 'action', 'hint']
    """
    return [str(m.model_fields["type"].default) for m in get_args(get_args(union)[0])]


def describe_api() -> str:
    """The OpenAPI document's description, its message lists made from the unions themselves."""
    sent = ", ".join(f"`{name}`" for name in message_types(ClientMessage))
    received = ", ".join(f"`{name}`" for name in message_types(ServerMessage))
    return f"""\
Play Yacht at a table of friends and bots.

**WebSocket** `/ws/tables/{{code}}`: send `ClientMessage` values (JSON, tagged by `type`:
{sent}) and receive `ServerMessage` values ({received}). Both unions are in the schema
components below. The server sends the table's `state` on connect and after every change. Every
`action` names the game number and the `version` it was decided on; a stale, repeated,
malformed, out-of-turn or unauthorised message is answered by an `error` and changes nothing. A
message over 8 KiB is answered by a `too_large` error and the socket is closed (code 1009). The
in-game REST endpoints take the same messages.
"""


def add_pages(app: FastAPI) -> None:
    """The static files, the pages and ``/docs``, served from files installed with the server."""
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/docs/assets", StaticFiles(directory=SWAGGER_UI), name="docs-assets")
    app.add_api_route("/docs", _docs, include_in_schema=False, methods=["GET"])
    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), include_in_schema=False, methods=["GET"])
    app.add_api_route("/games/{game_id}", _page("replay.html"), include_in_schema=False)
    app.add_api_route("/t/{code}", _table_page, include_in_schema=False, methods=["GET"])
    app.add_api_route("/@/{name}", _profile_page, include_in_schema=False, methods=["GET"])


class RootPath:
    """Serves the app under ``root_path``: a request's path may come with the prefix (a proxy
    that passes it on) or without it (one that strips it); the app sees it with, as the ASGI
    spec has it (uvicorn's ``--root-path`` does the same), and ``root_path`` in the scope."""

    def __init__(self, app: ASGIApp, root_path: str) -> None:
        self.app = app
        self.root = root_path.rstrip("/")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            path: str = scope["path"]
            scope = dict(scope, root_path=self.root)
            if path != self.root and not path.startswith(self.root + "/"):
                scope["path"] = self.root + path
                scope["raw_path"] = self.root.encode() + scope.get("raw_path", path.encode())
        await self.app(scope, receive, send)


def page_html(name: str, root_path: str = "") -> str:
    """The page ``name`` from the static folder, its ``<base href>`` set to ``root_path``."""
    text = (STATIC / name).read_text(encoding="utf-8")
    if root_path:
        text = text.replace(BASE, f'<base href="{html.escape(root_path.rstrip("/"))}/">', 1)
    return text


def _root(request: Request) -> str:
    root: str = request.scope.get("root_path", "")
    return root.rstrip("/")


async def _docs(request: Request) -> HTMLResponse:
    """The interactive API documentation (Swagger UI), from files installed with the server.

    Made accessible: the page says its language and keeps the documentation in a ``main``
    landmark; no deep links (Swagger UI puts each operation's link inside its button); and a
    stylesheet of ours after Swagger UI's gives its small labels readable contrast."""
    root = _root(request)
    page = get_swagger_ui_html(
        openapi_url=f"{root}/openapi.json",
        title="Yacht API",
        swagger_js_url=f"{root}/docs/assets/swagger-ui-bundle.js",
        swagger_css_url=f"{root}/docs/assets/swagger-ui.css",
        swagger_favicon_url=f"{root}/static/favicon.svg",
        swagger_ui_parameters={"deepLinking": False},
    )
    text = bytes(page.body).decode()
    text = text.replace("<html>", '<html lang="en">', 1)
    text = text.replace(
        "</head>", f'<link rel="stylesheet" href="{html.escape(root)}/static/docs.css">\n</head>', 1
    )
    text = text.replace('<div id="swagger-ui">\n    </div>', '<main id="swagger-ui"></main>', 1)
    return HTMLResponse(text)


def _page(name: str) -> Callable[..., Any]:
    async def page(request: Request) -> HTMLResponse:
        return _answer(name, request)

    page.__name__ = f"page_{name.split('.')[0]}"
    return page


def _answer(name: str, request: Request, status: int = 200) -> HTMLResponse:
    headers = {"Cache-Control": "no-cache"}
    return HTMLResponse(page_html(name, _root(request)), status_code=status, headers=headers)


async def _table_page(code: str, request: Request) -> HTMLResponse:
    """A table's page; answered 404 when no table has the code (the page then says so)."""
    status = 200
    try:
        await request.app.state.service.latest(code)
    except TableError:
        status = 404
    return _answer("table.html", request, status)


async def _profile_page(name: str, request: Request) -> HTMLResponse:
    """A player's profile page; answered 404 when no live account has the name (the page then
    says so)."""
    status = 200
    if not await PlayerService(request.app.state.service.store).exists(name):
        status = 404
    return _answer("profile.html", request, status)


def openapi_with_messages(app: FastAPI) -> Callable[[], dict[str, Any]]:
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
