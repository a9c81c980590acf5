"""Storage of tables, seats and games through SQLAlchemy 2 (SQLite by default, PostgreSQL by URL).

Every change to a table is one transaction that first moves the table's ``revision`` from the
value the change was computed on to the next one (``UPDATE ... WHERE revision = :seen``). When
another request or server process got there first, :class:`ConflictError` is raised and nothing
is written; the caller reloads and decides again. The schema is made by Alembic
(:func:`migrate`), never by ``create_all``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, select, update
from sqlalchemy.orm import Session, sessionmaker

from yacht.web.models import GameRow, SeatRow, TableRow

__all__ = ["ConflictError", "Store", "TableSnapshot", "migrate", "now"]

MIGRATIONS = Path(__file__).parent / "migrations"


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


def migrate(engine: Engine) -> None:
    """Bring the database schema to the newest Alembic revision."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # servers starting together take turns
            connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7720231)")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Store:
    """The database of one server process (thread-safe; call it from worker threads)."""

    def __init__(self, url: str) -> None:
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine = create_engine(url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session:
            yield session

    # --- reads ---------------------------------------------------------------------------

    def load(self, code: str) -> TableSnapshot | None:
        """A table with its seats and current game, or None when there is no such table."""
        with self._session() as s:
            table = s.get(TableRow, code)
            if table is None:
                return None
            game = s.scalars(
                select(GameRow).where(
                    GameRow.table_code == code, GameRow.number == table.game_number
                )
            ).one()
            return TableSnapshot(table, tuple(table.seats), game)

    def revision(self, code: str) -> int | None:
        with self._session() as s:
            return s.scalar(select(TableRow.revision).where(TableRow.code == code))

    def game(self, game_id: int) -> tuple[GameRow, TableRow] | None:
        with self._session() as s:
            game = s.get(GameRow, game_id)
            if game is None:
                return None
            table = s.get(TableRow, game.table_code)
            assert table is not None  # a foreign key
            _ = table.seats
            return game, table

    def games(self, status: str, limit: int, offset: int = 0) -> list[GameRow]:
        """Games in a status, newest first."""
        with self._session() as s:
            query = (
                select(GameRow)
                .where(GameRow.status == status)
                .order_by(GameRow.updated_at.desc(), GameRow.id.desc())
                .limit(limit)
                .offset(offset)
            )
            return list(s.scalars(query))

    def waiting_tables(self, limit: int) -> list[TableSnapshot]:
        """Tables whose current game waits for players, newest first."""
        with self._session() as s:
            rows = s.execute(
                select(TableRow, GameRow)
                .join(
                    GameRow,
                    (GameRow.table_code == TableRow.code)
                    & (GameRow.number == TableRow.game_number),
                )
                .where(GameRow.status == "waiting")
                .order_by(TableRow.created_at.desc())
                .limit(limit)
            ).all()
            return [TableSnapshot(t, tuple(t.seats), g) for t, g in rows]

    def active_codes(self) -> list[str]:
        """Tables whose current game is being played or awaits its review (to resume them)."""
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

    def change(
        self,
        code: str,
        seen: int,
        *,
        seats: Mapping[int, Mapping[str, Any]] | None = None,
        game: Mapping[str, Any] | None = None,
        new_game: GameRow | None = None,
    ) -> int:
        """Apply one change to a table seen at revision ``seen``; return the new revision.

        ``seats`` maps seat positions to column values, ``game`` sets columns of the current
        game and ``new_game`` starts the next game (a rematch). Raises :class:`ConflictError`
        and writes nothing when the table is no longer at ``seen``.
        """
        with self._session() as s, s.begin():
            number = s.scalar(select(TableRow.game_number).where(TableRow.code == code))
            values: dict[str, Any] = {"revision": seen + 1}
            if new_game is not None:
                values["game_number"] = new_game.number
            moved = s.execute(
                update(TableRow)
                .where(TableRow.code == code, TableRow.revision == seen)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            if moved.rowcount != 1:  # type: ignore[attr-defined]
                raise ConflictError(f"table {code} changed since revision {seen}")
            for position, columns in (seats or {}).items():
                s.execute(
                    update(SeatRow)
                    .where(SeatRow.table_code == code, SeatRow.position == position)
                    .values(**columns)
                    .execution_options(synchronize_session=False)
                )
            if game:
                s.execute(
                    update(GameRow)
                    .where(GameRow.table_code == code, GameRow.number == number)
                    .values(**game, updated_at=now())
                    .execution_options(synchronize_session=False)
                )
            if new_game is not None:
                s.add(new_game)
        return seen + 1
