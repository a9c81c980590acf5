"""A seat's holder is present across server processes: "last seen" lives in the database,
refreshed for the seats a process holds live connections for, so another process does not think
them away."""

from __future__ import annotations

from datetime import UTC, datetime

from starlette.testclient import TestClient

from yacht.web.service import presence as seats
from yacht.web.storage.store import Store

from ..helpers import Table


def test_live_seats_are_noted_as_seen_for_every_process(client: TestClient) -> None:
    # Runs on the test client's own event loop (a thread), not the test's: pages driven by
    # Playwright's sync API hold the main thread's loop for the rest of the session.
    service = client.app.state.service  # type: ignore[attr-defined]
    store: Store = service.store
    portal = client.portal
    assert portal is not None
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    portal.call(service.presence.settle)
    joined = store.seen(t.code)[0]
    assert joined is not None
    clock = [joined.timestamp() + 1000]  # much later, Ann still connected here
    service.clock = lambda: clock[0]

    async def arrive() -> None:
        service.presence.arrive(t.code, [0])
        await service.presence.settle()

    portal.call(arrive)
    noted = store.seen(t.code)[0]
    assert noted == datetime.fromtimestamp(clock[0], UTC) and noted > joined
    other = seats.Presence(store, lambda: clock[0] + 30)  # another process: no live socket
    assert portal.call(other.away_for, t.code, 0) == 30
    assert portal.call(other.away_for, t.code, 1) == float("inf")  # nobody ever held seat 2
