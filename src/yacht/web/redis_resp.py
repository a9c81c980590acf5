"""The little of the Redis protocol (RESP2) the server needs, and a pipelined publisher.

:class:`Publisher` keeps one connection and writes the ``PUBLISH`` es of one turn of the event
loop together (one system call; a busy loop finishes several moves a turn), without waiting
for Redis to answer; a task reads the answers, which acknowledge the commands in order. So a
move never waits on a Redis round trip, a burst of moves needs no pool of connections, and the
messages of one process reach Redis in the order they were published. Commands not
acknowledged when the connection drops are written again on the next one (a state delivered
twice is harmless: clients keep the newest revision).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = [
    "CONNECT_TIMEOUT",
    "RECONNECT_DELAY",
    "Publisher",
    "RedisReplyError",
    "connect",
    "encode_command",
    "read_reply",
    "redis_address",
]

log = logging.getLogger("yacht.web.redis")

RECONNECT_DELAY = 0.5  # seconds between attempts to get a connection back
CONNECT_TIMEOUT = 5.0
MAX_PENDING = 20_000  # unacknowledged publishes kept for a resend; older ones are dropped


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


async def connect(url: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A connection to the Redis server of ``url``, authenticated when the URL has a password."""
    host, port, user, password = redis_address(url)
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), CONNECT_TIMEOUT)
    try:
        if password is not None:
            writer.write(encode_command("AUTH", *((user, password) if user else (password,))))
            reply = await asyncio.wait_for(read_reply(reader), CONNECT_TIMEOUT)
            if isinstance(reply, RedisReplyError):
                raise reply
    except BaseException:
        writer.close()
        raise
    return reader, writer


class Publisher:
    """``PUBLISH`` over one pipelined connection (see the module docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._pending: deque[bytes] = deque()  # written or to be written, not acknowledged
        self._outgoing: list[bytes] = []  # published in this turn of the event loop
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.dropped = 0  # publishes given up because Redis stayed away too long

    def publish(self, channel: str, payload: bytes) -> None:
        command = encode_command("PUBLISH", channel, payload)
        if len(self._pending) >= MAX_PENDING:
            self._pending.popleft()
            self.dropped += 1
            if self.dropped % 1000 == 1:
                log.warning("redis unreachable: %d table updates dropped so far", self.dropped)
        self._pending.append(command)
        if self._writer is not None:
            self._outgoing.append(command)
            if len(self._outgoing) == 1:  # one write (one system call) per turn of the loop
                asyncio.get_running_loop().call_soon(self._flush)
        self.start()

    def _flush(self) -> None:
        if self._writer is not None and self._outgoing:
            self._writer.write(b"".join(self._outgoing))
        self._outgoing.clear()

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._drop()

    def _drop(self) -> None:
        self.connected.clear()
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    async def _run(self) -> None:
        while True:
            try:
                reader, writer = await connect(self.url)
            except (OSError, TimeoutError, ConnectionError, RedisReplyError) as e:
                log.warning("redis publisher cannot connect: %s", e)
                await asyncio.sleep(RECONNECT_DELAY)
                continue
            self._outgoing.clear()  # in _pending too
            writer.write(b"".join(self._pending))  # whatever was not acknowledged, in order
            self._writer = writer
            self.connected.set()
            try:
                while True:
                    reply = await read_reply(reader)
                    if self._pending:
                        self._pending.popleft()
                    if isinstance(reply, RedisReplyError):
                        log.error("redis publish refused: %s", reply)
            except (OSError, asyncio.IncompleteReadError, ConnectionError) as e:
                log.warning("redis publisher lost its connection: %s", e)
            self._drop()
            await asyncio.sleep(RECONNECT_DELAY)
