"""Limits that keep one client from stalling the server: message size and message rate.

A WebSocket message larger than :data:`MAX_MESSAGE` bytes, or a connection sending faster
than :data:`RATE` messages a second (after a burst of :data:`BURST`), gets one ``error``
message saying which limit it broke, and the connection is closed (code 1009 "message too
big" or 1008 "policy violation"). Frames larger than :data:`MAX_FRAME` do not even reach the
app: ``yacht serve`` tells the WebSocket protocol layer to refuse them. HTTP request bodies
over :data:`MAX_BODY` bytes are answered with 413 by :class:`BodyLimit` before the app reads
them.

>>> bucket = RateLimit(rate=2, burst=3, clock=iter([0.0, 0.0, 0.0, 0.0, 0.0, 1.0]).__next__)
>>> [bucket.take() for _ in range(5)]
[True, True, True, False, True]
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cachetools import LRUCache

if TYPE_CHECKING:
    from yacht.web.protocol.messages import ErrorCode

__all__ = [
    "BURST",
    "LOCAL",
    "MAX_BODY",
    "MAX_FRAME",
    "MAX_MESSAGE",
    "RATE",
    "BodyLimit",
    "ClientLimits",
    "Flood",
    "KeyedBuckets",
    "MessageLimits",
    "Quota",
    "RateLimit",
    "client_key",
    "receive_text",
]

log = logging.getLogger("yacht.web.edge.limits")

MAX_MESSAGE = 8192  # bytes of one WebSocket message; the largest legal one is under 1 KiB
MAX_FRAME = 65536  # bytes; larger frames are refused by the protocol layer (uvicorn ws_max_size)
MAX_BODY = 65536  # bytes of an HTTP request body
RATE = 20.0  # WebSocket messages per second, sustained, per connection
BURST = 40  # messages a connection may send at once before the rate applies

CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Flood(Exception):
    """A client broke a limit: answer ``message`` (error ``code``), then close with ``close``
    (None: the message is refused but the connection stays open)."""

    def __init__(self, code: ErrorCode, message: str, close: int | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.close = close


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second."""

    def __init__(
        self, rate: float = RATE, burst: int = BURST, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def take(self) -> bool:
        """Spend one token; False when there is none (the message is over the rate)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


@dataclass(frozen=True)
class Quota:
    """A per-client token bucket: ``burst`` requests at once, then one every ``every`` s."""

    burst: int
    every: float

    def describe(self, what: str) -> str:
        return f"too many {what}: at most {self.burst} at once, then one every {self.every:g} s"


# What each costs a legitimate player is in docs/web/limits.md.
QUOTAS: dict[str, Quota] = {
    "create": Quota(burst=10, every=30.0),  # tables opened
    "join": Quota(burst=20, every=2.0),  # seats taken
    "hint": Quota(burst=10, every=1.0),  # hints asked (REST and WebSocket together)
    "action": Quota(burst=60, every=0.1),  # REST in-game requests (roll, hold, score...)
}
CLIENTS = 10_000  # clients whose buckets are remembered (the least recent are forgotten)
LOCAL = frozenset({"127.0.0.1", "::1"})
"""Clients on the server's own machine: its operator (load tests, health checks, a proxy that
sets no X-Forwarded-For), to whom the per-client limits do not apply. Behind a reverse proxy,
the proxy must send X-Forwarded-For, or every client looks local."""


class KeyedBuckets:
    """One :class:`RateLimit` per key (a client), the least recently used forgotten first.

    >>> b = KeyedBuckets(Quota(burst=1, every=10), clock=lambda: 0.0, size=2)
    >>> b.take("a"), b.take("a"), b.take("b"), b.take("c"), b.take("a")
    (True, False, True, True, True)
    """

    def __init__(
        self, quota: Quota, clock: Callable[[], float] = time.monotonic, size: int = CLIENTS
    ) -> None:
        self.quota = quota
        self.clock = clock
        self.size = size
        self._buckets: LRUCache[str, RateLimit] = LRUCache(size)

    def take(self, key: str) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimit(
                1.0 / self.quota.every, self.quota.burst, self.clock
            )
        return bucket.take()


class ClientLimits:
    """Per-client rate limits of the REST and WebSocket requests that cost the server."""

    def __init__(
        self,
        quotas: Mapping[str, Quota] | None = None,
        clock: Callable[[], float] = time.monotonic,
        exempt: frozenset[str] = LOCAL,
    ) -> None:
        self.exempt = exempt
        self.quotas = dict(quotas or QUOTAS)
        self.buckets = {k: KeyedBuckets(q, clock) for k, q in self.quotas.items()}

    def take(self, kind: str, client: str | None) -> None:
        """Spend one of ``client``'s ``kind`` tokens; TableError ``rate_limited`` if none."""
        from yacht.web.protocol.errors import TableError

        if client is None or client in self.exempt or self.buckets[kind].take(client):
            return
        log.warning("rate limited: %s", kind, extra={"client": client, "limit": kind})
        raise TableError("rate_limited", self.quotas[kind].describe(_WHAT[kind]))


_WHAT = {"create": "new tables", "join": "joins", "hint": "hints", "action": "requests"}


def client_key(scope: Scope) -> str | None:
    """Who a request comes from, for the per-client limits: its address (set from
    X-Forwarded-For by ``yacht serve`` only behind a proxy it trusts)."""
    client = scope.get("client")
    return str(client[0]) if client else None


class MessageLimits:
    """The limits of one WebSocket connection; :meth:`check` each message as it arrives.

    >>> limits = MessageLimits(max_bytes=10, rate=RateLimit(rate=1, burst=1, clock=lambda: 0.0))
    >>> limits.check('{"a": 1}')
    >>> limits.check('{"a": 1}')
    Traceback (most recent call last):
    ...
    yacht.web.edge.limits.Flood: too many messages: at most 1 at once and 1 a second per connection
    >>> MessageLimits(max_bytes=10).check("x" * 11)
    Traceback (most recent call last):
    ...
    yacht.web.edge.limits.Flood: message too large: 11 bytes, the limit is 10
    """

    def __init__(self, max_bytes: int = MAX_MESSAGE, rate: RateLimit | None = None) -> None:
        self.max_bytes = max_bytes
        self.rate = rate or RateLimit()

    def check(self, text: str | bytes) -> None:
        size = len(text) if isinstance(text, bytes) else len(text.encode())
        if size > self.max_bytes:
            raise Flood(
                "too_large",
                f"message too large: {size} bytes, the limit is {self.max_bytes}",
                CLOSE_TOO_BIG,
            )
        if not self.rate.take():
            raise Flood(
                "rate_limited",
                f"too many messages: at most {self.rate.burst} at once and "
                f"{self.rate.rate:g} a second per connection",
                CLOSE_POLICY,
            )


async def receive_text(websocket: Any, limits: MessageLimits) -> str:
    """The next text message of a Starlette WebSocket, checked against ``limits``.

    Raises :class:`Flood` for a message over a limit (log line included) and for a binary
    frame (``close`` None: a binary frame is refused, the connection stays), and
    ``WebSocketDisconnect`` when the client has gone.
    """
    from starlette.websockets import WebSocketDisconnect

    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text: str | None = message.get("text")
    try:
        limits.check(text if text is not None else message.get("bytes") or b"")
    except Flood as e:
        log.warning(
            "closing a WebSocket: %s",
            e.message,
            extra={"path": websocket.url.path, "client": _client(websocket.scope), "limit": e.code},
        )
        raise
    if text is None:
        raise Flood("invalid", "binary frames are not accepted: send JSON messages as text", None)
    return text


class BodyLimit:
    """ASGI middleware: HTTP request bodies over ``max_bytes`` get 413 and an ``error`` body."""

    def __init__(self, app: ASGIApp, max_bytes: int = MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._refuse(scope, send)
                    return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except _TooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        log.warning(
            "refused a request body over %d bytes",
            self.max_bytes,
            extra={"path": scope.get("path"), "client": _client(scope)},
        )
        body = json.dumps(
            {
                "type": "error",
                "code": "too_large",
                "message": f"request body too large: the limit is {self.max_bytes} bytes",
                "ref": None,
            }
        ).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else None
