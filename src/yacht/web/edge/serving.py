"""How ``yacht serve`` meets slow and greedy clients, below the app (uvicorn's HTTP protocol).

- A client has :data:`HEADER_TIMEOUT` seconds from opening a connection (or from the first
  byte of its next request) to the end of the request's headers, and :data:`BODY_TIMEOUT`
  seconds from there to the end of its body; after that the connection is answered 408 and
  closed. An idle keep-alive connection is closed after :data:`KEEP_ALIVE` seconds.
- One client (address) may hold :data:`MAX_CONNECTIONS` connections at once, HTTP and
  WebSocket together; one more is answered 429 and closed (a WebSocket: refused at the
  handshake with 403); an IPv6 client is its /64. The addresses trusted as proxies
  (``$FORWARDED_ALLOW_IPS``: addresses or networks, by default 127.0.0.1 and ::1 alike, the
  one list both uvicorn and this guard read) are not capped as one client: every client of
  a reverse proxy comes from its address (cap connections in the proxy then); their
  WebSockets are still capped per client, by the X-Forwarded-For address.

These are the figures of docs/web/limits.md; :func:`serve_options` hands them to
``uvicorn.run``, and refuses to start the server when they cannot be applied.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import os
from collections.abc import Collection, MutableMapping
from typing import Any

from yacht.web.edge.limits import Connections, address_key

__all__ = [
    "BODY_TIMEOUT",
    "HEADER_TIMEOUT",
    "KEEP_ALIVE",
    "MAX_CONNECTIONS",
    "OPEN",
    "TRUSTED",
    "Trusted",
    "UnguardedError",
    "guarded_protocol",
    "peer_address",
    "serve",
    "serve_options",
]

log = logging.getLogger("yacht.web.edge.limits")

HEADER_TIMEOUT = 10.0  # s to send a request's headers
BODY_TIMEOUT = 30.0  # s to send its body (bodies are at most 64 KiB)
KEEP_ALIVE = 5  # s an idle keep-alive connection stays open
CLEANUP = 5.0  # s the app's own shutdown (bots, database, Redis) may take after the grace
MAX_CONNECTIONS = 32  # connections one client may hold at once (HTTP and WebSocket)

OPEN = Connections(MAX_CONNECTIONS)
"""Open connections per client address (HTTP and WebSocket), shared through Redis when the
server has it (:meth:`yacht.web.edge.limits.Connections.take`)."""


TRUSTED = "127.0.0.1,::1"
"""The proxies trusted to set X-Forwarded-For when ``$FORWARDED_ALLOW_IPS`` is not set."""


class Trusted:
    """The addresses trusted as reverse proxies, as uvicorn reads them: a comma-separated
    list of addresses and networks, ``*`` for any.

    >>> trusted = Trusted("127.0.0.1, ::1, 10.1.0.0/16")
    >>> ["10.1.2.3" in trusted, "::1" in trusted, "10.2.0.1" in trusted, "x" in trusted]
    [True, True, False, False]
    >>> "203.0.113.9" in Trusted("*")
    True
    """

    def __init__(self, listed: str | Collection[str]) -> None:
        items = listed.split(",") if isinstance(listed, str) else listed
        self.names = {item.strip() for item in items if item.strip()}
        self.everyone = "*" in self.names
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for name in self.names:
            try:
                self.networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                continue  # a host name or a Unix socket: matched as written

    def __contains__(self, address: object) -> bool:
        if not isinstance(address, str):
            return False
        if self.everyone or address in self.names:
            return True
        try:
            ip = ipaddress.ip_address(address.split("%")[0])
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


PEER = "yacht.peer"
"""The scope extension that holds the connection's own peer address."""


def peer_address(scope: MutableMapping[str, Any]) -> str | None:
    """The address of the connection a request came on: as ``yacht serve``'s protocol saw it,
    else (another server, a test client) the scope's client, which no proxy header rewrote
    there.

    >>> peer_address({"client": ("10.0.0.9", 50000), "extensions": {PEER: {"address": "::1"}}})
    '::1'
    """
    seen = scope.get("extensions", {}).get(PEER)
    if seen is not None:
        return str(seen["address"])
    client = scope.get("client")
    return str(client[0]) if client else None


def _answer(status: bytes, code: str, message: str) -> bytes:
    body = json.dumps({"type": "error", "code": code, "message": message, "ref": None}).encode()
    head = (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n"
    )
    return head + body


def guarded_protocol(
    header_timeout: float = HEADER_TIMEOUT,
    body_timeout: float = BODY_TIMEOUT,
    max_connections: int = MAX_CONNECTIONS,
    proxies: Collection[str] | Trusted = (),
) -> type[Any]:
    """uvicorn's httptools protocol with the timeouts and the per-client cap above."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    trusted = proxies if isinstance(proxies, Trusted) else Trusted(proxies)

    class GuardedProtocol(HttpToolsProtocol):
        _timer: asyncio.TimerHandle | None = None
        _key: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            key = None if address is None else address_key(address)
            if address is None or address in trusted:
                key = None  # a proxy's clients are told apart by X-Forwarded-For
            if key is None:
                self._arm(header_timeout, "headers")
            elif OPEN.shared is None:
                self._admitted(key, OPEN.take_here(key, max_connections))
            else:  # nothing is read until every process's count says yes
                transport.pause_reading()
                task = self.loop.create_task(OPEN.take(key, max_connections))
                task.add_done_callback(lambda done: self._admitted(key, done.result()))

        def _admitted(self, key: str, taken: bool) -> None:
            if self.transport.is_closing():
                if taken:
                    OPEN.give(key)
                return
            if not taken:
                log.warning(
                    "refused a connection over %d per client",
                    max_connections,
                    extra={"client": key, "limit": "connections"},
                )
                message = f"too many connections: at most {max_connections} per client"
                self.transport.write(_answer(b"429 Too Many Requests", "rate_limited", message))
                self.transport.close()
                return
            self._key = key
            if OPEN.shared is not None:
                self.transport.resume_reading()
            self._arm(header_timeout, "headers")

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._release()
            super().connection_lost(exc)

        def _release(self) -> None:
            if self._key is not None:
                OPEN.give(self._key)
                self._key = None

        def _arm(self, seconds: float, what: str) -> None:
            self._disarm()
            self._timer = self.loop.call_later(seconds, self._expired, what, seconds)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _expired(self, what: str, seconds: float) -> None:
            self._timer = None
            if self.transport.is_closing():
                return
            log.warning(
                "dropped a client too slow to send its request %s",
                what,
                extra={"client": self._key},
            )
            message = f"request {what} not received within {seconds:g} s"
            self.transport.write(_answer(b"408 Request Timeout", "invalid", message))
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self._timer is None:
                self._arm(header_timeout, "headers")

        def on_headers_complete(self) -> None:
            self._arm(body_timeout, "body")
            if self.client:  # before a proxy's headers can rewrite the scope's client
                self.scope.setdefault("extensions", {})[PEER] = {"address": self.client[0]}
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            self._release()  # the socket counts itself (yacht.web.api.sockets)
            super().handle_websocket_upgrade()

    return GuardedProtocol


HOOKS = (
    "connection_made",
    "connection_lost",
    "on_message_begin",
    "on_headers_complete",
    "on_message_complete",
    "handle_websocket_upgrade",
)
"""The methods of uvicorn's httptools protocol that :func:`guarded_protocol` extends."""


class UnguardedError(RuntimeError):
    """The limits above cannot be applied: the server refuses to start without them."""


def serve_options() -> dict[str, Any]:
    """The uvicorn.run options that apply the limits above.

    Fails closed: when uvicorn's httptools protocol is missing, or no longer has every method
    the guard extends (a uvicorn release that changed it), :class:`UnguardedError` says so
    and the server does not start, rather than serving with no timeouts and no cap."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError as e:
        raise UnguardedError(
            f"uvicorn's httptools protocol cannot be imported ({e}): install uvicorn[standard]"
        ) from None
    missing = [name for name in HOOKS if not callable(getattr(HttpToolsProtocol, name, None))]
    if missing:
        raise UnguardedError(
            "this uvicorn's httptools protocol lacks " + ", ".join(missing) + ": the slow-client "
            "timeouts and the connection cap cannot be applied; install a supported uvicorn"
        )
    trusted = os.environ.get("FORWARDED_ALLOW_IPS", TRUSTED)
    return {
        "timeout_keep_alive": KEEP_ALIVE,
        "http": guarded_protocol(proxies=Trusted(trusted)),
        "forwarded_allow_ips": trusted,  # uvicorn trusts the same proxies as the guard
    }


def serve(app: Any, grace: float, **options: Any) -> int:
    """Run ``app`` under uvicorn (``options`` as ``uvicorn.run`` takes them) until SIGTERM or
    SIGINT, then shut down within a bound.

    uvicorn stops accepting connections, closes the idle ones, closes every WebSocket with
    1012 ("service restart": the page reconnects, to another process behind a balancer) and
    lets the requests in flight finish with ``Connection: close``; after ``grace`` seconds
    (``timeout_graceful_shutdown``) it cancels those still running (a client sending its body
    slowly included). The app's own shutdown then has :data:`CLEANUP` seconds. Returns the
    exit status: 0, or 3 when the server could not start (as ``uvicorn.run``)."""
    import uvicorn

    class BoundedServer(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            try:
                await asyncio.wait_for(super().shutdown(sockets), grace + CLEANUP)
            except TimeoutError:
                log.error(
                    "shutdown did not finish within %g s: exiting anyway",
                    grace + CLEANUP,
                    extra={"grace": grace},
                )

    config = uvicorn.Config(app, timeout_graceful_shutdown=math.ceil(grace), **options)
    server = BoundedServer(config)
    server.run()
    return 0 if server.started else 3
