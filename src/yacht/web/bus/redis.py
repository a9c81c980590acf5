"""Table updates across server processes through Redis pub/sub (``yacht serve --redis URL``).

:class:`RedisBroadcaster` implements :class:`yacht.web.bus.broadcast.Broadcaster`. A publish is
delivered at once to the subscribers in this process (exactly like
:class:`~yacht.web.bus.broadcast.LocalBroadcaster`) and sent through Redis to every other process,
which hands it to its own subscribers. Each process keeps one subscriber connection and
subscribes to a table's channel only while one of its WebSockets watches that table, so a
process receives only the tables it serves. Redis sends a message to every subscriber of its
channel, the publisher's own subscriber connection included (pub/sub has no "not to me"), so a
process recognises its own publishes by their first line and drops them unread.

Nothing is lost silently: when the subscriber connection drops, every local inbox gets a
resync marker (``None``: the WebSocket re-reads the table from the database and sends the
current state), the connection is made again and the channels subscribed again. Publishes go
through :class:`Publisher`, which never makes a move wait for Redis and writes again what Redis
did not acknowledge before a reconnect. The game state itself never travels only through Redis:
it is in the database before anything is published.

The connections are redis-py's (``redis.asyncio``, replies parsed by hiredis), made from the
URL by its :meth:`~redis.asyncio.ConnectionPool.from_url`: ``redis://HOST:PORT/DB``,
``rediss://`` (TLS; the query takes ``ssl_ca_certs``, ``ssl_certfile``, ``ssl_keyfile``,
``ssl_cert_reqs`` and redis-py's other connection options), ``unix:///PATH?db=N``, and
``USER:PASSWORD@`` (an ACL user) or ``:PASSWORD@`` before the host. Each of the two long-lived
connections is read by exactly one task: the subscriber's messages, and the publisher's
acknowledgements. redis-py's own ``PubSub`` and ``Pipeline`` are not used on the hot path:
``PubSub`` reconnects and re-subscribes by itself, which would hide the drop that must resync
the inboxes, and a ``Pipeline`` waits for its replies before the next batch can go, at about
twice the CPU per publish of writing the packed commands and reading the acknowledgements in a
task of their own (20 against 8-11 us a publish, four a turn of the loop, 3 KB each, against the
Redis of ``make services``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import secrets
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from itertools import islice
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import RedisError, ResponseError

from yacht.web.bus.broadcast import Inbox, NoteHandler

__all__ = ["Publisher", "RedisBroadcaster", "RedisURLError", "probe", "redact"]

log = logging.getLogger("yacht.web.redis")

RECONNECT_DELAY = 0.5  # seconds between attempts to get a connection back
CONNECT_TIMEOUT = 5.0
MAX_PENDING = 20_000  # unacknowledged publishes kept for a resend; older ones are dropped
SECRETS = ("password", "ssl_password")  # query options never shown
FILES = ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile", "ssl_ca_path")
FAILURES = (RedisError, OSError, TimeoutError)  # what a connection to Redis can raise


def redact(url: str) -> str:
    """``url`` with its password (and any password in the query) replaced by ``***``.

    >>> redact("redis://ann:s%40cret@db.example:6380/1?ssl_password=x&db=2")
    'redis://ann:***@db.example:6380/1?ssl_password=***&db=2'
    >>> redact("rediss://:hunter2@localhost")
    'rediss://:***@localhost'
    >>> redact("unix:///run/redis.sock?db=3")
    'unix:///run/redis.sock?db=3'
    """
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.partition("://")[0] + "://***"
    netloc = parts.netloc
    if password is not None:
        userinfo, _, host = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}:***@{host}"
    query = "&".join(
        f"{name}={'***' if name in SECRETS else value}"
        for name, value in parse_qsl(parts.query, keep_blank_values=True)
    )
    return f"{parts.scheme}://{netloc}{parts.path}" + (f"?{query}" if query else "")


class RedisURLError(ValueError):
    """A ``--redis`` URL that cannot be used. ``url`` is redacted; ``why`` is ``scheme``,
    ``option`` (``detail`` names it), ``file`` (``detail`` is the path) or ``invalid``
    (``detail`` is redis-py's English)."""

    def __init__(self, url: str, why: str, detail: str = "") -> None:
        self.url, self.why, self.detail = redact(url), why, detail
        reasons = {
            "scheme": "a Redis URL starts with redis://, rediss:// or unix://",
            "option": f"unknown option {detail}",
            "file": f"no such file: {detail}",
        }
        super().__init__(f"Redis URL {self.url}: {reasons.get(why, detail)}")


def connection_pool(url: str) -> ConnectionPool:
    """redis-py's pool for ``url`` (only its :meth:`make_connection` is used); raises
    :class:`RedisURLError` for a URL it cannot use, before anything connects."""
    try:
        parts = urlsplit(url)
    except ValueError as e:
        raise RedisURLError(url, "invalid", str(e)) from None
    if parts.scheme not in ("redis", "rediss", "unix"):
        raise RedisURLError(url, "scheme")
    if parts.scheme == "unix" and not parts.path:
        raise RedisURLError(url, "invalid", "unix:// needs the socket's path")
    for name, value in parse_qsl(parts.query):
        if name in FILES and not os.path.exists(value):
            raise RedisURLError(url, "file", value)
    try:
        # A read blocks as long as it must (the subscriber waits for messages); connecting
        # and authenticating are bounded by CONNECT_TIMEOUT around them. RESP2: in RESP3 a
        # message is a push, which redis-py also formats into a debug line, logged or not.
        # The URL's own options come first.
        pool = ConnectionPool.from_url(url, socket_timeout=None, protocol=2)
        new_connection(pool)  # an unknown option fails here, not at the first connect
    except TypeError as e:
        option = str(e).rpartition("argument")[2].strip(" '\"") or str(e)
        raise RedisURLError(url, "option", option) from None
    except (ValueError, RedisError) as e:
        raise RedisURLError(url, "invalid", str(e)) from None
    return pool


def new_connection(pool: ConnectionPool) -> AbstractConnection:
    """A connection of ``pool``'s class and options, not connected yet."""
    connection: AbstractConnection = pool.make_connection()  # type: ignore[no-untyped-call]
    return connection


async def connect(pool: ConnectionPool) -> AbstractConnection:
    """A new connection of ``pool``, authenticated and on its database."""
    connection = new_connection(pool)
    try:
        await asyncio.wait_for(connection.connect(), CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except BaseException:
        await connection.disconnect(nowait=True)
        raise
    return connection


async def probe(url: str) -> None:
    """Raise ``ConnectionError`` naming the redacted URL unless Redis answers a PING there now
    (:class:`RedisURLError` for a URL that cannot be used)."""
    await probe_pool(connection_pool(url), redact(url))


async def probe_pool(pool: ConnectionPool, shown: str) -> None:
    """:func:`probe` on a pool already made (``shown`` is its redacted URL)."""
    try:
        connection = await connect(pool)
        try:
            await connection.send_command("PING", check_health=False)
            reply = await asyncio.wait_for(connection.read_response(), CONNECT_TIMEOUT)
        finally:
            await connection.disconnect(nowait=True)
    except TimeoutError:
        raise ConnectionError(f"{shown}: no answer within {CONNECT_TIMEOUT:g} s") from None
    except FAILURES as e:
        raise ConnectionError(f"{shown}: {e}") from None
    if reply not in (b"PONG", "PONG"):
        raise ConnectionError(f"{shown}: PING answered {reply!r}")


class Publisher:
    """``PUBLISH`` over one connection, pipelined: the publishes of one turn of the event loop
    are packed into one write by a task that never waits for Redis to answer before the next
    write; a second task reads the answers, which acknowledge the commands in order. So a move
    never waits on a Redis round trip, a burst of moves needs no pool of connections, and the
    messages of one process reach Redis in the order they were published. Commands not
    acknowledged when the connection drops are written again on the next one (a state
    delivered twice is harmless: clients keep the newest revision)."""

    def __init__(self, pool: ConnectionPool, shown: str) -> None:
        self.pool = pool
        self.shown = shown  # the redacted URL, for the log
        self._pending: deque[tuple[str, bytes]] = deque()  # not acknowledged, in order
        self._unsent = 0  # the last ones of _pending, not written on this connection yet
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._broken = False  # the acknowledgements' reader lost the connection
        self._down = False  # said so in the log already: one line per outage, not per attempt
        self.connected = asyncio.Event()
        self.dropped = 0  # publishes given up because Redis stayed away too long

    def publish(self, channel: str, payload: bytes) -> None:
        if len(self._pending) >= MAX_PENDING:
            self._pending.popleft()
            self._unsent = min(self._unsent, len(self._pending))
            self.dropped += 1
            if self.dropped % 1000 == 1:
                log.warning(
                    "redis %s unreachable: %d table updates dropped so far",
                    self.shown,
                    self.dropped,
                )
        self._pending.append((channel, payload))
        self._unsent += 1
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        while True:
            try:
                connection = await connect(self.pool)
            except FAILURES as e:
                self._lost("cannot connect to", e)
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            self._down = False
            self._unsent = len(self._pending)  # whatever was not acknowledged, in order
            self._broken = False
            self.connected.set()
            reader = asyncio.get_running_loop().create_task(self._acknowledge(connection))
            try:
                await self._write(connection)
            except FAILURES as e:
                self._lost("lost its connection to", e)
            finally:
                self.connected.clear()
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
                await connection.disconnect(nowait=True)
            await asyncio.sleep(RECONNECT_DELAY)

    async def _write(self, connection: AbstractConnection) -> None:
        """Write what is published, a turn's worth at a time, until the connection breaks."""
        while True:
            if not self._unsent:
                self._wake.clear()
                await self._wake.wait()
            if self._broken:
                raise ConnectionError("no answers")
            start = len(self._pending) - self._unsent
            commands = [("PUBLISH", c, p) for c, p in islice(self._pending, start, None)]
            self._unsent = 0
            await connection.send_packed_command(
                connection.pack_commands(commands), check_health=False
            )

    async def _acknowledge(self, connection: AbstractConnection) -> None:
        try:
            while True:
                try:
                    await connection.read_response(timeout=math.inf, disconnect_on_error=False)
                except ResponseError as e:
                    log.error("redis refused a publish: %s", e)
                if self._pending:
                    self._pending.popleft()
        except FAILURES as e:
            self._lost("lost its connection to", e)
        self._broken = True
        self._wake.set()

    def _lost(self, what: str, error: BaseException) -> None:
        if not self._down:
            self._down = True
            log.warning("redis publisher %s %s: %s", what, self.shown, error)


class RedisBroadcaster:
    """The :class:`~yacht.web.bus.broadcast.Broadcaster` of a server that shares tables with others.

    ``prefix`` namespaces the channels (pub/sub channels are shared by every database of a
    Redis server); processes that play together use the same prefix. A URL that cannot be
    used raises :class:`RedisURLError` here; a Redis that cannot be reached is retried (and
    named in the log and by :meth:`check`).
    """

    def __init__(self, url: str, *, prefix: str = "yacht:") -> None:
        self.pool = connection_pool(url)
        self.shown = redact(url)
        self.prefix = prefix
        self.origin = secrets.token_hex(8).encode()  # marks what this process published
        self._own = self.origin + b"\n"  # a frame that starts so is this process's own
        self._local: dict[str, set[Inbox]] = {}  # Redis channel -> inboxes in this process
        self._ready: dict[str, asyncio.Future[None]] = {}  # subscriptions not confirmed yet
        self._unconfirmed: dict[str, int] = {}  # SUBSCRIBE commands sent, not yet confirmed
        self._connection: AbstractConnection | None = None  # the subscriber's, while up
        self._connected: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._publisher: Publisher | None = None  # made in the event loop, on first use
        self._failing = False  # the last attempt to connect the subscriber failed
        self._on_note: NoteHandler = lambda _channel, _note: None
        self._on_link: Callable[[bool], None] = lambda _up: None
        self._closed = False

    # --- the Broadcaster interface -------------------------------------------------------

    async def publish(self, channel: str, message: str, note: str | None = None) -> None:
        key = self.prefix + channel
        self._deliver(key, message)
        if self._publisher is None:
            self._publisher = Publisher(self.pool, self.shown)
        # origin, note (may be empty), message: one line each but the last (JSON has no raw
        # newline)
        frame = b"\n".join((self.origin, (note or "").encode(), message.encode()))
        self._publisher.publish(key, frame)

    def on_note(self, handler: NoteHandler) -> None:
        self._on_note = handler

    def on_link(self, handler: Callable[[bool], None]) -> None:
        """Have ``handler`` told when the subscriber connection is lost (False) and when it is
        back (True, after every inbox was given its resync marker)."""
        self._on_link = handler

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Inbox]:
        return self._subscription(self.prefix + channel)

    # --- health and lifetime -------------------------------------------------------------

    async def check(self) -> None:
        """Raise unless Redis answers a PING now and the subscriber connection is up; the
        error names the URL, its password redacted."""
        await probe_pool(self.pool, self.shown)
        self._start()
        assert self._connected is not None
        try:
            await asyncio.wait_for(self._connected.wait(), CONNECT_TIMEOUT)
        except TimeoutError:
            raise ConnectionError(f"{self.shown}: the subscriber is not connected") from None

    async def aclose(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        await self._drop_connection()
        if self._publisher is not None:
            await self._publisher.aclose()

    def subscribers(self, channel: str) -> int:
        """Subscribers of ``channel`` in this process."""
        return len(self._local.get(self.prefix + channel, ()))

    # --- subscriptions -------------------------------------------------------------------

    @asynccontextmanager
    async def _subscription(self, key: str) -> AsyncIterator[Inbox]:
        inbox = Inbox()
        boxes = self._local.setdefault(key, set())
        first = not boxes
        boxes.add(inbox)
        try:
            if first:
                self._ready[key] = asyncio.get_running_loop().create_future()
                self._start()
                if await self._send("SUBSCRIBE", key):
                    self._unconfirmed[key] = self._unconfirmed.get(key, 0) + 1
            ready = self._ready.get(key)
            if ready is not None and not self._failing:
                try:  # so that nothing published after the caller reads the table is missed
                    await asyncio.wait_for(asyncio.shield(ready), CONNECT_TIMEOUT)
                except TimeoutError:
                    log.warning("redis did not confirm the subscription to %s in time", key)
            # Redis away: the reconnection subscribes every channel and resyncs every inbox.
            yield inbox
        finally:
            boxes.discard(inbox)
            if not boxes and self._local.get(key) is boxes:
                del self._local[key]
                self._ready.pop(key, None)
                await self._send("UNSUBSCRIBE", key)

    async def _send(self, *args: str) -> bool:
        """Write a command on the subscriber connection; False when it is down (on reconnect
        every channel of ``_local`` is subscribed again). Shielded: redis-py closes a
        connection whose write was cancelled, and this one is every table's."""
        connection = self._connection
        if connection is None or not connection.is_connected:
            return False
        try:
            await asyncio.shield(connection.send_command(*args, check_health=False))
        except FAILURES:
            return False  # the reader notices the drop and resyncs
        return True

    def _deliver(self, key: str, message: str | None) -> None:
        for inbox in tuple(self._local.get(key, ())):
            inbox.put(message)

    def _resync_all(self) -> None:
        for key in self._local:
            self._deliver(key, None)

    # --- the subscriber connection -------------------------------------------------------

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._connected = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self._connected is not None
        missed = False  # True once a subscriber may have missed messages (a drop, a failure)
        while not self._closed:
            try:
                connection = await self._open()
            except FAILURES as e:
                if not self._failing:  # one line per outage, not one per attempt
                    log.warning("redis subscriber cannot connect to %s: %s", self.shown, e)
                    self._on_link(False)
                self._failing = missed = True
                for ready in self._ready.values():  # waiting is over: the reconnection resyncs
                    if not ready.done():
                        ready.set_result(None)
                self._ready.clear()
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            back = self._failing
            self._failing = False
            self._connected.set()
            if missed and self._local:
                log.info("redis subscriber connected: resyncing %d tables", len(self._local))
                self._resync_all()
            elif back:
                log.info("redis subscriber connected to %s again", self.shown)
            if back:
                self._on_link(True)
            missed = True  # from now on, losing the connection loses messages
            try:
                await self._listen(connection)
            except FAILURES as e:
                log.warning("redis subscriber lost its connection to %s: %s", self.shown, e)
            self._connected.clear()
            await self._drop_connection()
            self._resync_all()
            if not self._closed:
                self._failing = True  # quiet until it is back (see above)
                self._on_link(False)
                await asyncio.sleep(RECONNECT_DELAY)

    async def _open(self) -> AbstractConnection:
        connection = await connect(self.pool)
        self._unconfirmed = dict.fromkeys(self._local, 1)
        if self._local:
            try:
                await connection.send_command("SUBSCRIBE", *self._local, check_health=False)
            except BaseException:
                await connection.disconnect(nowait=True)
                raise
        self._connection = connection
        return connection

    async def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with suppress(*FAILURES):
                await connection.disconnect(nowait=True)

    async def _listen(self, connection: AbstractConnection) -> None:
        read = connection.read_response
        received = self._received
        while True:
            try:
                reply = await read(timeout=math.inf, disconnect_on_error=False, push_request=True)
            except ResponseError as e:
                log.error("redis subscriber: %s", e)
                continue
            received(reply)

    def _received(self, reply: Any) -> None:
        if not isinstance(reply, list) or len(reply) < 3:
            return
        kind = reply[0]
        if kind == b"message":
            frame: bytes = reply[2]
            if frame.startswith(self._own):  # this process's own publish, back from Redis
                return
            start = frame.find(b"\n") + 1
            end = frame.find(b"\n", start)
            key = reply[1].decode()
            if end > start:
                self._on_note(key[len(self.prefix) :], frame[start:end].decode())
            self._deliver(key, str(memoryview(frame)[end + 1 :], "utf-8"))
        elif kind == b"subscribe":
            key = reply[1].decode()
            left = self._unconfirmed.get(key, 0) - 1
            if left > 0:  # an older SUBSCRIBE of the same channel: wait for the newest
                self._unconfirmed[key] = left
                return
            self._unconfirmed.pop(key, None)
            ready = self._ready.pop(key, None)
            if ready is not None and not ready.done():
                ready.set_result(None)
