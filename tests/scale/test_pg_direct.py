"""The hot path on PostgreSQL without worker threads (yacht.web.storage.pg): it reads and writes
what
the SQLAlchemy path does, refuses a stale revision writing nothing, and can be switched off."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest

from yacht.web.app import create_app
from yacht.web.settings import Settings
from yacht.web.storage.changes import Change
from yacht.web.storage.store import ConflictError, Store

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def opened(url: str) -> tuple[str, list[str]]:
    """A table of two people opened and joined over the API (the game is on)."""
    app = create_app(url, settings=Settings(prepare_tables=False), bot_delay=0)
    with TestClient(app) as client:
        r = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
        code = r.json()["code"]
        tokens = [
            client.post(f"/api/tables/{code}/join", json={"seat": s, "name": f"P{s}"}).json()[
                "token"
            ]
            for s in (0, 1)
        ]
    return code, tokens


def test_a_move_and_a_seat_change_read_back_the_same_both_ways(pg_url: str) -> None:
    code, _ = opened(pg_url)
    store = Store(pg_url)
    assert store.direct is not None

    async def work() -> tuple[Any, Any]:
        snap = await store.aload(code)
        assert snap is not None
        state = {**(snap.game.state or {}), "note": "moved"}
        moved = Change(game={"state": state, "version": 7})
        revision = await store.achange(code, snap.revision, moved)
        seated = Change(seats={1: {"name": "Bo"}}, table={"fair_next": None})
        revision = await store.achange(code, revision, seated)
        fast = await store.aload(code)
        await store.aclose()
        return fast, revision

    fast, revision = asyncio.run(work())
    slow = store.load(code)
    assert slow is not None and fast is not None
    assert fast.revision == slow.revision == revision
    assert slow.game.state is not None and slow.game.state["note"] == "moved"
    assert fast.game.state == slow.game.state
    assert fast.game.version == slow.game.version == 7
    assert [s.name for s in fast.seats] == [s.name for s in slow.seats] == ["P0", "Bo"]
    assert fast.game.updated_at == slow.game.updated_at and fast.game.updated_at.tzinfo
    assert fast.table.fair_next is None and slow.table.fair_next is None
    store.close()


def test_a_move_on_a_stale_revision_writes_nothing(pg_url: str) -> None:
    code, _ = opened(pg_url)
    store = Store(pg_url)

    async def work() -> None:
        snap = await store.aload(code)
        assert snap is not None
        await store.achange(code, snap.revision, Change(game={"version": 5}))
        for seats in ({}, {0: {"name": "Late"}}):  # the one-statement move, and a transaction
            with pytest.raises(ConflictError):
                await store.achange(code, snap.revision, Change(seats=seats, game={"version": 99}))
        await store.aclose()

    asyncio.run(work())
    after = store.load(code)
    assert after is not None and after.game.version == 5
    assert [s.name for s in after.seats] == ["P0", "P1"]
    store.close()


def test_the_direct_path_can_be_switched_off(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YACHT_PG_DIRECT", "0")
    settings = Settings()
    store = Store(pg_url, direct=settings.pg_direct)
    assert store.direct is None  # every statement then goes through worker threads
    store.close()


def test_a_connection_left_inside_a_transaction_is_not_reused(pg_url: str) -> None:
    store = Store(pg_url)
    direct = store.direct
    assert direct is not None

    async def left_open(connection: Any) -> None:
        await connection.execute("BEGIN")
        raise RuntimeError("cancelled half-way through a change")

    async def in_transaction(connection: Any) -> bool:
        await together.wait()  # every connection of the pool is out at once
        return bool(connection.is_in_transaction())

    together = asyncio.Barrier(direct.size)

    async def work() -> None:
        with pytest.raises(RuntimeError):
            await direct._run(left_open)
        states = await asyncio.gather(*(direct._run(in_transaction) for _ in range(direct.size)))
        assert states == [False] * direct.size
        code, _ = await asyncio.to_thread(opened, pg_url)
        assert await store.aload(code) is not None
        await store.aclose()

    asyncio.run(work())
    store.close()


def test_seats_seen_are_noted_in_one_statement_skipping_a_seat_being_changed(
    pg_url: str,
) -> None:
    from datetime import UTC, datetime

    from sqlalchemy import text

    first, _ = opened(pg_url)
    second, _ = opened(pg_url)
    store = Store(pg_url)
    when = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    busy = store.engine.connect()
    busy.begin()  # another transaction is changing seat 2 of the second table
    busy.execute(
        text("SELECT 1 FROM seats WHERE table_code = :c AND position = 1 FOR UPDATE"),
        {"c": second},
    )

    async def work() -> None:
        notes = {(first, 0): when, (first, 1): when, (second, 0): when, (second, 1): when}
        await asyncio.wait_for(store.anote(notes), 5)  # does not wait for the busy seat
        await store.aclose()

    try:
        asyncio.run(work())
    finally:
        busy.rollback()
        busy.close()
    assert store.seen(first) == {0: when, 1: when}
    assert store.seen(second)[0] == when
    assert store.seen(second)[1] != when  # skipped, to be noted again within REFRESH
    store.close()
