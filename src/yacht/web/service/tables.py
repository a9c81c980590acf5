"""The table service: the only code that changes a table, and what a table's visitors ask of it.

Every change follows one path (:meth:`TableService.change`): take the table's lock, take its
snapshot, decide (a pure function of :mod:`~yacht.web.service.decisions`; anything wrong raises
:class:`~yacht.web.protocol.errors.TableError` and nothing changes), commit the
:class:`~yacht.web.storage.changes.Change` to the database, and only then publish the new state
to everyone watching.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager, suppress
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from yacht.actions import Action
from yacht.game import Game
from yacht.web.bus.broadcast import Broadcaster, table_channel
from yacht.web.edge.limits import QUOTAS, ClientLimits, Quota
from yacht.web.edge.metrics import Metrics
from yacht.web.protocol.errors import TableError
from yacht.web.protocol.messages import (
    ActionMessage,
    CoachMessage,
    CoachReply,
    CreateTable,
    HandToBotMessage,
    HintMessage,
    HintOption,
    HintReply,
    Joined,
    JoinSeat,
    RematchMessage,
    SeedMessage,
    TableState,
    TakeBackMessage,
)
from yacht.web.protocol.names import name_key
from yacht.web.service import bots, decisions, rematch
from yacht.web.service import coach as live_coach
from yacht.web.service.accounts import Account, AccountService, refusal
from yacht.web.service.correspondence import DAY, WAITING_DAYS
from yacht.web.service.credentials import seat_token
from yacht.web.service.decisions import Context, Decide, hash_token
from yacht.web.service.hints import HintDesk
from yacht.web.service.lobby import checked, opening_rows
from yacht.web.service.notices import Notices
from yacht.web.service.presence import Presence
from yacht.web.service.push import Push
from yacht.web.service.state import state_json, state_message
from yacht.web.service.warmup import Warmup
from yacht.web.settings import Settings
from yacht.web.storage.changes import Change
from yacht.web.storage.outage import Unavailable
from yacht.web.storage.peers import PeerNotes, note
from yacht.web.storage.snapshots import SnapshotCache, applied, decoded, resumed
from yacht.web.storage.store import ConflictError, Store, TableSnapshot

__all__ = ["TableService"]

log = logging.getLogger("yacht.web")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read out loud
CODE_LENGTH = 6
PRIVATE_CODE_LENGTH = 13  # 32 ** 13 = 2 ** 65 codes: a private table's cannot be guessed
RETRIES = 3
PRESENCE_EVERY = 0.25
"""Seconds between two announcements of who is connected at one table, at least: a churn of
reconnects would otherwise send every watcher a state for each open and close."""


STALE = frozenset({"not_started", "game_over", "not_your_turn", "illegal"})
"""Refusals a snapshot a move behind may give wrongly (a hint asks the table again)."""


class TableService:
    """Creates tables, seats players and applies their actions; see the module docstring."""

    def __init__(self, store: Store, broadcaster: Broadcaster, settings: Settings) -> None:
        self.store = store
        self.broadcaster = broadcaster
        self.settings = settings
        self.clock: Callable[[], float] = time.time
        self._locks: dict[str, asyncio.Lock] = {}
        self._lock_users: Counter[str] = Counter()
        self._seen = SnapshotCache()
        self._peers = PeerNotes()  # what other processes said of their moves
        broadcaster.on_note(self._noted)
        self.metrics = Metrics()
        store.on_pool_wait = self.metrics.pool_wait.observe
        self.presence = Presence(store, lambda: self.clock())
        every = 60.0 / settings.connects_per_minute
        connects = Quota(burst=settings.connects_per_minute, every=every)
        self.limits = ClientLimits({**QUOTAS, "connect": connects})
        self.accounts = AccountService(store, settings, self.limits)
        self.push = Push(store, settings, lambda: self.clock())  # notifications' outbox
        self._background: set[asyncio.Task[None]] = set()
        self._presence_due: set[str] = set()  # tables with a presence announcement coming
        self._presence_at: dict[str, float] = {}  # when each table's last one went out
        self.hints = HintDesk()
        # What the pages are told of the database and Redis going away and coming back.
        self.notices = Notices()
        self.warmup = Warmup()  # the strategy tables, built as the server starts
        store.outage.listen(lambda ok: self.notices.set("database", ok))
        on_link = getattr(broadcaster, "on_link", None)
        if on_link is not None:
            on_link(lambda ok: self.notices.set("redis", ok))
        # Called after every change with the new snapshot (the runner drives bots and clocks).
        self.on_change: Callable[[str, TableSnapshot, Game | None], None] = lambda *_: None

    # --- reading -------------------------------------------------------------------------

    async def load(self, code: str) -> tuple[TableSnapshot, Game | None]:
        """The table as stored now (read from the database; the game decoded unless this
        process already has it at that revision)."""
        snap = await self._read(code.upper())
        return snap, self._engine(snap)

    async def latest(self, code: str) -> tuple[TableSnapshot, Game | None]:
        """The newest state of the table this process knows, without a read when it has one.

        It may be stale (another process moved on): decide on it only through :meth:`change`,
        and read it at once (a change may advance its game at the next ``await``).
        """
        entry = self.cached(code)
        if entry is not None:
            return entry
        entry = await self.load(code)
        self._release(entry[0].table.code)  # e.g. a driver's last look at a dormant game
        return entry

    def cached(self, code: str) -> tuple[TableSnapshot, Game | None] | None:
        """This process's newest snapshot of the table, if it has one (no read), with the other
        processes' notes of their moves applied."""
        entry = self._advanced(code.upper())
        if entry is not None:
            self._seen.put(*entry)
        return entry

    def _advanced(self, code: str) -> tuple[TableSnapshot, Game | None] | None:
        """This process's entry of the table, taken out of the cache, with the other processes'
        notes of their moves applied (None: no entry, or a note its game did not replay to)."""
        entry = self._seen.take(code)
        return None if entry is None else self._peers.advance(code, entry, self.metrics.noted)

    async def _read(self, code: str) -> TableSnapshot:
        snap = await self.store.aload(code)
        if snap is None:
            raise TableError("not_found", f"no table with code {code!r}")
        return snap

    def _engine(self, snap: TableSnapshot) -> Game | None:
        cached = self._seen.get(snap.table.code)
        if cached is not None and cached[0].revision == snap.revision:
            return cached[1]
        game = decoded(snap)
        self._seen.put(snap, game)
        return game

    async def state(self, code: str) -> TableState:
        snap, game = await self.load(code)
        code = snap.table.code
        state = state_json(snap, game, self.connected(code), self.presence.watchers(code))
        return TableState.model_validate(state)

    async def lookup(self, code: str, client: str | None) -> TableState:
        """The table's state for a visitor who gave its code. A client that asked for too many
        codes no table has is refused for a while (``rate_limited``), so that private tables'
        codes cannot be guessed in bulk."""
        await self.limits.check("guess", client)
        try:
            return await self.state(code)
        except TableError as e:
            if e.code == "not_found":
                await self.limits.take("guess", client)
            raise

    async def state_text(self, code: str) -> str:
        """The table's ``state`` message as read now."""
        snap, game = await self.load(code)
        code = snap.table.code
        return state_message(
            state_json(snap, game, self.connected(code), self.presence.watchers(code))
        )

    def connected(self, code: str) -> set[int]:
        return self.presence.connected(code)

    # --- the one way to change a table ---------------------------------------------------

    async def change(self, code: str, decide: Decide) -> dict[str, Any]:
        """Decide on this process's snapshot of the table when it has one, else on a fresh
        read; store the change if the table is still at that revision (else decide again on a
        fresh read), then announce the new state built from the change itself and return it
        (:class:`~yacht.web.protocol.messages.TableState` JSON data)."""
        code = code.upper()
        async with self._lock(code):
            fresh, conflicts = False, 0
            while True:
                snap, game, fresh = await self._own(code, fresh)
                before = len(game.events) if game is not None else 0
                clock = time.perf_counter()
                try:
                    change = decide(snap, game)
                except TableError:  # decisions refuse before they change the game
                    self._seen.put(snap, game)
                    if fresh:
                        raise
                    fresh = True  # refused on a snapshot that may be stale: ask the database
                    continue
                finally:
                    self.metrics.observe("decide", time.perf_counter() - clock)
                clock = time.perf_counter()
                try:
                    revision = await self.store.achange(code, snap.revision, change)
                except ConflictError:  # another process won: decide again on fresh state
                    conflicts += 1
                    if conflicts >= RETRIES:
                        raise TableError("busy", f"table {code} kept changing; try again") from None
                    fresh = True
                    continue
                finally:
                    self.metrics.observe("database", time.perf_counter() - clock)
                if change.notices:  # committed: the sender delivers them, not this move
                    self.push.wake()
                new = applied(snap, revision, change)
                engine = change.engine
                if engine is None and new.game.status != "waiting":  # a decision that did not
                    new, engine = await self.load(code)  # hand over its game: read it
                self._seen.put(new, engine)
                clock = time.perf_counter()
                told = None  # a move: tell the other processes
                if change.is_move and engine is not None and engine is game:
                    told = note(snap, revision, change.game, engine, before)
                state = await self._announce(new, engine, told)
                self.metrics.observe("publish", time.perf_counter() - clock)
                break
        self.on_change(code, new, engine)
        self._release(code)
        return state

    def _release(self, code: str) -> None:
        """Forget a dormant table no socket here watches: a correspondence game waiting on a
        person (a seat with a deadline) is a row in the database until a socket opens it or
        its deadline comes (the deadline query finds it), and costs this process no memory."""
        if self.presence.watched(code):
            return
        entry = self._seen.get(code)
        if entry is not None and any(s.deadline is not None for s in entry[0].seats):
            self._seen.drop(code)

    async def _own(self, code: str, fresh: bool) -> tuple[TableSnapshot, Game | None, bool]:
        """The table to decide on, taken out of the cache (the decision may change its game):
        the cached entry unless ``fresh``, else a read. Also says whether it was read."""
        if not fresh:
            entry = self._advanced(code)
            if entry is not None:
                return entry[0], entry[1], False
        self.metrics.reads.labels(why="stale" if fresh else "uncached").inc()
        snap = await self._read(code)
        return snap, resumed(snap, self._seen.take(code)), True

    @asynccontextmanager
    async def _lock(self, code: str) -> AsyncIterator[None]:
        """One change at a time per table in this process (the revision guards the rest);
        a lock lives only while someone holds or waits for it."""
        lock = self._locks.setdefault(code, asyncio.Lock())
        self._lock_users[code] += 1
        try:
            async with lock:
                yield
        finally:
            self._lock_users[code] -= 1
            if not self._lock_users[code]:
                del self._lock_users[code]
                del self._locks[code]

    async def publish(self, code: str) -> None:
        """Read the table and announce its state."""
        snap, game = await self.load(code)
        await self._announce(snap, game)
        self._release(snap.table.code)  # e.g. the last socket's leaving, announced

    async def _announce(
        self, snap: TableSnapshot, game: Game | None, told: str | None = None
    ) -> dict[str, Any]:
        """Send the state to everyone watching (one text for all) and return it; ``told``:
        the note of the move for the other server processes (:mod:`yacht.web.storage.peers`)."""
        code = snap.table.code
        state = state_json(snap, game, self.connected(code), self.presence.watchers(code))
        channel = table_channel(snap.table.code)
        await self.broadcaster.publish(channel, state_message(state), told)
        return state

    async def _publish_quietly(self, code: str) -> None:
        """:meth:`publish`, for a task nobody awaits: without the database the players see the
        change with the next state (the store logs the outage once)."""
        with suppress(TableError):  # Unavailable is one
            await self.publish(code)

    def _noted(self, channel: str, text: str) -> None:
        """Another process's note of a move (kept until this process needs the table)."""
        prefix = table_channel("")
        if channel.startswith(prefix):
            self._peers.add(channel[len(prefix) :], text)

    def _context(self) -> Context:
        return Context(now=self.clock(), seeds=self.settings.seeds)

    # --- in-game requests ------------------------------------------------------------------

    async def act(self, code: str, msg: ActionMessage) -> dict[str, Any]:
        """A player's action (see :mod:`~yacht.web.service.decisions` for the checks)."""
        state = await self.change(code, lambda s, g: decisions.act(s, g, self._context(), msg))
        self.presence.seen(code.upper(), [msg.seat])
        return state

    async def act_for(
        self, code: str, seat: int, number: int, version: int, action: Action, *, bot: bool = False
    ) -> None:
        """An action the server takes for a seat (a bot, or a turn that timed out)."""

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            ctx = self._context()
            return decisions.act_for(snap, game, ctx, seat, number, version, action, bot=bot)

        await self.change(code, decide)

    async def hint(self, code: str, msg: HintMessage) -> HintReply:
        """The best options of the turn; checked on this process's snapshot, and when refused
        there, once more on the table as stored (the snapshot may be a move behind: another
        process took the turn's last move and this one has not needed the table since)."""
        snap, game = await self.latest(code)
        try:
            game = decisions.hint_game(snap, game, msg)
        except TableError as e:
            if e.code not in STALE:
                raise
            snap, game = await self.load(code)
            game = decisions.hint_game(snap, game, msg)
        view, version = game.view(), game.version
        self.presence.seen(snap.table.code, [msg.seat])
        key = (snap.table.code, snap.game.number, version, msg.seat)
        reply = await self.hints.answer(key, view)
        return HintReply(
            seat=msg.seat,
            version=version,
            options=[HintOption(**o) for o in reply["options"]],
            exact=reply["exact"],
            solved=reply.get("solved"),
            ref=msg.ref,
        )

    async def coach(self, code: str, msg: CoachMessage) -> CoachReply | None:
        """Mark the seat as playing with the live coach (one write, the first time or when its
        threshold changes) and, with a move in ``msg``, weigh it (see
        :mod:`~yacht.web.service.coach`); None when there was no move to weigh."""
        snap, game = await self.latest(code)
        if not live_coach.marked(snap, msg):
            await self.change(code, lambda s, g: live_coach.mark(s, g, msg))
            snap, game = await self.latest(code)
        if msg.action is None:
            live_coach.check(snap, game, msg)
            return None
        try:
            game = live_coach.check(snap, game, msg)
            move = live_coach.wanted(game, msg)
        except TableError as e:
            if e.code not in STALE | {"stale_version"}:
                raise
            snap, game = await self.load(code)  # the snapshot may be a move behind
            game = live_coach.check(snap, game, msg)
            move = live_coach.wanted(game, msg)
        self.presence.seen(snap.table.code, [msg.seat])
        unit = msg.threshold.unit
        word = await live_coach.weighed(game.view(), move, unit)
        limit = msg.threshold.value / (100 if unit == "win" else 1)
        return CoachReply(
            seat=msg.seat,
            game=msg.game,
            version=game.version,
            measure=unit,
            warn=word["loss"] > limit,
            **{k: word[k] for k in ("loss", "points_loss")},
            best=HintOption(**word["best"]),
            taken=None if word["taken"] is None else HintOption(**word["taken"]),
            ref=msg.ref,
        )

    async def hand_to_bot(self, code: str, msg: HandToBotMessage) -> dict[str, Any]:
        """Hand a seat to a bot; see :class:`~yacht.web.protocol.messages.HandToBotMessage`."""
        level = decisions.bot_level(msg.bot)
        own = msg.seat == msg.by
        away = 0.0 if own else await self.presence.away_for(code.upper(), msg.seat)
        state = await self.change(
            code, lambda s, g: decisions.hand_to_bot(s, g, self._context(), msg, level, away)
        )
        self.presence.drop(code.upper(), msg.seat)
        return state

    async def take_back(self, code: str, msg: TakeBackMessage) -> dict[str, Any]:
        """The seat's holder takes it back from the bot playing it."""
        return await self.change(code, lambda s, g: decisions.take_back(s, g, self._context(), msg))

    async def contribute(self, code: str, msg: SeedMessage) -> dict[str, Any]:
        """A player's seed for the dice key of the waiting game or of the next one."""
        return await self.change(
            code, lambda s, g: decisions.contribute(s, g, self._context(), msg)
        )

    async def rematch(self, code: str, msg: RematchMessage) -> dict[str, Any]:
        """A seat proposes, agrees to or declines the next game at the table (see
        :mod:`~yacht.web.service.rematch`)."""
        return await self.change(code, lambda s, g: rematch.answer(s, g, self._context(), msg))

    async def store_review(self, code: str, number: int, review: dict[str, Any]) -> None:
        """Keep the review of game ``number`` with it (unless the table has moved on)."""
        await self.change(code, lambda s, g: decisions.keep_review(s, g, number, review))

    # --- table lifecycle -----------------------------------------------------------------

    async def create(
        self, spec: CreateTable, creator: str | None = None, account: Account | None = None
    ) -> dict[str, Any]:
        """Open a table (``creator``: who asks, for the cap on their waiting tables;
        ``account``: the signed-in player who asks, whom a rated table needs)."""
        rules = checked(spec)
        if spec.rated:
            if account is None:
                raise refusal("unauthorized", "rated_signed_in")
            if len(spec.seats) < 2 or any(s.kind != "human" for s in spec.seats):
                raise refusal("invalid", "rated_people")
        await self._check_names([s.name for s in spec.seats if s.name])
        if all(s.kind == "bot" for s in spec.seats):
            await self._check_bot_tables(creator)
        else:
            await self._check_waiting(creator)
        levels = Counter(s.bot for s in spec.seats if s.kind == "bot")
        for _ in range(10):
            length = PRIVATE_CODE_LENGTH if spec.private else CODE_LENGTH
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            seed = self.settings.seeds()
            table, seats, game = opening_rows(spec, rules, code, seed, creator)
            engine: Game | None = None
            if all(s.kind == "bot" for s in spec.seats):  # a table of bots starts at once
                snap = TableSnapshot(table, tuple(seats), game)
                change = Change()
                decisions.start_if_full(snap, change, self._context())
                engine = change.engine
                for key, value in change.game.items():
                    setattr(game, key, value)
                table.fair_next = change.table["fair_next"]
            try:
                await self.store.acreate(table, seats, game)
            except IntegrityError:  # the code was taken: draw another
                continue
            snap = TableSnapshot(table, tuple(seats), game)  # the game's id is set by the insert
            if self.settings.prepare_tables and (spec.hints or "winner" in levels):
                bots.prepare_win_tables(rules, len(seats))
            self._seen.put(snap, engine)
            self.on_change(code, snap, engine)
            return state_json(snap, engine)
        raise TableError("busy", "could not find a free table code")

    async def _check_waiting(self, creator: str | None) -> None:
        """Refuse a new table while ``creator`` (or the server) has too many waiting."""
        if creator is not None:
            mine = await self.store.awaiting_count(creator)
            if mine >= self.settings.waiting_per_client:
                raise TableError(
                    "rate_limited",
                    f"you have {mine} tables waiting for players, the most one client may "
                    "have: fill one, or wait until one expires",
                )
        total = await self.store.awaiting_count()
        if total >= self.settings.waiting_total:
            raise TableError("busy", f"the server has {total} tables waiting: join one of them")

    async def _check_bot_tables(self, creator: str | None) -> None:
        """Refuse a new table of bots only while ``creator`` (or the server) has too many
        being played: they start at once and cost the server CPU until they finish."""
        if creator is not None:
            mine = await self.store.abot_tables_count(creator)
            if mine >= self.settings.bot_tables_per_client:
                raise TableError(
                    "rate_limited",
                    f"you have {mine} tables of bots being played, the most one client may "
                    "have: watch one to its end first",
                )
        total = await self.store.abot_tables_count()
        if total >= self.settings.bot_tables_total:
            raise TableError(
                "busy", f"the server has {total} tables of bots being played: try again later"
            )

    async def _check_names(self, names: list[str], account: Account | None = None) -> None:
        """Refuse a name the operator has banned (``yacht admin names ban``), and a name that
        looks like an account's, unless it is ``account``'s own."""
        for name in names:
            if await self.store.ais_banned(name_key(name)):
                raise TableError("invalid", f"the name {name!r} cannot be taken here")
            if account is not None and name == account.name:
                continue
            holder = await self.accounts.name_holder(name)
            if holder is not None:
                raise refusal("name_taken", "name_held", name=repr(name))

    async def join(self, code: str, body: JoinSeat, account: Account | None = None) -> Joined:
        """Take a free seat. A signed-in person sits under their account's name, and the seat
        follows the account: its token is the account's
        (:func:`yacht.web.service.seats.mine` gives it again on any device)."""
        code = code.upper()
        if account is None:
            snap, _ = await self.load(code)
            if snap.table.rated:
                raise refusal("unauthorized", "rated_signed_in")
        if account is not None:
            body = body.model_copy(update={"name": account.name})
            token = seat_token(account.seat_key, code, body.seat)
        else:
            token = secrets.token_urlsafe(24)
        await self._check_names([body.name], account)
        held = hash_token(token)
        who = None if account is None else account.id
        state = await self.change(
            code, lambda s, g: decisions.join(s, g, self._context(), body, held, who)
        )
        return Joined(seat=body.seat, token=token, table=TableState.model_validate(state))

    async def expire(self) -> list[str]:
        """Delete tables that waited too long for players, and abandoned games' tables."""
        moment = self.clock()
        codes = await self.store.aexpire(
            datetime.fromtimestamp(moment - self.settings.waiting_ttl, UTC),
            datetime.fromtimestamp(moment - self.settings.idle_ttl, UTC),
            datetime.fromtimestamp(moment - WAITING_DAYS * DAY, UTC),
        )
        for code in codes:
            self._seen.drop(code)
        return codes

    async def sweep(self) -> None:
        """:meth:`expire` every ``settings.sweep_every`` seconds, for ever."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                codes = await self.expire()
            except Unavailable:  # said once in the log by the store; the next sweep tries
                continue
            except Exception:
                log.exception("cleaning up expired tables failed")
                continue
            if codes:
                log.info("deleted %d expired tables", len(codes), extra={"tables": len(codes)})

    # --- presence ------------------------------------------------------------------------

    async def arrive(self, code: str, seats: Collection[tuple[int, str]]) -> list[int]:
        """Mark the seats whose tokens are right as connected; return them. The table hears
        of it only when its set of connected seats changed (another tab of a seat already
        here changes nothing), and then at most every :data:`PRESENCE_EVERY` seconds."""
        snap, _ = await self.load(code)
        good = []
        for seat, token in seats:
            try:
                decisions.check_token(snap, seat, token)
            except TableError:
                continue
            good.append(seat)
        if good:
            code = snap.table.code
            before = self.connected(code)
            self.presence.arrive(code, good)
            if self.connected(code) != before:
                self._tell_presence(code)
        return good

    def watch(self, code: str, connection: int, name: str | None) -> None:
        """Count a connection that holds no seat as watching; the table hears of it as of a
        seat arriving (see :meth:`arrive`)."""
        if self.presence.watch(code, connection, name):
            self._tell_presence(code)

    def unwatch(self, code: str, connection: int) -> None:
        """The connection no longer watches (closed, or took a seat)."""
        if self.presence.unwatch(code, connection):
            self._tell_presence(code)
        self._release(code)

    def leave(self, code: str, seats: Collection[int]) -> None:
        """A connection holding ``seats`` closed: count them out, and tell the table if a
        seat is no longer connected at all (as :meth:`arrive` does).

        Synchronous so that it also runs when the connection's task is being cancelled; the
        announcement is a task of its own.
        """
        before = self.connected(code)
        if self.presence.leave(code, seats) and self.connected(code) != before:
            self._tell_presence(code)
        self._release(code)

    def _tell_presence(self, code: str) -> None:
        """Announce the table's state for a change of who is connected: at once unless one
        went out less than :data:`PRESENCE_EVERY` seconds ago, then once at the end of that
        interval for every change within it."""
        if code in self._presence_due:
            return
        self._presence_due.add(code)
        moment = time.monotonic()
        if len(self._presence_at) > 10_000:  # forget the tables announced long ago
            self._presence_at = {
                k: v for k, v in self._presence_at.items() if moment - v < PRESENCE_EVERY
            }
        wait = self._presence_at.get(code, -PRESENCE_EVERY) + PRESENCE_EVERY - moment
        task = asyncio.get_running_loop().create_task(self._presence_after(code, wait))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _presence_after(self, code: str, wait: float) -> None:
        if wait > 0:
            await asyncio.sleep(wait)
        self._presence_due.discard(code)
        self._presence_at[code] = time.monotonic()
        await self._publish_quietly(code)
