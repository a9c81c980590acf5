"""The server survives its database and Redis going away, on a PostgreSQL and a Redis of the
test's own (the shared ones are never touched): two ``yacht serve`` processes share tables
through them while tables of bots play and a scripted person plays over WebSockets; then
PostgreSQL is restarted, stopped for 10 s, Redis restarted, stopped for 10 s.

Each time: no acknowledged action is lost (a person's action is acknowledged when their own
socket gets a state that holds it), no HTTP 500 (503 with ``Retry-After`` while the database is
down), no socket closes, every table (the bots' too) moves again once the service is back (60 s
allowed; the seconds each took are printed), the sockets of the other process are sent the
current state when Redis is back, and the log says it in a few lines, not one per request.
``benchmarks/outage.py`` repeats these outages and prints the seconds to recover.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from yacht.game import Game
from yacht.loadtest.target import ws_url
from yacht.web.storage.models import GameRow

from .client import next_action
from .ownservices import OwnPostgres, OwnRedis, own_postgres, own_redis
from .servers import Server

pytestmark = [pytest.mark.services, pytest.mark.slow]

OUTAGE = 10.0  # seconds a stopped service stays down
RECOVER = 60.0  # seconds a table may take to move again once the service is back
BOT_TABLES = 2  # per server process
BOTS = 3  # seats of each bot table (a game long enough to span an outage)
LOG_LINES = 12  # warnings and worse one process may log for one outage and its recovery


@dataclass(frozen=True)
class Stack:
    postgres: OwnPostgres
    redis: OwnRedis
    a: Server
    b: Server
    database: str


@contextmanager
def running_stack(logs: Path) -> Iterator[Stack]:
    """A PostgreSQL and a Redis of their own, and two ``yacht serve`` processes on them."""
    with own_postgres() as postgres, own_redis() as redis:
        # bots move often; the tables of bots of every outage may go on together
        env = {
            "YACHT_BOT_DELAY": "0.3",
            "YACHT_BOT_TABLES_PER_CLIENT": "1000",
            "YACHT_BOT_TABLES_TOTAL": "1000",
        }
        a = Server(postgres.url, redis.url, logs / "a.log", env=env).start(timeout=120)
        try:
            b = Server(postgres.url, redis.url, logs / "b.log", env=env).start(timeout=120)
            try:
                yield Stack(postgres, redis, a, b, postgres.url)
            finally:
                b.stop()
        finally:
            a.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("outages")) as running:
        yield running


def outages(stack: Stack) -> dict[str, Callable[[], Awaitable[None]]]:
    """Each outage the module names, plainly (the benchmark repeats them)."""

    async def postgres_restart() -> None:
        await asyncio.to_thread(stack.postgres.restart)

    async def postgres_down() -> None:
        await asyncio.to_thread(stack.postgres.stop)
        try:
            await keep_going(OUTAGE)
        finally:
            await asyncio.to_thread(stack.postgres.start)

    async def redis_restart() -> None:
        await asyncio.to_thread(stack.redis.restart)

    async def redis_down() -> None:
        await asyncio.to_thread(stack.redis.stop)
        try:
            await keep_going(OUTAGE)
        finally:
            await asyncio.to_thread(stack.redis.start)

    return {
        "postgres restart": postgres_restart,
        "postgres down 10 s": postgres_down,
        "redis restart": redis_restart,
        "redis down 10 s": redis_down,
    }


@dataclass
class Player:
    """One seat over a WebSocket: plays whenever the state says it is its turn; an action
    refused as ``unavailable`` is sent again a moment later (as a person clicks again)."""

    server: Server
    code: str
    seat: int
    token: str
    acked: dict[tuple[str, int, int], dict[str, Any]]
    rng: random.Random
    revision: int = -1
    table: dict[str, Any] | None = None
    sent: tuple[int, int] | None = None
    closed: int = 0  # the socket closed under it (never should)
    refused: Counter[str] = field(default_factory=Counter)
    notices: list[dict[str, Any]] = field(default_factory=list)
    moved: float = 0.0  # time.monotonic() of its last acknowledged action

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                async with connect(ws_url(self.server.url, self.code), open_timeout=10) as ws:
                    self.revision, self.sent = -1, None
                    reader = asyncio.create_task(self._read(ws))
                    waiting = asyncio.create_task(stop.wait())
                    await asyncio.wait({reader, waiting}, return_when=asyncio.FIRST_COMPLETED)
                    reader.cancel()
                    waiting.cancel()
                    await asyncio.gather(reader, waiting, return_exceptions=True)
                    if stop.is_set():
                        return
            except (OSError, WebSocketException, TimeoutError):
                pass
            self.closed += 1
            await asyncio.sleep(0.2)

    async def _read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "notice":
                self.notices.append(message)
            elif message["type"] == "error":
                self.refused[message["code"]] += 1
                self.sent = None
                if message["code"] == "unavailable" and self.table is not None:
                    await asyncio.sleep(0.3)  # then click again
                    await self._act(ws, self.table)
            elif message["type"] == "state":
                table = message["table"]
                if table["revision"] < self.revision:
                    continue
                self.revision, self.table = table["revision"], table
                game = table["game"]
                for event in game["recent"]:
                    key = (self.code, game["number"], event["version"])
                    if event["seat"] == self.seat and key not in self.acked:
                        self.acked[key] = event
                        self.moved = time.monotonic()
                await self._act(ws, table)

    async def _act(self, ws: ClientConnection, table: dict[str, Any]) -> None:
        game = table["game"]
        if game["status"] == "finished":  # seat 0 proposes a rematch, seat 1 agrees
            asked = self.seat == 0 or self.seat in (game.get("rematch") or {}).get("waiting", ())
            if asked and self.sent != (game["number"], -1):
                self.sent = (game["number"], -1)
                await ws.send(json.dumps(
                    {"type": "rematch", "seat": self.seat, "token": self.token,
                     "game": game["number"]}
                ))  # fmt: skip
            return
        key = (game["number"], game["version"])
        if game["status"] != "playing" or game["current"] != self.seat or self.sent == key:
            return
        self.sent = key
        await asyncio.sleep(self.rng.uniform(0.05, 0.15))
        action = {"type": "action", "seat": self.seat, "token": self.token}
        action |= {"game": game["number"], "version": game["version"], "action": next_action(game)}
        await ws.send(json.dumps(action))


class Watcher:
    """A socket that only watches a table: the newest revision it was sent."""

    def __init__(self, server: Server, code: str) -> None:
        self.server, self.code = server, code
        self.revision = -1
        self.closed = 0
        self.notices: list[dict[str, Any]] = []

    async def watch(self, stop: asyncio.Event) -> None:
        try:
            async with connect(ws_url(self.server.url, self.code), open_timeout=10) as ws:
                reader = asyncio.create_task(self._read(ws))
                await stop.wait()
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
                return
        except (OSError, WebSocketException, TimeoutError):
            self.closed += 1

    async def _read(self, ws: ClientConnection) -> None:
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state":
                self.revision = max(self.revision, message["table"]["revision"])
            elif message["type"] == "notice":
                self.notices.append(message)
        self.closed += 1


@dataclass
class Load:
    """Tables of bots on both processes, people playing two tables (one on process A only,
    watched from B; one with a seat on each), and REST requests counted by status."""

    stack: Stack
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    bots: dict[str, Server] = field(default_factory=dict)
    versions: dict[str, tuple[int, int, float]] = field(default_factory=dict)
    players: list[Player] = field(default_factory=list)
    watcher: Watcher | None = None
    acked: dict[tuple[str, int, int], dict[str, Any]] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    no_retry_after: int = 0
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    async def start(self, http: httpx.AsyncClient) -> None:
        a, b = self.stack.a, self.stack.b
        for server in (a, b):
            for _ in range(BOT_TABLES):
                spec = {"seats": [{"kind": "bot", "bot": "easy"}] * BOTS}
                r = await http.post(f"{server.url}/api/tables", json=spec)
                assert r.status_code == 201, r.text
                self.bots[r.json()["code"]] = server
        for i, servers in enumerate(((a, a), (a, b))):
            code, tokens = await open_people(http, a)
            for seat in (0, 1):
                rng = random.Random(10 * i + seat)
                player = Player(servers[seat], code, seat, tokens[seat], self.acked, rng)
                self.players.append(player)
            if i == 0:
                self.watcher = Watcher(b, code)
        self.tasks = [asyncio.create_task(p.play(self.stop)) for p in self.players]
        assert self.watcher is not None
        self.tasks.append(asyncio.create_task(self.watcher.watch(self.stop)))
        self.tasks.append(asyncio.create_task(self._poll(http)))

    async def _poll(self, http: httpx.AsyncClient) -> None:
        """Every table's version as its process serves it, and some reads of the lobby and the
        games, counted by status (what a browser asks meanwhile)."""
        while not self.stop.is_set():
            for code, server in self.bots.items():
                await self._get(http, f"{server.url}/api/tables/{code}", code)
            for server in (self.stack.a, self.stack.b):
                await self._get(http, f"{server.url}/api/games?limit=5", None)
                await self._get(http, f"{server.url}/api/tables", None)
            await asyncio.sleep(0.2)

    async def _get(self, http: httpx.AsyncClient, url: str, code: str | None) -> None:
        try:
            r = await http.get(url, timeout=10)
        except httpx.HTTPError:
            self.statuses[0] += 1  # no answer at all
            return
        self.statuses[r.status_code] += 1
        if r.status_code == 503 and "retry-after" not in r.headers:
            self.no_retry_after += 1
        if code is not None and r.status_code == 200:
            game = r.json()["game"]
            seen = (game["number"], game["version"])
            if seen != self.versions.get(code, (-1, -1, 0.0))[:2]:
                self.versions[code] = (*seen, time.monotonic())

    async def until(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"not within {timeout:g} s: {what}"
            await asyncio.sleep(0.05)

    def moved_since(self, moment: float) -> dict[str, float | None]:
        """Seconds after ``moment`` each table moved (None: not yet)."""
        seconds: dict[str, float | None] = {}
        for code in self.bots:
            when = self.versions.get(code, (0, 0, 0.0))[2]
            seconds[code] = when - moment if when > moment else None
        for player in self.players:
            if player.seat == 0:
                last = max(p.moved for p in self.players if p.code == player.code)
                seconds[player.code] = last - moment if last > moment else None
        return seconds

    async def finish(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def open_people(http: httpx.AsyncClient, server: Server) -> tuple[str, dict[int, str]]:
    r = await http.post(f"{server.url}/api/tables", json={"seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    tokens = {}
    for seat in (0, 1):
        body = {"seat": seat, "name": f"P{seat + 1}"}
        r = await http.post(f"{server.url}/api/tables/{code}/join", json=body)
        assert r.status_code == 200, r.text
        tokens[seat] = r.json()["token"]
    return code, tokens


def check_acknowledged(url: str, acked: dict[tuple[str, int, int], dict[str, Any]]) -> None:
    """Every acknowledged action is in its game as stored (rematches included)."""
    engine = create_engine(url)
    games: dict[tuple[str, int], Game] = {}
    try:
        with engine.connect() as c:
            for (code, number, version), event in sorted(acked.items()):
                if (code, number) not in games:
                    state = c.execute(
                        select(GameRow.state).where(
                            GameRow.table_code == code, GameRow.number == number
                        )
                    ).scalar_one()
                    games[code, number] = Game.from_json(state)
                game = games[code, number]
                assert game.version >= version, f"{code}: acknowledged {version} is lost"
                kept = game.events[version - 1]
                assert (kept.player, str(kept.action)) == (event["seat"], event["action"]), code
                assert list(kept.dice or []) == (event["dice"] or []), code
    finally:
        engine.dispose()


async def keep_going(seconds: float) -> None:
    """The outage itself: the load goes on (its tasks run) until the clock says it is over."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        await asyncio.sleep(min(0.25, left))


def warnings_since(server: Server, lines: int) -> list[dict[str, Any]]:
    return [r for r in server.records()[lines:] if r["level"] in ("warning", "error", "critical")]


async def live_through(
    stack: Stack, kind: str, outage: Callable[[], Awaitable[None]]
) -> dict[str, float]:
    """Run the load through ``outage``, check what the module docstring promises, and return
    the seconds each table took to move again once the service was back."""
    lines = {s.port: len(s.records()) for s in (stack.a, stack.b)}
    async with httpx.AsyncClient() as http:
        load = Load(stack)
        await load.start(http)
        try:
            # every table is moving before the outage
            await load.until(lambda: all(load.moved_since(0).values()), RECOVER, "a first move")
            await outage()
            back = time.monotonic()
            watcher = load.watcher
            assert watcher is not None
            if kind.startswith("redis"):  # B's watcher is sent A's newest state
                r = await http.get(f"{stack.a.url}/api/tables/{watcher.code}")
                newest = r.json()["revision"]
                await load.until(
                    lambda: watcher.revision >= newest,
                    RECOVER,
                    "the other process's socket resynced",
                )
                print(f"{kind}: B's socket resynced {time.monotonic() - back:.2f} s after")
            await load.until(
                lambda: all(s is not None for s in load.moved_since(back).values()),
                RECOVER,
                f"every table moving again after {kind}",
            )
            seconds = load.moved_since(back)
        finally:
            await load.finish()
    taken = ", ".join(f"{code} {s:.2f}" for code, s in sorted(seconds.items()) if s is not None)
    print(f"{kind}: seconds each table took to move again: {taken}")
    print(f"{kind}: HTTP statuses {dict(load.statuses)}; acknowledged actions {len(load.acked)}")
    await asyncio.to_thread(check_acknowledged, stack.database, load.acked)  # none lost
    assert {s for s in load.statuses if s >= 500} <= {503}, load.statuses  # never a 500
    assert load.no_retry_after == 0
    if kind.startswith("redis"):
        assert load.statuses[503] == 0  # Redis is not needed to answer
    assert [p.closed for p in load.players] == [0] * len(load.players)
    assert load.watcher is not None and load.watcher.closed == 0
    assert {code for p in load.players for code in p.refused} <= {"unavailable", "stale_version"}
    for server in (stack.a, stack.b):
        said = warnings_since(server, lines[server.port])
        print(f"{kind}: {server.url} logged {len(said)} warnings: {[r['message'] for r in said]}")
        assert len(said) <= LOG_LINES
        assert [r for r in said if r["level"] != "warning"] == []
    return {code: s for code, s in seconds.items() if s is not None}


async def test_a_postgres_restart_mid_load(stack: Stack) -> None:
    await live_through(stack, "postgres restart", outages(stack)["postgres restart"])


async def test_postgres_down_for_10_s(stack: Stack) -> None:
    seen: list[int] = []

    async def outage() -> None:
        await asyncio.to_thread(stack.postgres.stop)
        try:
            async with httpx.AsyncClient() as http:
                await keep_going(OUTAGE / 2)
                spec = {"seats": [{"kind": "bot", "bot": "easy"}]}
                r = await http.post(f"{stack.a.url}/api/tables", json=spec)
                seen.append(r.status_code)
                assert r.headers.get("retry-after"), r.headers
                assert r.json()["code"] == "unavailable"
                assert (await http.get(f"{stack.a.url}/readyz")).status_code == 503
                assert (await http.get(f"{stack.b.url}/livez")).status_code == 200
                await keep_going(OUTAGE / 2)
        finally:
            await asyncio.to_thread(stack.postgres.start)

    await live_through(stack, "postgres down 10 s", outage)
    assert seen == [503]


async def test_a_redis_restart_mid_load(stack: Stack) -> None:
    await live_through(stack, "redis restart", outages(stack)["redis restart"])


async def test_redis_down_for_10_s(stack: Stack) -> None:
    async def outage() -> None:
        await asyncio.to_thread(stack.redis.stop)
        try:
            async with httpx.AsyncClient() as http:
                await keep_going(OUTAGE / 2)
                for server in (stack.a, stack.b):  # each process stays in the balancer
                    r = await http.get(f"{server.url}/readyz")
                    assert r.status_code == 200 and r.json()["redis"] != "ok", r.text
                await keep_going(OUTAGE / 2)
        finally:
            await asyncio.to_thread(stack.redis.start)

    await live_through(stack, "redis down 10 s", outage)
