"""The pages (lobby, games, replay, a table), the interactive API documentation and the OpenAPI
document with the WebSocket messages in it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter

from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import ClientMessage, ServerMessage

__all__ = ["STATIC", "add_pages", "describe_api", "message_types", "openapi_with_messages"]

STATIC = Path(__file__).parents[1] / "static"
# Swagger UI 5 (it reads the OpenAPI 3.1 that FastAPI writes), as shipped by fastapi-offline.
SWAGGER_UI = Path(fastapi_offline.__file__).parent / "static"
PAGES = {"/": "index.html", "/games": "games.html"}


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
