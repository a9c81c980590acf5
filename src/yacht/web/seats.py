"""Who is at a table: live connections per seat, and when each seat's holder was last seen.

A seat stays with the person who took it. Another player may hand it to a bot only when the
game waits on it (its turn) and has for :data:`GRACE` seconds with no sign of its holder (no
live connection, no request with the seat's token), or its turn clock has run out; the
holder's token takes it back at any time.
"Last seen" is kept in the database (``seats.seen_at``), so every server process agrees:
joining, connecting, leaving and acting refresh it, and a process refreshes the seats it
holds live connections for every :data:`REFRESH` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Collection
from datetime import UTC, datetime

from yacht.web.store import Store

__all__ = ["GRACE", "REFRESH", "Presence"]

log = logging.getLogger("yacht.web")

GRACE = 60.0
"""Seconds a holder may be away before another player may hand the seat to a bot."""
REFRESH = 15.0
"""Seconds between two notes of the same seat's holder being seen (well inside GRACE)."""


class Presence:
    """The live connections of this process per table and seat, and the "last seen" notes."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._live: dict[str, Counter[int]] = {}
        self._noted: dict[tuple[str, int], float] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def connected(self, code: str) -> set[int]:
        return {seat for seat, n in self._live.get(code, Counter()).items() if n > 0}

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
        task = asyncio.get_running_loop().create_task(self._touch(code, due, when))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _touch(self, code: str, seats: list[int], when: datetime) -> None:
        try:
            await self.store.atouch(code, seats, when)
        except Exception:  # a missed note only shortens someone's grace period
            log.exception("table %s: could not note seats %s as seen", code, seats)

    async def away_for(self, code: str, seat: int) -> float:
        """Seconds since the holder of ``seat`` was last seen (0 while connected here)."""
        if seat in self.connected(code):
            return 0.0
        last = (await asyncio.to_thread(self.store.seen, code)).get(seat)
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
        """Wait for the notes under way (tests, shutdown)."""
        await asyncio.gather(*self._tasks, return_exceptions=True)
