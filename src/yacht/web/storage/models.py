"""Database tables of the web game (SQLAlchemy 2 declarative models).

A *table* is where people sit: a preset, 1-6 seats, house options and a revision that every
change bumps (the optimistic-concurrency token that keeps several server processes honest).
A table plays a series of *games* (the first, then rematches); a game row keeps the secret
server seed, its public commitment and the engine's JSON (event log and dice position).
The schema itself is created and changed only by the Alembic migrations in ``migrations/``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, configure_mappers, mapped_column, relationship
from sqlalchemy.orm.instrumentation import ClassManager, manager_of_class

from yacht.web.protocol.views import GameStatus, SeatKind

__all__ = [
    "AccountRow",
    "BannedNameRow",
    "Base",
    "GameRow",
    "OfflineGameRow",
    "PlayerGameRow",
    "PlayerStatsRow",
    "RatingEventRow",
    "RatingRow",
    "SeatRow",
    "SessionRow",
    "TableRow",
    "columns_of",
    "snapshot_row",
    "with_columns",
]


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    preset: Mapped[str] = mapped_column(String(40))
    hints: Mapped[bool]
    turn_seconds: Mapped[int | None] = mapped_column(Integer)
    start_rule: Mapped[str] = mapped_column(String(16))
    client_seed: Mapped[str] = mapped_column(String(64))
    game_number: Mapped[int] = mapped_column(Integer)
    revision: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # Kept out of the public lists (waiting tables, finished games); its code is 13 characters.
    private: Mapped[bool] = mapped_column(default=False, server_default=false())
    # A rated table: signed-in players only, no hints, no undo; its games change ratings.
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    # A hash of the client (address) that opened it: caps its waiting tables.
    creator: Mapped[str | None] = mapped_column(String(64), index=True, default=None)
    # The next game's secret seed, its commitment and the seeds players gave for it (fair
    # dice, see yacht.web.service.fairness); drawn when the current game starts.
    fair_next: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), default=None)
    # A correspondence table's time per move in days (None: real time) and the missed moves
    # after which a seat stays with the bot (None: the default, 3); see service/deadlines.py.
    move_days: Mapped[int | None] = mapped_column(Integer, default=None)
    missed_limit: Mapped[int | None] = mapped_column(Integer, default=None)

    seats: Mapped[list[SeatRow]] = relationship(
        order_by="SeatRow.position", cascade="all, delete-orphan", lazy="selectin"
    )


class SeatRow(Base):
    __tablename__ = "seats"
    # The inbox: an account's seats that a game waits on, without reading its other seats.
    __table_args__ = (Index("ix_seats_account_deadline", "account_id", "deadline"),)

    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40))
    kind: Mapped[SeatKind] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(40))
    token_hash: Mapped[str | None] = mapped_column(String(64))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # When the holder was last seen (joined, connected, acted, left): the grace period
    # before another player may hand the seat to a bot counts from here.
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)
    # The account that holds the seat (a signed-in player who joined, or a guest who claimed
    # it), and the hash of the seat token derived for that account (see
    # yacht.web.service.accounts.seat_token): the seat follows the account to other devices
    # while the token the joining browser holds keeps working. No foreign key: an account row
    # is never deleted (a deleted account keeps its name), and SQLite cannot drop a column
    # that has one, which the migration's downgrade does.
    account_id: Mapped[int | None] = mapped_column(Integer, index=True, default=None)
    account_token_hash: Mapped[str | None] = mapped_column(String(64), default=None)
    # A correspondence game: when the seat's move is due (Unix time; set while the game waits
    # on it), the moves the bot made for it when that ran out, and whether the bot plays this
    # one move for it (the seat goes back to its holder after it).
    deadline: Mapped[float | None] = mapped_column(Float, index=True, default=None)
    missed: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    stand_in: Mapped[bool] = mapped_column(default=False, server_default=false())


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("table_code", "number", name="uq_games_table_number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_code: Mapped[str] = mapped_column(
        String(16), ForeignKey("tables.code", ondelete="CASCADE"), index=True
    )
    number: Mapped[int] = mapped_column(Integer)
    server_seed: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    status: Mapped[GameStatus] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    review: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    deadline: Mapped[float | None] = mapped_column(Float)  # Unix time the turn times out
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Fair dice rules 2 and 3: the rule, the players' seeds and the dice key made of them
    # (None: rule 1).
    fair: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), default=None)
    # The seats that agreed to play the next game at the table, and who last declined.
    rematch: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), default=None)
    # The wins per seat of the table's games before this one (a shared win counts for each).
    series: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True), default=None)
    # The seats playing this game with the live coach, each with the threshold it last set:
    # {"0": {"unit": "points", "value": 1.0}} (None: nobody). Such a game is never rated.
    coach: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), default=None)
    # What a list shows of the game without replaying ``state``, written with it by every
    # change: ``{"version": v, "round": r, "totals": [...]}`` (the inbox reads it; one whose
    # version is not the row's was written by an older server and is not trusted).
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), default=None)


class BannedNameRow(Base):
    """A name no one may take at a table (matched on ``name_key``, see
    :func:`yacht.web.protocol.names.name_key`)."""

    __tablename__ = "banned_names"

    name_key: Mapped[str] = mapped_column(String(160), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    banned_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AccountRow(Base):
    """A player's account (optional: guests play without one). A deleted account keeps its
    row, name and skeleton (the name stays taken) and loses everything else."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    # What the name looks like (yacht.web.service.accounts.account_key): never two alike.
    name_skeleton: Mapped[str] = mapped_column(String(160), unique=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))  # argon2id (PHC string)
    recovery_hash: Mapped[str | None] = mapped_column(String(200))  # argon2id of the code
    # The key the account's seat tokens are derived from (HMAC-SHA256 of table and seat).
    seat_key: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), default=None)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session id (the id itself is only in the
    cookie), the account, and the CSRF token its changes must carry."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    csrf_token: Mapped[str] = mapped_column(String(64))


class RatingRow(Base):
    """An account's rating for one preset (see :mod:`yacht.web.service.ratings`)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_preset_ordinal", "preset", "ordinal"),)

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)  # mu - 3 sigma: what the leaderboard sorts by
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingEventRow(Base):
    """One account's rating after one rated game (a game rates a player once)."""

    __tablename__ = "rating_events"
    __table_args__ = (
        UniqueConstraint("game_id", "account_id", name="uq_rating_events_game_account"),
        Index("ix_rating_events_account", "account_id", "preset", "id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(40))
    rank: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerGameRow(Base):
    """One account's result in one finished game, written with the game's last move; the
    points lost and the decisions (all, and accurate) follow when the game's review is made."""

    __tablename__ = "player_games"
    __table_args__ = (Index("ix_player_games_account_finished", "account_id", "finished_at"),)

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_code: Mapped[str] = mapped_column(String(16))
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    preset: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool]
    private: Mapped[bool]
    players: Mapped[int] = mapped_column(Integer)
    total: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    yachts: Mapped[int] = mapped_column(Integer)
    loss: Mapped[float | None] = mapped_column(Float, default=None)
    decisions: Mapped[int | None] = mapped_column(Integer, default=None)
    accurate: Mapped[int | None] = mapped_column(Integer, default=None)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerStatsRow(Base):
    """The sums of an account's :class:`PlayerGameRow` rows for one preset, kept with them."""

    __tablename__ = "player_stats"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    preset: Mapped[str] = mapped_column(String(40), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)  # first places, shared ones too
    total_sum: Mapped[int] = mapped_column(Integer)
    best: Mapped[int] = mapped_column(Integer)
    yachts: Mapped[int] = mapped_column(Integer)
    reviewed: Mapped[int] = mapped_column(Integer)  # games whose review is made
    loss_sum: Mapped[float] = mapped_column(Float)  # over the reviewed games
    decisions: Mapped[int] = mapped_column(Integer)
    accurate: Mapped[int] = mapped_column(Integer)


class OfflineGameRow(Base):
    """A game an account played on its device with no server and synced later (revision
    0008): the server replayed ``record`` (seed and actions) before storing it. Never rated,
    never in ``player_stats``: a client wrote it."""

    __tablename__ = "offline_games"
    __table_args__ = (
        UniqueConstraint("account_id", "client_id", name="uq_offline_games_account_client"),
        Index("ix_offline_games_account_finished", "account_id", "finished_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer)
    client_id: Mapped[str] = mapped_column(String(64))  # the page's id for the game
    preset: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)  # the account's seat, from 0
    total: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    yachts: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    synced_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


Row = TypeVar("Row", bound=Base)


@cache
def columns_of(cls: type[Base]) -> tuple[str, ...]:
    """The attribute names of a model's columns, in the table's order."""
    return tuple(c.key for c in cls.__table__.columns)


def snapshot_row(cls: type[Row], values: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> Row:
    """A transient ``cls`` holding ``values`` (column name -> value; a column left out reads
    None), made without the mapped constructor.

    The server's snapshots hold rows they never add to a session; made this way a row costs
    about a tenth of ``cls(**values)`` (1.4 against 17 us for a game row, measured), which
    mattered because every move makes two.

    >>> game = snapshot_row(GameRow, {"number": 2, "status": "playing"})
    >>> game.number, game.status, game.state
    (2, 'playing', None)
    """
    made: Row = _manager(cls).new_instance()
    made.__dict__.update(values)
    return made


@cache
def _manager(cls: type[Base]) -> ClassManager[Any]:
    configure_mappers()  # what the mapped constructor would do on its first call
    return manager_of_class(cls)


def with_columns(old: Row, values: Mapping[str, Any]) -> Row:
    """A new transient row: ``old``'s columns, then ``values``.

    >>> game = with_columns(snapshot_row(GameRow, {"number": 2, "version": 4}), {"version": 5})
    >>> game.number, game.version
    (2, 5)
    """
    held = old.__dict__  # what was set or loaded; anything else is asked for (None if unset)
    kept = {k: held[k] if k in held else getattr(old, k) for k in columns_of(type(old))}
    return snapshot_row(type(old), {**kept, **values})
