"""Limits that keep one client from stalling the server: per-client quotas, message size and
message rate.

Per client (an address), :class:`ClientLimits` allows each kind of costly request at most
:data:`QUOTAS` allow in a moving window, and :class:`Connections` caps the connections one
client holds at once; with Redis both count over every process of the server
(:mod:`yacht.web.edge.shared`), and without it, or while it cannot be reached, in this process.

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

import ipaddress
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter

if TYPE_CHECKING:
    from yacht.web.edge.shared import SharedLimits
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
    "Connections",
    "Flood",
    "MessageLimits",
    "Quota",
    "RateLimit",
    "address_key",
    "client_key",
    "is_loopback",
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
    """A per-client limit: at most ``burst`` requests in any ``burst * every`` seconds (so one
    every ``every`` s in the long run)."""

    burst: int
    every: float

    @property
    def window(self) -> int:
        """Seconds of the moving window."""
        return max(1, round(self.burst * self.every))

    def item(self, share: int = 1) -> RateLimitItem:
        """The ``limits`` item of this quota, or of its part ``1/share`` (at least 1)."""
        return RateLimitItemPerSecond(max(1, self.burst // max(1, share)), self.window)

    def describe(self, what: str, share: int = 1) -> str:
        """
        >>> QUOTAS["join"].describe("joins")
        'too many joins: at most 20 in any 40 s'
        """
        return f"too many {what}: at most {self.item(share).amount} in any {self.window} s"


# What each costs a legitimate player is in docs/web/limits.md.
QUOTAS: dict[str, Quota] = {
    "create": Quota(burst=10, every=30.0),  # tables opened
    "join": Quota(burst=20, every=2.0),  # seats taken
    "hint": Quota(burst=10, every=1.0),  # hints asked (REST and WebSocket together)
    "action": Quota(burst=60, every=0.1),  # REST in-game requests (roll, hold, score...)
    "connect": Quota(burst=30, every=2.0),  # WebSockets opened (a page reconnects after a drop)
    "seat": Quota(burst=6, every=5.0),  # one seat's hellos (per table and seat, any client)
    "guess": Quota(burst=20, every=3.0),  # table codes asked for that no table has
    # accounts (docs/web/accounts.md): sign-ins, recoveries and password checks of a client;
    # of one name from one client (never of a name alone: a stranger could lock its owner
    # out); accounts made by a client
    "signin": Quota(burst=30, every=20.0),
    "signin_name": Quota(burst=6, every=50.0),
    "signup": Quota(burst=5, every=720.0),
    "sync": Quota(burst=10, every=30.0),  # offline games sent (up to 10 a request)
    "inbox": Quota(burst=30, every=10.0),  # inbox looks (a page polls one a minute at most)
    "practice": Quota(burst=30, every=2.0),  # practice positions asked for and answered
    "push": Quota(burst=10, every=30.0),  # Web Push subscriptions made, changed and deleted
}
LOCAL = frozenset({"127.0.0.1", "::1"})
"""Clients on the server's own machine: its operator (load tests, health checks), to whom the
per-client limits do not apply (:func:`client_key` says None for them: the same rule for both
addresses, and only on a request no proxy relayed). Behind a reverse proxy, the proxy must
send X-Forwarded-For, or every client looks local."""


class ClientLimits:
    """Per-client rate limits of the REST and WebSocket requests that cost the server.

    Kept by the ``limits`` package (a moving window per client and kind): in this process's
    memory, or in Redis once :meth:`share` is called, so that every process of a server counts
    the same requests; while Redis cannot be reached, each process allows its share
    (:mod:`yacht.web.edge.shared`).

    >>> import asyncio
    >>> limits = ClientLimits({"join": Quota(burst=2, every=10)})
    >>> async def joins(n: int) -> list[str]:
    ...     said = []
    ...     for _ in range(n):
    ...         try:
    ...             await limits.take("join", "203.0.113.7")
    ...             said.append("ok")
    ...         except Exception as e:
    ...             said.append(str(e))
    ...     return said
    >>> asyncio.run(joins(3))
    ['ok', 'ok', 'too many joins: at most 2 in any 20 s']
    """

    def __init__(
        self, quotas: Mapping[str, Quota] | None = None, exempt: frozenset[str] = frozenset()
    ) -> None:
        self.exempt = exempt
        self.quotas = dict(quotas or QUOTAS)
        self.local = MovingWindowRateLimiter(MemoryStorage())
        self.shared: SharedLimits | None = None
        self._redis: MovingWindowRateLimiter | None = None

    def share(self, shared: SharedLimits) -> None:
        """Count in Redis, through ``shared``, from now on."""
        from limits.aio.storage import RedisStorage

        self.shared = shared
        storage = RedisStorage(
            "async+redis://",
            implementation="redispy",
            key_prefix=f"{shared.prefix}rate",
            connection_pool=shared.pool,  # type: ignore[arg-type]
        )
        self._redis = MovingWindowRateLimiter(storage)

    async def take(self, kind: str, client: str | None) -> None:
        """Spend one of ``client``'s ``kind`` tokens; TableError ``rate_limited`` if none."""
        await self._ask(kind, client, spend=True)

    async def check(self, kind: str, client: str | None) -> None:
        """TableError ``rate_limited`` if ``client`` has no ``kind`` token left; spends none
        (for a quota of failures: checked before, taken only when the request fails)."""
        await self._ask(kind, client, spend=False)

    async def _ask(self, kind: str, client: str | None, *, spend: bool) -> None:
        if client is None or client in self.exempt:
            return
        quota = self.quotas[kind]
        share = 1
        allowed: bool | None = None
        shared, remote = self.shared, self._redis
        if shared is not None and remote is not None:
            ask = remote.hit if spend else remote.test
            allowed = await shared.call(lambda: ask(quota.item(), kind, client))
            if allowed is None:
                share = shared.processes
        if allowed is None:
            ask = self.local.hit if spend else self.local.test
            allowed = await ask(quota.item(share), kind, client)
        if allowed:
            return
        from yacht.web.protocol.errors import TableError

        log.warning("rate limited: %s", kind, extra={"client": client, "limit": kind})
        raise TableError("rate_limited", quota.describe(_WHAT[kind], share))


_WHAT = {
    "create": "new tables",
    "join": "joins",
    "hint": "hints",
    "action": "requests",
    "connect": "connections",
    "seat": "reconnects of one seat",
    "guess": "unknown table codes",
    "signin": "sign-ins",
    "signin_name": "sign-ins to one account",
    "signup": "new accounts",
    "sync": "offline game syncs",
    "inbox": "inbox looks",
    "practice": "practice requests",
    "push": "push subscription changes",
}


class Connections:
    """Open connections per client, capped at ``cap``: counted in this process, and with
    :attr:`shared` (Redis) over every process of the server, a process that cannot reach
    Redis allowing its share. One instance per process: :data:`OPEN`.

    >>> import asyncio
    >>> slots = Connections(cap=2)
    >>> asyncio.run(slots.take("a")), asyncio.run(slots.take("a")), asyncio.run(slots.take("a"))
    (True, True, False)
    >>> slots.give("a"); slots.held("a")
    1
    """

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: Counter[str] = Counter()
        self.shared: SharedLimits | None = None

    def held(self, client: str) -> int:
        return self.counts[client]

    def take_here(self, client: str, cap: int | None = None) -> bool:
        """A slot counted in this process only (no Redis, or as its share without it)."""
        cap = cap or self.cap
        if self.shared is not None:
            cap = self.shared.share(cap)
        if self.counts[client] >= cap:
            return False
        self.counts[client] += 1
        return True

    async def take(self, client: str, cap: int | None = None) -> bool:
        """Take one of ``client``'s slots; False (nothing taken) when it holds ``cap`` (by
        default :attr:`cap`)."""
        shared = self.shared
        if shared is None:
            return self.take_here(client, cap)
        taken = await shared.take_slot(client, cap or self.cap)
        if taken is None:
            return self.take_here(client, cap)
        if taken:
            self.counts[client] += 1
        return taken

    def give(self, client: str) -> None:
        """Give back one of ``client``'s slots."""
        self.counts[client] -= 1
        if self.counts[client] <= 0:
            del self.counts[client]
        if self.shared is not None:
            self.shared.give_slot(client)


RELAYED = frozenset({b"x-forwarded-for", b"forwarded"})
"""Headers a reverse proxy sets: a request that carries one came through a proxy."""


def address_key(address: str) -> str:
    """The client an address belongs to: an IPv4 address as it is, an IPv6 address by its
    /64 (one ordinary host, or one household's router, is given a whole /64 to take addresses
    from: counted by full address, it could open a new "client" for every request); anything
    else (a test client's name, a Unix socket) as it is.

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:aaaa::9")
    ('203.0.113.7', '2001:db8:1:2::/64')
    >>> address_key("::ffff:203.0.113.7"), address_key("::1"), address_key("testclient")
    ('203.0.113.7', '::1', 'testclient')
    """
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        if not ip.is_loopback:
            return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def is_loopback(address: str) -> bool:
    """127.0.0.0/8, ::1 or ::ffff:127.x: the server's own machine.

    >>> [is_loopback(a) for a in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "10.0.0.1", "x")]
    [True, True, True, False, False]
    """
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def client_key(scope: Scope) -> str | None:
    """Who a request comes from, for the per-client limits (None: nobody to limit).

    The address is the scope's client: the connection's own, or the X-Forwarded-For address
    when ``yacht serve`` trusts the connection as a proxy (``$FORWARDED_ALLOW_IPS``). The
    server's own machine, 127.0.0.1 and ::1 alike, is not limited, but only on a request no
    proxy relayed (no X-Forwarded-For or Forwarded header): behind a proxy on the same
    machine every visitor comes from a loopback address, and a visitor whose header named one
    would otherwise be exempt. IPv6 addresses count by their /64 (:func:`address_key`).

    >>> client_key({"client": ("::1", 5000), "headers": []}) is None
    True
    >>> client_key({"client": ("::1", 5000), "headers": [(b"x-forwarded-for", b"::1")]})
    '::1'
    >>> client_key({"client": ("2001:db8::7", 5000), "headers": []})
    '2001:db8::/64'
    """
    client = scope.get("client")
    if not client:
        return None
    address = str(client[0])
    if is_loopback(address) and not any(k in RELAYED for k, _ in scope.get("headers", ())):
        return None
    return address_key(address)


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
