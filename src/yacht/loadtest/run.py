"""Run a load test: open tables, seat a bot per seat (one WebSocket each), play for a while.

A bot plays each turn as roll, hold the most common face, roll, score the category with the
most points (4 actions), after a think time drawn uniformly from 0.5-1.5 times ``think``. It
acts only on the state its own socket received, naming that game number and version, so any
error the server sends back is a real error of the server (or of the network), never a race
of the bots. Seat 0 asks for a rematch whenever a game ends and every other seat agrees once it
sees the proposal (a rematch starts when every person at the table agreed), so tables keep
playing.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from yacht.loadtest import MAX_DURATION, MAX_SEATS, MAX_TABLES
from yacht.loadtest.scrape import compare, scrape
from yacht.loadtest.stats import Report, Stats
from yacht.loadtest.target import loopback_url, ws_url

__all__ = ["MAX_DURATION", "MAX_TABLES", "LoadConfig", "decide", "run"]

SETUP_CONCURRENCY = 32


@dataclass(frozen=True)
class LoadConfig:
    urls: tuple[str, ...]
    tables: int
    duration: float
    seats: int = 2
    think: float = 1.0  # mean seconds a bot waits before each action
    timeout: float = 10.0  # an action whose broadcast takes longer counts as an error
    seed: int = 0

    def checked(self) -> LoadConfig:
        """The same config with loopback base URLs; ValueError for anything out of bounds."""
        if not self.urls:
            raise ValueError("give at least one --url")
        if not 1 <= self.tables <= MAX_TABLES:
            raise ValueError(f"--tables must be 1..{MAX_TABLES} (got {self.tables})")
        if not 0 < self.duration <= MAX_DURATION:
            raise ValueError(f"--duration must be more than 0 and at most {MAX_DURATION:g} s")
        if not 1 <= self.seats <= MAX_SEATS:
            raise ValueError(f"--seats must be 1..{MAX_SEATS} (got {self.seats})")
        if not 0 <= self.think <= 60:
            raise ValueError(f"--think must be 0..60 seconds (got {self.think:g})")
        if not 0 < self.timeout <= 120:
            raise ValueError("--timeout must be more than 0 and at most 120 s")
        urls = tuple(dict.fromkeys(loopback_url(u) for u in self.urls))
        return LoadConfig(
            urls, self.tables, self.duration, self.seats, self.think, self.timeout, self.seed
        )


def decide(game: dict[str, Any]) -> dict[str, Any]:
    """The bot's next action on a game state (its turn): roll, hold, roll, score.

    >>> decide({"dice": None})
    {'kind': 'roll'}
    >>> decide({"dice": [2, 5, 5, 1, 5], "rolls_used": 1, "held": []})
    {'kind': 'hold', 'positions': [2, 3, 5]}
    >>> decide({"dice": [2, 5, 5, 1, 5], "rolls_used": 1, "held": [2, 3, 5]})
    {'kind': 'roll'}
    >>> decide({"dice": [2, 5, 5, 1, 5], "rolls_used": 2, "held": [2, 3, 5],
    ...         "potentials": {"fives": 15, "choice": 18, "ones": 1}})
    {'kind': 'score', 'category': 'choice'}
    """
    dice = game["dice"]
    if dice is None:
        return {"kind": "roll"}
    if game["rolls_used"] == 1:
        if game["held"]:
            return {"kind": "roll"}
        counts = Counter(dice)
        face = max(counts, key=lambda f: (counts[f], f))
        return {"kind": "hold", "positions": [i for i, d in enumerate(dice, 1) if d == face]}
    potentials: dict[str, int] = game["potentials"]
    category = max(sorted(potentials), key=lambda c: potentials[c])
    return {"kind": "score", "category": category}


@dataclass
class Table:
    code: str
    base: str  # the server the table was opened on
    tokens: dict[int, str] = field(default_factory=dict)
    sent: dict[tuple[int, int], tuple[float, int]] = field(default_factory=dict)
    rematched: set[tuple[int, int]] = field(default_factory=set)  # (game number, seat)


class Run:
    """One load run: shared clock, stats and the stop signal."""

    def __init__(self, config: LoadConfig) -> None:
        self.config = config
        self.stats = Stats()
        self.go = asyncio.Event()
        self.stopping = False
        self.window: tuple[float, float] = (0.0, 0.0)
        self.clients: dict[str, httpx.AsyncClient] = {}

    def measured(self, sent: float) -> bool:
        return self.window[0] <= sent < self.window[1]


class Seat:
    """One bot at one seat, on its own WebSocket."""

    def __init__(self, run: Run, table: Table, seat: int, base: str, rng: random.Random) -> None:
        self.run = run
        self.table = table
        self.seat = seat
        self.base = base
        self.rng = rng
        self.ws: ClientConnection | None = None
        self.revision = -1
        self.last: tuple[int, int] = (0, -1)  # (game number, version) of the newest state seen
        self.planned: tuple[int, int] | None = None  # the state we decided on
        self.pending: tuple[int, int] | None = None  # (number, version) our action will make
        self.pending_since = 0.0
        self.tasks: set[asyncio.Task[None]] = set()

    async def open(self) -> None:
        # Like a browser, the bot sends no keepalive pings of its own (it answers the server's):
        # with websockets' default of one every 20 s, 2,000 bots' pings cost the servers about
        # a hundredth of a core (idle: 0.05 -> 0.04 cores) that no player's page asks of them.
        self.ws = await connect(
            ws_url(self.base, self.table.code),
            open_timeout=self.run.config.timeout,
            ping_interval=None,
        )
        first = json.loads(await self.ws.recv())
        await self.ws.send(
            json.dumps(
                {
                    "type": "hello",
                    "seats": [{"seat": self.seat, "token": self.table.tokens[self.seat]}],
                }
            )
        )
        self.first_state = first["table"]

    async def play(self) -> None:
        assert self.ws is not None
        await self.run.go.wait()
        self.on_state(self.first_state, time.perf_counter())
        async for raw in self.ws:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "state":
                self.on_state(message["table"], now)
            elif kind == "error":
                self.run.stats.error(message.get("code", "error"), message.get("message", ""))
                self.pending = self.planned = None
                self.spawn(self.resync())

    def on_state(self, table: dict[str, Any], now: float) -> None:
        if table["revision"] < self.revision:
            return  # an older state that reached us late (published by another process)
        self.revision = table["revision"]
        game = table["game"]
        key = (game["number"], game["version"])
        if key != self.last:
            self.last = key
            sent = self.table.sent.get(key)
            if sent is not None and self.run.measured(sent[0]):
                if sent[1] == self.seat:
                    self.run.stats.own.append(now - sent[0])
                    self.run.stats.actions += 1
                else:
                    self.run.stats.others.append(now - sent[0])
        if self.pending is not None and key >= self.pending:
            self.pending = None
        if game["status"] == "finished":
            asked = self.seat == 0 or self.seat in (game.get("rematch") or {}).get("waiting", ())
            if asked and (game["number"], self.seat) not in self.table.rematched:
                self.table.rematched.add((game["number"], self.seat))
                if not self.run.stopping:
                    self.run.stats.games += self.seat == 0
                    self.spawn(self.rematch(game["number"]))
            return
        if game["status"] != "playing" or game["current"] != self.seat:
            return
        if self.pending is not None or self.planned == key or self.run.stopping:
            return
        self.planned = key
        self.spawn(self.act(key, decide(game)))  # (keeps no parsed state while it thinks)

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def act(self, key: tuple[int, int], action: dict[str, Any]) -> None:
        """Send ``action`` on game ``key`` = (number, version) after a think time."""
        think = self.run.config.think
        if think:
            await asyncio.sleep(think * self.rng.uniform(0.5, 1.5))
        if self.run.stopping or self.ws is None or self.last != key:
            return
        number, version = key
        message = {
            "type": "action",
            "seat": self.seat,
            "token": self.table.tokens[self.seat],
            "game": number,
            "version": version,
            "action": action,
        }
        after = (number, version + 1)
        self.pending, self.pending_since = after, time.perf_counter()
        self.table.sent[after] = (self.pending_since, self.seat)
        self.table.sent.pop((number, version - 8), None)  # keep it small
        await self.ws.send(json.dumps(message))

    async def rematch(self, number: int) -> None:
        assert self.ws is not None
        message = {
            "type": "rematch",
            "seat": self.seat,
            "token": self.table.tokens[self.seat],
            "game": number,
        }
        await self.ws.send(json.dumps(message))

    async def resync(self) -> None:
        """After an error or a lost broadcast: read the table over HTTP and go on from there."""
        try:
            r = await self.run.clients[self.base].get(f"/api/tables/{self.table.code}")
            r.raise_for_status()
        except httpx.HTTPError as e:
            self.run.stats.error("resync", str(e))
            return
        self.revision = -1
        self.on_state(r.json(), time.perf_counter())

    def check_timeout(self, now: float) -> None:
        if self.pending is not None and now - self.pending_since > self.run.config.timeout:
            self.run.stats.error(
                "timeout",
                f"table {self.table.code}: no broadcast of version {self.pending[1]} "
                f"within {self.run.config.timeout:g} s",
            )
            self.pending = self.planned = None
            self.spawn(self.resync())


async def _open_table(run: Run, index: int) -> Table:
    config = run.config
    base = config.urls[index % len(config.urls)]
    client = run.clients[base]
    r = await client.post("/api/tables", json={"seats": [{"kind": "human"}] * config.seats})
    r.raise_for_status()
    table = Table(code=r.json()["code"], base=base)
    for seat in range(config.seats):
        r = await client.post(
            f"/api/tables/{table.code}/join", json={"seat": seat, "name": f"Bot {seat + 1}"}
        )
        r.raise_for_status()
        table.tokens[seat] = r.json()["token"]
    return table


async def _setup(run: Run) -> list[Seat]:
    config = run.config
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    master = random.Random(config.seed)

    async def one(index: int) -> list[Seat]:
        async with gate:
            table = await _open_table(run, index)
            seats = []
            for seat in range(config.seats):
                base = config.urls[(index + seat) % len(config.urls)]
                player = Seat(run, table, seat, base, random.Random(master.random()))
                await player.open()
                seats.append(player)
            return seats

    groups = await asyncio.gather(*(one(i) for i in range(config.tables)))
    return [seat for group in groups for seat in group]


async def _watch(run: Run, seats: list[Seat]) -> None:
    while True:
        await asyncio.sleep(0.5)
        now = time.perf_counter()
        for seat in seats:
            seat.check_timeout(now)


async def run(config: LoadConfig) -> Report:
    """Play ``config.tables`` tables for ``config.duration`` seconds and report."""
    config = config.checked()
    state = Run(config)
    limits = httpx.Limits(max_connections=SETUP_CONCURRENCY * 2)
    for base in config.urls:
        state.clients[base] = httpx.AsyncClient(
            base_url=base, timeout=config.timeout, limits=limits
        )
    seats: list[Seat] = []
    try:
        start = time.perf_counter()
        seats = await _setup(state)
        setup = time.perf_counter() - start
        # No garbage collection while the clock runs (at most MAX_DURATION): with 1,000 tables
        # its passes paused this process, and so every latency it measures, for 20-230 ms
        # every few seconds. What was set up is frozen first, the rest collected at the end.
        before = {base: await scrape(client) for base, client in state.clients.items()}
        gc.collect()
        gc.freeze()
        gc.disable()
        players = [asyncio.create_task(s.play()) for s in seats]
        watch = asyncio.create_task(_watch(state, seats))
        begin = time.perf_counter()
        state.window = (begin, begin + config.duration)
        state.go.set()
        await asyncio.sleep(config.duration)
        state.stopping = True
        grace = time.perf_counter() + config.timeout
        while any(s.pending for s in seats) and time.perf_counter() < grace:
            await asyncio.sleep(0.05)
        after = {base: await scrape(client) for base, client in state.clients.items()}
        watch.cancel()
        for s in seats:
            if s.ws is not None:
                await s.ws.close()
        results = await asyncio.gather(*players, watch, return_exceptions=True)
        for result in results:
            if isinstance(result, Exception) and not isinstance(result, asyncio.CancelledError):
                state.stats.error("connection", repr(result))
        for s in seats:
            for task in list(s.tasks):
                task.cancel()
        servers = {base: compare(before[base], after[base]) for base in config.urls}
        return Report(
            list(config.urls),
            config.tables,
            config.seats,
            config.think,
            config.duration,
            setup,
            state.stats,
            servers,
        )
    finally:
        for s in seats:
            if s.ws is not None:
                await s.ws.close()
        for client in state.clients.values():
            await client.aclose()
        gc.enable()
        gc.unfreeze()
