"""A move's reads and writes on PostgreSQL straight from the event loop (psycopg's async
connections), with no hop to a worker thread.

:class:`~yacht.web.store.Store` runs every statement in a worker thread through SQLAlchemy.
For the few statements of the hot path (read a table, store a change, note a seat as seen)
that hop was the largest single cost of a move in a server's profile (py-spy, 200 tables over
two processes: handing the call to the thread pool, waking the thread and the loop again took
about a third of the server's CPU), so on PostgreSQL these go through :class:`Direct`: the same
statements, written from the models' own table definitions, on a small pool of
``psycopg.AsyncConnection`` s that psycopg prepares on the server after a few uses. Every change
is still one transaction committed (``synchronous_commit`` as the server has it: on) before
anything is announced; the revision check is the same ``UPDATE ... WHERE revision = :seen``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

import orjson
from sqlalchemy import JSON, Table
from sqlalchemy.engine import make_url

from yacht.web.models import GameRow, SeatRow, TableRow, snapshot_row

if TYPE_CHECKING:
    from psycopg import AsyncConnection

__all__ = ["POOL", "Direct", "conninfo"]

POOL = 8
"""Connections per process for the hot path: a statement takes well under a millisecond of
the database's time, and more connections only make PostgreSQL switch between them more."""

_TABLES = cast(Table, TableRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
TABLE_COLUMNS = tuple(c.name for c in _TABLES.c)
SEAT_COLUMNS = tuple(c.name for c in _SEATS.c)
GAME_COLUMNS = tuple(c.name for c in _GAMES.c)
JSON_COLUMNS = {
    (t.name, c.name) for t in (_TABLES, _SEATS, _GAMES) for c in t.c if isinstance(c.type, JSON)
}
_BOTH = [f"t.{c}" for c in TABLE_COLUMNS] + [f"g.{c}" for c in GAME_COLUMNS]
LOAD = (
    f"SELECT {', '.join(_BOTH)} "
    "FROM tables t JOIN games g ON g.table_code = t.code AND g.number = t.game_number "
    "WHERE t.code = %s"
)
LOAD_SEATS = f"SELECT {', '.join(SEAT_COLUMNS)} FROM seats WHERE table_code = %s ORDER BY position"
BUMP = "UPDATE tables SET revision = %s WHERE code = %s AND revision = %s RETURNING game_number"
BUMP_TO_GAME = (
    "UPDATE tables SET revision = %s, game_number = %s WHERE code = %s AND revision = %s "
    "RETURNING game_number"
)
GAME_NUMBER = "SELECT game_number FROM tables WHERE code = %s"
# A move bumps the revision and writes its game in one statement (so one round trip, and one
# transaction of its own): when the bump finds the table at another revision it changes no
# row, so the game's UPDATE joined to it changes none either and nothing is returned.
MOVE = (
    "WITH bump AS (UPDATE tables SET revision = %s WHERE code = %s AND revision = %s "
    "RETURNING game_number) "
    "UPDATE games SET {sets} FROM bump WHERE games.table_code = %s "
    "AND games.number = bump.game_number RETURNING bump.game_number"
)
# Seats noted as seen, many at once. A seat row another transaction holds (a seat change under
# way) is skipped rather than waited for: the two could otherwise take each other's rows in
# opposite orders, and a skipped note is written again within REFRESH seconds.
NOTE = (
    "WITH noted AS (SELECT * FROM unnest(%s::text[], %s::int[], %s::timestamptz[]) "
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


def _dumps(value: Any) -> bytes:
    """JSON for a column (orjson: a game's state half-way through in 2.4 against 36 us)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _values(table: str, columns: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """``col = %s, ...`` and the parameters, JSON columns wrapped for psycopg."""
    from psycopg.types.json import Json

    known = {"tables": TABLE_COLUMNS, "seats": SEAT_COLUMNS, "games": GAME_COLUMNS}[table]
    names, params = [], []
    for name, value in columns.items():
        if name not in known:  # names come from the services' code, never from a request
            raise ValueError(f"no column {name!r} in {table}")
        names.append(f"{name} = %s")
        json = (table, name) in JSON_COLUMNS and value is not None
        params.append(Json(value, dumps=_dumps) if json else value)
    return ", ".join(names), params


class Direct:
    """The hot path's statements on a pool of async connections (made on first use, in the
    running event loop; a new loop, as in tests, gets a new pool)."""

    def __init__(self, url: str, size: int = POOL) -> None:
        self.conninfo = conninfo(url)
        self.size = size
        self.on_pool_wait: Callable[[float], None] = lambda _seconds: None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle: asyncio.Queue[AsyncConnection[Any]] = asyncio.Queue()
        self._made = 0

    async def _take(self) -> AsyncConnection[Any]:
        from psycopg import AsyncConnection

        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # connections belong to the loop that made them
            self._loop, self._idle, self._made = loop, asyncio.Queue(), 0
        start = time.perf_counter()
        if self._idle.empty() and self._made < self.size:
            self._made += 1
            try:
                connection = await AsyncConnection.connect(self.conninfo, autocommit=True)
            except BaseException:
                self._made -= 1
                raise
        else:
            connection = await self._idle.get()
        self.on_pool_wait(time.perf_counter() - start)
        return connection

    def _give(self, connection: AsyncConnection[Any]) -> None:
        """Back to the pool, unless it broke or was left inside a statement or transaction
        (its task was cancelled half-way): then it is closed and another made when needed."""
        from psycopg.pq import TransactionStatus

        if connection.closed or connection.broken:
            self._made -= 1
        elif connection.info.transaction_status != TransactionStatus.IDLE:
            self._made -= 1
            connection.pgconn.finish()
        else:
            self._idle.put_nowait(connection)

    async def aclose(self) -> None:
        while not self._idle.empty():
            connection = self._idle.get_nowait()
            self._made -= 1
            await connection.close()

    async def load(self, code: str) -> tuple[TableRow, GameRow, list[SeatRow]] | None:
        """The table, its current game and seats (two statements, no transaction: see
        :meth:`yacht.web.store.Store.load`)."""
        connection = await self._take()
        try:
            cursor = await connection.execute(LOAD, (code,))
            row = await cursor.fetchone()
            if row is None:
                return None
            cursor = await connection.execute(LOAD_SEATS, (code,))
            seats = await cursor.fetchall()
        finally:
            self._give(connection)
        width = len(TABLE_COLUMNS)
        table = snapshot_row(TableRow, zip(TABLE_COLUMNS, row[:width], strict=True))
        game = snapshot_row(GameRow, zip(GAME_COLUMNS, row[width:], strict=True))
        return (
            table,
            game,
            [snapshot_row(SeatRow, zip(SEAT_COLUMNS, s, strict=True)) for s in seats],
        )

    async def change(
        self,
        code: str,
        seen: int,
        *,
        seats: Mapping[int, Mapping[str, Any]],
        game: Mapping[str, Any],
        new_game: GameRow | None,
        table: Mapping[str, Any],
        when: datetime,
    ) -> int | None:
        """:meth:`yacht.web.store.Store.change` in one transaction; None when the table is
        no longer at revision ``seen`` (nothing written)."""
        connection = await self._take()
        try:
            if game and not (seats or table or new_game):  # a move: one statement
                sets, params = _values("games", {**game, "updated_at": when})
                cursor = await connection.execute(
                    MOVE.format(sets=sets), (seen + 1, code, seen, *params, code)
                )
                return None if await cursor.fetchone() is None else seen + 1
            async with connection.transaction():
                if new_game is None:
                    cursor = await connection.execute(BUMP, (seen + 1, code, seen))
                else:  # the current game (the one before the rematch), then the bump
                    cursor = await connection.execute(GAME_NUMBER, (code,))
                    before = await cursor.fetchone()
                    cursor = await connection.execute(
                        BUMP_TO_GAME, (seen + 1, new_game.number, code, seen)
                    )
                moved = await cursor.fetchone()
                if moved is None:
                    return None
                number = moved[0] if new_game is None else before[0]  # type: ignore[index]
                if table:
                    sets, params = _values("tables", table)
                    await connection.execute(
                        f"UPDATE tables SET {sets} WHERE code = %s", (*params, code)
                    )
                for position, columns in seats.items():
                    sets, params = _values("seats", columns)
                    await connection.execute(
                        f"UPDATE seats SET {sets} WHERE table_code = %s AND position = %s",
                        (*params, code, position),
                    )
                if game:
                    sets, params = _values("games", {**game, "updated_at": when})
                    await connection.execute(
                        f"UPDATE games SET {sets} WHERE table_code = %s AND number = %s",
                        (*params, code, number),
                    )
                if new_game is not None:
                    columns = {k: getattr(new_game, k) for k in GAME_COLUMNS if k != "id"}
                    params = _values("games", columns)[1]
                    names = ", ".join(columns)
                    holes = ", ".join(["%s"] * len(columns))
                    cursor = await connection.execute(
                        f"INSERT INTO games ({names}) VALUES ({holes}) RETURNING id", params
                    )
                    inserted = await cursor.fetchone()
                    assert inserted is not None  # one row inserted
                    new_game.id = inserted[0]
        finally:
            self._give(connection)
        return seen + 1

    async def note(self, notes: Mapping[tuple[str, int], datetime]) -> None:
        """:meth:`yacht.web.store.Store.note` in one statement."""
        keys = sorted(notes)
        connection = await self._take()
        try:
            await connection.execute(
                NOTE, ([k[0] for k in keys], [k[1] for k in keys], [notes[k] for k in keys])
            )
        finally:
            self._give(connection)
