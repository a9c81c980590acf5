"""Tables, seats, tokens and the game service: the only place that changes a table.

Every change follows one path: take the table's lock, read it, decide (the engine validates
actions; anything wrong raises :class:`TableError` and nothing changes), commit to the
database, and only then publish the new state to everyone watching.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from yacht.dice import FairDice
from yacht.game import Game
from yacht.web.bus.broadcast import Broadcaster, table_channel
from yacht.web.edge.limits import ClientLimits
from yacht.web.edge.metrics import Metrics
from yacht.web.protocol.errors import ERROR_STATUS, TableError, engine_error
from yacht.web.protocol.messages import (
    CreateTable,
    Joined,
    JoinSeat,
    TableState,
)
from yacht.web.service import bots as players
from yacht.web.service import fairness
from yacht.web.service.lobby import checked, opening_rows
from yacht.web.service.presence import Presence
from yacht.web.service.state import state_json, state_message, table_state
from yacht.web.settings import Settings
from yacht.web.storage.models import GameRow, SeatRow, TableRow
from yacht.web.storage.peers import PeerNotes, note
from yacht.web.storage.snapshots import SnapshotCache, applied, decoded, resumed
from yacht.web.storage.store import ConflictError, Store, TableSnapshot, now

__all__ = ["ERROR_STATUS", "TableError", "TableService", "engine_error", "hash_token"]

log = logging.getLogger("yacht.web")

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read out loud
CODE_LENGTH = 6
RETRIES = 3


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Change:
    """What one decision writes: seat columns, current-game columns, or a new game."""

    seats: dict[int, dict[str, Any]] = field(default_factory=dict)
    game: dict[str, Any] = field(default_factory=dict)
    new_game: GameRow | None = None
    engine: Game | None = None  # the engine game after the change (None: not started)
    table: dict[str, Any] = field(default_factory=dict)


Decide = Callable[[TableSnapshot, Game | None], Change]


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
        self.limits = ClientLimits(
            waiting_per_client=settings.waiting_per_client, waiting_total=settings.waiting_total
        )
        self._background: set[asyncio.Task[None]] = set()
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
        return entry if entry is not None else await self.load(code)

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
        return table_state(snap, game, self.connected(snap.table.code))

    async def state_text(self, code: str) -> str:
        """The table's ``state`` message as read now."""
        snap, game = await self.load(code)
        return state_message(state_json(snap, game, self.connected(snap.table.code)))

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
                    revision = await self.store.achange(
                        code,
                        snap.revision,
                        seats=change.seats,
                        game=change.game,
                        new_game=change.new_game,
                        table=change.table,
                    )
                except ConflictError:  # another process won: decide again on fresh state
                    conflicts += 1
                    if conflicts >= RETRIES:
                        raise TableError("busy", f"table {code} kept changing; try again") from None
                    fresh = True
                    continue
                finally:
                    self.metrics.observe("database", time.perf_counter() - clock)
                new = applied(
                    snap,
                    revision,
                    seats=change.seats,
                    game=change.game,
                    new_game=change.new_game,
                    table_columns=change.table,
                )
                engine = change.engine
                if engine is None and new.game.status != "waiting":  # a decision that did not
                    new, engine = await self.load(code)  # hand over its game: read it
                self._seen.put(new, engine)
                clock = time.perf_counter()
                # A move (the game's own columns only): tell the other processes.
                move = not (change.seats or change.table or change.new_game)
                told = None
                if move and engine is not None and engine is game:
                    told = note(snap, revision, change.game, engine, before)
                state = await self._announce(new, engine, told)
                self.metrics.observe("publish", time.perf_counter() - clock)
                break
        self.on_change(code, new, engine)
        return state

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

    async def _announce(
        self, snap: TableSnapshot, game: Game | None, told: str | None = None
    ) -> dict[str, Any]:
        """Send the state to everyone watching (one text for all) and return it; ``told``:
        the note of the move for the other server processes (:mod:`yacht.web.storage.peers`)."""
        state = state_json(snap, game, self.connected(snap.table.code))
        channel = table_channel(snap.table.code)
        await self.broadcaster.publish(channel, state_message(state), told)
        return state

    def _noted(self, channel: str, text: str) -> None:
        """Another process's note of a move (kept until this process needs the table)."""
        prefix = table_channel("")
        if channel.startswith(prefix):
            self._peers.add(channel[len(prefix) :], text)

    # --- helpers used by decisions -------------------------------------------------------

    def _deadline(self, table: TableRow, game: Game) -> float | None:
        if table.turn_seconds is None or game.finished:
            return None
        return self.clock() + table.turn_seconds

    def _game_columns(self, table: TableRow, game: Game, *, new_turn: bool) -> dict[str, Any]:
        columns: dict[str, Any] = {
            "state": game.to_json(),
            "version": game.version,
            "status": "finished" if game.finished else "playing",
        }
        if new_turn or game.finished:
            columns["deadline"] = self._deadline(table, game)
        if game.finished:
            columns["finished_at"] = now()
        return columns

    def _start(self, snap: TableSnapshot, names: list[str], seed: str, key: str) -> Game:
        return Game(names, snap.table.preset, FairDice(seed, key), start=snap.table.start_rule)

    def _fair_start(
        self, commitment: str, fair: dict[str, Any] | None, change: Change
    ) -> tuple[str, dict[str, Any]]:
        """The dice key of a game starting now from its ``fair`` record (rule 2: made of the
        players' seeds; a game from before rule 2 keeps the table's client seed), the record
        to store, and the next game's seed drawn and committed to (in ``change.table``)."""
        stamp = now().isoformat()
        change.table["fair_next"] = fairness.next_fair(self.settings.seeds(), stamp)
        if fair is None:
            return "", {}
        key = fairness.dice_key(commitment, fair.get("contributions", []))
        return key, {**fair, "key": key, "started_at": stamp}

    def _start_if_full(self, snap: TableSnapshot, change: Change) -> None:
        """Start the waiting game once every seat is taken (by a person or a bot)."""
        if snap.game.status != "waiting":
            return
        names = []
        for row in snap.seats:
            cols = change.seats.get(row.position, {})
            kind, token = cols.get("kind", row.kind), cols.get("token_hash", row.token_hash)
            if kind != "bot" and token is None:
                return
            names.append(cols.get("name", row.name) or f"Seat {row.position + 1}")
        fair = change.game.get("fair", snap.game.fair)
        key, fair = self._fair_start(snap.game.commitment, fair, change)
        if not fair:  # a table opened before rule 2
            key = snap.table.client_seed
        game = self._start(snap, names, snap.game.server_seed, key)
        change.game = self._game_columns(snap.table, game, new_turn=True)
        if fair:
            change.game["fair"] = fair
        change.engine = game

    def seat_of(self, snap: TableSnapshot, seat: int) -> SeatRow:
        for row in snap.seats:
            if row.position == seat:
                return row
        raise TableError("invalid", f"table {snap.table.code} has no seat {seat + 1}")

    def check_token(self, snap: TableSnapshot, seat: int, token: str | None) -> SeatRow:
        row = self.seat_of(snap, seat)
        if not token:
            raise TableError("spectator", "spectators watch: take a seat to play")
        if row.token_hash is None or not hmac.compare_digest(row.token_hash, hash_token(token)):
            raise TableError("bad_token", f"that token does not hold seat {seat + 1}")
        return row

    # --- table lifecycle -----------------------------------------------------------------

    async def create(self, spec: CreateTable, creator: str | None = None) -> dict[str, Any]:
        """Open a table (``creator``: who asks, for the cap on their waiting tables)."""
        rules = checked(spec)
        if not all(s.kind == "bot" for s in spec.seats):
            await self.limits.check_waiting(self.store, creator)
        bots = Counter(s.bot for s in spec.seats if s.kind == "bot")
        for _ in range(10):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            seed = self.settings.seeds()
            table, seats, game = opening_rows(spec, rules, code, seed, creator)
            engine: Game | None = None
            if all(s.kind == "bot" for s in spec.seats):  # a table of bots starts at once
                snap = TableSnapshot(table, tuple(seats), game)
                change = Change()
                self._start_if_full(snap, change)
                engine = change.engine
                for key, value in change.game.items():
                    setattr(game, key, value)
                table.fair_next = change.table["fair_next"]
            try:
                await asyncio.to_thread(self.store.create, table, seats, game)
            except IntegrityError:  # the code was taken: draw another
                continue
            snap = TableSnapshot(table, tuple(seats), game)  # the game's id is set by the insert
            if self.settings.prepare_tables and (spec.hints or "winner" in bots):
                players.prepare_win_tables(rules, len(seats))
            self._seen.put(snap, engine)
            self.on_change(code, snap, engine)
            return state_json(snap, engine)
        raise TableError("busy", "could not find a free table code")

    async def join(self, code: str, body: JoinSeat) -> Joined:
        token = secrets.token_urlsafe(24)

        def decide(snap: TableSnapshot, game: Game | None) -> Change:
            row = self.seat_of(snap, body.seat)
            if row.kind == "bot":
                raise TableError("seat_taken", f"seat {body.seat + 1} is played by a bot")
            if row.token_hash is not None:
                raise TableError("seat_taken", f"seat {body.seat + 1} is taken by {row.name}")
            change = Change(engine=game)
            stamp = now()
            change.seats[body.seat] = {
                "name": body.name,
                "token_hash": hash_token(token),
                "claimed_at": stamp,
                "seen_at": stamp,
            }
            if body.seed and snap.game.fair is not None:
                fair = fairness.contribute(snap.game.fair, body.seat, body.seed, stamp.isoformat())
                change.game["fair"] = fair or snap.game.fair
            self._start_if_full(snap, change)
            return change

        state = await self.change(code, decide)
        return Joined(seat=body.seat, token=token, table=TableState.model_validate(state))

    async def expire(self) -> list[str]:
        """Delete tables that waited too long for players, and abandoned games' tables."""
        moment = self.clock()
        codes = await asyncio.to_thread(
            self.store.expire,
            datetime.fromtimestamp(moment - self.settings.waiting_ttl, UTC),
            datetime.fromtimestamp(moment - self.settings.idle_ttl, UTC),
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
            except Exception:
                log.exception("cleaning up expired tables failed")
                continue
            if codes:
                log.info("deleted %d expired tables", len(codes), extra={"tables": len(codes)})

    # --- presence ------------------------------------------------------------------------

    async def arrive(self, code: str, seats: Collection[tuple[int, str]]) -> list[int]:
        """Mark the seats whose tokens are right as connected; return them."""
        snap, game = await self.load(code)
        good = []
        for seat, token in seats:
            try:
                self.check_token(snap, seat, token)
            except TableError:
                continue
            good.append(seat)
        if good:
            self.presence.arrive(snap.table.code, good)
            await self._announce(snap, game)
        return good

    def leave(self, code: str, seats: Collection[int]) -> None:
        """A connection holding ``seats`` closed: count them out and tell the table.

        Synchronous so that it also runs when the connection's task is being cancelled; the
        announcement is a task of its own.
        """
        if not self.presence.leave(code, seats):
            return
        task = asyncio.get_running_loop().create_task(self.publish(code))
        self._background.add(task)
        task.add_done_callback(self._background.discard)
