"""Each server process decides moves on its own snapshot of a table (no read, no replay of the
event log); another process changing the table makes that snapshot stale, and the revision
check must then make the move be decided again on the stored table. Two apps on one database
stand for two server processes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.dice import FairDice
from yacht.game import Game
from yacht.web.service.decisions import saved
from yacht.web.service.runner import needs_server
from yacht.web.storage.changes import Change
from yacht.web.storage.models import TableRow
from yacht.web.storage.snapshots import SnapshotCache, applied, caught_up
from yacht.web.storage.store import TableSnapshot

from .helpers import Table, make_app


@pytest.fixture
def two(db: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(make_app(db)) as a, TestClient(make_app(db, seed_start=100)) as b:
        yield a, b


def _action(t: Table, seat: int, version: int, action: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "action",
        "seat": seat,
        "token": t.tokens[seat],
        "game": 1,
        "version": version,
        "action": action,
    }


def _post(client: TestClient, t: Table, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{t.code}/actions", json=body)


def _cached_version(client: TestClient, code: str) -> int | None:
    entry = client.app.state.service.cached(code)  # type: ignore[attr-defined]
    return None if entry is None or entry[1] is None else int(entry[1].version)


def _started(a: TestClient) -> Table:
    t = Table.create(a, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    return t


def test_a_move_on_a_stale_snapshot_is_decided_again_on_the_stored_table(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    t = _started(a)
    rolled = _post(a, t, _action(t, 0, 0, {"kind": "roll"})).json()["game"]
    assert _cached_version(a, t.code) == 1
    held = _post(b, t, _action(t, 0, 1, {"kind": "hold", "positions": [1, 2]})).json()["game"]
    assert held["version"] == 2 and _cached_version(a, t.code) == 1  # A's snapshot is stale
    # On A's snapshot version 2 does not exist yet ("stale_version"): A must ask the database.
    r = _post(a, t, _action(t, 0, 2, {"kind": "roll"}))
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    assert game["version"] == 3 and game["held"] == [1, 2]
    assert game["dice"][:2] == rolled["dice"][:2]  # the held dice stayed
    assert t.client.get(f"/api/tables/{t.code}").json()["game"] == game
    assert b.get(f"/api/tables/{t.code}").json()["game"] == game


def test_a_move_legal_on_a_stale_snapshot_loses_the_race_and_changes_nothing(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    t = _started(a)
    _post(a, t, _action(t, 0, 0, {"kind": "roll"}))
    held = _post(b, t, _action(t, 0, 1, {"kind": "hold", "positions": [1, 2]})).json()["game"]
    # Decided on version 1, like B's hold: legal on A's stale snapshot, but the table moved on.
    late = _post(a, t, _action(t, 0, 1, {"kind": "hold", "positions": [3]}))
    assert late.status_code == 409 and late.json()["code"] == "stale_version"
    for client in (a, b):
        assert client.get(f"/api/tables/{t.code}").json()["game"] == held
    # A's snapshot is not left holding the refused hold: the next move builds on B's.
    game = _post(a, t, _action(t, 0, 2, {"kind": "roll"})).json()["game"]
    assert game["version"] == 3 and game["held"] == [1, 2]
    assert b.get(f"/api/tables/{t.code}").json()["game"] == game


def test_refused_moves_on_a_fresh_snapshot_leave_it_usable(client: TestClient) -> None:
    t = _started(client)
    before = _cached_version(client, t.code)
    r = t.act(1, {"kind": "roll"})  # not Bob's turn
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    assert _cached_version(client, t.code) == before
    game = t.ok(0, {"kind": "roll"})
    assert game["version"] == 1 and _cached_version(client, t.code) == 1
    t.state()  # a fresh read: its event-log JSON is not kept either (the engine is the game)
    service = client.app.state.service  # type: ignore[attr-defined]
    assert service.cached(t.code)[0].game.state is None


def test_the_server_drives_only_tables_that_need_it(client: TestClient) -> None:
    people = _started(client)
    people.ok(0, {"kind": "roll"})
    runner = client.app.state.runner  # type: ignore[attr-defined]
    service = client.app.state.service  # type: ignore[attr-defined]
    snap, game = service.cached(people.code)
    assert not needs_server(snap, game) and people.code not in runner._tasks
    bots = Table.create(client, "human", "greedy")
    bots.join(0, "Ann")
    bots.play_turn(0)
    bots.settle()  # the bot's turn was played by the server
    assert bots.game["current"] == 0 and len(bots.game["sheets"][1]) == 1
    timed = Table.create(client, "human", "human", turn_seconds=30)
    timed.join(0, "Ann")
    timed.join(1, "Bob")
    assert needs_server(*service.cached(timed.code)) and timed.code in runner._tasks


def test_the_cache_keeps_the_newest_revision_and_a_bounded_size(client: TestClient) -> None:
    t = _started(client)
    service = client.app.state.service  # type: ignore[attr-defined]
    snap, game = service.cached(t.code)
    cache = SnapshotCache(size=2)
    cache.put(snap, game)
    newer = applied(snap, snap.revision + 1, Change(seats={1: {"name": "Bea"}}))
    cache.put(newer, game)
    cache.put(snap, game)  # a read that started before the change and ended after it
    entry = cache.get(t.code)
    assert entry is not None and entry[0].revision == snap.revision + 1
    assert [s.name for s in entry[0].seats] == ["Ann", "Bea"]
    assert [s.name for s in snap.seats] == ["Ann", "Bob"]  # the old snapshot is untouched
    for other in ("X1", "X2"):  # two more tables: the least recently used one goes
        cache.put(TableSnapshot(TableRow(code=other, revision=1), (), snap.game), None)
    assert len(cache) == 2 and cache.get(t.code) is None


def _played(moves: int, seed: str = "a" * 64) -> Game:
    """A two-player game on fair dice after ``moves`` actions (roll, roll, score, ...)."""
    game = Game(["Ann", "Bob"], dice=FairDice(seed, "key"))
    for _ in range(moves):
        if game.rolls_used < 2:
            game.apply("roll")
        else:
            game.apply(next(a for a in game.legal_actions() if str(a).startswith("score")))
    return game


def test_a_stale_game_catches_up_with_only_the_new_events() -> None:
    later = _played(12)
    stale = Game.from_json(_played(5).to_json())
    moved = caught_up(stale, later.to_json())
    assert moved is stale and moved.to_json() == later.to_json()
    # it goes on exactly as the full replay would: the same dice from the same source
    replayed = Game.from_json(later.to_json())
    assert moved.apply("roll").dice == replayed.apply("roll").dice


def test_a_state_that_is_not_the_same_game_further_on_is_refused() -> None:
    stale = Game.from_json(_played(5).to_json())
    other = _played(12, seed="b" * 64).to_json()  # another game: its log differs
    assert caught_up(stale, other) is None
    tampered = _played(12).to_json()
    tampered["events"][8] = {**tampered["events"][8], "player": 1 - tampered["events"][8]["player"]}
    assert caught_up(Game.from_json(_played(5).to_json()), tampered) is None
    assert caught_up(Game.from_json(_played(12).to_json()), _played(5).to_json()) is None


def test_a_game_saved_a_move_at_a_time_is_saved_whole_and_earlier_saves_stay_as_they_were() -> None:
    game = Game(["Ann", "Bob"], dice=FairDice("s" * 64, "c"), undo=True)
    saves: list[tuple[dict[str, Any], str]] = []
    pairs = [("choice", "yacht"), ("choice", "yacht"), ("ones", "twos"), ("ones", "twos")]
    plan = [
        a
        for x, y in pairs
        for a in ("roll", "hold 1 2", "roll", f"score {x}", "undo", f"score {y}")
    ]
    for action in plan:
        game.apply(action)
        save = saved(game)
        assert save == game.to_json()
        saves.append((save, json.dumps(save)))
    # a later move never changed what an earlier save holds (they share the events' forms)
    assert all(json.dumps(save) == text for save, text in saves)
    # a log that is not the one saved before (a replay that failed half-way) is saved afresh
    game.events[-1] = game.events[0]
    assert saved(game) == game.to_json()
    del game.events[3:]
    assert saved(game) == game.to_json() and len(saved(game)["events"]) == 3
