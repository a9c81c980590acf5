"""A move's reads and writes on PostgreSQL straight from the event loop (asyncpg), with no hop
to a worker thread.

:class:`~yacht.web.storage.store.Store` runs every statement in a worker thread through SQLAlchemy.
For the few statements of the hot path (read a table, store a change, note seats as seen)
that hop was the largest single cost of a move in a server's profile (py-spy, 200 tables over
two processes: handing the call to the thread pool, waking the thread and the loop again took
about a third of the server's CPU), so on PostgreSQL these go through :class:`Direct`: the same
statements, written from the models' own table definitions, on a small pool of asyncpg
connections, which prepare each statement once and keep it.

asyncpg rather than psycopg's async connections: psycopg registers and unregisters its socket
with the event loop for every statement it waits on (two to four ``epoll_ctl`` calls, ``strace
-c`` on a loaded server) and runs its cursor machinery in Python; asyncpg keeps one protocol per
connection and decodes in C. The same UPDATE took 60-65 us of the process's CPU against 93-122
us with psycopg (4,000 statements on 4 connections, measured). SQLAlchemy (migrations, the rest
of the store) keeps psycopg.

Every change is still one transaction committed (``synchronous_commit`` as the server has it:
on) before anything is announced; the revision check is the same ``UPDATE ... WHERE revision =
:seen``.

A database that restarts closes every pooled connection. asyncpg replaces a connection it saw
close, but one whose end it has not read yet is handed out and fails at its first statement; and
while the server is down every attempt fails. So a statement that fails because the database is
gone (:func:`~yacht.web.storage.outage.gone`) has the pool's connections all replaced and is run
once more on a fresh one when that is safe: a read, the seats' notes, or a change that surely
never ran (:func:`~yacht.web.storage.outage.unsent`: refused before it was sent, or ended by
the server before its commit). Otherwise, or when the second try fails too, it raises
:class:`~yacht.web.storage.outage.Unavailable` (a refusal: ``unavailable``, HTTP 503).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, cast

import orjson
from sqlalchemy.engine import make_url

from yacht.web.storage import push, results
from yacht.web.storage.changes import Change
from yacht.web.storage.models import GameRow, SeatRow, TableRow, columns_of, snapshot_row
from yacht.web.storage.outage import Unavailable, gone, unsent

__all__ = ["POOL", "Direct", "conninfo"]

POOL = 8
"""Connections per process for the hot path: a statement takes well under a millisecond of
the database's time, and more connections only make PostgreSQL switch between them more."""

CONNECT_TIMEOUT = 5.0
"""Seconds a new connection may take (asyncpg's default, 60, would hold a move that long while
the database's host does not answer)."""

TABLE_COLUMNS = columns_of(TableRow)
SEAT_COLUMNS = columns_of(SeatRow)
GAME_COLUMNS = columns_of(GameRow)
_BOTH = [f"t.{c}" for c in TABLE_COLUMNS] + [f"g.{c}" for c in GAME_COLUMNS]
LOAD = (
    f"SELECT {', '.join(_BOTH)} "
    "FROM tables t JOIN games g ON g.table_code = t.code AND g.number = t.game_number "
    "WHERE t.code = $1"
)
LOAD_SEATS = f"SELECT {', '.join(SEAT_COLUMNS)} FROM seats WHERE table_code = $1 ORDER BY position"
BUMP = "UPDATE tables SET revision = $1 WHERE code = $2 AND revision = $3 RETURNING game_number"
BUMP_TO_GAME = (
    "UPDATE tables SET revision = $1, game_number = $2 WHERE code = $3 AND revision = $4 "
    "RETURNING game_number"
)
GAME_NUMBER = "SELECT game_number FROM tables WHERE code = $1"
GAME_ID = "SELECT id FROM games WHERE table_code = $1 AND number = $2"
# A move bumps the revision and writes its game in one statement (so one round trip, and one
# transaction of its own): when the bump finds the table at another revision it changes no
# row, so the game's UPDATE joined to it changes none either and nothing is returned.
# The game's columns are $4 on; the table's code is repeated as $2.
MOVE = (
    "WITH bump AS (UPDATE tables SET revision = $1 WHERE code = $2 AND revision = $3 "
    "RETURNING game_number) "
    "UPDATE games SET {sets} FROM bump WHERE games.table_code = $2 "
    "AND games.number = bump.game_number RETURNING bump.game_number"
)
# Seats noted as seen, many at once. A seat row another transaction holds (a seat change under
# way) is skipped rather than waited for: the two could otherwise take each other's rows in
# opposite orders, and a skipped note is written again within REFRESH seconds.
NOTE = (
    "WITH noted AS (SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[]) "
    "AS n(code, position, seen)), "
    "free AS (SELECT s.table_code, s.position, noted.seen FROM seats s JOIN noted "
    "ON s.table_code = noted.code AND s.position = noted.position "
    "FOR UPDATE OF s SKIP LOCKED) "
    "UPDATE seats SET seen_at = free.seen FROM free "
    "WHERE seats.table_code = free.table_code AND seats.position = free.position"
)


def conninfo(url: str) -> str:
    """libpq's form of a SQLAlchemy PostgreSQL URL.

    >>> conninfo("postgresql+psycopg://yacht:secret@127.0.0.1:5432/yacht")
    'postgresql://yacht:secret@127.0.0.1:5432/yacht'
    """
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _text(value: Any) -> str:
    """JSON for a ``json`` parameter (orjson: a game's state half-way through in 2.4 against
    36 us with the standard library). Keys other than strings are written as text, as the
    standard library does; orjson's option for them doubles the time of every other value, so
    it is asked for only by a value that has some.

    >>> _text({"seats": [0, 1]}), _text({1: "Ann"})
    ('{"seats":[0,1]}', '{"1":"Ann"}')
    """
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _values(table: str, columns: Mapping[str, Any], first: int) -> tuple[str, list[Any]]:
    """``col = $first, ...`` and the parameters (names come from the services' code, never
    from a request; JSON columns are encoded by the connection's codec)."""
    known = {"tables": TABLE_COLUMNS, "seats": SEAT_COLUMNS, "games": GAME_COLUMNS}[table]
    names: list[str] = []
    params: list[Any] = []
    for name, value in columns.items():
        if name not in known:
            raise ValueError(f"no column {name!r} in {table}")
        names.append(f"{name} = ${first + len(params)}")
        params.append(value)
    return ", ".join(names), params


async def _init(connection: Any) -> None:
    """Each new connection decodes JSON with orjson."""
    await connection.set_type_codec(
        "json", encoder=_text, decoder=orjson.loads, schema="pg_catalog"
    )


async def _reset(connection: Any) -> None:
    """A connection goes back to the pool as it came: a transaction left open (a change whose
    task was cancelled half-way) is rolled back; nothing else is sent (asyncpg's default reset
    costs a round trip on every statement)."""
    if connection.is_in_transaction():
        await connection.execute("ROLLBACK")


def _ready(made: asyncio.Future[Any]) -> bool:
    """Whether the pool ``made`` is there to use (made, and not failed)."""
    return made.done() and not made.cancelled() and made.exception() is None


class Direct:
    """The hot path's statements on an asyncpg pool (``asyncpg.create_pool``, made on first use
    in the running event loop; a new loop, as in tests, gets a new pool)."""

    def __init__(self, url: str, size: int = POOL) -> None:
        self.conninfo = conninfo(url)
        self.size = size
        self.on_pool_wait: Callable[[float], None] = lambda _seconds: None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pool: asyncio.Future[Any] | None = None

    async def pool(self) -> Any:
        """This event loop's pool (connections belong to the loop that made them)."""
        loop = asyncio.get_running_loop()
        made = self._pool
        if made is not None and loop is self._loop and _ready(made):
            return made.result()  # every statement but the first: no shield, no new future
        import asyncpg

        if self._pool is None or loop is not self._loop:
            self._loop = loop
            self._pool = asyncio.ensure_future(
                asyncpg.create_pool(
                    self.conninfo,
                    min_size=0,
                    max_size=self.size,
                    init=_init,
                    reset=_reset,
                    timeout=CONNECT_TIMEOUT,
                    # no timer set and cancelled on every release; idle connections stay
                    # (at most ``size`` of them)
                    max_inactive_connection_lifetime=0,
                )
            )
        try:
            return await asyncio.shield(self._pool)
        except BaseException:
            if self._pool.done():
                self._pool = None  # the next statement tries again
            raise

    async def _run(
        self, work: Callable[[Any], Any], *, again: bool | Callable[[], bool] = True
    ) -> Any:
        """``await work(connection)`` on a connection from the pool; when the database is gone,
        once more on a fresh connection if ``again`` (the work may safely run twice; a callable
        says so after the failure) or the failure shows it never ran, else
        :class:`Unavailable`."""
        for attempt in (1, 2):
            pool = await self.pool()
            start = time.perf_counter()
            acquired = False
            try:
                async with pool.acquire() as connection:
                    acquired = True
                    self.on_pool_wait(time.perf_counter() - start)
                    return await work(connection)
            except Exception as e:
                if not gone(e):
                    raise
                # The other idle connections went with the server: never hand them out.
                await pool.expire_connections()
                safe = again() if callable(again) else again
                if attempt == 2 or not (safe or not acquired or unsent(e)):
                    raise Unavailable() from e
        raise AssertionError("unreachable")

    async def ping(self) -> None:
        """A real query on this pool (``SELECT 1``), as the readiness probe asks."""

        async def work(connection: Any) -> None:
            await connection.fetchval("SELECT 1")

        await self._run(work)

    async def aclose(self) -> None:
        if self._pool is not None and self._loop is asyncio.get_running_loop():
            pool, self._pool = self._pool, None
            if pool.done() and pool.exception() is None:
                await pool.result().close()

    async def load(self, code: str) -> tuple[TableRow, GameRow, list[SeatRow]] | None:
        """The table, its current game and seats (two statements, no transaction: see
        :meth:`yacht.web.storage.store.Store.load`)."""

        async def work(connection: Any) -> tuple[Any, list[Any]] | None:
            row = await connection.fetchrow(LOAD, code)
            if row is None:
                return None
            return row, await connection.fetch(LOAD_SEATS, code)

        found = await self._run(work)
        if found is None:
            return None
        row, seats = found
        width = len(TABLE_COLUMNS)
        values = tuple(row)
        table = snapshot_row(TableRow, zip(TABLE_COLUMNS, values[:width], strict=True))
        game = snapshot_row(GameRow, zip(GAME_COLUMNS, values[width:], strict=True))
        return (
            table,
            game,
            [snapshot_row(SeatRow, zip(SEAT_COLUMNS, s, strict=True)) for s in seats],
        )

    async def change(self, code: str, seen: int, change: Change, when: datetime) -> int | None:
        """:meth:`yacht.web.storage.store.Store.change` in one transaction; None when the table is
        no longer at revision ``seen`` (nothing written)."""
        seats, game, new_game, table = change.seats, change.game, change.new_game, change.table
        if game and change.is_move:  # a move: one statement
            sets, params = _values("games", {**game, "updated_at": when}, 4)
            statement = MOVE.format(sets=sets)

            async def move(connection: Any) -> Any:
                return await connection.fetchval(statement, seen + 1, code, seen, *params)

            # One statement commits as it ends: lost on the way, it may have committed.
            return None if await self._run(move, again=False) is None else seen + 1

        committing = False  # the transaction's statements are done: its COMMIT is under way

        async def work(connection: Any) -> int | None:
            nonlocal committing
            committing = False
            async with connection.transaction():
                if new_game is None:
                    number = await connection.fetchval(BUMP, seen + 1, code, seen)
                    if number is None:
                        return None
                else:  # the current game (the one before the rematch), then the bump
                    number = await connection.fetchval(GAME_NUMBER, code)
                    moved = await connection.fetchval(
                        BUMP_TO_GAME, seen + 1, new_game.number, code, seen
                    )
                    if moved is None:
                        return None
                if table:
                    sets, params = _values("tables", table, 1)
                    n = len(params) + 1
                    await connection.execute(
                        f"UPDATE tables SET {sets} WHERE code = ${n}", *params, code
                    )
                for position, columns in seats.items():
                    sets, params = _values("seats", columns, 1)
                    n = len(params) + 1
                    await connection.execute(
                        f"UPDATE seats SET {sets} WHERE table_code = ${n} AND position = ${n + 1}",
                        *params,
                        code,
                        position,
                    )
                if game:
                    sets, params = _values("games", {**game, "updated_at": when}, 1)
                    n = len(params) + 1
                    await connection.execute(
                        f"UPDATE games SET {sets} WHERE table_code = ${n} AND number = ${n + 1}",
                        *params,
                        code,
                        number,
                    )
                if change.finish is not None or change.reviewed:
                    game_id = await connection.fetchval(GAME_ID, code, number)
                    if change.finish is not None:
                        await results.write_pg(
                            connection, change.finish, game_id, code, number, when
                        )
                    if change.reviewed:
                        await results.write_review_pg(connection, game_id, game["review"])
                if change.notices:  # Web Push messages, in the move's transaction
                    await push.enqueue_pg(connection, code, change.notices)
                if new_game is not None:
                    columns = {k: getattr(new_game, k) for k in GAME_COLUMNS if k != "id"}
                    names = ", ".join(columns)
                    holes = ", ".join(f"${i + 1}" for i in range(len(columns)))
                    new_game.id = await connection.fetchval(
                        f"INSERT INTO games ({names}) VALUES ({holes}) RETURNING id",
                        *columns.values(),
                    )
                committing = True
            return seen + 1

        return cast(int | None, await self._run(work, again=lambda: not committing))

    async def note(self, notes: Mapping[tuple[str, int], datetime]) -> None:
        """:meth:`yacht.web.storage.store.Store.note` in one statement."""
        keys = sorted(notes)
        codes, positions = [k[0] for k in keys], [k[1] for k in keys]
        times = [notes[k] for k in keys]

        async def work(connection: Any) -> None:
            await connection.execute(NOTE, codes, positions, times)

        await self._run(work)
