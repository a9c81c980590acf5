"""The correspondence tables' queries: the due deadlines, claimed by one process each (the
inbox's are in :mod:`yacht.web.storage.inbox`).

They go by the indexed ``seats.deadline``: a correspondence game waiting on a person is the
one row of its seats with a deadline, so no game's state is read to find them.
"""

from __future__ import annotations

from typing import cast

from sqlalchemy import Engine, Table, select, update

from yacht.web.storage.models import SeatRow

__all__ = ["DUE_BATCH", "claim_due"]

DUE_BATCH = 50
"""Due deadlines one claim takes at most (the rest wait for the next look)."""

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
