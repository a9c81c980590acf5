"""Web Push's rows (revision 0012) and every statement on them, SQLite and PostgreSQL alike.

- ``push_keys``: the server's one VAPID key pair (PEM), made once by the first process that
  starts and read by every other (``INSERT ... ON CONFLICT DO NOTHING``, then a read).
- ``push_subscriptions``: a device's subscription (its push service's endpoint, unique, and the
  keys to encrypt for it), the account it follows, its language and a setting per kind of
  message.
- ``push_outbox``: one row per message and subscription still to deliver, inserted by
  :func:`enqueue` in the transaction of the move that makes it (so no crash can lose one),
  claimed by a sender with ``FOR UPDATE SKIP LOCKED`` (:func:`claim`, as
  :func:`~yacht.web.storage.correspondence.claim_due` claims deadlines) and deleted once
  delivered; ``due`` (indexed) is when it may be tried next.
- ``push_warnings``: the deadline warnings already written (table, seat, deadline, hours), so
  a warning goes out once per turn however many processes look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Boolean,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    delete,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from yacht.web.storage.changes import Notice
from yacht.web.storage.models import Base, SeatRow

__all__ = [
    "CLAIM_BATCH",
    "KINDS",
    "Delivery",
    "PushKeyRow",
    "PushOutboxRow",
    "PushSubscriptionRow",
    "PushWarningRow",
    "claim",
    "enqueue",
    "enqueue_pg",
    "forget",
    "forget_account",
    "keep_key",
    "pending",
    "settle",
    "subscribe",
    "warn_near",
]

CLAIM_BATCH = 50
"""Messages one claim takes at most."""
KINDS = {"turn": "turn", "near": "near", "end": "ended"}
"""A message's kind -> the subscription's column that says whether it wants that kind."""
PER_ACCOUNT = 10
"""Subscriptions an account keeps: a new device's beyond that replaces the oldest."""


class PushKeyRow(Base):
    """The server's VAPID key pair (one row, ``id`` 1)."""

    __tablename__ = "push_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    private_pem: Mapped[str] = mapped_column(Text)
    created: Mapped[float] = mapped_column(Float)


class PushSubscriptionRow(Base):
    """One device's push subscription, following an account."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("endpoint", name="uq_push_subscriptions_endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    account_id: Mapped[int] = mapped_column(Integer, index=True)
    lang: Mapped[str] = mapped_column(String(8))
    turn: Mapped[bool] = mapped_column(Boolean)
    near: Mapped[bool] = mapped_column(Boolean)
    ended: Mapped[bool] = mapped_column(Boolean)
    created: Mapped[float] = mapped_column(Float)


class PushOutboxRow(Base):
    """A message still to deliver to one subscription."""

    __tablename__ = "push_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    subscription_id: Mapped[int] = mapped_column(
        Integer, ForeignKey("push_subscriptions.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[str] = mapped_column(String(8))
    table_code: Mapped[str] = mapped_column(String(16))
    tag: Mapped[str] = mapped_column(String(64))
    hours: Mapped[int | None] = mapped_column(Integer, default=None)
    due: Mapped[float] = mapped_column(Float, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created: Mapped[float] = mapped_column(Float)


class PushWarningRow(Base):
    """A deadline warning written (once per seat, deadline and hours)."""

    __tablename__ = "push_warnings"

    table_code: Mapped[str] = mapped_column(String(16), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    deadline: Mapped[float] = mapped_column(Float, primary_key=True)
    hours: Mapped[int] = mapped_column(Integer, primary_key=True)


_KEYS = cast(Table, PushKeyRow.__table__)
_SUBS = cast(Table, PushSubscriptionRow.__table__)
_OUTBOX = cast(Table, PushOutboxRow.__table__)
_WARNED = cast(Table, PushWarningRow.__table__)
_SEATS = cast(Table, SeatRow.__table__)


@dataclass(frozen=True)
class Delivery:
    """A claimed message with what sending it needs."""

    id: int
    subscription: int
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    kind: str
    table_code: str
    tag: str
    hours: int | None
    attempts: int


# --- the key -------------------------------------------------------------------------------


def keep_key(engine: Engine, pem: str, now: float) -> str:
    """The server's key: ``pem`` if none is kept yet (then it is), else the kept one."""
    with engine.begin() as c:
        found = c.scalar(select(_KEYS.c.private_pem).where(_KEYS.c.id == 1))
        if found is not None:
            return str(found)
    try:
        with engine.begin() as c:
            c.execute(insert(_KEYS).values(id=1, private_pem=pem, created=now))
    except IntegrityError:  # another process kept its own first
        pass
    with engine.connect() as c:
        return str(c.scalar(select(_KEYS.c.private_pem).where(_KEYS.c.id == 1)))


# --- subscriptions ---------------------------------------------------------------------------


def subscribe(engine: Engine, account: int, columns: dict[str, Any], now: float) -> None:
    """Keep a device's subscription for ``account`` (``columns``: endpoint, p256dh, auth, lang,
    turn, near, ended). An endpoint kept already is updated (the device's new settings, or
    another account signed in on it); beyond :data:`PER_ACCOUNT` the oldest is dropped."""
    endpoint = columns["endpoint"]
    values = {**columns, "account_id": account}
    with engine.begin() as c:
        moved = c.execute(update(_SUBS).where(_SUBS.c.endpoint == endpoint).values(**values))
        if not moved.rowcount:
            try:
                with c.begin_nested():
                    c.execute(insert(_SUBS).values(**values, created=now))
            except IntegrityError:  # the same device, at the same moment: update it
                c.execute(update(_SUBS).where(_SUBS.c.endpoint == endpoint).values(**values))
        kept = select(_SUBS.c.id).where(_SUBS.c.account_id == account)
        newest = kept.order_by(_SUBS.c.created.desc(), _SUBS.c.id.desc()).limit(PER_ACCOUNT)
        old = [i for i in c.scalars(kept) if i not in set(c.scalars(newest))]
        if old:
            c.execute(delete(_OUTBOX).where(_OUTBOX.c.subscription_id.in_(old)))
            c.execute(delete(_SUBS).where(_SUBS.c.id.in_(old)))


def forget(engine: Engine, account: int, endpoint: str) -> bool:
    """Delete ``account``'s subscription with this endpoint (and its messages); False when the
    account has none such (another account's is left alone)."""
    with engine.begin() as c:
        found = c.scalar(
            select(_SUBS.c.id).where(_SUBS.c.endpoint == endpoint, _SUBS.c.account_id == account)
        )
        if found is None:
            return False
        c.execute(delete(_OUTBOX).where(_OUTBOX.c.subscription_id == found))
        c.execute(delete(_SUBS).where(_SUBS.c.id == found))
    return True


def forget_account(c: Connection, account: int) -> None:
    """In the caller's transaction (an account's deletion): every device of ``account`` and
    its messages."""
    mine = select(_SUBS.c.id).where(_SUBS.c.account_id == account)
    c.execute(delete(_OUTBOX).where(_OUTBOX.c.subscription_id.in_(mine)))
    c.execute(delete(_SUBS).where(_SUBS.c.account_id == account))


# --- the outbox ------------------------------------------------------------------------------


def _enqueue_statement(notice: Notice, code: str) -> Any:
    wants = _SUBS.c[KINDS[notice.kind]]
    chosen = select(
        _SUBS.c.id,
        literal(notice.kind, String()),
        literal(code, String()),
        literal(notice.tag, String()),
        literal(notice.hours, Integer()),
        literal(notice.due, Float()),
        literal(0, Integer()),
        literal(notice.due, Float()),
    ).where(_SUBS.c.account_id == notice.account, wants.is_(True))
    names = ["subscription_id", "kind", "table_code", "tag", "hours", "due", "attempts", "created"]
    return insert(_OUTBOX).from_select(names, chosen)


def enqueue(c: Connection, code: str, notices: Sequence[Notice]) -> None:
    """In the caller's transaction (the move's): a message for each notice to every
    subscription of its account that wants that kind."""
    for notice in notices:
        c.execute(_enqueue_statement(notice, code))


_ENQUEUE_PG = (
    "INSERT INTO push_outbox (subscription_id, kind, table_code, tag, hours, due, attempts, "
    "created) SELECT id, $1::varchar, $2::varchar, $3::varchar, $4::integer, $5::float8, 0, "
    "$5::float8 FROM push_subscriptions WHERE account_id = $6 AND {column}"
)


async def enqueue_pg(connection: Any, code: str, notices: Sequence[Notice]) -> None:
    """:func:`enqueue` on an asyncpg connection, in its open transaction."""
    for n in notices:
        statement = _ENQUEUE_PG.format(column=KINDS[n.kind])  # a name from the code, not input
        await connection.execute(statement, n.kind, code, n.tag, n.hours, n.due, n.account)


def claim(engine: Engine, now: float, until: float, limit: int = CLAIM_BATCH) -> list[Delivery]:
    """The messages due by ``now``, oldest first, each moved on to ``until`` in the same
    transaction: this process sends them, or, dying first, leaves them due again then. On
    PostgreSQL ``FOR UPDATE SKIP LOCKED``: two processes claiming at once take different
    rows; the ``due = :seen`` guard keeps a row from being taken twice on SQLite too."""
    query = (
        select(_OUTBOX.c.id, _OUTBOX.c.due)
        .where(_OUTBOX.c.due <= now)
        .order_by(_OUTBOX.c.due, _OUTBOX.c.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    with engine.begin() as c:
        taken = []
        for row_id, seen in c.execute(query).all():
            moved = c.execute(
                update(_OUTBOX)
                .where(_OUTBOX.c.id == row_id, _OUTBOX.c.due == seen)
                .values(due=until)
            )
            if moved.rowcount:
                taken.append(row_id)
        if not taken:
            return []
        rows = c.execute(
            select(
                _OUTBOX.c.id,
                _OUTBOX.c.subscription_id,
                _SUBS.c.endpoint,
                _SUBS.c.p256dh,
                _SUBS.c.auth,
                _SUBS.c.lang,
                _OUTBOX.c.kind,
                _OUTBOX.c.table_code,
                _OUTBOX.c.tag,
                _OUTBOX.c.hours,
                _OUTBOX.c.attempts,
            )
            .join(_SUBS, _SUBS.c.id == _OUTBOX.c.subscription_id)
            .where(_OUTBOX.c.id.in_(taken))
            .order_by(_OUTBOX.c.due, _OUTBOX.c.id)
        ).all()
    return [Delivery(*r) for r in rows]


def settle(
    engine: Engine,
    done: Sequence[int],
    gone: Sequence[int],
    again: Sequence[tuple[int, float | None]],
) -> None:
    """What came of a batch, in one transaction: the rows ``done`` (delivered, or dropped)
    deleted; the subscriptions ``gone`` (404, 410) deleted with their messages; each row of
    ``again`` due again at its time (one attempt more), or deleted when its time is None."""
    with engine.begin() as c:
        dropped = [row_id for row_id, due in again if due is None]
        if done or dropped:
            c.execute(delete(_OUTBOX).where(_OUTBOX.c.id.in_([*done, *dropped])))
        if gone:
            c.execute(delete(_OUTBOX).where(_OUTBOX.c.subscription_id.in_(gone)))
            c.execute(delete(_SUBS).where(_SUBS.c.id.in_(gone)))
        for row_id, due in again:
            if due is not None:
                c.execute(
                    update(_OUTBOX)
                    .where(_OUTBOX.c.id == row_id)
                    .values(due=due, attempts=_OUTBOX.c.attempts + 1)
                )


def pending(engine: Engine) -> int:
    """Messages in the outbox (for the metrics and the tests)."""
    with engine.connect() as c:
        return int(c.scalar(select(func.count()).select_from(_OUTBOX)) or 0)


# --- deadline warnings -----------------------------------------------------------------------


def warn_near(
    engine: Engine, now: float, marks: Sequence[int], lease: float, limit: int = CLAIM_BATCH
) -> int:
    """Write a warning for each seat (held by an account) whose deadline comes within one of
    ``marks`` hours and has not had that warning (the tightest mark only: a seat found 40
    minutes before its deadline gets the 1-hour one, not the 12-hour one too). A deadline
    within ``lease`` seconds is left alone: the bot is about to move for it. The seats come
    from the indexed ``seats.deadline``; ``push_warnings``' primary key makes each warning
    once, however many processes look at once. Returns the warnings written."""
    widest = max(marks) * 3600.0
    query = (
        select(_SEATS.c.table_code, _SEATS.c.position, _SEATS.c.deadline, _SEATS.c.account_id)
        .where(
            _SEATS.c.deadline > now + lease,
            _SEATS.c.deadline <= now + widest,
            _SEATS.c.kind == "human",
            _SEATS.c.account_id.is_not(None),
        )
        .order_by(_SEATS.c.deadline)
        .limit(limit)
    )
    written = 0
    with engine.connect() as c:
        seats = c.execute(query).all()
    for code, position, deadline, account in seats:
        hours = min(h for h in marks if deadline <= now + h * 3600.0)
        key = {"table_code": code, "position": position, "deadline": deadline}
        try:
            with engine.begin() as c:
                done = c.scalar(
                    select(func.count())
                    .select_from(_WARNED)
                    .where(*(_WARNED.c[k] == v for k, v in key.items()), _WARNED.c.hours <= hours)
                )
                if done:
                    continue
                c.execute(insert(_WARNED).values(**key, hours=hours))
                tag = f"{code}-{position}-{int(deadline)}"
                enqueue(c, code, [Notice("near", account, tag, now, hours)])
                written += 1
        except IntegrityError:  # another process wrote it at the same moment
            continue
    with engine.begin() as c:  # the warnings of turns long over
        c.execute(delete(_WARNED).where(_WARNED.c.deadline < now - 86400.0))
    return written
