"""The correspondence tables' queries: the due deadlines, claimed by one process each, and the
seats whose games wait on a player (the inbox).

Both go by the indexed ``seats.deadline``: a correspondence game waiting on a person is the
one row of its seats with a deadline, so neither reads a game's state to find them.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import cast

from sqlalchemy import Engine, Table, and_, false, or_, select, update

from yacht.web.storage.models import SeatRow

__all__ = ["DUE_BATCH", "INBOX_MAX", "claim_due", "waiting_on"]

DUE_BATCH = 50
"""Due deadlines one claim takes at most (the rest wait for the next look)."""
INBOX_MAX = 200
"""Games an inbox lists at most."""

_SEATS = cast(Table, SeatRow.__table__)


def claim_due(
    engine: Engine, now: float, until: float, limit: int = DUE_BATCH
) -> list[tuple[str, int]]:
    """The seats whose deadline has passed by ``now`` (table code, position), oldest first,
    each moved on to ``until`` in the same transaction so that no other process takes it
    before then: this one acts on it, or, dying first, leaves it due again at ``until``.

    On PostgreSQL the rows are locked with ``FOR UPDATE SKIP LOCKED``: two processes looking
    at once take different seats, never one twice. SQLite has one writer at a time; the
    ``deadline = :seen`` guard of each update keeps a seat from being taken twice there too.
    """
    query = (
        select(_SEATS.c.table_code, _SEATS.c.position, _SEATS.c.deadline)
        .where(_SEATS.c.deadline <= now)
        .order_by(_SEATS.c.deadline)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    taken = []
    with engine.begin() as c:
        for code, position, seen in c.execute(query).all():
            moved = c.execute(
                update(_SEATS)
                .where(
                    _SEATS.c.table_code == code,
                    _SEATS.c.position == position,
                    _SEATS.c.deadline == seen,
                )
                .values(deadline=until)
            )
            if moved.rowcount:
                taken.append((code, position))
    return taken


def waiting_on(
    engine: Engine,
    account: int | None,
    seats: Collection[tuple[str, int]],
    limit: int = INBOX_MAX,
) -> list[tuple[str, int, float, int | None, str | None, str | None]]:
    """The seats with a deadline (a game waiting on a person) that ``account`` holds or that
    are among ``seats`` (table code, position): code, position, deadline, the seat's account
    and its two token hashes (the caller checks a guest's tokens against them), soonest
    deadline first."""
    held = [_SEATS.c.account_id == account] if account is not None else []
    given = [
        and_(_SEATS.c.table_code == code, _SEATS.c.position == position)
        for code, position in sorted(set(seats))
    ]
    if not held and not given:
        return []
    query = (
        select(
            _SEATS.c.table_code,
            _SEATS.c.position,
            _SEATS.c.deadline,
            _SEATS.c.account_id,
            _SEATS.c.token_hash,
            _SEATS.c.account_token_hash,
        )
        .where(
            _SEATS.c.deadline.is_not(None), _SEATS.c.kind == "human", or_(false(), *held, *given)
        )
        .order_by(_SEATS.c.deadline, _SEATS.c.table_code)
        .limit(limit)
    )
    with engine.connect() as c:
        return [tuple(r) for r in c.execute(query).all()]
