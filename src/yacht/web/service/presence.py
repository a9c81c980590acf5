"""Who is at a table: live connections per seat, and when each seat's holder was last seen.

A seat stays with the person who took it. Another player may hand it to a bot only when the
game waits on it (its turn) and has for :data:`GRACE` seconds with no sign of its holder (no
live connection, no request with the seat's token), or its turn clock has run out; the
holder's token takes it back at any time.
"Last seen" is kept in the database (``seats.seen_at``), so every server process agrees:
joining, connecting, leaving and acting refresh it, and a process refreshes the seats it
holds live connections for every :data:`REFRESH` seconds.

The notes are written in batches: what was noted in the last :data:`BATCH` seconds goes to the
database in one statement (:meth:`~yacht.web.storage.store.Store.anote`). With 1,000 tables a
process
notes some 130 seats a second, and one round trip per note cost about a tenth of the server's
CPU per action (measured with ``python -m benchmarks.loadrun``); a note half a second late
changes nothing against a :data:`GRACE` of a minute.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from typing import Any

from yacht.web.storage.outage import Unavailable
from yacht.web.storage.store import Store

__all__ = ["BATCH", "GRACE", "REFRESH", "WATCHER_NAMES", "Presence", "device_of"]

log = logging.getLogger("yacht.web")

GRACE = 60.0
"""Seconds a holder may be away before another player may hand the seat to a bot."""
REFRESH = 15.0
"""Seconds between two notes of the same seat's holder being seen (well inside GRACE)."""
BATCH = 0.5
"""Seconds the notes gather before they are written together."""
WATCHER_NAMES = 8
"""The most watchers' names a table is shown (the count says how many there are)."""

_BROWSERS = (  # the first that matches names the browser: Edge and Opera also say Chrome
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (  # Android before Linux, iPhone and iPad before Mac OS X (they say both)
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Linux", "Linux"),
)


def device_of(user_agent: str | None) -> tuple[str, str]:
    """The browser and system families a User-Agent names, for a player to tell their own
    devices apart ("" for a family it does not name).

    >>> device_of("Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0")
    ('Firefox', 'Android')
    >>> device_of("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15"
    ...           " (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1")
    ('Safari', 'iPhone')
    >>> device_of(None)
    ('', '')
    """
    agent = (user_agent or "")[:512]
    browser = next((name for mark, name in _BROWSERS if mark in agent), "")
    system = next((name for mark, name in _SYSTEMS if mark in agent), "")
    return browser, system


class Presence:
    """The live connections of this process per table and seat, and the "last seen" notes."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[str, Counter[int]] = {}
        self._noted: dict[tuple[str, int], float] = {}
        self._pending: dict[tuple[str, int], datetime] = {}  # noted, not yet written
        self._writer: asyncio.Task[None] | None = None
        self._now: asyncio.Event | None = None  # set: write the pending notes at once
        self._watching: dict[str, dict[int, str | None]] = {}  # connection -> watcher's name

    def watch(self, code: str, connection: int, name: str | None) -> bool:
        """Count ``connection`` as watching the table (no seat); True if that changed what
        the table is shown."""
        watching = self._watching.setdefault(code, {})
        known = connection in watching and watching[connection] == name
        watching[connection] = name
        return not known

    def unwatch(self, code: str, connection: int) -> bool:
        """``connection`` no longer watches (it closed, or took a seat); True if it did."""
        watching = self._watching.get(code)
        if watching is None or connection not in watching:
            return False
        del watching[connection]
        if not watching:
            del self._watching[code]
        return True

    def watchers(self, code: str) -> dict[str, Any]:
        """The table's watchers on this process: how many, and the first names given."""
        watching = self._watching.get(code)
        if not watching:
            return {"count": 0, "names": []}
        names = sorted({n for n in watching.values() if n}, key=str.casefold)
        return {"count": len(watching), "names": names[:WATCHER_NAMES]}

    def connected(self, code: str) -> set[int]:
        live = self._live.get(code)
        return {seat for seat, n in live.items() if n > 0} if live else set()

    def watched(self, code: str) -> bool:
        """Whether a socket on this process holds a seat at the table or watches it."""
        return bool(self.connected(code) or self._watching.get(code))

    def arrive(self, code: str, seats: Collection[int]) -> None:
        self._live.setdefault(code, Counter()).update(seats)
        self.seen(code, seats, force=True)

    def leave(self, code: str, seats: Collection[int]) -> bool:
        """Count a closed connection's seats out; False when this process knew no one there."""
        counts = self._live.get(code)
        if counts is None:
            return False
        for seat in seats:
            if counts[seat] > 0:
                counts[seat] -= 1
        if not +counts:
            del self._live[code]
        self.seen(code, seats, force=True)  # the grace period counts from the goodbye
        return True

    def drop(self, code: str, seat: int) -> None:
        """The seat was handed to a bot: its connections no longer hold it."""
        counts = self._live.get(code)
        if counts is not None:
            counts.pop(seat, None)

    def seen(self, code: str, seats: Collection[int], *, force: bool = False) -> None:
        """Note (in the background) that the holders of ``seats`` are here now; a seat noted
        less than :data:`REFRESH` seconds ago is skipped unless ``force``."""
        moment = self.clock()
        due = [s for s in seats if force or moment - self._noted.get((code, s), 0.0) >= REFRESH]
        if not due:
            return
        for seat in due:
            self._noted[(code, seat)] = moment
        if len(self._noted) > 100_000:  # forget old notes; the database has them
            self._noted = {k: v for k, v in self._noted.items() if moment - v < REFRESH}
        when = datetime.fromtimestamp(moment, UTC)
        for seat in due:
            self._pending[(code, seat)] = when
        if self._writer is None or self._writer.done():
            self._now = asyncio.Event()
            self._writer = asyncio.get_running_loop().create_task(self._write(self._now))

    async def _write(self, now: asyncio.Event) -> None:
        """Every :data:`BATCH` seconds (at once when ``now`` is set), write what was noted,
        until nothing is left to write."""
        while self._pending:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(now.wait(), BATCH)
            notes, self._pending = self._pending, {}
            try:
                await self.store.anote(notes)
            except Unavailable:  # the store said so in the log, once per outage
                pass
            except Exception:  # a missed note only shortens someone's grace period
                log.exception("could not note %d seats as seen", len(notes))

    async def away_for(self, code: str, seat: int) -> float:
        """Seconds since the holder of ``seat`` was last seen (0 while connected here)."""
        if seat in self.connected(code):
            return 0.0
        last = (await self.store.aseen(code)).get(seat)
        pending = self._pending.get((code, seat))  # noted here, not written yet
        if pending is not None and (last is None or pending > last):
            last = pending
        if last is None:
            return float("inf")
        return max(0.0, self.clock() - last.timestamp())

    async def refresh(self) -> None:
        """Every :data:`REFRESH` seconds, note the seats with live connections as seen."""
        while True:
            await asyncio.sleep(REFRESH)
            for code, counts in list(self._live.items()):
                self.seen(code, [s for s, n in counts.items() if n > 0])

    async def settle(self) -> None:
        """Write the pending notes now and wait for them (tests, shutdown)."""
        writer = self._writer
        if writer is not None and not writer.done():
            assert self._now is not None
            self._now.set()
            await asyncio.gather(writer, return_exceptions=True)
