"""Security headers on every answer, and which pages a WebSocket may be opened from.

Every HTTP answer carries ``X-Content-Type-Options: nosniff`` (a file is what its type says),
``Referrer-Policy: same-origin`` (a table's address, which is its invitation, never leaves the
site in a Referer) and a Content-Security-Policy with ``frame-ancestors 'none'`` (and
``X-Frame-Options: DENY`` for older browsers): no other site may show the game in a frame, so
an invisible frame cannot turn a visitor's click into a roll. The game's pages load scripts,
styles, images and sockets from the server's own origin only (:data:`PAGE_POLICY`: no inline
script, no inline style attribute, no ``eval``). The API page, ``/docs`` (Swagger UI), has a
policy of its own (:data:`DOCS_POLICY`): its one inline script, which starts Swagger UI, is
allowed by its SHA-256 hash, worked out from the page as served.

:func:`origin_allowed` is the WebSocket's check: a browser sends the ``Origin`` of the page
that opens a socket, and a page of another site may not play for the visitor. No ``Origin``
(a client that is not a browser: ``yacht loadtest``, scripts) is allowed.

>>> origin_allowed(None, "http", "example.org")
True
>>> origin_allowed("https://example.org", "https", "example.org"), origin_allowed(
...     "https://evil.example", "https", "example.org")
(True, False)
>>> origin_allowed("https://play.example.org", "http", "10.0.0.5:8000", ["https://play.example.org"])
True
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

__all__ = [
    "DOCS_POLICY",
    "PAGE_POLICY",
    "SecurityHeaders",
    "docs_policy",
    "origin_allowed",
    "origins",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""The game's pages: everything from the server's own origin (its WebSockets included)."""

DOCS_POLICY = (
    "default-src 'self'; script-src 'self' {scripts}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""``/docs``: Swagger UI's files from the server, its inline start script by hash; it sets
inline styles as it draws, hence ``'unsafe-inline'`` for styles only (never for scripts)."""

COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]

_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.I)


def docs_policy(html: bytes) -> str:
    """:data:`DOCS_POLICY` allowing the inline scripts of ``html`` by their hashes.

    >>> docs_policy(b"<script>go()</script><script src='x.js'></script>").split("; ")[1]
    "script-src 'self' 'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"
    """
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(body).digest()).decode() + "'"
        for body in _INLINE_SCRIPT.findall(html)
    ]
    return DOCS_POLICY.format(scripts=" ".join(hashes) or "'none'").replace(" 'none';", ";")


def _is_docs(path: str) -> bool:
    return path.rstrip("/").endswith("/docs")


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP answer (see the module docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _is_docs(scope.get("path", "")):
            await self._docs(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add(message, PAGE_POLICY)
            await send(message)

        await self.app(scope, receive, with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The API page is small: held whole, so that its policy can name its script."""
        start: Message | None = None
        body = b""

        async def held(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] == "http.response.body" and start is not None:
                body += message.get("body", b"")
                if message.get("more_body"):
                    return
                _add(start, docs_policy(body))
                await send(start)
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, held)


def _add(start: Message, policy: str) -> None:
    headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in _OURS]
    headers += COMMON
    headers.append((b"content-security-policy", policy.encode()))
    start["headers"] = headers


_OURS = frozenset(k for k, _ in COMMON) | {b"content-security-policy"}


def origins(listed: str) -> list[str]:
    """The origins of a comma-separated list, as browsers write them (no trailing slash).

    >>> origins(" https://a.example/, http://b.example:8000 ,")
    ['https://a.example', 'http://b.example:8000']
    """
    return [o.strip().rstrip("/").lower() for o in listed.split(",") if o.strip()]


def origin_allowed(
    origin: str | None, scheme: str, host: str | None, allowed: Iterable[str] = ()
) -> bool:
    """Whether a WebSocket with this ``Origin`` header may be opened: none given, the
    server's own origin (``scheme`` and ``Host`` as the request came: behind a proxy that
    sends X-Forwarded-Proto, the visitor's), or one of ``allowed``."""
    if origin is None:
        return True
    origin = origin.strip().rstrip("/").lower()
    if origin in allowed:
        return True
    if host is None:
        return False
    http = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return origin == f"{http}://{host.lower()}"
