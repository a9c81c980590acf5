"""Accounts and sessions in the database (SQLAlchemy Core, SQLite and PostgreSQL alike).

The service (:mod:`yacht.web.service.accounts`) hashes and decides; this module only reads and
writes rows. Every function takes the engine first and runs in a worker thread through
:class:`AccountStore`. A session is stored by the SHA-256 of its id (the id itself is only ever
in the player's cookie), so a copy of the database signs nobody in.

Deleting an account (:func:`delete_account`) keeps the row as a tombstone: the name and its
skeleton stay (so nobody can take the name of someone who left, and pass for them), the
password, recovery code, seat key and sessions go; the account's seats and the games played in
them are kept under the name :data:`DELETED_NAME`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from sqlalchemy import Connection, Engine, RowMapping, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from yacht.web.storage import push
from yacht.web.storage.models import (
    AccountRow,
    GameRow,
    OfflineGameRow,
    SeatRow,
    SessionRow,
    TableRow,
    columns_of,
    snapshot_row,
)

__all__ = [
    "DELETED_NAME",
    "AccountStore",
    "Exported",
    "NameTakenError",
    "SignedIn",
    "account_by_id",
    "account_by_skeleton",
    "account_seats",
    "close_session",
    "create_account",
    "delete_account",
    "exported",
    "open_session",
    "replace_password",
    "reset_by_operator",
    "session_of",
    "touch_session",
]

DELETED_NAME = "deleted player"
"""The name a deleted account's seats and games are kept under."""

P = ParamSpec("P")
T = TypeVar("T")

_ACCOUNTS = cast(Table, AccountRow.__table__)
_SESSIONS = cast(Table, SessionRow.__table__)
_OFFLINE = cast(Table, OfflineGameRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_TABLES = cast(Table, TableRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_ACCOUNT_COLUMNS = columns_of(AccountRow)
_SESSION_COLUMNS = columns_of(SessionRow)


class NameTakenError(ValueError):
    """Another account has a name that looks the same (its skeleton)."""


@dataclass(frozen=True)
class SignedIn:
    """A live session and its account, as read for one request."""

    account: AccountRow
    session: SessionRow


@dataclass(frozen=True)
class Exported:
    """Everything stored about one account: its row, its sessions, its seats, and the games
    played at the tables of those seats (each with its table and the account's seat)."""

    account: AccountRow
    sessions: list[SessionRow]
    seats: list[SeatRow]
    games: list[tuple[GameRow, TableRow, tuple[int, ...]]]
    offline: list[OfflineGameRow] = field(default_factory=list)
    """The games the account synced from the play page (``offline_games``), oldest first."""


def _aware(when: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when


def _account(row: RowMapping) -> AccountRow:
    values = {k: row[k] for k in _ACCOUNT_COLUMNS}
    for k in ("created_at", "deleted_at"):
        values[k] = _aware(values[k])
    return snapshot_row(AccountRow, values)


def _session(row: RowMapping, prefix: str = "") -> SessionRow:
    values = {k: row[f"{prefix}{k}"] for k in _SESSION_COLUMNS}
    for k in ("created_at", "last_seen"):
        values[k] = _aware(values[k])
    return snapshot_row(SessionRow, values)


# --- accounts --------------------------------------------------------------------------------


def create_account(
    engine: Engine,
    name: str,
    skeleton: str,
    password_hash: str,
    recovery_hash: str,
    seat_key: str,
    when: datetime,
) -> AccountRow:
    """A new account; :class:`NameTakenError` when an account (a deleted one too) has the
    skeleton already (the unique index decides, so two sign-ups racing for one name cannot
    both win)."""
    values = {
        "name": name,
        "name_skeleton": skeleton,
        "password_hash": password_hash,
        "recovery_hash": recovery_hash,
        "seat_key": seat_key,
        "created_at": when,
        "deleted_at": None,
    }
    try:
        with engine.begin() as c:
            key = c.execute(insert(_ACCOUNTS).values(**values)).inserted_primary_key
    except IntegrityError:
        raise NameTakenError(f"an account named like {name!r} exists") from None
    assert key is not None  # one row inserted
    return snapshot_row(AccountRow, {"id": key[0], **values})


def account_by_skeleton(engine: Engine, skeleton: str) -> AccountRow | None:
    """The account (deleted or not) whose name looks like ``skeleton``."""
    with engine.connect() as c:
        row = (
            c.execute(select(_ACCOUNTS).where(_ACCOUNTS.c.name_skeleton == skeleton))
            .mappings()
            .first()
        )
    return None if row is None else _account(row)


def account_by_id(engine: Engine, account_id: int) -> AccountRow | None:
    with engine.connect() as c:
        row = c.execute(select(_ACCOUNTS).where(_ACCOUNTS.c.id == account_id)).mappings().first()
    return None if row is None else _account(row)


def replace_password(
    engine: Engine,
    account_id: int,
    *,
    password_hash: str | None,
    recovery_hash: str | None = None,
    keep_session: str | None = None,
) -> bool:
    """Set the account's password hash (and its recovery hash, when given) and end all of its
    sessions but ``keep_session`` (an id hash). False when there is no such live account."""
    values: dict[str, Any] = {"password_hash": password_hash}
    if recovery_hash is not None:
        values["recovery_hash"] = recovery_hash
    with engine.begin() as c:
        done = c.execute(
            update(_ACCOUNTS)
            .where(_ACCOUNTS.c.id == account_id, _ACCOUNTS.c.deleted_at.is_(None))
            .values(**values)
        )
        if not done.rowcount:
            return False
        ended = delete(_SESSIONS).where(_SESSIONS.c.account_id == account_id)
        if keep_session is not None:
            ended = ended.where(_SESSIONS.c.id_hash != keep_session)
        c.execute(ended)
    return True


def reset_by_operator(engine: Engine, skeleton: str, recovery_hash: str) -> AccountRow | None:
    """``yacht admin accounts reset-password``: the account named like ``skeleton`` gets a new
    recovery code (its hash), loses its password (only the new code gets in now) and all of
    its sessions. None when there is no such live account."""
    found = account_by_skeleton(engine, skeleton)
    if found is None or found.deleted_at is not None:
        return None
    with engine.begin() as c:
        c.execute(
            update(_ACCOUNTS)
            .where(_ACCOUNTS.c.id == found.id)
            .values(password_hash=None, recovery_hash=recovery_hash)
        )
        c.execute(delete(_SESSIONS).where(_SESSIONS.c.account_id == found.id))
    return found


# --- sessions --------------------------------------------------------------------------------


def open_session(
    engine: Engine,
    id_hash: str,
    account_id: int,
    csrf_token: str,
    when: datetime,
    expired_before: datetime,
    *,
    replaces: str | None = None,
) -> SessionRow:
    """Store a new session of the account; the account's sessions idle since before
    ``expired_before`` and the session ``replaces`` (the browser's previous one, whatever
    account it had: a sign-in always starts a new session) are deleted with it."""
    values = {
        "id_hash": id_hash,
        "account_id": account_id,
        "created_at": when,
        "last_seen": when,
        "csrf_token": csrf_token,
    }
    with engine.begin() as c:
        c.execute(
            delete(_SESSIONS).where(
                _SESSIONS.c.account_id == account_id, _SESSIONS.c.last_seen < expired_before
            )
        )
        if replaces is not None:
            c.execute(delete(_SESSIONS).where(_SESSIONS.c.id_hash == replaces))
        c.execute(insert(_SESSIONS).values(**values))
    return snapshot_row(SessionRow, values)


_SIGNED_IN = (
    select(_ACCOUNTS, *(c.label(f"s__{c.name}") for c in _SESSIONS.c))
    .join(_SESSIONS, _SESSIONS.c.account_id == _ACCOUNTS.c.id)
    .where(_ACCOUNTS.c.deleted_at.is_(None))
)


def session_of(engine: Engine, id_hash: str, expired_before: datetime) -> SignedIn | None:
    """The live session stored as ``id_hash`` and its account; None when there is none, the
    account is deleted, or the session has been idle since before ``expired_before`` (it is
    deleted then)."""
    with engine.connect() as c:
        row = c.execute(_SIGNED_IN.where(_SESSIONS.c.id_hash == id_hash)).mappings().first()
    if row is None:
        return None
    found = SignedIn(_account(row), _session(row, "s__"))
    last_seen = found.session.last_seen
    if last_seen is not None and last_seen < expired_before:
        close_session(engine, id_hash)
        return None
    return found


def touch_session(engine: Engine, id_hash: str, when: datetime) -> None:
    with engine.begin() as c:
        c.execute(update(_SESSIONS).where(_SESSIONS.c.id_hash == id_hash).values(last_seen=when))


def close_session(engine: Engine, id_hash: str) -> None:
    with engine.begin() as c:
        c.execute(delete(_SESSIONS).where(_SESSIONS.c.id_hash == id_hash))


# --- seats, deletion, export -----------------------------------------------------------------


def _held(c: Connection, account_id: int) -> list[tuple[str, int]]:
    """The (table code, seat) pairs the account holds, in order, on connection ``c``."""
    rows = c.execute(
        select(_SEATS.c.table_code, _SEATS.c.position)
        .where(_SEATS.c.account_id == account_id)
        .order_by(_SEATS.c.table_code, _SEATS.c.position)
    ).all()
    return [(r.table_code, r.position) for r in rows]


def account_seats(engine: Engine, account_id: int) -> list[tuple[str, int]]:
    """The (table code, seat) pairs the account holds, in order."""
    with engine.connect() as c:
        return _held(c, account_id)


def _renamed(data: Any, positions: set[int], key: str) -> Any:
    """A game's state or review with the ``positions``' names made :data:`DELETED_NAME`:
    ``players`` is a list of names (a state) or of summaries with a ``name`` (a review)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        return data
    players = list(data["players"])
    for i in positions:
        if i < len(players):
            if key == "state" and isinstance(players[i], str):
                players[i] = DELETED_NAME
            elif key == "review" and isinstance(players[i], dict):
                players[i] = {**players[i], "name": DELETED_NAME}
    return {**data, "players": players}


def delete_account(engine: Engine, account_id: int, when: datetime) -> list[str]:
    """Delete the account in one transaction: its sessions, password, recovery code, seat
    key, synced offline games and push subscriptions (devices) go; its seats, and the names in
    the games played at them (state and review), become :data:`DELETED_NAME`; the row stays
    with its name (still taken). Each table touched has its revision moved on, so that every
    server process reads it afresh before its next change. Returns the codes of those
    tables."""
    with engine.begin() as c:
        held = _held(c, account_id)
        positions: dict[str, set[int]] = {}
        for code, position in held:
            positions.setdefault(code, set()).add(position)
        for code in sorted(positions):  # row locks in one order: no deadlock with another
            c.execute(
                update(_TABLES)
                .where(_TABLES.c.code == code)
                .values(revision=_TABLES.c.revision + 1)
            )
        c.execute(
            update(_SEATS)
            .where(_SEATS.c.account_id == account_id)
            .values(name=DELETED_NAME, account_id=None, account_token_hash=None)
        )
        for code in sorted(positions):
            games = c.execute(
                select(_GAMES.c.id, _GAMES.c.state, _GAMES.c.review).where(
                    _GAMES.c.table_code == code
                )
            ).all()
            for game in games:
                state = _renamed(game.state, positions[code], "state")
                review = _renamed(game.review, positions[code], "review")
                if state is not game.state or review is not game.review:
                    c.execute(
                        update(_GAMES)
                        .where(_GAMES.c.id == game.id)
                        .values(state=state, review=review)
                    )
        c.execute(delete(_SESSIONS).where(_SESSIONS.c.account_id == account_id))
        c.execute(delete(_OFFLINE).where(_OFFLINE.c.account_id == account_id))
        push.forget_account(c, account_id)  # its devices get no more notifications
        c.execute(
            update(_ACCOUNTS)
            .where(_ACCOUNTS.c.id == account_id)
            .values(password_hash=None, recovery_hash=None, seat_key=None, deleted_at=when)
        )
    return sorted(positions)


def exported(engine: Engine, account_id: int) -> Exported | None:
    """Everything stored about a live account (None: no such account)."""
    with Session(engine) as s:
        account = s.get(AccountRow, account_id)
        if account is None or account.deleted_at is not None:
            return None
        sessions = list(
            s.scalars(
                select(SessionRow)
                .where(SessionRow.account_id == account_id)
                .order_by(SessionRow.created_at)
            )
        )
        seats = list(
            s.scalars(
                select(SeatRow)
                .where(SeatRow.account_id == account_id)
                .order_by(SeatRow.table_code, SeatRow.position)
            )
        )
        held: dict[str, tuple[int, ...]] = {}
        for seat in seats:
            held[seat.table_code] = (*held.get(seat.table_code, ()), seat.position)
        games: list[tuple[GameRow, TableRow, tuple[int, ...]]] = []
        if held:
            rows = s.execute(
                select(GameRow, TableRow)
                .join(TableRow, TableRow.code == GameRow.table_code)
                .where(GameRow.table_code.in_(list(held)))
                .order_by(GameRow.created_at, GameRow.id)
            ).all()
            for game, table in rows:
                _ = table.seats
                games.append((game, table, held[game.table_code]))
        offline = list(
            s.scalars(
                select(OfflineGameRow)
                .where(OfflineGameRow.account_id == account_id)
                .order_by(OfflineGameRow.finished_at, OfflineGameRow.id)
            )
        )
        s.expunge_all()
    return Exported(account, sessions, seats, games, offline)


class AccountStore:
    """The functions above, awaited: each in a worker thread, its failure for want of a
    database told as the store's own are (``guard``: :meth:`Store.guarded`)."""

    def __init__(
        self, engine: Engine, guard: Callable[[Awaitable[Any]], Awaitable[Any]] | None = None
    ) -> None:
        self.engine = engine
        self._guard = guard

    async def run(
        self, work: Callable[Concatenate[Engine, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        call = asyncio.to_thread(work, self.engine, *args, **kwargs)
        if self._guard is None:
            return await call
        return cast(T, await self._guard(call))
