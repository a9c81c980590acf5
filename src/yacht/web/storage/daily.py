"""The daily game's rows and what the daily service reads and writes of them (SQLAlchemy Core,
SQLite and PostgreSQL alike).

Every function takes the engine first and runs in a worker thread through
:class:`~yacht.web.storage.accounts.AccountStore`. An attempt is one ``daily_games`` row: the
unique keys (day, preset, account) and (day, preset, guest) make a second start find the first
one; a move is one UPDATE on the row's version (optimistic, as a table's revision), and the
move that ends the game writes its result, review figures and skill figure in that same
statement. The models live here, not in :mod:`~yacht.web.storage.models`, since nothing else
reads them; they are on the same ``Base``, so the migrations' check sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from yacht.web.storage.models import Base

__all__ = [
    "RANKING_SIZE",
    "DailyGameRow",
    "DailySecretRow",
    "Played",
    "played_days",
    "ranking",
    "row_by_id",
    "row_of",
    "save_move",
    "secret",
    "start",
    "streak_days",
]

RANKING_SIZE = 100
"""Players a day's ranking shows (the best by the skill figure)."""


class DailySecretRow(Base):
    """The server's secret the days' seeds are derived from (one row, id 1)."""

    __tablename__ = "daily_secrets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyGameRow(Base):
    """One attempt at a day's game: an account's, or a guest browser's (unofficial)."""

    __tablename__ = "daily_games"
    __table_args__ = (
        UniqueConstraint("day", "preset", "account_id", name="uq_daily_games_account"),
        UniqueConstraint("day", "preset", "guest", name="uq_daily_games_guest"),
        Index("ix_daily_games_ranking", "day", "preset", "skill"),
        Index("ix_daily_games_account_day", "account_id", "day"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    day: Mapped[str] = mapped_column(String(10))
    preset: Mapped[str] = mapped_column(String(40))
    account_id: Mapped[int | None] = mapped_column(Integer)
    guest: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of the browser's token
    name: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16))  # playing, finished
    version: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    total: Mapped[int | None] = mapped_column(Integer)
    loss: Mapped[float | None] = mapped_column(Float)  # expected points lost, whole game
    decisions: Mapped[int | None] = mapped_column(Integer)
    skill: Mapped[float | None] = mapped_column(Float)  # loss / decisions: lower is better
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


_SECRETS = cast(Table, DailySecretRow.__table__)
_GAMES = cast(Table, DailyGameRow.__table__)


@dataclass(frozen=True)
class Played:
    """An attempt as read: the row's columns the service needs."""

    id: int
    day: str
    preset: str
    account_id: int | None
    guest: str | None
    name: str
    status: str
    version: int
    state: dict[str, Any]
    total: int | None
    loss: float | None
    decisions: int | None
    skill: float | None
    finished_at: datetime | None


def _played(row: Any) -> Played:
    finished = row.finished_at
    if finished is not None and finished.tzinfo is None:  # SQLite: stored in UTC
        finished = finished.replace(tzinfo=UTC)
    return Played(
        row.id,
        row.day,
        row.preset,
        row.account_id,
        row.guest,
        row.name,
        row.status,
        row.version,
        dict(row.state or {}),
        row.total,
        row.loss,
        row.decisions,
        row.skill,
        finished,
    )


def secret(engine: Engine, drawn: str, at: datetime) -> str:
    """The server's daily secret: the stored one, or ``drawn`` stored now if there is none
    (two processes racing to store theirs: the first one's wins, and both read it)."""
    query = select(_SECRETS.c.secret).where(_SECRETS.c.id == 1)
    with engine.connect() as c:
        found = c.execute(query).scalar_one_or_none()
    if found is not None:
        return str(found)
    try:
        with engine.begin() as c:
            c.execute(insert(_SECRETS).values(id=1, secret=drawn, created_at=at))
    except IntegrityError:
        pass
    with engine.connect() as c:
        return str(c.execute(query).scalar_one())


def _owner(account_id: int | None, guest: str | None) -> Any:
    if account_id is not None:
        return _GAMES.c.account_id == account_id
    return (_GAMES.c.guest == guest) & _GAMES.c.account_id.is_(None)


def row_of(
    engine: Engine, day: str, preset: str, account_id: int | None, guest: str | None
) -> Played | None:
    """The attempt of an account (or else of a guest token's hash) at a day's game."""
    query = select(_GAMES).where(
        _GAMES.c.day == day, _GAMES.c.preset == preset, _owner(account_id, guest)
    )
    with engine.connect() as c:
        row = c.execute(query).first()
    return None if row is None else _played(row)


def row_by_id(engine: Engine, game_id: int) -> Played | None:
    with engine.connect() as c:
        row = c.execute(select(_GAMES).where(_GAMES.c.id == game_id)).first()
    return None if row is None else _played(row)


def start(
    engine: Engine,
    day: str,
    preset: str,
    account_id: int | None,
    guest: str | None,
    name: str,
    state: dict[str, Any],
    at: datetime,
) -> tuple[Played, bool]:
    """The attempt of that player at the day's game: a new one (True), or the one they
    started before (False), in progress or finished: one attempt a day."""
    found = row_of(engine, day, preset, account_id, guest)
    if found is not None:
        return found, False
    values = {
        "day": day,
        "preset": preset,
        "account_id": account_id,
        "guest": None if account_id is not None else guest,
        "name": name,
        "status": "playing",
        "version": 0,
        "state": state,
        "started_at": at,
    }
    try:
        with engine.begin() as c:
            c.execute(insert(_GAMES).values(**values))
    except IntegrityError:  # the same player's other request started it a moment ago
        pass
    else:
        made = row_of(engine, day, preset, account_id, guest)
        if made is not None:
            return made, True
    again = row_of(engine, day, preset, account_id, guest)
    if again is None:
        raise RuntimeError("a daily attempt was neither stored nor found")
    return again, False


def save_move(
    engine: Engine, game_id: int, seen: int, state: dict[str, Any], result: dict[str, Any]
) -> bool:
    """Store the game after a move if the row is still at version ``seen``; ``result``: the
    columns the game's last move writes with it (total, loss, decisions, skill, status,
    finished_at), else empty. False: another request moved first, nothing written."""
    statement = (
        update(_GAMES)
        .where(_GAMES.c.id == game_id, _GAMES.c.version == seen)
        .values(state=state, version=seen + 1, **result)
    )
    with engine.begin() as c:
        return c.execute(statement).rowcount == 1


def ranking(engine: Engine, day: str, preset: str) -> list[Played]:
    """The day's finished official attempts (accounts'), best skill figure first, then the
    higher total, then who finished first; at most :data:`RANKING_SIZE`."""
    query = (
        select(_GAMES)
        .where(
            _GAMES.c.day == day,
            _GAMES.c.preset == preset,
            _GAMES.c.skill.is_not(None),
            _GAMES.c.account_id.is_not(None),
        )
        .order_by(_GAMES.c.skill, _GAMES.c.total.desc(), _GAMES.c.finished_at, _GAMES.c.id)
        .limit(RANKING_SIZE)
    )
    with engine.connect() as c:
        return [_played(r) for r in c.execute(query)]


def streak_days(engine: Engine, account_id: int, limit: int = 400) -> list[str]:
    """The days an account finished a daily game (any preset), newest first."""
    query = (
        select(_GAMES.c.day)
        .where(_GAMES.c.account_id == account_id, _GAMES.c.status == "finished")
        .group_by(_GAMES.c.day)
        .order_by(_GAMES.c.day.desc())
        .limit(limit)
    )
    with engine.connect() as c:
        return [str(d) for d in c.execute(query).scalars()]


def played_days(engine: Engine, account_id: int) -> list[tuple[str, str]]:
    """The (day, preset) pairs of an account's finished daily games, newest first."""
    query = (
        select(_GAMES.c.day, _GAMES.c.preset)
        .where(_GAMES.c.account_id == account_id, _GAMES.c.status == "finished")
        .order_by(_GAMES.c.day.desc(), _GAMES.c.preset)
    )
    with engine.connect() as c:
        return [(str(day), str(preset)) for day, preset in c.execute(query)]
