"""Table updates across server processes through Redis pub/sub (``yacht serve --redis URL``).

:class:`RedisBroadcaster` implements :class:`yacht.web.bus.broadcast.Broadcaster`. A publish is
delivered at once to the subscribers in this process (exactly like
:class:`~yacht.web.bus.broadcast.LocalBroadcaster`) and sent through Redis to every other process,
which hands it to its own subscribers; a process ignores what it published itself. Each
process keeps one subscriber connection and subscribes to a table's channel only while one of
its WebSockets watches that table, so a process receives only the tables it serves.

Nothing is lost silently: when the subscriber connection drops, every local inbox gets a
resync marker (``None``: the WebSocket re-reads the table from the database and sends the
current state), the connection is made again and the channels subscribed again. Publishes go
through a pipelined :class:`~yacht.web.bus.resp.Publisher` that never makes a move wait for
Redis and writes again what Redis did not acknowledge before a reconnect. The game state
itself never travels only through Redis: it is in the database before anything is published.

Both connections speak the few RESP2 commands they need over asyncio streams
(:mod:`yacht.web.bus.resp`), each read by exactly one task.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from yacht.web.bus.broadcast import Inbox, NoteHandler
from yacht.web.bus.resp import (
    CONNECT_TIMEOUT,
    RECONNECT_DELAY,
    Publisher,
    RedisReplyError,
    Replies,
    connect,
    encode_command,
    read_reply,
    redis_address,
)

__all__ = ["RedisBroadcaster"]

log = logging.getLogger("yacht.web.redis")


class RedisBroadcaster:
    """The :class:`~yacht.web.bus.broadcast.Broadcaster` of a server that shares tables with others.

    ``prefix`` namespaces the channels (pub/sub channels are shared by every database of a
    Redis server); processes that play together use the same prefix.
    """

    def __init__(self, url: str, *, prefix: str = "yacht:") -> None:
        self.url = url
        self.host, self.port, _, _ = redis_address(url)  # ValueError for a wrong URL
        self.prefix = prefix
        self.origin = secrets.token_hex(8).encode()  # marks what this process published
        self._local: dict[str, set[Inbox]] = {}  # Redis channel -> inboxes in this process
        self._ready: dict[str, asyncio.Future[None]] = {}  # subscriptions not confirmed yet
        self._unconfirmed: dict[str, int] = {}  # SUBSCRIBE commands sent, not yet confirmed
        self._writer: asyncio.StreamWriter | None = None
        self._connected: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._publisher: Publisher | None = None  # made in the event loop, on first use
        self._failing = False  # the last attempt to connect the subscriber failed
        self._on_note: NoteHandler = lambda _channel, _note: None
        self._closed = False

    # --- the Broadcaster interface -------------------------------------------------------

    async def publish(self, channel: str, message: str, note: str | None = None) -> None:
        key = self.prefix + channel
        self._deliver(key, message)
        if self._publisher is None:
            self._publisher = Publisher(self.url)
        # origin, note (may be empty), message: one line each but the last (JSON has no raw
        # newline)
        frame = b"\n".join((self.origin, (note or "").encode(), message.encode()))
        self._publisher.publish(key, frame)

    def on_note(self, handler: NoteHandler) -> None:
        self._on_note = handler

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Inbox]:
        return self._subscription(self.prefix + channel)

    # --- health and lifetime -------------------------------------------------------------

    async def check(self) -> None:
        """Raise unless Redis answers a PING now and the subscriber connection is up."""
        reader, writer = await connect(self.url)
        try:
            writer.write(encode_command("PING"))
            reply = await asyncio.wait_for(read_reply(reader), CONNECT_TIMEOUT)
            if reply != b"PONG":
                raise ConnectionError(f"PING answered {reply!r}")
        finally:
            writer.close()
        self._start()
        assert self._connected is not None
        await asyncio.wait_for(self._connected.wait(), CONNECT_TIMEOUT)

    async def aclose(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._drop_connection()
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
                if self._send("SUBSCRIBE", key):
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

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._connected = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        assert self._connected is not None
        missed = False  # True once a subscriber may have missed messages (a drop, a failure)
        while not self._closed:
            try:
                reader = await self._open()
            except (OSError, TimeoutError, ConnectionError, RedisReplyError) as e:
                log.warning("redis subscriber cannot connect to %s:%d: %s", self.host, self.port, e)
                self._failing = missed = True
                for ready in self._ready.values():  # waiting is over: the reconnection resyncs
                    if not ready.done():
                        ready.set_result(None)
                self._ready.clear()
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            self._failing = False
            self._connected.set()
            if missed and self._local:
                log.info("redis subscriber connected: resyncing %d tables", len(self._local))
                self._resync_all()
            missed = True  # from now on, losing the connection loses messages
            try:
                await self._listen(reader)
            except (OSError, asyncio.IncompleteReadError, ConnectionError) as e:
                log.warning("redis subscriber lost its connection: %s", e)
            self._connected.clear()
            self._drop_connection()
            self._resync_all()
            if not self._closed:
                await asyncio.sleep(RECONNECT_DELAY)

    async def _open(self) -> asyncio.StreamReader:
        reader, writer = await connect(self.url)
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
        replies = Replies(reader)
        while True:
            for reply in await replies.next():
                self._received(reply)

    def _received(self, reply: Any) -> None:
        if isinstance(reply, RedisReplyError):
            log.error("redis subscriber: %s", reply)
            return
        if not isinstance(reply, list) or len(reply) < 3:
            return
        kind, key = reply[0], reply[1].decode()
        if kind == b"message":
            origin, _, rest = reply[2].partition(b"\n")
            if origin != self.origin:
                note, _, body = rest.partition(b"\n")
                if note:
                    self._on_note(key[len(self.prefix) :], note.decode())
                self._deliver(key, body.decode())
        elif kind == b"subscribe":
            left = self._unconfirmed.get(key, 0) - 1
            if left > 0:  # an older SUBSCRIBE of the same channel: wait for the newest
                self._unconfirmed[key] = left
                return
            self._unconfirmed.pop(key, None)
            ready = self._ready.pop(key, None)
            if ready is not None and not ready.done():
                ready.set_result(None)
