"""One access line and one metric sample per HTTP request, with a request id.

:class:`AccessLog` wraps the app (ASGI). For every HTTP request it

- takes the request id from the ``X-Request-ID`` header (up to 128 visible ASCII characters;
  anything else is replaced) or makes one, sends it back in the response's ``X-Request-ID``
  and puts it on the access line (not on other lines: a task a request starts outlives it);
- writes the access line (logger ``yacht.web.edge.access``): ``method``, ``path``, ``route`` (the
  route's template, ``/api/tables/{code}``, not the path asked for), ``status``,
  ``duration`` (seconds), ``client`` and ``request_id`` as fields;
- observes ``yacht_http_request_duration_seconds{method, route, status}``;
- answers 503 ``busy`` with ``Retry-After`` (not a 500 and a traceback) to a request that a
  shutdown cancels before its response started (:func:`yacht.web.edge.serving.serve`).

A path no route serves is counted as ``route="unmatched"``, so a scan of made-up paths adds no
series to the metrics.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
import uuid
from typing import Any

from yacht.web.edge.limits import ASGIApp, Message, Receive, Scope, Send
from yacht.web.edge.metrics import Metrics

__all__ = ["HEADER", "AccessLog", "request_id", "route_template"]

log = logging.getLogger(__name__)

HEADER = b"x-request-id"
_GOOD_ID = re.compile(rb"[!-~]{1,128}")  # visible ASCII, no spaces: safe in a header and a log


def request_id(scope: Scope) -> str:
    """The request's own id when it sent a usable one, else a new one.

    >>> request_id({"headers": [(b"x-request-id", b"abc-123")]})
    'abc-123'
    >>> len(request_id({"headers": [(b"x-request-id", b"two words")]}))
    32
    """
    for name, value in scope.get("headers", ()):
        if name == HEADER and _GOOD_ID.fullmatch(value):
            return str(value.decode("ascii"))
    return uuid.uuid4().hex


def route_template(scope: Scope, root_path: str = "") -> str:
    """The template of the route that served the request, from what the router left on the
    scope (FastAPI's route, with the prefixes of the routers it is included in; Starlette's;
    a mount's prefix with ``/{path}``), or ``unmatched``. ``root_path``: the scope's before
    the app saw it."""
    chosen: Any = scope.get("fastapi", {}).get("effective_route_context")
    for found in (chosen, scope.get("route")):
        path = getattr(found, "path_format", None) or getattr(found, "path", None)
        if path:
            return str(path)
    mounted = str(scope.get("root_path", ""))
    if "endpoint" in scope and mounted != root_path:
        return mounted.removeprefix(root_path) + "/{path}"
    return "unmatched"


_RESTARTING = json.dumps(
    {
        "type": "error",
        "code": "busy",
        "message": "the server is restarting: try again in a moment",
        "ref": None,
    }
).encode()
_RETRY = [
    (b"content-type", b"application/json"),
    (b"content-length", b"%d" % len(_RESTARTING)),
    (b"retry-after", b"1"),
    (b"connection", b"close"),
]


class AccessLog:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = request_id(scope)
        root_path = scope.get("root_path", "")
        start = time.perf_counter()
        status = 500  # what the server answers when the app fails before its response
        started = False

        async def sent(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                status, started = message["status"], True
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != HEADER]
                message = {**message, "headers": [*headers, (HEADER, rid.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, sent)
        except asyncio.CancelledError:
            # Only a shutdown past its grace cancels a request (a client that goes away is
            # told by a message): refuse it plainly rather than as a server error.
            if started:
                raise
            status = 503
            with contextlib.suppress(Exception):
                await send({"type": "http.response.start", "status": 503, "headers": _RETRY})
                await send({"type": "http.response.body", "body": _RESTARTING})
        finally:
            duration = time.perf_counter() - start
            route, method = route_template(scope, root_path), scope.get("method", "")
            self.metrics.requests.labels(method, route, str(status)).observe(duration)
            client = scope.get("client")
            log.info(
                "%s %s %d",
                method,
                scope.get("path", ""),
                status,
                extra={
                    "method": method,
                    "path": scope.get("path", ""),
                    "route": route,
                    "status": status,
                    "duration": round(duration, 6),
                    "client": client[0] if client else None,
                    "request_id": rid,
                },
            )
