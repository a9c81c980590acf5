"""Hints worked out in a worker process never hold up a move: a hold made while a hint is being
computed there is accepted while the hint is still on its way; and on a fresh server (a worker
of its own, the tables prepared before serving) the first hint is answered."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.game import TurnView
from yacht.web.protocol.messages import HintMessage
from yacht.web.service import bots, hints
from yacht.web.service.hints import HintDesk
from yacht.web.service.workers import Workers

from .helpers import Table, make_app

GENEROUS = 600  # seconds: a loaded machine may build tables first


def held_hint(started: Any, go: Any, view: TurnView) -> dict[str, Any]:
    """A hint that says it has started, then waits for the test's word (in the worker)."""
    started.set()
    go.wait(GENEROUS)
    return bots.hint_reply(view)


def test_a_move_is_accepted_while_a_hint_is_computed_in_the_worker(client: TestClient) -> None:
    spawn = multiprocessing.get_context("spawn")
    with spawn.Manager() as manager, ProcessPoolExecutor(1, mp_context=spawn) as worker:
        started, go = manager.Event(), manager.Event()
        service: Any = client.app.state.service  # type: ignore[attr-defined]
        service.hints = HintDesk(partial(held_hint, started, go), executor=worker)
        t = Table.create(client, "human")
        t.join(0, "Ann")
        t.ok(0, {"kind": "roll"})
        portal = client.portal
        assert portal is not None

        async def ask() -> Any:
            return await service.hint(t.code, HintMessage(seat=0, token=t.tokens[0]))

        pending = portal.start_task_soon(ask)
        assert started.wait(GENEROUS)  # the worker is computing the hint
        t.ok(0, {"kind": "hold", "positions": [1]})  # acknowledged...
        assert not pending.done()  # ...while the hint is still being worked out
        go.set()
        reply = pending.result(GENEROUS)
    assert reply.options and reply.version == 1  # the position it was asked at


def test_the_first_hint_on_a_fresh_server_is_answered(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh = Workers()  # a worker process of this server's own: nothing in its memory yet
    monkeypatch.setattr(bots, "workers", lambda: fresh)
    monkeypatch.setattr(hints, "workers", lambda: fresh)
    monkeypatch.setattr(bots, "_TABLES", [])
    try:
        with TestClient(make_app(db)) as client:
            assert not bots.tables_ready()
            bots.prepare_tables(("traditional",)).result(GENEROUS)
            assert bots.tables_ready()
            t = Table.create(client, "human", "human")
            t.join(0, "Ann")
            t.join(1, "Bob")
            t.ok(0, {"kind": "roll"})
            r = t.post("hint", {"type": "hint", "seat": 0, "token": t.tokens[0]})
        assert r.status_code == 200, r.text
        options = r.json()["options"]
        assert options and all(0 <= o["win_probability"] <= 1 for o in options)
    finally:
        fresh.close()
