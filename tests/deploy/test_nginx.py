"""A rolling restart behind the kit's nginx, over TLS, under the game's sub-path: two ``yacht
serve`` processes on PostgreSQL and Redis, tables of two people and tables of a person and a bot,
every person a scripted WebSocket client through nginx. Restart A (SIGTERM, start, wait until it
answers), then B, while the tables play: no acknowledged action is lost, every seat is back on a
socket and every table moves again after each restart, and nginx answers no request with a 502
("no live upstreams", the default ``max_fails`` after two restarts in a row).

An action is *acknowledged* when its player's own socket receives the state that contains it.
The tables play in stages (each up to a version the test sets) so that every restart happens with
games in the middle, whatever the speed of the machine.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake, WebSocketException

from scale.client import next_action, open_table
from scale.servers import Server
from scale.services import Services, fresh_database, start_services
from yacht.game import Game
from yacht.web.storage.store import Store

from .nginx import PREFIX, Nginx

pytestmark = pytest.mark.services

PEOPLE = 5  # tables of two people
WITH_BOT = 3  # tables of a person and a bot
MOVES = 2 * 2 * 12  # a game of two people: roll and score each round
FIRST = 6  # the version every table plays to before the first restart
STAGES = ((14, 20), (28, 34))  # per restart: the version played to while it lasts, then after it
ALLOWED = 60.0  # s for every seat to be back and every table to move after a restart


@dataclass
class Pace:
    """How far every table may play now; raising it wakes every player."""

    limit: int
    players: list[Player] = field(default_factory=list)

    def reached(self) -> bool:
        return all(p.version >= self.limit for p in self.players)

    def allow(self, limit: int) -> None:
        self.limit = limit
        for p in self.players:
            p.wake.set()


@dataclass
class Player:
    """One seat, on a socket through nginx: moves when the state says it is its turn and the
    pace allows, and comes back on a new socket whenever one closes."""

    url: str
    tls: ssl.SSLContext
    code: str
    seat: int
    token: str
    pace: Pace
    acked: dict[tuple[str, int, int], dict[str, Any]]
    table: dict[str, Any] | None = None
    sent: tuple[int, int] | None = None
    finished: bool = False
    drops: list[float] = field(default_factory=list)  # when a socket closed
    opens: list[float] = field(default_factory=list)  # when a socket's first state came
    errors: list[dict[str, Any]] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def connected(self) -> bool:
        return len(self.opens) > len(self.drops)

    @property
    def version(self) -> int:
        return -1 if self.table is None else int(self.table["game"]["version"])

    async def play(self) -> None:
        while not self.finished:
            try:
                async with connect(self.url, ssl=self.tls, open_timeout=10) as ws:
                    self.table, self.sent = None, None  # a move lost with the socket goes again
                    reader = asyncio.create_task(self.read(ws))
                    while not (self.finished or reader.done()):
                        await self.wake.wait()
                        self.wake.clear()
                        action = self.decide()
                        if action is not None:
                            await ws.send(json.dumps(action))
                    await ws.close()
                    await reader
            except (OSError, WebSocketException, InvalidHandshake, TimeoutError):
                pass
            if not self.finished:
                await asyncio.sleep(0.05)  # nginx had no process for us yet: ask again

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "error":
                    self.errors.append(message)
                    self.sent = None
                elif message["type"] == "state":
                    if self.table is None:
                        self.opens.append(time.monotonic())
                    self.note(message["table"])
                self.wake.set()
        except WebSocketException:
            pass
        finally:
            if self.table is not None or len(self.opens) > len(self.drops):
                self.drops.append(time.monotonic())
            self.wake.set()

    def note(self, table: dict[str, Any]) -> None:
        if self.table is not None and table["revision"] < self.table["revision"]:
            return
        self.table = table
        game = table["game"]
        for event in game["recent"]:  # our own moves in this state are acknowledged now
            if event["seat"] == self.seat:
                self.acked[(self.code, game["number"], event["version"])] = event
        self.finished = game["status"] == "finished"

    def decide(self) -> dict[str, Any] | None:
        if self.table is None or self.finished:
            return None
        game = self.table["game"]
        key = (game["number"], game["version"])
        if game["current"] != self.seat or self.sent == key or game["version"] >= self.pace.limit:
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


def check_acknowledged(database: str, acked: dict[tuple[str, int, int], dict[str, Any]]) -> None:
    """Every acknowledged action is stored as it was acknowledged (the rules replayed)."""
    store = Store(database)
    try:
        games = {}
        for code in {code for code, _, _ in acked}:
            snap = store.load(code)
            assert snap is not None and snap.game.state is not None
            games[code] = Game.from_json(snap.game.state)
        for (code, _, version), event in acked.items():
            game = games[code]
            assert game.version >= version, f"{code}: acknowledged version {version} is lost"
            kept = game.events[version - 1]
            assert (kept.player, str(kept.action)) == (event["seat"], event["action"]), code
            assert list(kept.dice or []) == (event["dice"] or []) and kept.points == event["points"]
    finally:
        store.close()


@dataclass(frozen=True)
class Site:
    a: Server
    b: Server
    nginx: Nginx
    database: str


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    services: Services = start_services()
    monkeypatch.setenv("YACHT_ROOT_PATH", PREFIX)
    monkeypatch.setenv("YACHT_BOT_DELAY", "0.05")
    with fresh_database(services.postgres) as url:
        a = Server(url, services.redis, tmp_path / "a.log")
        b = Server(url, services.redis, tmp_path / "b.log")
        nginx = Nginx(tmp_path / "nginx", (a.port, b.port))
        try:
            a.start(120)
            b.start(120)
            yield Site(a, b, nginx.start(), url)
        finally:
            nginx.stop()
            a.stop()
            b.stop()


async def until(condition: Any, what: str, timeout: float = ALLOWED) -> float:
    """Wait for ``condition()`` (checked whenever a socket hears something); seconds waited."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < timeout, f"not within {timeout:g} s: {what}"
        await asyncio.sleep(0.02)
    return time.monotonic() - start


async def restart(server: Server) -> tuple[float, float]:
    """SIGTERM, wait for the exit, start again and wait until it answers: seconds from the
    SIGTERM to the exit, and to the answer."""
    assert server.process is not None
    began = time.monotonic()
    server.process.terminate()
    await asyncio.to_thread(server.process.wait, 30)
    stopped = time.monotonic() - began
    await asyncio.to_thread(server.start, 120)  # a loaded machine takes its time to start
    return stopped, time.monotonic() - began


async def test_a_rolling_restart_behind_nginx_loses_nothing_and_every_seat_comes_back(
    site: Site,
) -> None:
    tls = ssl.create_default_context(cafile=site.nginx.cert)
    ws_base = f"wss://127.0.0.1:{site.nginx.https}{PREFIX}/ws/tables/"
    acked: dict[tuple[str, int, int], dict[str, Any]] = {}
    pace = Pace(FIRST)
    with httpx.Client(base_url=site.nginx.url, verify=tls) as http:
        seats: list[tuple[str, int, str]] = []
        for _ in range(PEOPLE):
            code, tokens = open_table(http, 2)
            seats += [(code, seat, token) for seat, token in tokens.items()]
        for _ in range(WITH_BOT):
            spec = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
            r = http.post("/api/tables", json={"seats": spec})
            assert r.status_code == 201, r.text
            code = r.json()["code"]
            r = http.post(f"/api/tables/{code}/join", json={"seat": 0, "name": "Ann"})
            assert r.status_code == 200, r.text
            seats.append((code, 0, r.json()["token"]))
    players = [Player(ws_base + c, tls, c, s, t, pace, acked) for c, s, t in seats]
    pace.players = players
    tasks = [asyncio.create_task(p.play()) for p in players]
    try:
        await until(pace.reached, "the first stage")
        for server, (during, after) in zip((site.a, site.b), STAGES, strict=True):
            name = "A" if server is site.a else "B"
            before = len(acked)
            drops = [len(p.drops) for p in players]
            pace.allow(during)  # the tables play on while the process goes down and comes back
            began = time.monotonic()
            stopped, answering = await restart(server)
            dropped = [p for p, n in zip(players, drops, strict=True) if len(p.drops) > n]
            assert dropped, f"restarting {name} closed no socket: nginx sent none to it"
            await until(lambda: all(p.connected for p in players), "every seat back on a socket")
            back = max(p.opens[-1] for p in dropped) - began
            await until(pace.reached, "every table moving")
            pace.allow(after)  # and every table moves with both processes up again
            moved = await until(pace.reached, "every table moving after the restart")
            print(
                f"\nrestart {name}: stopped {stopped:.2f} s after SIGTERM, answering again "
                f"after {answering:.2f} s; {len(dropped)} of {len(players)} sockets dropped, "
                f"every seat back on a socket {back:.2f} s after SIGTERM; every table "
                f"{after - during} versions on in {moved:.2f} s after the restart; "
                f"{len(acked) - before} actions acknowledged"
            )
            await asyncio.to_thread(check_acknowledged, site.database, dict(acked))
        pace.allow(10_000)
        _, stuck = await asyncio.wait(tasks, timeout=120)
        assert not stuck, [(p.code, p.seat, p.version) for p in players if not p.finished]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.to_thread(check_acknowledged, site.database, acked)
    assert all(p.finished for p in players)  # every game to its end
    assert len([key for key in acked if key[0] in {p.code for p in players[: 2 * PEOPLE]}]) == (
        PEOPLE * MOVES
    )
    assert [e for p in players for e in p.errors if e["code"] != "stale_version"] == []
    log = (site.nginx.folder / "access.log").read_text().splitlines()
    statuses = [line.split('"')[2].split()[0] for line in log]
    assert statuses and not [s for s in statuses if s.startswith("5")], log
    assert not [e for e in site.nginx.errors() if "no live upstreams" in e]
    assert site.a.errors() == [] and site.b.errors() == []
