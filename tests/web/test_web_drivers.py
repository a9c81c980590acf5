"""With two server processes (two apps on one database), the process that changed a table
last drives its turn clock: the other one's driver, refused because the table moved on
without it, stops instead of racing for every timeout."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from .helpers import Table, make_app


@pytest.fixture
def two(db: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(make_app(db)) as a, TestClient(make_app(db, seed_start=100)) as b:
        yield a, b


def _drives(client: TestClient, code: str) -> bool:
    tasks: dict[str, Any] = client.app.state.runner._tasks  # type: ignore[attr-defined]
    task = tasks.get(code)
    return task is not None and not task.done()


def _wait(done: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "the server did not get there in time"
        time.sleep(0.02)


def test_only_the_process_that_changed_the_table_last_times_its_turns_out(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    t = Table.create(a, "human", "human", turn_seconds=30)
    t.join(0, "Ann")
    t.join(1, "Bob")
    assert _drives(a, t.code) and not _drives(b, t.code)  # A made the last change
    body = {"type": "action", "seat": 0, "token": t.tokens[0], "game": 1, "version": 0}
    r = b.post(f"/api/tables/{t.code}/actions", json={**body, "action": {"kind": "roll"}})
    assert r.status_code == 200, r.text
    assert _drives(b, t.code)  # now B made the last change: B's runner drives too
    # Ann walks away: both clocks pass her deadline and both runners look again.
    for client in (a, b):
        service = client.app.state.service  # type: ignore[attr-defined]
        later = service.clock() + 31
        service.clock = lambda later=later: later
        portal = client.portal
        assert portal is not None
        portal.call(client.app.state.runner.kick, t.code)  # type: ignore[attr-defined]

    def read() -> dict[str, Any]:  # read through B (a read on A would refresh A's snapshot)
        found: dict[str, Any] = b.get(f"/api/tables/{t.code}").json()["game"]
        return found

    _wait(lambda: read()["current"] == 1)
    _wait(lambda: not _drives(a, t.code))  # A's timeout (on its stale table) was refused
    game = read()
    assert [e["action"].split()[0] for e in game["recent"]] == ["roll", "score"]
    assert len(game["sheets"][0]) == 1 and game["recent"][-1]["seat"] == 0
    assert _drives(b, t.code)  # and B keeps Bob's clock


def test_a_rematch_while_the_review_is_written_is_driven(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot of the new game moves even when the rematch came while the server was still
    writing the finished game's review (the driver used to end with the review)."""
    from yacht.web.service import bots

    def slow_review(game: Any) -> Any:
        review = bots.review_json(game)
        time.sleep(0.4)  # the rematch below lands while the review is being made
        return review

    async def review(game: Any) -> Any:  # in a thread here, where the test can slow it
        return await asyncio.to_thread(slow_review, game)

    monkeypatch.setattr(bots, "review", review)
    with TestClient(make_app(db)) as client:
        t = Table.create(client, "random", "human")
        t.join(1, "Ann")
        while t.game["status"] != "finished":
            t.settle()
            if t.game["status"] != "finished":
                t.play_turn(1)
        r = t.post("rematch", {"type": "rematch", "seat": 1, "token": t.tokens[1], "game": 1})
        assert r.status_code == 200, r.text
        # The bot opened game 2. The review rates by P(win) with opponents: on a machine's
        # first game it builds the win tables first (10-15 s), so the wait is generous.
        t.wait_for(lambda g: g["number"] == 2 and g["version"] > 0, seconds=60)


def test_a_process_that_stops_driving_a_table_forgets_its_bots(
    two: tuple[TestClient, TestClient],
) -> None:
    """Bots are kept per game while a process drives them, not for ever."""
    a, b = two
    t = Table.create(a, "human", "random", "human")
    t.join(0, "Ann")
    t.join(2, "Bob")
    ta, tb = Table(a, t.code), Table(b, t.code)
    ta.tokens = tb.tokens = t.tokens
    while tb.game["status"] != "finished":
        for side in (ta, tb):
            side.settle()
        game = tb.game
        if game["status"] == "finished":
            break
        if game["current"] == 0:
            ta.play_turn(0)  # Ann plays on A, so A drives the bot after her
        elif game["current"] == 2:
            tb.play_turn(2)  # Bob ends each round on B
    for side in (ta, tb):
        side.settle()
    for client in (a, b):
        bots: dict[tuple[str, int, int], Any] = client.app.state.runner._bots  # type: ignore[attr-defined]
        assert not [key for key in bots if key[0] == t.code]
