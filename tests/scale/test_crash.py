"""SIGKILL a server process in the middle of many games, start it again: every action a player
was told about is stored, and every game goes on to its end.

Two ``yacht serve`` processes share PostgreSQL and Redis; every table has one player on each.
An action is *acknowledged* when its player's own socket receives the state that contains it.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, WebSocketException

from yacht.game import Game
from yacht.loadtest.target import ws_url
from yacht.web.app import create_app
from yacht.web.bus.broadcast import LocalBroadcaster
from yacht.web.bus.redis import RedisBroadcaster
from yacht.web.storage.store import Store

from .client import action_message, next_action, open_table, table_state
from .conftest import Cluster
from .servers import Server
from .services import Services, fresh_database

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TABLES = 16
MOVES = 2 * 2 * 12  # two players, roll and score each round
KILL_AFTER = 0.35  # of all moves acknowledged


@pytest.fixture
def crash_cluster(services: Services, tmp_path: Path) -> Iterator[Cluster]:
    with fresh_database(services.postgres) as url:
        a = Server(url, services.redis, tmp_path / "a.log").start()
        b = Server(url, services.redis, tmp_path / "b.log").start()
        try:
            yield Cluster(a, b, url)
        finally:
            a.stop()
            b.stop()


@dataclass
class Player:
    """One seat on one server: plays whenever its socket says it is its turn, reconnects."""

    code: str
    seat: int
    token: str
    server: Server
    acked: dict[tuple[str, int, int], dict[str, Any]]
    rng: random.Random
    revision: int = -1
    sent: tuple[int, int] | None = None  # (game number, version) our action was made on
    finished: bool = False
    reconnects: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)

    async def play(self) -> None:
        while not self.finished:
            try:
                async with connect(ws_url(self.server.url, self.code), open_timeout=5) as ws:
                    self.revision, self.sent = -1, None  # a move lost in the crash is made again
                    async for raw in ws:
                        message = json.loads(raw)
                        if message["type"] == "error":
                            self.errors.append(message)
                            self.sent = None
                        elif message["type"] == "state":
                            action = self.on_state(message["table"])
                            if action is not None:
                                await asyncio.sleep(self.rng.uniform(0.002, 0.02))
                                await ws.send(json.dumps(action))
                        if self.finished:
                            return
            except (OSError, WebSocketException, InvalidHandshake, TimeoutError):
                self.reconnects += 1
                await asyncio.sleep(0.1)  # the process is down: try again until it is back

    def on_state(self, table: dict[str, Any]) -> dict[str, Any] | None:
        if table["revision"] < self.revision:
            return None
        self.revision = table["revision"]
        game = table["game"]
        for event in game["recent"]:  # our own moves in this state are acknowledged now
            if event["seat"] == self.seat:
                self.acked[(self.code, game["number"], event["version"])] = event
        if game["status"] == "finished":
            self.finished = True
            return None
        key = (game["number"], game["version"])
        if game["current"] != self.seat or self.sent == key:
            return None
        self.sent = key
        return {
            "type": "action",
            "seat": self.seat,
            "token": self.token,
            "game": game["number"],
            "version": game["version"],
            "action": next_action(game),
        }


def stored(store: Store, code: str) -> Game:
    snap = store.load(code)
    assert snap is not None and snap.game.state is not None
    return Game.from_json(snap.game.state)  # replays every stored event through the rules


def check_acknowledged(store: Store, acked: dict[tuple[str, int, int], dict[str, Any]]) -> None:
    games = {code: stored(store, code) for code, _, _ in acked}
    for (code, _, version), event in acked.items():
        game = games[code]
        assert game.version >= version, f"{code}: acknowledged version {version} is lost"
        kept = game.events[version - 1]
        assert (kept.player, str(kept.action)) == (event["seat"], event["action"]), code
        assert list(kept.dice or []) == (event["dice"] or []) and kept.points == event["points"]


async def test_sigkill_in_the_middle_of_many_games_loses_no_acknowledged_action(
    crash_cluster: Cluster,
) -> None:
    a, b = crash_cluster.a, crash_cluster.b
    acked: dict[tuple[str, int, int], dict[str, Any]] = {}
    players: list[Player] = []
    with httpx.Client(base_url=b.url) as client:
        for i in range(TABLES):
            code, tokens = open_table(client, 2)
            servers = (a, b) if i % 2 == 0 else (b, a)
            for seat in (0, 1):
                rng = random.Random(i * 2 + seat)
                players.append(Player(code, seat, tokens[seat], servers[seat], acked, rng))
    store = Store(crash_cluster.database)
    try:
        tasks = [asyncio.create_task(p.play()) for p in players]
        while len(acked) < KILL_AFTER * TABLES * MOVES:
            await asyncio.sleep(0.01)
        a.kill()  # SIGKILL while its players are sending moves
        at_kill = dict(acked)
        await asyncio.to_thread(check_acknowledged, store, at_kill)
        async with httpx.AsyncClient() as http:  # the other process goes on serving
            assert (await http.get(f"{b.url}/health")).json()["status"] == "ok"
        await asyncio.sleep(0.5)
        await asyncio.to_thread(a.start)
        _, stuck = await asyncio.wait(tasks, timeout=120)
        assert not stuck, [
            (p.code, p.seat, p.server.port, p.revision, stored(store, p.code).version)
            for p, t in zip(players, tasks, strict=True)
            if t in stuck
        ]
        await asyncio.to_thread(check_acknowledged, store, acked)
        for code in {p.code for p in players}:
            game = await asyncio.to_thread(stored, store, code)
            assert game.finished and game.version == MOVES, code  # every game went on to the end
        assert 0 < len(at_kill) < TABLES * MOVES  # the kill came in the middle of the games
        assert len(acked) == TABLES * MOVES
        assert any(p.reconnects for p in players if p.server is a)
        assert [e for p in players for e in p.errors if e["code"] != "stale_version"] == []
        assert b.errors() == []
    finally:
        store.close()


class Mute:
    """A broadcaster that stores nothing and tells no one: a process killed right after its
    commit and before its announcement."""

    async def publish(self, channel: str, message: str, note: str | None = None) -> None:
        return None

    def on_note(self, handler: Any) -> None:
        return None

    def subscribe(self, channel: str) -> Any:
        return LocalBroadcaster().subscribe(channel)


def test_a_move_stored_but_never_announced_reaches_everyone_when_its_process_restarts(
    pg_url: str, services: Services, redis_prefix: str
) -> None:
    def bus() -> RedisBroadcaster:
        return RedisBroadcaster(services.redis, prefix=redis_prefix)

    with TestClient(create_app(pg_url, broadcaster=bus())) as other:
        code, tokens = open_table(other, 2)
        with other.websocket_connect(f"/ws/tables/{code}") as bob:
            assert bob.receive_json()["table"]["game"]["version"] == 0
            with TestClient(create_app(pg_url, broadcaster=Mute())) as dying:
                game = table_state(dying, code)["game"]
                r = dying.post(f"/api/tables/{code}/actions", json=action_message(game, tokens))
                assert r.status_code == 200  # stored; nobody was told
            with TestClient(create_app(pg_url, broadcaster=bus())):  # the same process, again
                versions = []
                for _ in range(50):  # ping until the announcement has come (or 5 s passed)
                    bob.send_json({"type": "ping"})
                    while (message := bob.receive_json())["type"] != "pong":
                        versions.append(message["table"]["game"]["version"])
                    if versions:
                        break
                    time.sleep(0.1)
                assert versions == [1]
