"""The operator's queries (``yacht admin``): tables listed and closed, names banned, a player's
finished games deleted on request, the accounts whose rated play is worth a look. Each opens
what it needs from the engine it is given."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

from sqlalchemy import Engine, String, Table, bindparam, delete, func, select, type_coerce
from sqlalchemy.orm import Session

from yacht.web.storage.models import (
    AccountRow,
    BannedNameRow,
    GameRow,
    PlayerGameRow,
    PlayerStatsRow,
    SeatRow,
    TableRow,
)

__all__ = [
    "TableLine",
    "ban",
    "banned",
    "delete_tables",
    "finished_games_of",
    "rated_losses",
    "table_lines",
    "unban",
]

_TABLES = cast(Table, TableRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)
_GAMES = cast(Table, GameRow.__table__)
_ACCOUNTS = cast(Table, AccountRow.__table__)
_PLAYER_GAMES = cast(Table, PlayerGameRow.__table__)
_STATS = cast(Table, PlayerStatsRow.__table__)


@dataclass(frozen=True)
class TableLine:
    """A table as ``yacht admin tables list`` shows it."""

    code: str
    status: str
    players: tuple[str, ...]
    last_move: datetime | None


def table_lines(engine: Engine, limit: int = 200) -> list[TableLine]:
    """Tables, the most recently moved first: code, current game's status, players."""
    current = (_GAMES.c.table_code == _TABLES.c.code) & (_GAMES.c.number == _TABLES.c.game_number)
    with engine.connect() as c:
        rows = c.execute(
            # the time as the database holds it: a damaged one is shown as none, not a failure
            select(
                _TABLES.c.code,
                _GAMES.c.status,
                type_coerce(_GAMES.c.updated_at, String).label("updated_at"),
            )
            .join(_GAMES, current)
            .order_by(_GAMES.c.updated_at.desc(), _TABLES.c.code)
            .limit(limit)
        ).all()
        codes = [r.code for r in rows]
        seats = c.execute(
            select(_SEATS.c.table_code, _SEATS.c.name, _SEATS.c.bot)
            .where(_SEATS.c.table_code.in_(codes))
            .order_by(_SEATS.c.table_code, _SEATS.c.position)
        ).all()
    names: dict[str, list[str]] = {}
    for seat in seats:
        names.setdefault(seat.table_code, []).append(seat.name or "")
    return [
        TableLine(r.code, r.status, tuple(names.get(r.code, [])), _aware(_when(r.updated_at)))
        for r in rows
    ]


def delete_tables(engine: Engine, codes: list[str]) -> list[str]:
    """Delete these tables whole (seats and games); returns the codes that were there."""
    with engine.begin() as c:
        found = list(c.scalars(select(_TABLES.c.code).where(_TABLES.c.code.in_(codes))))
        c.execute(delete(_SEATS).where(_SEATS.c.table_code.in_(found)))
        c.execute(delete(_GAMES).where(_GAMES.c.table_code.in_(found)))
        c.execute(delete(_TABLES).where(_TABLES.c.code.in_(found)))
    return found


def finished_games_of(engine: Engine, name: str, *, delete_them: bool = False) -> int:
    """How many finished games had a seat named ``name`` (exactly); ``delete_them``: also
    delete them (a table whose current game is one of them goes whole: nothing at it is
    in play)."""
    tables = select(_SEATS.c.table_code).where(_SEATS.c.name == name)
    games = (_GAMES.c.table_code.in_(tables)) & (_GAMES.c.status == "finished")
    with engine.begin() as c:
        count = int(c.scalar(select(func.count()).select_from(_GAMES).where(games)) or 0)
        if delete_them and count:
            done = select(_TABLES.c.code).join(
                _GAMES,
                (_GAMES.c.table_code == _TABLES.c.code)
                & (_GAMES.c.number == _TABLES.c.game_number),
            )
            whole = list(
                c.scalars(done.where(_TABLES.c.code.in_(tables), _GAMES.c.status == "finished"))
            )
            c.execute(delete(_GAMES).where(games))
            c.execute(delete(_SEATS).where(_SEATS.c.table_code.in_(whole)))
            c.execute(delete(_TABLES).where(_TABLES.c.code.in_(whole)))
    return count


def ban(engine: Engine, key: str, name: str) -> bool:
    """Ban a name (by its :func:`~yacht.web.protocol.names.name_key`); False if it was."""
    with Session(engine) as s, s.begin():
        if s.get(BannedNameRow, key) is not None:
            return False
        s.add(BannedNameRow(name_key=key, name=name, banned_at=now()))
    return True


def unban(engine: Engine, key: str) -> bool:
    """Lift a ban; False when the name was not banned."""
    with engine.begin() as c:
        done = c.execute(delete(BannedNameRow).where(BannedNameRow.name_key == key))
    return bool(done.rowcount)


def banned(engine: Engine) -> list[tuple[str, datetime]]:
    """The banned names as they were given, with when, in order of banning."""
    with Session(engine) as s:
        rows = s.scalars(select(BannedNameRow).order_by(BannedNameRow.banned_at))
        return [(r.name, cast(datetime, _aware(r.banned_at))) for r in rows]


def rated_losses(engine: Engine, games: int) -> list[tuple[str, str, list[float]]]:
    """For every account (not deleted) with at least ``games`` reviewed games in a preset: its
    name, the preset and the points lost in each of its last ``games`` reviewed rated games of
    that preset, oldest first (fewer when it has fewer rated ones)."""
    out: list[tuple[str, str, list[float]]] = []
    candidates = (
        select(_ACCOUNTS.c.id, _ACCOUNTS.c.name, _STATS.c.preset)
        .join(_STATS, _STATS.c.account_id == _ACCOUNTS.c.id)
        .where(_STATS.c.reviewed >= games, _ACCOUNTS.c.deleted_at.is_(None))
        .order_by(_ACCOUNTS.c.name, _STATS.c.preset)
    )
    last = (
        select(_PLAYER_GAMES.c.loss)
        .where(
            _PLAYER_GAMES.c.account_id == bindparam("a"),
            _PLAYER_GAMES.c.preset == bindparam("p"),
            _PLAYER_GAMES.c.rated.is_(True),
            _PLAYER_GAMES.c.loss.is_not(None),
        )
        .order_by(_PLAYER_GAMES.c.finished_at.desc(), _PLAYER_GAMES.c.game_id.desc())
        .limit(games)
    )
    with engine.connect() as c:
        for account, name, preset in c.execute(candidates).all():
            losses = [float(x) for x in c.scalars(last, {"a": account, "p": preset})]
            out.append((name, preset, losses[::-1]))
    return out


def now() -> datetime:
    return datetime.now(UTC)


def _when(value: object) -> datetime | None:
    """A stored time: PostgreSQL's driver gives a datetime, SQLite its text (None when it is
    not a time, as a damaged row has)."""
    if value is None or isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value))
    except ValueError:
        return None


def _aware(when: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes: they were stored in UTC."""
    if when is not None and when.tzinfo is None:
        return when.replace(tzinfo=UTC)
    return when
