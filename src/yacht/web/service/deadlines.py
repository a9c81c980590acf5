"""The correspondence tables' clocks: every :data:`LOOK_EVERY` seconds a process asks the
database for the deadlines that have run out and hands each seat to the ``medium`` bot for
that move (:func:`~yacht.web.service.decisions.miss`).

No timer is kept per table: a dormant game is a row with an indexed deadline, so a process's
memory does not grow with the games stored, a restart or a redeploy loses no deadline, and
start-up loads none of them. With several processes each claims the due seats it acts on
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL, see
:func:`~yacht.web.storage.correspondence.claim_due`), so exactly one acts on each; the move
itself still goes through the table's revision check, so a player who moved at the last
second keeps their move and the bot's is refused.
"""

from __future__ import annotations

import asyncio
import logging

from yacht.game import Game
from yacht.web.protocol.errors import TableError
from yacht.web.service import decisions
from yacht.web.service.correspondence import LEASE
from yacht.web.service.decisions import Context
from yacht.web.service.tables import TableService
from yacht.web.storage.changes import Change
from yacht.web.storage.correspondence import DUE_BATCH
from yacht.web.storage.outage import Unavailable
from yacht.web.storage.store import TableSnapshot

__all__ = ["LOOK_EVERY", "Deadlines"]

log = logging.getLogger("yacht.web")

LOOK_EVERY = 30.0
"""Seconds between two looks for due deadlines: a move of days runs out at most this late."""
BATCHES = 20
"""Batches of due deadlines one look claims at most (the rest wait for the next look)."""


class Deadlines:
    """Acts on the due correspondence deadlines (see the module docstring)."""

    def __init__(self, service: TableService, every: float = LOOK_EVERY) -> None:
        self.service = service
        self.every = every

    async def look(self) -> list[tuple[str, int]]:
        """Claim the deadlines due now, a batch at a time until none is left (after a
        downtime there may be many), and hand each seat to the bot; returns the seats the
        bot took (table code, position)."""
        taken = []
        for _ in range(BATCHES):
            moment = self.service.clock()
            due = await self.service.store.aclaim_due(moment, moment + LEASE)
            taken += await self._miss(due)
            if len(due) < DUE_BATCH:
                break
        return taken

    async def _miss(self, due: list[tuple[str, int]]) -> list[tuple[str, int]]:
        taken = []
        for code, seat in due:

            def decide(snap: TableSnapshot, game: Game | None, seat: int = seat) -> Change:
                ctx = Context(now=self.service.clock(), seeds=self.service.settings.seeds)
                return decisions.miss(snap, game, ctx, seat)

            try:
                await self.service.change(code, decide)
            except TableError as e:  # moved at the last moment, or the table is gone
                log.info("table %s: seat %d's deadline not acted on: %s", code, seat + 1, e)
                continue
            log.info("table %s: seat %d missed its move; the bot makes it", code, seat + 1)
            taken.append((code, seat))
        return taken

    async def watch(self) -> None:
        """:meth:`look` every :attr:`every` seconds, for ever."""
        while True:
            await asyncio.sleep(self.every)
            try:
                await self.look()
            except Unavailable:  # said once in the log by the store; the next look tries
                continue
            except Exception:
                log.exception("acting on due deadlines failed")
