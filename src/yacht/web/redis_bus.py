"""Table updates across server processes through Redis pub/sub (``yacht serve --redis URL``).

:class:`RedisBroadcaster` implements :class:`yacht.web.broadcast.Broadcaster`. A publish is
delivered at once to the subscribers in this process (exactly like
:class:`~yacht.web.broadcast.LocalBroadcaster`) and sent through Redis to every other process,
which hands it to its own subscribers; a process ignores what it published itself. Each
process keeps one subscriber connection and subscribes to a table's channel only while one of
its WebSockets watches that table, so a process receives only the tables it serves.

Nothing is lost silently: when the subscriber connection drops, every local inbox gets a
resync marker (``None``: the WebSocket re-reads the table from the database and sends the
current state), the connection is made again and the channels subscribed again. A publish
that cannot reach Redis is logged and still delivered locally; the other processes resync
when their own connections come back. The game state itself never travels only through
Redis: it is in the database before anything is published.

The subscriber speaks the few RESP2 commands pub/sub needs over one asyncio stream, so exactly
one task reads the connection; publishing and health checks use the ``redis`` package.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any
from urllib.parse import unquote, urlsplit

from yacht.web.broadcast import Inbox

__all__ = ["RedisBroadcaster", "RedisReplyError", "encode_command", "redis_address"]

log = logging.getLogger("yacht.web.redis")

RECONNECT_DELAY = 0.5  # seconds between attempts to get the subscriber connection back
CONNECT_TIMEOUT = 5.0


class RedisReplyError(RuntimeError):
    """Redis answered a command with an error."""


def redis_address(url: str) -> tuple[str, int, str | None, str | None]:
    """Host, port, user and password of a ``redis://`` URL.

    >>> redis_address("redis://127.0.0.1:56379/0")
    ('127.0.0.1', 56379, None, None)
    >>> redis_address("redis://:s%40cret@localhost/2")
    ('localhost', 6379, None, 's@cret')
    >>> redis_address("http://127.0.0.1/")
    Traceback (most recent call last):
    ...
    ValueError: a Redis URL starts with redis:// (got 'http://127.0.0.1/')
    """
    parts = urlsplit(url)
    if parts.scheme != "redis" or not parts.hostname:
        raise ValueError(f"a Redis URL starts with redis:// (got {url!r})")
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password else None
    return parts.hostname, parts.port or 6379, user, password


def encode_command(*args: str | bytes) -> bytes:
    """One command in the Redis protocol (an array of bulk strings).

    >>> encode_command("SUBSCRIBE", "yacht:table:ABC")
    b'*2\\r\\n$9\\r\\nSUBSCRIBE\\r\\n$15\\r\\nyacht:table:ABC\\r\\n'
    """
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg.encode() if isinstance(arg, str) else arg
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


async def read_reply(reader: asyncio.StreamReader) -> Any:
    """One reply: bytes, int, None, a list of replies, or :class:`RedisReplyError`."""
    line = await reader.readuntil(b"\r\n")
    kind, rest = line[:1], line[1:-2]
    if kind == b"*":
        n = int(rest)
        return None if n < 0 else [await read_reply(reader) for _ in range(n)]
    if kind == b"$":
        n = int(rest)
        return None if n < 0 else (await reader.readexactly(n + 2))[:-2]
    if kind == b":":
        return int(rest)
    if kind == b"+":
        return rest
    if kind == b"-":
        return RedisReplyError(rest.decode(errors="replace"))
    raise ConnectionError(f"not the Redis protocol: {line[:40]!r}")


class RedisBroadcaster:
    """The :class:`~yacht.web.broadcast.Broadcaster` of a server that shares tables with others.

    ``prefix`` namespaces the channels (pub/sub channels are shared by every database of a
    Redis server); processes that play together use the same prefix.
    """

    def __init__(self, url: str, *, prefix: str = "yacht:") -> None:
        self.url = url
        self.host, self.port, self._user, self._password = redis_address(url)
        self.prefix = prefix
        self.origin = secrets.token_hex(8).encode()  # marks what this process published
        self._local: dict[str, set[Inbox]] = {}  # Redis channel -> inboxes in this process
        self._ready: dict[str, asyncio.Future[None]] = {}  # subscriptions not confirmed yet
        self._unconfirmed: dict[str, int] = {}  # SUBSCRIBE commands sent, not yet confirmed
        self._writer: asyncio.StreamWriter | None = None
        self._connected: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._client: Any = None  # redis.asyncio.Redis, made on first use in the loop
        self._closed = False

    # --- the Broadcaster interface -------------------------------------------------------

    async def publish(self, channel: str, message: str) -> None:
        key = self.prefix + channel
        self._deliver(key, message)
        try:
            await self._publisher().publish(key, self.origin + b"\n" + message.encode())
        except Exception as e:  # the move is stored; other processes resync on reconnect
            log.warning("redis publish on %s failed: %s", key, e)

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Inbox]:
        return self._subscription(self.prefix + channel)

    # --- health and lifetime -------------------------------------------------------------

    async def check(self) -> None:
        """Raise unless Redis answers a PING and the subscriber connection is up."""
        await asyncio.wait_for(self._publisher().ping(), CONNECT_TIMEOUT)
        self._start()
        assert self._connected is not None
        await asyncio.wait_for(self._connected.wait(), CONNECT_TIMEOUT)

    async def aclose(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._drop_connection()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

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
                if self._send("SUBSCRIBE", key):
                    self._unconfirmed[key] = self._unconfirmed.get(key, 0) + 1
            ready = self._ready.get(key)
            if ready is not None:
                await asyncio.wait_for(asyncio.shield(ready), CONNECT_TIMEOUT)
            yield inbox
        finally:
            boxes.discard(inbox)
            if not boxes and self._local.get(key) is boxes:
                del self._local[key]
                self._ready.pop(key, None)
                self._send("UNSUBSCRIBE", key)

    def _send(self, *args: str) -> bool:
        """Write a command on the subscriber connection; False when it is down (on reconnect
        every channel of ``_local`` is subscribed again)."""
        if self._writer is None or self._writer.is_closing():
            return False
        self._writer.write(encode_command(*args))
        return True

    def _deliver(self, key: str, message: str | None) -> None:
        for inbox in tuple(self._local.get(key, ())):
            inbox.put(message)

    def _resync_all(self) -> None:
        for key in self._local:
            self._deliver(key, None)

    # --- the subscriber connection -------------------------------------------------------

    def _publisher(self) -> Any:
        if self._client is None:
            import redis.asyncio

            self._client = redis.asyncio.Redis.from_url(
                self.url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT
            )
        return self._client

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._connected = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self._connected is not None
        first = True
        while not self._closed:
            try:
                reader = await self._connect()
            except (OSError, TimeoutError, ConnectionError, RedisReplyError) as e:
                log.warning("redis subscriber cannot connect to %s:%d: %s", self.host, self.port, e)
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            self._connected.set()
            if not first:
                log.info("redis subscriber connected again: resyncing %d tables", len(self._local))
                self._resync_all()  # anything published while we were away was missed
            first = False
            try:
                await self._listen(reader)
            except (OSError, asyncio.IncompleteReadError, ConnectionError) as e:
                log.warning("redis subscriber lost its connection: %s", e)
            self._connected.clear()
            self._drop_connection()
            self._resync_all()
            if not self._closed:
                await asyncio.sleep(RECONNECT_DELAY)

    async def _connect(self) -> asyncio.StreamReader:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), CONNECT_TIMEOUT
        )
        try:
            if self._password is not None:
                auth = (self._user, self._password) if self._user else (self._password,)
                writer.write(encode_command("AUTH", *auth))
                reply = await asyncio.wait_for(read_reply(reader), CONNECT_TIMEOUT)
                if isinstance(reply, RedisReplyError):
                    raise reply
        except BaseException:
            writer.close()
            raise
        self._writer = writer
        self._unconfirmed = dict.fromkeys(self._local, 1)
        if self._local:
            writer.write(encode_command("SUBSCRIBE", *self._local))
        return reader

    def _drop_connection(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    async def _listen(self, reader: asyncio.StreamReader) -> None:
        while True:
            reply = await read_reply(reader)
            if isinstance(reply, RedisReplyError):
                log.error("redis subscriber: %s", reply)
                continue
            if not isinstance(reply, list) or len(reply) < 3:
                continue
            kind, key = reply[0], reply[1].decode()
            if kind == b"message":
                origin, _, body = reply[2].partition(b"\n")
                if origin != self.origin:
                    self._deliver(key, body.decode())
            elif kind == b"subscribe":
                left = self._unconfirmed.get(key, 0) - 1
                if left > 0:  # an older SUBSCRIBE of the same channel: wait for the newest
                    self._unconfirmed[key] = left
                    continue
                self._unconfirmed.pop(key, None)
                ready = self._ready.pop(key, None)
                if ready is not None and not ready.done():
                    ready.set_result(None)
