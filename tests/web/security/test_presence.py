"""Finding 3 across server processes: "last seen" lives in the database, refreshed for the
seats a process holds live connections for, so another process does not think them away."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from yacht.web import seats
from yacht.web.schemas import CreateTable, JoinSeat, SeatSpec
from yacht.web.store import Store

from ..helpers import make_app


async def test_live_seats_are_noted_as_seen_for_every_process(tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.sqlite3")
    store: Store = app.state.service.store
    service = app.state.service

    state = await service.create(CreateTable(seats=[SeatSpec(), SeatSpec()]))
    code = state["code"]
    await service.join(code, JoinSeat(seat=0, name="Ann"))
    await service.presence.settle()
    joined = store.seen(code)[0]
    assert joined is not None
    clock = [joined.timestamp() + 1000]  # much later, Ann still connected here
    service.clock = lambda: clock[0]
    service.presence.arrive(code, [0])
    await service.presence.settle()
    noted = store.seen(code)[0]
    assert noted is not None and noted > joined
    assert noted == datetime.fromtimestamp(clock[0], UTC)
    other = seats.Presence(store, lambda: clock[0] + 30)  # another process: no live socket
    assert await other.away_for(code, 0) == 30
    assert await other.away_for(code, 1) == float("inf")  # nobody ever held seat 2
    service.hints.close()
    store.close()
