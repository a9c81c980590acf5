"""Shared helpers of the web tests: a deterministic app and a thin client for one table."""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient, WebSocketTestSession

from yacht.web.app import create_app
from yacht.web.settings import Settings


def seed_maker(start: int = 0) -> Callable[[], str]:
    """Secret seeds 0, 1, 2, ... hashed to 64 hex digits: games repeat from run to run."""
    counter: Iterator[int] = itertools.count(start)
    return lambda: hashlib.sha256(f"test-seed-{next(counter)}".encode()).hexdigest()


def make_app(db: Path, *, bot_delay: float = 0.0, seed_start: int = 0) -> FastAPI:
    """An app on an SQLite file, with repeatable seeds, no bot pause and no background
    building of the win tables (a clubhouse table would start a 30 s build)."""
    return create_app(
        f"sqlite:///{db}",
        settings=Settings(prepare_tables=False),
        seeds=seed_maker(seed_start),
        bot_delay=bot_delay,
    )


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Table:
    """One table seen through the REST API."""

    def __init__(self, client: TestClient, code: str) -> None:
        self.client = client
        self.code = code
        self.tokens: dict[int, str] = {}

    @classmethod
    def create(cls, client: TestClient, *seats: str, **options: Any) -> Table:
        """Seats are "human" or a bot level."""
        specs = [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats]
        r = client.post("/api/tables", json={"seats": specs, **options})
        assert r.status_code == 201, r.text
        return cls(client, r.json()["code"])

    def state(self) -> dict[str, Any]:
        r = self.client.get(f"/api/tables/{self.code}")
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    @property
    def game(self) -> dict[str, Any]:
        game: dict[str, Any] = self.state()["game"]
        return game

    def join(self, seat: int, name: str) -> str:
        r = self.client.post(f"/api/tables/{self.code}/join", json={"seat": seat, "name": name})
        assert r.status_code == 200, r.text
        self.tokens[seat] = r.json()["token"]
        return self.tokens[seat]

    def message(self, who: int, what: dict[str, Any], **overrides: Any) -> dict[str, Any]:
        game = self.game
        msg = {
            "type": "action",
            "seat": who,
            "token": self.tokens.get(who),
            "game": game["number"],
            "version": game["version"],
            "action": what,
        }
        msg.update(overrides)
        return msg

    def post(self, path: str, body: dict[str, Any]) -> Any:
        return self.client.post(f"/api/tables/{self.code}/{path}", json=body)

    def act(self, who: int, what: dict[str, Any], **overrides: Any) -> Any:
        return self.post("actions", self.message(who, what, **overrides))

    def ok(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        r = self.act(seat, action)
        assert r.status_code == 200, r.text
        game: dict[str, Any] = r.json()["game"]
        return game

    def settle(self) -> None:
        """Wait until the server has nothing left to do (bots moved, review written)."""
        runner = self.client.app.state.runner  # type: ignore[attr-defined]
        portal = self.client.portal
        assert portal is not None
        portal.call(runner.idle)

    def wait_for(self, done: Callable[[dict[str, Any]], bool], seconds: float = 10) -> None:
        """Poll the game until ``done(game)`` (for server moves that come with timers)."""
        deadline = time.monotonic() + seconds
        while not done(self.game):
            assert time.monotonic() < deadline, "the server did not move in time"
            time.sleep(0.02)

    def play_turn(self, seat: int) -> dict[str, Any]:
        """Roll once (if a roll is left: a bot may have played part of the turn) and score
        the first open category."""
        game = self.game
        if game["rolls_left"] > 0:
            game = self.ok(seat, {"kind": "roll"})
        category = next(iter(game["potentials"]))
        return self.ok(seat, {"kind": "score", "category": category})

    def play_to_end(self) -> dict[str, Any]:
        """Play every human turn (bots move by themselves) until the game is over."""
        while True:
            self.settle()
            game = self.game
            if game["status"] == "finished":
                return game
            self.play_turn(game["current"])


class AnnSeat:
    """Ann's seat at a table against the medium bot (and ``more`` seats), played through the
    REST API of a live server (``httpx``); Ann gives a seed with her join, as the page does."""

    def __init__(self, http: httpx.Client, *more: dict[str, str], start: str = "seat") -> None:
        self.http = http
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "medium"}, *more]
        body = {"seats": seats, "start": start}
        self.code: str = http.post("/api/tables", json=body).json()["code"]
        ann = {"seat": 0, "name": "Ann", "seed": f"ann-{self.code}"}
        joined = http.post(f"/api/tables/{self.code}/join", json=ann)
        self.token: str = joined.json()["token"]

    def game(self) -> dict[str, Any]:
        game: dict[str, Any] = self.http.get(f"/api/tables/{self.code}").json()["game"]
        return game

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        g = self.game()
        body = {"type": "action", "seat": 0, "token": self.token, "game": g["number"]}
        r = self.http.post(
            f"/api/tables/{self.code}/actions",
            json={**body, "version": g["version"], "action": action},
        )
        assert r.status_code == 200, r.text
        game: dict[str, Any] = r.json()["game"]
        return game

    def wait(self, done: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 60
        while not done(game := self.game()):
            assert time.monotonic() < deadline, "the bot or the review did not come"
            time.sleep(0.05)
        return game

    def play_turns(self, turns: int) -> None:
        """Ann's next ``turns`` turns: one roll, then the best box by points."""
        for _ in range(turns):
            game = self.wait(lambda g: g["current"] == 0 or g["status"] == "finished")
            if game["status"] == "finished":
                return
            game = self.act({"kind": "roll"})
            best = max(game["potentials"].items(), key=lambda item: item[1])[0]
            self.act({"kind": "score", "category": best})


def until(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of a type, skipping others (e.g. presence updates)."""
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def sqlite_value(db: Path, sql: str) -> Any:
    """The one value a query returns from a test server's SQLite database."""
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        value = c.execute(text(sql)).scalar_one()
    engine.dispose()
    return value
