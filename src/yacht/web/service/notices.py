"""What this server process lacks now (its database, Redis), told to every socket it serves.

Each socket's inbox (:class:`~yacht.web.bus.broadcast.Inbox`) is handed to :meth:`Notices.watch`
while it is open; a change of state puts one ``notice`` message into every inbox, in order with
the table's states. A socket that connects during an outage is told at once.

>>> notices = Notices()
>>> told: list[str | None] = []
>>> with notices.watch(told.append):
...     notices.set("redis", False); notices.set("redis", False); notices.set("redis", True)
>>> told
['{"type":"notice","kind":"redis","ok":false}', '{"type":"notice","kind":"redis","ok":true}']
>>> notices.set("database", False)
>>> notices.now()
['{"type":"notice","kind":"database","ok":false}']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Literal

from yacht.web.protocol.messages import NoticeMessage

__all__ = ["Notices"]

Kind = Literal["database", "redis"]


class Notices:
    """The state of each dependency (all fine at first) and the sockets to tell."""

    def __init__(self) -> None:
        self.ok: dict[Kind, bool] = {"database": True, "redis": True}
        self._watchers: set[Callable[[str | None], None]] = set()

    def set(self, kind: Kind, ok: bool) -> None:
        if self.ok[kind] == ok:
            return
        self.ok[kind] = ok
        text = NoticeMessage(kind=kind, ok=ok).model_dump_json()
        for put in tuple(self._watchers):
            put(text)

    def now(self) -> list[str]:
        """The notices a socket connecting now needs: one for each dependency that is down."""
        return [
            NoticeMessage(kind=kind, ok=False).model_dump_json()
            for kind, ok in self.ok.items()
            if not ok
        ]

    @contextmanager
    def watch(self, put: Callable[[str | None], None]) -> Iterator[None]:
        """Have ``put`` (an inbox's) given every notice while the context lasts."""
        self._watchers.add(put)
        try:
            yield
        finally:
            self._watchers.discard(put)
