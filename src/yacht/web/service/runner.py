"""Server-side turns: bots act promptly, timed turns time out, finished games get reviewed.

One task per table that needs the server (a bot to move, a turn clock); it sleeps while
people think and is woken by every change to its table. Its moves go through the same checks as
a person's, so a move decided on an old version is simply rejected. A finished game's review is
a task of its own, made from the game as it ended and kept on that game's row whatever the table
does next (a rematch a moment after the end does not lose it).

With several server processes, the process that made a table's latest change drives it (its
runner is woken by that change). A driver whose move is refused while nothing changed the
table in its own process stops: another process changed it first, and drives it from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from yacht.actions import Action, Roll, Score
from yacht.game import Game
from yacht.rules import CATEGORIES
from yacht.web.protocol.errors import TableError
from yacht.web.service import bots
from yacht.web.service.tables import TableService
from yacht.web.storage.outage import Unavailable
from yacht.web.storage.store import TableSnapshot

__all__ = ["Runner", "needs_server", "timeout_action"]

log = logging.getLogger("yacht.web")

RETRY_FIRST = 0.5  # seconds before a failed driver looks again, doubled each time
RETRY_MAX = 30.0


def needs_server(snap: TableSnapshot, game: Game | None) -> bool:
    """Whether the table waits for the server: a bot to move, a turn clock, a review."""
    if game is None:
        return False
    if game.finished:
        return snap.game.review is None
    return snap.seats[game.current].kind == "bot" or snap.game.deadline is not None


def timeout_action(game: Game) -> Action:
    """What the server does for a player whose turn ran out: roll if nothing is rolled yet,
    then score the open category with the most points (the first such on the sheet).

    >>> from yacht.dice import ScriptedDice
    >>> g = Game(["Ann"], dice=ScriptedDice([6, 6, 6, 5, 5]))
    >>> timeout_action(g)
    Roll()
    >>> _ = g.apply("roll"); timeout_action(g)
    Score(category=Category.FULL_HOUSE)
    """
    if game.dice is None:
        return Roll()
    sheet = game.sheet(game.current)
    open_ = [c for c in CATEGORIES if c not in sheet]
    return Score(max(open_, key=lambda c: (game.rules.score(game.dice or (), c), -c.index)))


class Runner:
    """Drives the tables of one server process (see the module docstring)."""

    def __init__(self, service: TableService, bot_delay: float) -> None:
        self.service = service
        self.bot_delay = bot_delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._announcing: asyncio.Task[None] | None = None
        self._wake: dict[str, asyncio.Event] = {}
        self._bots: dict[tuple[str, int, int], bots.BotSeat] = {}
        self._reviews: dict[tuple[str, int], asyncio.Task[None]] = {}
        service.on_change = self.kick

    def kick(self, code: str, snap: TableSnapshot | None = None, game: Game | None = None) -> None:
        """Something changed at a table: make sure its driver looks again. Given the new
        snapshot, a table that needs nothing from the server (no bot to move, no clock, no
        review to write) gets no driver; a game that has just ended has its review started
        here, from the game as it ended, before anything else can happen at the table."""
        if snap is not None and game is not None and game.finished and snap.game.review is None:
            self._start_review(code, snap.game.number, game)
        task = self._tasks.get(code)
        if task is not None and not task.done():
            self._wake[code].set()
            return
        if snap is not None and not needs_server(snap, game):
            return
        self._wake[code] = asyncio.Event()
        self._wake[code].set()
        self._tasks[code] = asyncio.get_running_loop().create_task(self._drive(code))

    async def resume(self) -> None:
        """After a start: pick up every game that was under way, and announce its state again
        (a process killed between storing a move and announcing it left the players of the
        other server processes one move behind)."""
        codes = await self.service.store.aactive_codes()
        for code in codes:
            self.kick(code)
        self._announcing = asyncio.get_running_loop().create_task(self._announce(codes))

    async def _announce(self, codes: list[str]) -> None:
        for code in codes:
            try:
                await self.service.publish(code)
            except Exception:
                log.exception("table %s: its state could not be announced", code)

    async def stop(self) -> None:
        tasks = [*self._tasks.values(), *self._reviews.values()]
        tasks += [self._announcing] if self._announcing else []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.clear()
        self._reviews.clear()

    async def idle(self) -> None:
        """Wait until no table needs the server (tests use it to let bots finish)."""
        while any(not t.done() for t in [*self._tasks.values(), *self._reviews.values()]):
            tasks = [*self._tasks.values(), *self._reviews.values()]
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _drive(self, code: str) -> None:
        """Drive the table until it needs the server no more. A driver never gives up on an
        error: without the database it waits for it to answer again; after anything else it
        looks again, later each time (logged the first time), so a table of bots keeps moving
        whatever happened to one of its moves."""
        wake = self._wake[code]
        failures = 0
        try:
            while True:
                try:
                    await self._steps(code, wake)
                    return
                except Unavailable:
                    await self.service.store.until_up()
                except Exception:
                    failures += 1
                    if failures == 1:
                        log.exception("table %s: the server-side driver failed; retrying", code)
                    await asyncio.sleep(min(RETRY_MAX, RETRY_FIRST * 2 ** (failures - 1)))
        finally:
            if self._tasks.get(code) is asyncio.current_task():
                del self._tasks[code]
                self._wake.pop(code, None)
                self._forget_bots(code)

    async def _steps(self, code: str, wake: asyncio.Event) -> None:
        """The driver's loop: returns when the table needs nothing more from this process."""
        while True:
            wake.clear()
            # This process's newest snapshot: a stale one only makes a move that is refused
            # (the change re-reads the table), and the next look is fresh.
            snap, game = await self.service.latest(code)
            if game is None:
                return
            if game.finished:
                if snap.game.review is None:  # e.g. a game resumed after a restart
                    self._start_review(code, snap.game.number, game)
                if not wake.is_set():
                    return
                continue  # e.g. a rematch: drive the new game
            turn = (snap.game.number, game.version)
            if snap.seats[game.current].kind == "bot":
                await asyncio.sleep(self.bot_delay)
                if not await self._bot_move(code) and not wake.is_set():
                    return  # another process changed the table: its runner drives it
                continue
            if snap.game.deadline is not None:
                wait = snap.game.deadline - self.service.clock()
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), wait)
                    continue
                taken = await self._move(code, game.current, turn, timeout_action(game))
                if not taken and not wake.is_set():
                    return  # as above: the process that changed the table drives it
                continue
            if not wake.is_set():
                return

    async def _move(
        self, code: str, seat: int, turn: tuple[int, int], action: Action, *, bot: bool = False
    ) -> bool:
        """Act for ``seat`` on game ``turn`` = (number, version); False when refused (a bot's
        move also when its seat was taken back meanwhile)."""
        try:
            await self.service.act_for(code, seat, turn[0], turn[1], action, bot=bot)
        except Unavailable:  # not a refusal: the driver waits for the database
            raise
        except TableError as e:  # somebody else changed the game first
            log.info("table %s: server move %s not taken: %s", code, action, e.message)
            return False
        return True

    async def _bot_move(self, code: str) -> bool:
        """Let the bot to act move; False when there was none or its move was refused."""
        snap, game = await self.service.latest(code)  # what the bot sees after its pause
        if game is None or game.finished or snap.seats[game.current].kind != "bot":
            return False
        seat = snap.seats[game.current]
        level = seat.bot or "medium"
        key = (code, snap.game.number, seat.position)
        bot = self._bots.get(key)
        if bot is None or bot.level != level:
            seed = f"{code}:{key[1]}:{key[2]}:{game.version}"
            bot = self._bots[key] = bots.BotSeat(level, seed)
        view, turn, fallback = game.view(), (snap.game.number, game.version), timeout_action(game)
        try:
            action, acted = await bots.bot_action(bot, view)
            if self._bots.get(key) is bot:
                self._bots[key] = acted
        except Exception:
            log.exception("table %s: bot %s failed; the turn goes on without it", code, level)
            action = fallback
        taken = await self._move(code, seat.position, turn, action, bot=True)
        now = self.service.cached(code)
        if now is None or now[1] is None or now[1].finished or now[0].game.number != key[1]:
            self._bots.pop(key, None)
        return taken

    def _forget_bots(self, code: str) -> None:
        """Drop the table's bots when its driver ends (a person's turn, the game over, or
        another process driving it): a bot made again decides afresh from the position, with
        a generator seeded by the game's version, so nothing is kept per table for ever."""
        for key in [k for k in self._bots if k[0] == code]:
            del self._bots[key]

    def _start_review(self, code: str, number: int, game: Game) -> None:
        key = (code, number)
        if key in self._reviews:
            return
        task = asyncio.get_running_loop().create_task(self._review(code, number, game))
        self._reviews[key] = task
        task.add_done_callback(lambda _t: self._reviews.pop(key, None))

    async def _review(self, code: str, number: int, game: Game) -> None:
        """Write the review of game ``number`` and keep it: through the table while that game
        is still its current one (its players see it at once), else straight on the game's own
        row (the table has moved on to a rematch)."""
        try:
            review = await bots.review(game)
        except Exception:
            log.exception("table %s: the review of game %d failed", code, number)
            return
        try:
            await self.service.store_review(code, number, review)
            return
        except TableError:  # the table moved on, or it was kept already
            pass
        try:
            kept = await asyncio.to_thread(self.service.store.keep_review, code, number, review)
        except Exception:
            log.exception("table %s: the review of game %d was not stored", code, number)
            return
        if not kept:
            log.info("table %s: review of game %d not stored: it has one", code, number)
