"""Offline games synced by signed-in players (``offline_games``, revision 0008; SQLAlchemy
Core, SQLite and PostgreSQL alike).

A game is stored once per account and page id: the insert does nothing on a repeat
(``ON CONFLICT DO NOTHING`` on ``uq_offline_games_account_client``) and the row found is the
answer either way, so two requests sending the same game at once store one row. These rows
are read only by a profile's list of offline games: nothing here touches ``player_games``,
``player_stats`` or ``ratings``, which is how offline games stay out of the figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, cast

from sqlalchemy import Connection, Engine, Table, func, select
from sqlalchemy.dialects import postgresql, sqlite

from yacht.web.storage.models import OfflineGameRow

__all__ = ["DAILY", "LISTED", "OfflineLine", "Stored", "offline_lines", "store_games"]

DAILY = 200
"""Offline games an account may have finished in any 24 hours: more is refused (no person
finishes that many, and it bounds what one account can store)."""

LISTED = 20
"""Offline games a profile lists (the newest)."""

_OFFLINE = cast(Table, OfflineGameRow.__table__)

Stored = tuple[Literal["stored", "already", "refused"], int | None]


def _aware(when: datetime) -> datetime:
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when


def _found(c: Connection, account: int, client_id: str) -> int | None:
    row = c.execute(
        select(_OFFLINE.c.id).where(
            _OFFLINE.c.account_id == account, _OFFLINE.c.client_id == client_id
        )
    ).first()
    return None if row is None else int(row[0])


def _busy_day(c: Connection, account: int, finished: datetime) -> bool:
    """Whether the account has :data:`DAILY` games finished in the 24 hours before
    ``finished`` (a walk of at most that many index entries)."""
    recent = (
        select(_OFFLINE.c.id)
        .where(
            _OFFLINE.c.account_id == account,
            _OFFLINE.c.finished_at > finished - timedelta(days=1),
            _OFFLINE.c.finished_at <= finished,
        )
        .limit(DAILY)
        .subquery()
    )
    return int(c.execute(select(func.count()).select_from(recent)).scalar_one()) >= DAILY


def store_games(engine: Engine, account: int, rows: Sequence[dict[str, Any]]) -> list[Stored]:
    """Store each replayed game of ``account`` (a row of ``offline_games`` without its id and
    account) unless the account has it already; one transaction."""
    out: list[Stored] = []
    with engine.begin() as c:
        dialect = sqlite.insert if c.dialect.name == "sqlite" else postgresql.insert
        for row in rows:
            had = _found(c, account, row["client_id"])
            if had is not None:
                out.append(("already", had))
                continue
            if _busy_day(c, account, row["finished_at"]):
                out.append(("refused", None))
                continue
            done = c.execute(
                dialect(_OFFLINE)
                .values(account_id=account, **row)
                .on_conflict_do_nothing(index_elements=["account_id", "client_id"])
            )
            # no row inserted: another request stored the same game a moment before
            out.append(
                ("stored" if done.rowcount else "already", _found(c, account, row["client_id"]))
            )
    return out


@dataclass(frozen=True)
class OfflineLine:
    """One synced offline game in a player's profile."""

    record: int
    preset: str
    players: int
    seat: int
    total: int
    rank: int
    yachts: int
    finished_at: datetime


def offline_lines(c: Connection, account: int) -> tuple[int, list[OfflineLine]]:
    """How many offline games the account synced, and the newest :data:`LISTED` of them."""
    count = c.execute(
        select(func.count()).select_from(_OFFLINE).where(_OFFLINE.c.account_id == account)
    ).scalar_one()
    if not count:
        return 0, []
    rows = c.execute(
        select(
            _OFFLINE.c.id,
            _OFFLINE.c.preset,
            _OFFLINE.c.players,
            _OFFLINE.c.seat,
            _OFFLINE.c.total,
            _OFFLINE.c.rank,
            _OFFLINE.c.yachts,
            _OFFLINE.c.finished_at,
        )
        .where(_OFFLINE.c.account_id == account)
        .order_by(_OFFLINE.c.finished_at.desc(), _OFFLINE.c.id.desc())
        .limit(LISTED)
    ).all()
    lines = [
        OfflineLine(
            r.id, r.preset, r.players, r.seat, r.total, r.rank, r.yachts, _aware(r.finished_at)
        )
        for r in rows
    ]
    return int(count), lines
