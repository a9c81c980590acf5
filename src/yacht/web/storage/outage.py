"""The database going away and coming back, as one server process sees it.

A statement that fails because the database cannot be reached (a restart, a stop, a dropped
connection) raises :class:`Unavailable`: a :class:`~yacht.web.protocol.errors.TableError` with
the code ``unavailable`` (HTTP 503), so every refusal path (REST, WebSocket, the bots' driver)
treats it as a refusal that changed nothing. :func:`gone` says which driver errors mean that,
for asyncpg (the hot path) and for SQLAlchemy on psycopg (the rest).

:class:`Outage` is the state: up until such a failure, down until a statement succeeds again.
It logs the two transitions and nothing in between (an outage of ten seconds under load is two
log lines, not a traceback per request), tells its listeners (the pages' notice), and lets the
bots' drivers wait for the way back.

>>> outage = Outage()
>>> seen = []
>>> outage.listen(seen.append)
>>> outage.failed(ConnectionRefusedError("refused")); outage.failed(OSError("again"))
>>> outage.ok, seen
(False, [False])
>>> outage.succeeded(); outage.succeeded()
>>> outage.ok, seen, outage.outages
(True, [False, True], 1)
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from yacht.web.protocol.errors import TableError

__all__ = ["Outage", "Unavailable", "gone", "unsent"]

log = logging.getLogger("yacht.web.database")

RETRY_AFTER = 2
"""Seconds a refused client is told to wait (``Retry-After``): about how long the drivers take
to find the database back once it answers."""


class Unavailable(TableError):
    """The database cannot be reached now; nothing was changed (or, for a change whose
    commit was under way when the connection went, nothing is known: the table as stored
    says)."""

    def __init__(self, why: str = "") -> None:
        super().__init__("unavailable", "the server lost its database; try again in a moment" + why)


def _sqlstate(error: BaseException) -> str | None:
    state = getattr(error, "sqlstate", None) or getattr(
        getattr(error, "orig", None), "sqlstate", None
    )
    return state if isinstance(state, str) else None


def gone(error: BaseException) -> bool:
    """Whether ``error`` says the database cannot be reached (rather than that a statement
    was wrong): no connection, a connection closed or lost, the server shutting down or
    starting up (SQLSTATE classes 08 and 57P)."""
    if isinstance(error, Unavailable | OSError | TimeoutError):
        return True
    state = _sqlstate(error)
    if state is not None:
        return state.startswith(("08", "57P"))
    kind = type(error)
    module = kind.__module__
    if module.startswith("asyncpg"):
        # ConnectionDoesNotExistError has no SQLSTATE of its own; an InterfaceError names
        # a closed connection or pool; an InternalClientError "another operation is in
        # progress" is a connection the server ended while it sat idle in the pool
        return (
            kind.__name__ == "ConnectionDoesNotExistError"
            or (kind.__name__ == "InterfaceError" and "closed" in str(error))
            or _stuck(error)
        )
    if module.startswith("sqlalchemy"):
        if getattr(error, "connection_invalidated", False):
            return True
        orig = getattr(error, "orig", None)
        # psycopg's failures to connect carry no SQLSTATE
        return kind.__name__ == "OperationalError" and type(orig).__module__.startswith("psycopg")
    return False


def unsent(error: BaseException) -> bool:
    """Whether a statement that raised ``error`` surely never ran: the connection was known
    closed before anything was sent, or the server refused or ended the session before the
    statement could commit (57P: an administrator's shutdown, a crash, a server starting up)."""
    if isinstance(error, ConnectionRefusedError):
        return True
    state = _sqlstate(error)
    if state is not None:
        return state.startswith("57P") or state in ("08001", "08004")
    kind = type(error)
    return (kind.__name__ == "InterfaceError" and "connection is closed" in str(error)) or _stuck(
        error
    )


def _stuck(error: BaseException) -> bool:
    """asyncpg refusing to start a statement on a connection still busy with a failed one
    (nothing was sent)."""
    return type(error).__name__ == "InternalClientError" and "in progress" in str(error)


class Outage:
    """Up or down, with one log line per transition (see the module docstring)."""

    def __init__(self, what: str = "database") -> None:
        self.what = what
        self.ok = True
        self.outages = 0
        self._since = 0.0
        self._listeners: list[Callable[[bool], None]] = []
        self._back: asyncio.Event | None = None

    def listen(self, listener: Callable[[bool], None]) -> None:
        """Have ``listener`` told each transition (True: back)."""
        self._listeners.append(listener)

    def failed(self, error: BaseException) -> None:
        if not self.ok:
            return
        self.ok = False
        self.outages += 1
        self._since = time.monotonic()
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        log.warning(
            "the %s cannot be reached (%s%s): refusing what needs it until it answers",
            self.what,
            type(error).__name__,
            f": {first}" if first else "",
            extra={"outage": self.what, "up": False},
        )
        self._tell(False)

    def succeeded(self) -> None:
        if self.ok:
            return
        self.ok = True
        seconds = time.monotonic() - self._since
        log.warning(
            "the %s answers again after %.1f s",
            self.what,
            seconds,
            extra={"outage": self.what, "up": True, "seconds": round(seconds, 3)},
        )
        if self._back is not None:
            self._back.set()
            self._back = None
        self._tell(True)

    async def back(self) -> None:
        """Return once the state is up (at once when it is)."""
        if self.ok:
            return
        if self._back is None:
            self._back = asyncio.Event()
        await self._back.wait()

    def _tell(self, ok: bool) -> None:
        for listener in self._listeners:
            try:
                listener(ok)
            except Exception:
                log.exception("a listener of the %s's state failed", self.what)
