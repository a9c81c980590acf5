"""Practice's rows and what the practice service reads and writes of them (SQLAlchemy Core,
SQLite and PostgreSQL alike).

Every function takes the engine first and runs in a worker thread through
:class:`~yacht.web.storage.accounts.AccountStore`. Where positions come from is read from the
games already stored: an account's finished games through ``player_games`` (its index on
account and finish, newest first) and everyone's from ``games`` (finished, public tables).
An answer is one transaction: the account's and the position's rating rows are locked (FOR
UPDATE on PostgreSQL; SQLite writes one at a time), the answer inserted, and both ratings
written; a second answer to the same position finds the first (the primary key) and rates
nothing. The models live here, as nothing else reads them; they are on the same ``Base``, so
the migrations' check sees them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    Index,
    Integer,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from yacht.training.rating import Rated
from yacht.web.storage.models import Base, GameRow, PlayerGameRow, TableRow

__all__ = [
    "SOLVED_READ",
    "Answered",
    "PracticeAnswerRow",
    "PracticePositionRow",
    "PracticeRated",
    "game_states",
    "own_games",
    "plays_in",
    "public_games",
    "rating_of",
    "record_answer",
    "solved_keys",
]

SOLVED_READ = 5000
"""An account's newest solved positions read to leave them out (older ones may come again)."""


class PracticeRated(Base):
    """An account's practice rating (revision 0011)."""

    __tablename__ = "practice_ratings"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PracticePositionRow(Base):
    """A position's rating: it climbs when players miss it."""

    __tablename__ = "practice_positions"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)


class PracticeAnswerRow(Base):
    """An account's first answer to a position."""

    __tablename__ = "practice_answers"
    __table_args__ = (Index("ix_practice_answers_account_answered", "account_id", "answered_at"),)

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    solved: Mapped[bool] = mapped_column(Boolean)
    loss: Mapped[float] = mapped_column(Float)
    answered_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


_RATINGS = cast(Table, PracticeRated.__table__)
_POSITIONS = cast(Table, PracticePositionRow.__table__)
_ANSWERS = cast(Table, PracticeAnswerRow.__table__)
_PLAYER_GAMES = cast(Table, PlayerGameRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_TABLES = cast(Table, TableRow.__table__)


def own_games(engine: Engine, account_id: int, limit: int) -> list[tuple[int, int]]:
    """The account's newest finished games: (game id, the account's seat)."""
    query = (
        select(_PLAYER_GAMES.c.game_id, _PLAYER_GAMES.c.seat)
        .where(_PLAYER_GAMES.c.account_id == account_id)
        .order_by(_PLAYER_GAMES.c.finished_at.desc())
        .limit(limit)
    )
    with engine.connect() as c:
        return [(int(r.game_id), int(r.seat)) for r in c.execute(query)]


def plays_in(engine: Engine, account_id: int, game_id: int) -> int | None:
    """The account's seat in a finished game (None: it did not play it)."""
    query = select(_PLAYER_GAMES.c.seat).where(
        _PLAYER_GAMES.c.account_id == account_id, _PLAYER_GAMES.c.game_id == game_id
    )
    with engine.connect() as c:
        row = c.execute(query).first()
    return None if row is None else int(row.seat)


def public_games(engine: Engine, limit: int) -> list[int]:
    """The newest finished games at public tables (a private table's dice stay private)."""
    query = (
        select(_GAMES.c.id)
        .join(_TABLES, _TABLES.c.code == _GAMES.c.table_code)
        .where(_GAMES.c.status == "finished", _TABLES.c.private.is_(False))
        .order_by(_GAMES.c.finished_at.desc(), _GAMES.c.id.desc())
        .limit(limit)
    )
    with engine.connect() as c:
        return [int(r.id) for r in c.execute(query)]


def game_states(engine: Engine, ids: list[int]) -> dict[int, tuple[dict[str, Any], bool]]:
    """The stored game JSON of finished games by id, and whether its table is private."""
    if not ids:
        return {}
    query = (
        select(_GAMES.c.id, _GAMES.c.state, _TABLES.c.private)
        .join(_TABLES, _TABLES.c.code == _GAMES.c.table_code)
        .where(_GAMES.c.id.in_(ids), _GAMES.c.status == "finished")
    )
    with engine.connect() as c:
        return {
            int(r.id): (r.state, bool(r.private))
            for r in c.execute(query)
            if isinstance(r.state, dict)
        }


def solved_keys(engine: Engine, account_id: int) -> set[str]:
    """The positions the account has solved (the newest :data:`SOLVED_READ`)."""
    query = (
        select(_ANSWERS.c.key)
        .where(_ANSWERS.c.account_id == account_id, _ANSWERS.c.solved.is_(True))
        .order_by(_ANSWERS.c.answered_at.desc())
        .limit(SOLVED_READ)
    )
    with engine.connect() as c:
        return {str(r.key) for r in c.execute(query)}


def rating_of(engine: Engine, account_id: int) -> Rated | None:
    with engine.connect() as c:
        row = c.execute(select(_RATINGS).where(_RATINGS.c.account_id == account_id)).first()
    return None if row is None else Rated(row.mu, row.sigma, row.attempts, row.solved)


@dataclass(frozen=True)
class Answered:
    """What an answer did: the ratings before and after (None when the account had answered
    this position before, so nothing was rated)."""

    before: Rated | None
    after: Rated | None
    first: bool


Rate = Callable[[Rated | None, Rated | None, bool], tuple[Rated, Rated]]
"""(player's rating, position's rating, solved) -> both after the answer (None: new)."""


def _locked(c: Connection, table: Table, where: Any) -> Any:
    query = select(table).where(where)
    if c.dialect.name == "postgresql":
        query = query.with_for_update()
    return c.execute(query).first()


def record_answer(
    engine: Engine,
    account_id: int,
    key: str,
    *,
    solved: bool,
    loss: float,
    now: datetime,
    rate: Rate,
) -> Answered:
    """Store the account's answer to position ``key`` and rate both, once per position.

    Two first answers at once (the same account's, or two accounts' to a new position) may
    both find no row to lock; the one whose insert loses is tried again, and then finds it."""
    for attempt in range(3):
        try:
            return _record(engine, account_id, key, solved, loss, now, rate)
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _record(
    engine: Engine,
    account_id: int,
    key: str,
    solved: bool,
    loss: float,
    now: datetime,
    rate: Rate,
) -> Answered:
    with engine.begin() as c:
        player = _locked(c, _RATINGS, _RATINGS.c.account_id == account_id)
        before = (
            None
            if player is None
            else Rated(player.mu, player.sigma, player.attempts, player.solved)
        )
        seen = c.execute(
            select(_ANSWERS.c.key).where(_ANSWERS.c.account_id == account_id, _ANSWERS.c.key == key)
        ).first()
        if seen is not None:
            return Answered(before, before, first=False)
        position = _locked(c, _POSITIONS, _POSITIONS.c.key == key)
        it = (
            None
            if position is None
            else Rated(position.mu, position.sigma, position.attempts, position.solved)
        )
        after, it_after = rate(before, it, solved)
        c.execute(
            insert(_ANSWERS).values(
                account_id=account_id, key=key, solved=solved, loss=loss, answered_at=now
            )
        )
        values = {
            "mu": after.mu,
            "sigma": after.sigma,
            "attempts": after.attempts,
            "solved": after.solved,
        }
        if player is None:
            c.execute(insert(_RATINGS).values(account_id=account_id, updated_at=now, **values))
        else:
            c.execute(
                update(_RATINGS)
                .where(_RATINGS.c.account_id == account_id)
                .values(updated_at=now, **values)
            )
        pos_values = {
            "mu": it_after.mu,
            "sigma": it_after.sigma,
            "attempts": it_after.attempts,
            "solved": it_after.solved,
        }
        if position is None:
            c.execute(insert(_POSITIONS).values(key=key, **pos_values))
        else:
            c.execute(update(_POSITIONS).where(_POSITIONS.c.key == key).values(**pos_values))
        return Answered(before, after, first=True)
