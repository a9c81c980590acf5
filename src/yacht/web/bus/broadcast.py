"""Live fan-out of table updates to every connection watching a table.

:class:`Broadcaster` is the small interface the server talks to: ``publish``, ``subscribe`` and
``on_note`` (the notes other processes publish of their moves). :class:`LocalBroadcaster`
delivers within one process; :class:`~yacht.web.bus.redis.RedisBroadcaster` provides the same
three methods across server processes.

>>> import asyncio
>>> async def demo() -> list[str]:
...     hub = LocalBroadcaster()
...     async with hub.subscribe("table:ABC") as inbox:
...         await hub.publish("table:ABC", "hello")
...         return [await inbox.get()]
>>> asyncio.run(demo())
['hello']
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

__all__ = ["Broadcaster", "Inbox", "LocalBroadcaster", "NoteHandler", "table_channel"]

INBOX_LIMIT = 256  # a reader this far behind is dropped rather than let memory grow


def table_channel(code: str) -> str:
    return f"table:{code}"


class Inbox:
    """The messages published on a channel since subscribing, in order.

    A deque and one waiting future, not an :class:`asyncio.Queue`: every message of every
    socket passes through here, and the queue looked the event loop up again on each wait.
    """

    def __init__(self) -> None:
        self._messages: deque[str | None] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.overflowed = False

    def __len__(self) -> int:
        """Messages waiting to be read."""
        return len(self._messages)

    def put(self, message: str | None) -> None:
        if len(self._messages) >= INBOX_LIMIT:
            self.overflowed = True
            return
        self._messages.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> str | None:
        """The next message; None once the inbox overflowed (the reader should resync)."""
        if self.overflowed and not self._messages:
            return None
        while not self._messages:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._messages.popleft()


NoteHandler = Callable[[str, str], None]
"""Told ``(channel, note)`` for each note another process published."""


class Broadcaster(Protocol):
    async def publish(self, channel: str, message: str, note: str | None = None) -> None:
        """Deliver ``message`` to every current subscriber of ``channel`` (any process), and
        ``note`` (for the server processes only, never a subscriber; see
        :mod:`yacht.web.storage.peers`) to the other processes' note handler."""
        ...

    def on_note(self, handler: NoteHandler) -> None:
        """Have ``handler`` told the notes other processes publish on subscribed channels."""
        ...

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Inbox]:
        """Receive what is published on ``channel`` from now until the context ends."""
        ...


class LocalBroadcaster:
    """Fan-out within this process: one inbox per subscriber."""

    def __init__(self) -> None:
        self._inboxes: dict[str, set[Inbox]] = {}

    async def publish(self, channel: str, message: str, note: str | None = None) -> None:
        for inbox in tuple(self._inboxes.get(channel, ())):
            inbox.put(message)

    def on_note(self, handler: NoteHandler) -> None:
        """One process: there is nobody else to publish notes."""

    @asynccontextmanager
    async def _subscription(self, channel: str) -> AsyncIterator[Inbox]:
        inbox = Inbox()
        self._inboxes.setdefault(channel, set()).add(inbox)
        try:
            yield inbox
        finally:
            boxes = self._inboxes.get(channel)
            if boxes is not None:
                boxes.discard(inbox)
                if not boxes:
                    del self._inboxes[channel]

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[Inbox]:
        return self._subscription(channel)

    def subscribers(self, channel: str) -> int:
        return len(self._inboxes.get(channel, ()))
