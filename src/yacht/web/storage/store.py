"""Storage of tables, seats and games through SQLAlchemy 2 (SQLite by default, PostgreSQL by URL).

Every change to a table is one transaction that first moves the table's ``revision`` from the
value the change was computed on to the next one (``UPDATE ... WHERE revision = :seen``). When
another request or server process got there first, :class:`ConflictError` is raised and nothing
is written; the caller reloads and decides again. The schema is made by Alembic
(:func:`migrate`), never by ``create_all``.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session, sessionmaker

from yacht.web.storage import correspondence, inbox, results
from yacht.web.storage.changes import Change
from yacht.web.storage.models import (
    BannedNameRow,
    GameRow,
    SeatRow,
    TableRow,
    columns_of,
    snapshot_row,
)
from yacht.web.storage.outage import Outage, Unavailable, gone
from yacht.web.storage.pg import Direct

__all__ = [
    "DAMAGE",
    "ROW_ERRORS",
    "ConflictError",
    "Store",
    "TableSnapshot",
    "UnknownRevisionError",
    "UnreadableRowError",
    "current_revision",
    "downgrade",
    "head_revision",
    "migrate",
    "now",
]

T = TypeVar("T")

log = logging.getLogger("yacht.web.database")

MIGRATIONS = Path(__file__).parent / "migrations"
POOL_SIZE = min(32, (os.cpu_count() or 1) + 4) + 2
PROBE_EVERY = 0.5  # seconds between looks at a database that went away
CONNECT_TIMEOUT = 5  # seconds psycopg may take to connect


def now() -> datetime:
    return datetime.now(UTC)


class ConflictError(RuntimeError):
    """The table changed since it was read (another request or process won the race)."""


@dataclass(frozen=True)
class TableSnapshot:
    """A table as read in one transaction: its row, seats and current game (detached rows)."""

    table: TableRow
    seats: tuple[SeatRow, ...]
    game: GameRow

    @property
    def revision(self) -> int:
        return self.table.revision


# The hot path (a move writes its table; it reads it only when this process's snapshot of it
# is missing or stale, see snapshots.py) goes through SQLAlchemy Core: two statements and no
# ORM session make a read about 3x cheaper in CPU and 6x quicker than Session.get with its
# selectin of seats, which is what lets several server processes keep up with many tables.
_TABLES = cast(Table, TableRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_TABLE_COLUMNS = columns_of(TableRow)
_GAME_COLUMNS = columns_of(GameRow)
_LOAD = (
    select(*_TABLES.c, *(c.label(f"g__{c.name}") for c in _GAMES.c))
    .join(
        _GAMES,
        (_GAMES.c.table_code == _TABLES.c.code) & (_GAMES.c.number == _TABLES.c.game_number),
    )
    .where(_TABLES.c.code == bindparam("code"))
)
# A change: bump the revision from the one the decision was made on (the row lock that orders
# racing processes), then SET the columns given as parameters (named like the columns).
_BUMP = (
    update(_TABLES)
    .where(_TABLES.c.code == bindparam("b_code"), _TABLES.c.revision == bindparam("b_seen"))
    .values(revision=bindparam("b_revision"))
    .returning(_TABLES.c.game_number)
)
_BUMP_TO_GAME = _BUMP.values(game_number=bindparam("b_number"))
_GAME_NUMBER = select(_TABLES.c.game_number).where(_TABLES.c.code == bindparam("b_code"))
_SEAT = update(_SEATS).where(
    _SEATS.c.table_code == bindparam("b_code"), _SEATS.c.position == bindparam("b_position")
)
_GAME = update(_GAMES).where(
    _GAMES.c.table_code == bindparam("b_code"), _GAMES.c.number == bindparam("b_number")
)
_GAME_ID = select(_GAMES.c.id).where(
    _GAMES.c.table_code == bindparam("b_code"), _GAMES.c.number == bindparam("b_number")
)
_LOAD_SEATS = (
    select(_SEATS).where(_SEATS.c.table_code == bindparam("code")).order_by(_SEATS.c.position)
)


class UnreadableRowError(ValueError):
    """A stored row that cannot be read back (its JSON broken, a column of the wrong kind: a
    damaged file or a hand edit). A list leaves such a row out with one log line; asked for
    by itself, it is this error."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id} cannot be read: {reason}")
        self.game_id = game_id
        self.reason = reason


ROW_ERRORS = (ValueError, TypeError, KeyError, OverflowError, RecursionError)
"""What reading a damaged row raises (json.loads, datetime.fromisoformat, the dialects' own
result processors); never a driver's error, which stays the database's."""


DAMAGE = (*ROW_ERRORS, AttributeError)
"""What turning a damaged row into an answer raises (a state that is JSON, but not a game's:
a list where an object belongs)."""


def _why(error: BaseException) -> str:
    """The kind of a row's damage, for a log line: never the row's contents."""
    return type(error).__name__


class UnknownRevisionError(RuntimeError):
    """The database was migrated by a newer yacht: this one does not know its revision."""

    def __init__(self, found: str, head: str) -> None:
        super().__init__(f"the database is at migration {found}, unknown to this yacht ({head})")
        self.found, self.head = found, head


def _alembic_config(connection: Connection | None = None) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration this version of yacht has."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None  # the package ships its migrations
    return head


def _current(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    return MigrationContext.configure(connection).get_current_revision()


def _check_known(connection: Connection) -> None:
    from alembic.script import ScriptDirectory

    found = _current(connection)
    known = {s.revision for s in ScriptDirectory.from_config(_alembic_config()).walk_revisions()}
    if found is not None and found not in known:
        raise UnknownRevisionError(found, head_revision())


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (None: an empty database)."""
    with engine.connect() as connection:
        return _current(connection)


@contextmanager
def _migrating(engine: Engine) -> Iterator[Connection]:
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # servers starting together take turns
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7720231)")
        _check_known(connection)
        yield connection


def migrate(engine: Engine, target: str = "head") -> None:
    """Bring the database schema up to the ``target`` revision (the newest by default).

    Raises :class:`UnknownRevisionError`, changing nothing, when the database is at a
    revision this version does not have (a newer yacht migrated it)."""
    from alembic import command

    with _migrating(engine) as connection:
        command.upgrade(_alembic_config(connection), target)


def downgrade(engine: Engine, target: str) -> None:
    """Take the schema down to revision ``target`` (``-1``: one step; ``base``: empty)."""
    from alembic import command

    with _migrating(engine) as connection:
        command.downgrade(_alembic_config(connection), target)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Store:
    """The database of one server process (thread-safe; call it from worker threads)."""

    def __init__(self, url: str, *, direct: bool = True) -> None:
        self.url = url
        # Every worker thread of the event loop's default executor (min(32, cores + 4)) may
        # hold a connection at once: with fewer pooled, the extra ones are opened and closed
        # for each move (a new PostgreSQL backend each time). SQLite connections are cheap.
        # A pooled connection is checked before it is handed out (a database that restarted
        # closed them all), and a new one waits CONNECT_TIMEOUT at most.
        kwargs: dict[str, Any] = {
            "pool_size": POOL_SIZE,
            "max_overflow": POOL_SIZE,
            "pool_pre_ping": True,
        }
        if url.startswith("postgresql"):
            kwargs["connect_args"] = {"connect_timeout": CONNECT_TIMEOUT}
        if url.startswith("sqlite"):
            kwargs = {"connect_args": {"check_same_thread": False}}
        self.engine = create_engine(url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # Told how long each connection of the hot path waited for the pool (the metrics).
        self.on_pool_wait: Callable[[float], None] = lambda _seconds: None
        # On PostgreSQL the hot path runs in the event loop on asyncpg (see pg.py), when it
        # is installed (the [scale] extra); ``direct=False`` (``YACHT_PG_DIRECT=0``) sends it
        # through worker threads like everything else.
        self.direct: Direct | None = None
        # Whether the database answers, as the last statement found (see outage.py).
        self.outage = Outage("database")
        self._probe: asyncio.Task[None] | None = None
        dialect = self.engine.dialect
        postgres = (dialect.name, dialect.driver) == ("postgresql", "psycopg")
        if direct and postgres and importlib.util.find_spec("asyncpg") is not None:
            self.direct = Direct(url)
            self.direct.on_pool_wait = lambda seconds: self.on_pool_wait(seconds)

    def _connect(self) -> Connection:
        """A connection from the pool, its wait reported to :attr:`on_pool_wait`."""
        start = time.perf_counter()
        connection = self.engine.connect()
        self.on_pool_wait(time.perf_counter() - start)
        return connection

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    async def aclose(self) -> None:
        """Close the event loop's connections (:meth:`close` the rest)."""
        if self._probe is not None:
            self._probe.cancel()
            await asyncio.gather(self._probe, return_exceptions=True)
        if self.direct is not None:
            await self.direct.aclose()

    # --- the database going away (see outage.py) ------------------------------------------

    async def _guard(self, work: Awaitable[T]) -> T:
        """``await work``, its outcome told to :attr:`outage`; the database gone raises
        :class:`~yacht.web.storage.outage.Unavailable`."""
        try:
            result = await work
        except Exception as e:
            if not gone(e):
                raise
            self.outage.failed(e)
            self._look_again()
            if isinstance(e, Unavailable):
                raise
            raise Unavailable() from e
        if not self.outage.ok:
            self.outage.succeeded()
        return result

    async def guarded(self, work: Awaitable[T]) -> T:
        """``await work`` as the store awaits its own statements (the accounts' store,
        :mod:`yacht.web.storage.accounts`, runs through this): the database gone is
        :class:`~yacht.web.storage.outage.Unavailable`, and the outage is told."""
        return await self._guard(work)

    async def _thread(self, read: Callable[..., T], *args: Any) -> T:
        """A read in a worker thread, once more when the database was gone (the engine has
        replaced its connections by then: SQLAlchemy invalidates its pool on a lost one)."""
        try:
            return await asyncio.to_thread(read, *args)
        except Exception as e:
            if not gone(e):
                raise
        return await asyncio.to_thread(read, *args)

    def _look_again(self) -> None:
        """While the database is away, ask it every PROBE_EVERY seconds, so that the way back
        is noticed (and told) even when nobody asks for a table."""
        if self._probe is None or self._probe.done():
            self._probe = asyncio.get_running_loop().create_task(self._probing())

    async def _probing(self) -> None:
        while not self.outage.ok:
            await asyncio.sleep(PROBE_EVERY)
            with suppress(Unavailable):
                await self.aping()

    async def aping(self) -> None:
        """A real query on the driver the moves use (asyncpg on PostgreSQL, else SQLAlchemy);
        raises :class:`~yacht.web.storage.outage.Unavailable` when the database is gone."""
        if self.direct is not None:
            await self._guard(self.direct.ping())
        else:
            await self._guard(self._thread(self._ping))

    def _ping(self) -> None:
        with self.engine.connect() as c:
            c.execute(select(1))

    async def until_up(self) -> None:
        """Return once the database answers (at once while it does)."""
        if not self.outage.ok:
            self._look_again()
            await self.outage.back()

    # --- the hot path, awaited in the event loop ----------------------------------------

    async def aload(self, code: str) -> TableSnapshot | None:
        """:meth:`load` without a worker thread on PostgreSQL."""
        if self.direct is None:
            return await self._guard(self._thread(self.load, code))
        found = await self._guard(self.direct.load(code))
        if found is None:
            return None
        table, game, seats = found
        return TableSnapshot(table, tuple(seats), game)

    async def achange(self, code: str, seen: int, change: Change) -> int:
        """:meth:`change` without a worker thread on PostgreSQL."""
        if self.direct is None:
            return await self._guard(asyncio.to_thread(self.change, code, seen, change))
        revision = await self._guard(self.direct.change(code, seen, change, when=now()))
        if revision is None:
            raise ConflictError(f"table {code} changed since revision {seen}")
        return revision

    async def anote(self, notes: Mapping[tuple[str, int], datetime]) -> None:
        """:meth:`note` without a worker thread on PostgreSQL."""
        if not notes:
            return
        if self.direct is None:
            await self._guard(self._thread(self.note, notes))
        else:
            await self._guard(self.direct.note(notes))

    # The rest of the API, awaited: each runs in a worker thread here, so no caller hops
    # threads itself. Reads are tried twice when the database was gone; writes once.

    async def agame(self, game_id: int) -> tuple[GameRow, TableRow] | None:
        return await self._guard(self._thread(self.game, game_id))

    async def agames(self, status: str, limit: int, offset: int = 0) -> list[GameRow]:
        return await self._guard(self._thread(self.games, status, limit, offset))

    async def awaiting_tables(self, limit: int) -> list[TableSnapshot]:
        return await self._guard(self._thread(self.waiting_tables, limit))

    async def aactive_codes(self) -> list[str]:
        return await self._guard(self._thread(self.active_codes))

    async def acreate(self, table: TableRow, seats: list[SeatRow], game: GameRow) -> None:
        await self._guard(asyncio.to_thread(self.create, table, seats, game))

    async def aseen(self, code: str) -> dict[int, datetime | None]:
        return await self._guard(self._thread(self.seen, code))

    async def awaiting_count(self, creator: str | None = None) -> int:
        return await self._guard(self._thread(self.waiting_count, creator))

    async def abot_tables_count(self, creator: str | None = None) -> int:
        return await self._guard(self._thread(self.bot_tables_count, creator))

    async def aexpire(
        self, waiting_before: datetime, idle_before: datetime, letters_before: datetime
    ) -> list[str]:
        return await self._guard(
            asyncio.to_thread(self.expire, waiting_before, idle_before, letters_before)
        )

    async def aclaim_due(self, moment: float, until: float) -> list[tuple[str, int]]:
        """The correspondence deadlines due at ``moment``, claimed until ``until`` (see
        :func:`yacht.web.storage.correspondence.claim_due`)."""
        return await self._guard(
            asyncio.to_thread(correspondence.claim_due, self.engine, moment, until)
        )

    async def awaiting_on(
        self, account: int | None, seats: list[tuple[str, int]]
    ) -> list[inbox.Waiting]:
        """The seats of games waiting on a player, with what the inbox shows of each (see
        :func:`yacht.web.storage.inbox.waiting_on`)."""
        return await self._guard(self._thread(inbox.waiting_on, self.engine, account, seats))

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session:
            yield session

    # --- reads ---------------------------------------------------------------------------

    def load(self, code: str) -> TableSnapshot | None:
        """A table with its seats and current game, or None when there is no such table.

        Two statements without a transaction around them: a seat that changed in between
        also moved the table's revision, so :meth:`change` refuses a decision made on it.
        """
        with self._connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            row = c.execute(_LOAD, {"code": code}).mappings().first()
            if row is None:
                return None
            seats = c.execute(_LOAD_SEATS, {"code": code}).mappings().all()
        table = snapshot_row(TableRow, {k: row[k] for k in _TABLE_COLUMNS})
        game = snapshot_row(GameRow, {k: row[f"g__{k}"] for k in _GAME_COLUMNS})
        return TableSnapshot(table, tuple(snapshot_row(SeatRow, dict(s)) for s in seats), game)

    def revision(self, code: str) -> int | None:
        with self._session() as s:
            return s.scalar(select(TableRow.revision).where(TableRow.code == code))

    def game(self, game_id: int) -> tuple[GameRow, TableRow] | None:
        """A game with its table; :class:`UnreadableRowError` when its row cannot be read."""
        with self._session() as s:
            try:
                game = s.get(GameRow, game_id)
                if game is None:
                    return None
                table = s.get(TableRow, game.table_code)
                assert table is not None  # a foreign key
                _ = table.seats
            except ROW_ERRORS as e:
                raise UnreadableRowError(game_id, _why(e)) from e
            return game, table

    def games(self, status: str, limit: int, offset: int = 0) -> list[GameRow]:
        """Games in a status, newest first; none of a private table. A row that cannot be
        read is left out with one log line, so one damaged game does not hide the others."""
        with self._session() as s:
            query = (
                select(GameRow)
                .join(TableRow, TableRow.code == GameRow.table_code)
                .where((GameRow.status == status) & TableRow.private.is_(False))
                .order_by(GameRow.updated_at.desc(), GameRow.id.desc())
                .limit(limit)
                .offset(offset)
            )
            try:
                return list(s.scalars(query))
            except ROW_ERRORS:  # one row or more cannot be read: read them one by one
                s.rollback()
                ids = list(s.scalars(query.with_only_columns(GameRow.id)))
        out = []
        for game_id in ids:
            with self._session() as s:
                try:
                    row = s.get(GameRow, game_id)
                except ROW_ERRORS as e:
                    log.warning(
                        "game %s cannot be read (%s): left out of the list",
                        game_id,
                        _why(e),
                        extra={"game": game_id},
                    )
                    continue
                if row is not None:
                    out.append(row)
        return out

    def waiting_tables(self, limit: int) -> list[TableSnapshot]:
        """Tables whose current game waits for players, newest first; no private table. A
        table whose rows cannot be read is left out with one log line."""
        query = (
            select(TableRow, GameRow)
            .join(
                GameRow,
                (GameRow.table_code == TableRow.code) & (GameRow.number == TableRow.game_number),
            )
            .where((GameRow.status == "waiting") & TableRow.private.is_(False))
            .order_by(TableRow.created_at.desc())
            .limit(limit)
        )
        with self._session() as s:
            try:
                rows = s.execute(query).all()
                return [TableSnapshot(t, tuple(t.seats), g) for t, g in rows]
            except ROW_ERRORS:  # one table or more cannot be read: read them one by one
                s.rollback()
                codes = list(s.scalars(query.with_only_columns(TableRow.code)))
        out = []
        for code in codes:
            try:
                found = self.load(code)
            except ROW_ERRORS as e:
                log.warning(
                    "table %s cannot be read (%s): left out of the list",
                    code,
                    _why(e),
                    extra={"table": code},
                )
                continue
            if found is not None and found.game.status == "waiting":
                out.append(found)
        return out

    def active_codes(self) -> list[str]:
        """Tables whose current game is being played or awaits its review (to resume them),
        except the correspondence games waiting on a person (a seat with a deadline): they
        need nothing from a process until the deadline, which the deadline query finds."""
        dormant = (
            select(SeatRow.table_code)
            .where((SeatRow.table_code == TableRow.code) & SeatRow.deadline.is_not(None))
            .exists()
        )
        with self._session() as s:
            query = (
                select(TableRow.code)
                .join(
                    GameRow,
                    (GameRow.table_code == TableRow.code)
                    & (GameRow.number == TableRow.game_number),
                )
                .where(
                    (GameRow.status == "playing")
                    | ((GameRow.status == "finished") & GameRow.review.is_(None))
                )
                .where(~dormant)
            )
            return list(s.scalars(query))

    # --- writes --------------------------------------------------------------------------

    def create(self, table: TableRow, seats: list[SeatRow], game: GameRow) -> None:
        """Insert a new table with its seats and first game (the code must be new)."""
        with self._session() as s, s.begin():
            s.add(table)
            s.flush()
            s.add_all(seats)
            s.add(game)

    def change(self, code: str, seen: int, change: Change) -> int:
        """Apply one change to a table seen at revision ``seen``; return the new revision.

        ``change.seats`` maps seat positions to column values, ``change.game`` sets columns of
        the current game and ``change.new_game`` starts the next game (a rematch; its ``id`` is
        set to the one the database gave it); ``change.table`` sets columns of the table row
        (the next game's seed). Raises :class:`ConflictError` and writes nothing when the table
        is no longer at ``seen``.
        """
        seats, game, new_game, table = change.seats, change.game, change.new_game, change.table
        where = {"b_code": code, "b_seen": seen, "b_revision": seen + 1}
        with self._connect() as c, c.begin():
            if new_game is None:
                moved = c.execute(_BUMP, where).first()
            else:  # the current game (the one before the rematch), then the bump
                number = c.scalar(_GAME_NUMBER, where)
                moved = c.execute(_BUMP_TO_GAME, {**where, "b_number": new_game.number}).first()
            if moved is None:
                raise ConflictError(f"table {code} changed since revision {seen}")
            if table:
                c.execute(update(_TABLES).where(_TABLES.c.code == code).values(**table))
            if new_game is None:
                number = moved[0]
            for position, columns in (seats or {}).items():
                c.execute(_SEAT, {**columns, "b_code": code, "b_position": position})
            if game:
                c.execute(_GAME, {**game, "updated_at": now(), "b_code": code, "b_number": number})
            if change.finish is not None or change.reviewed:
                ended = c.execute(_GAME_ID, {"b_code": code, "b_number": number}).scalar_one()
                if change.finish is not None:
                    results.write(c, change.finish, ended, code, cast(int, number), now())
                if change.reviewed:
                    results.write_review(c, ended, game["review"])
            if change.notices:  # Web Push messages: in the move's transaction, so none is lost
                from yacht.web.storage.push import enqueue

                enqueue(c, code, change.notices)
            if new_game is not None:
                columns = {k: getattr(new_game, k) for k in _GAME_COLUMNS if k != "id"}
                key = c.execute(insert(_GAMES).values(**columns)).inserted_primary_key
                assert key is not None  # one row inserted
                new_game.id = key[0]
        return seen + 1

    def keep_review(self, code: str, number: int, review: dict[str, Any]) -> bool:
        """Store the review of finished game ``number`` of table ``code`` on its own row, when
        it has none yet; False when there is no such game without one. No revision moves: the
        table has moved on from that game, so no snapshot holds it."""
        with self.engine.begin() as c:
            done = c.execute(
                update(_GAMES)
                .where(
                    _GAMES.c.table_code == code,
                    _GAMES.c.number == number,
                    _GAMES.c.status == "finished",
                    _GAMES.c.review.is_(None),
                )
                .values(review=review)
            )
            if done.rowcount:
                ended = c.execute(_GAME_ID, {"b_code": code, "b_number": number}).scalar_one()
                results.write_review(c, ended, review)
        return bool(done.rowcount)

    # --- banned names -----------------------------------------------------------------

    def is_banned(self, key: str) -> bool:
        with self.engine.connect() as c:
            query = select(BannedNameRow.name_key).where(BannedNameRow.name_key == key)
            return c.scalar(query) is not None

    async def ais_banned(self, key: str) -> bool:
        return await asyncio.to_thread(self.is_banned, key)

    # --- presence, caps and clean-up -------------------------------------------------------

    def note(self, notes: Mapping[tuple[str, int], datetime]) -> None:
        """Note that the holder of each (table code, seat position) was seen at its time, in
        one statement (no revision bump: it changes nobody's view of the table)."""
        if not notes:
            return
        with self.engine.begin() as c:
            c.execute(
                update(_SEATS)
                .where(
                    _SEATS.c.table_code == bindparam("code"),
                    _SEATS.c.position == bindparam("seat"),
                )
                .values(seen_at=bindparam("when")),
                [{"code": k[0], "seat": k[1], "when": v} for k, v in sorted(notes.items())],
            )

    def seen(self, code: str) -> dict[int, datetime | None]:
        """When each seat's holder was last seen (joined if never seen since)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_SEATS.c.position, _SEATS.c.seen_at, _SEATS.c.claimed_at).where(
                    _SEATS.c.table_code == code
                )
            ).all()
        return {r.position: _aware(r.seen_at or r.claimed_at) for r in rows}

    def waiting_count(self, creator: str | None = None) -> int:
        """Tables whose current game waits for players (opened by ``creator``, if given)."""
        query = (
            select(func.count())
            .select_from(_TABLES)
            .join(
                _GAMES,
                (_GAMES.c.table_code == _TABLES.c.code)
                & (_GAMES.c.number == _TABLES.c.game_number),
            )
            .where(_GAMES.c.status == "waiting")
        )
        if creator is not None:
            query = query.where(_TABLES.c.creator == creator)
        with self.engine.connect() as c:
            return int(c.scalar(query) or 0)

    def bot_tables_count(self, creator: str | None = None) -> int:
        """Tables whose current game is being played with no person seated (opened by
        ``creator``, if given)."""
        person = (
            select(_SEATS.c.table_code)
            .where((_SEATS.c.table_code == _TABLES.c.code) & (_SEATS.c.kind == "human"))
            .exists()
        )
        query = (
            select(func.count())
            .select_from(_TABLES)
            .join(
                _GAMES,
                (_GAMES.c.table_code == _TABLES.c.code)
                & (_GAMES.c.number == _TABLES.c.game_number),
            )
            .where((_GAMES.c.status == "playing") & ~person)
        )
        if creator is not None:
            query = query.where(_TABLES.c.creator == creator)
        with self.engine.connect() as c:
            return int(c.scalar(query) or 0)

    def expire(
        self,
        waiting_before: datetime,
        idle_before: datetime,
        letters_before: datetime | None = None,
    ) -> list[str]:
        """Delete tables still waiting for players since before ``waiting_before`` and tables
        whose game in play has not moved since ``idle_before`` (abandoned); their games go
        with them (finished ones too: a table is deleted whole). A correspondence table waits
        until ``letters_before`` (default: ``waiting_before``) and is never idle while its
        game is played: its clock hands a missed move to the bot. Returns their codes."""
        letters = _TABLES.c.move_days.is_not(None)
        letters_before = letters_before or waiting_before
        current = (_GAMES.c.table_code == _TABLES.c.code) & (
            _GAMES.c.number == _TABLES.c.game_number
        )
        stale = (
            select(_TABLES.c.code)
            .join(_GAMES, current)
            .where(
                (
                    (_GAMES.c.status == "waiting")
                    & ~letters
                    & (_TABLES.c.created_at < waiting_before)
                )
                | (
                    (_GAMES.c.status == "waiting")
                    & letters
                    & (_TABLES.c.created_at < letters_before)
                )
                | ((_GAMES.c.status == "playing") & ~letters & (_GAMES.c.updated_at < idle_before))
            )
        )
        with self.engine.begin() as c:
            codes = list(c.scalars(stale))
            for start in range(0, len(codes), 500):
                chunk = codes[start : start + 500]
                c.execute(delete(_SEATS).where(_SEATS.c.table_code.in_(chunk)))
                c.execute(delete(_GAMES).where(_GAMES.c.table_code.in_(chunk)))
                c.execute(delete(_TABLES).where(_TABLES.c.code.in_(chunk)))
        return codes


def _aware(when: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when
