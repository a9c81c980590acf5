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
    "Replies",
    "connect",
    "encode_command",
    "parse_reply",
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


def parse_reply(data: bytes | bytearray, pos: int = 0) -> tuple[Any, int] | None:
    """The reply that starts at ``pos`` in ``data`` and where the next one starts, or None
    when ``data`` does not hold all of it yet (same replies as :func:`read_reply`).

    >>> parse_reply(b"*3\\r\\n$7\\r\\nmessage\\r\\n$1\\r\\nA\\r\\n$2\\r\\nhi\\r\\n:1\\r\\n")
    ([b'message', b'A', b'hi'], 32)
    >>> parse_reply(b"*3\\r\\n$7\\r\\nmessage\\r\\n$1\\r\\nA\\r\\n$2\\r\\nh") is None
    True
    >>> parse_reply(b":1\\r\\n$-1\\r\\n", 4)
    (None, 9)
    """
    end = data.find(b"\r\n", pos)
    if end < 0:
        return None
    kind, rest, after = data[pos : pos + 1], data[pos + 1 : end], end + 2
    if kind == b"*":
        n = int(rest)
        if n < 0:
            return None, after
        items = []
        for _ in range(n):
            parsed = parse_reply(data, after)
            if parsed is None:
                return None
            item, after = parsed
            items.append(item)
        return items, after
    if kind == b"$":
        n = int(rest)
        if n < 0:
            return None, after
        if len(data) < after + n + 2:
            return None
        return bytes(data[after : after + n]), after + n + 2
    if kind == b":":
        return int(rest), after
    if kind == b"+":
        return bytes(rest), after
    if kind == b"-":
        return RedisReplyError(bytes(rest).decode(errors="replace")), after
    raise ConnectionError(f"not the Redis protocol: {bytes(data[pos : pos + 40])!r}")


class Replies:
    """The replies on a connection, as many as have arrived at a time: a busy subscriber gets
    several messages a read, parsed without an ``await`` each (:func:`read_reply` took four
    per message, and was about a twentieth of a loaded server's CPU, py-spy)."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self.reader = reader
        self._buffer = bytearray()

    async def next(self) -> list[Any]:
        """The replies complete so far (at least one); ConnectionError when the connection
        closed."""
        while True:
            chunk = await self.reader.read(1 << 16)
            if not chunk:
                raise ConnectionError("redis closed the connection")
            self._buffer += chunk
            replies, pos = [], 0
            while (parsed := parse_reply(self._buffer, pos)) is not None:
                reply, pos = parsed
                replies.append(reply)
            if replies:
                del self._buffer[:pos]
                return replies


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
            replies = Replies(reader)
            try:
                while True:
                    for reply in await replies.next():
                        if self._pending:
                            self._pending.popleft()
                        if isinstance(reply, RedisReplyError):
                            log.error("redis publish refused: %s", reply)
            except (OSError, asyncio.IncompleteReadError, ConnectionError) as e:
                log.warning("redis publisher lost its connection: %s", e)
            self._drop()
            await asyncio.sleep(RECONNECT_DELAY)
