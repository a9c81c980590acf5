"""The per-client limits hold across processes: two ``yacht serve`` behind one client address
(X-Forwarded-For from 127.0.0.1, the proxy uvicorn trusts) give it the documented quota in
total, not twice; with Redis stopped each gives its share; a killed process's connection slots
come back when its entry in Redis expires. On a redis-server of the test's own."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from yacht.loadtest.target import ws_url
from yacht.web.edge.limits import QUOTAS
from yacht.web.edge.serving import MAX_CONNECTIONS

from .redis_servers import PASSWORD, RedisServer, redis_server
from .servers import Server

pytestmark = pytest.mark.services

START = 120.0  # s a process may take to start on a loaded machine
TTL = 2.0  # s a process's slots outlive it (YACHT_LIMITS_TTL): short, so the test is short
JOIN = QUOTAS["join"]


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    with redis_server() as server:
        yield server


@contextmanager
def two_servers(pg_url: str, redis: RedisServer, logs: Path) -> Iterator[tuple[Server, Server]]:
    url = f"redis://:{quote(PASSWORD, safe='')}@127.0.0.1:{redis.port}/0"
    # the connection slots are what is tested: not the rate of opening sockets (30 a minute)
    env = {"YACHT_LIMITS_TTL": str(TTL), "YACHT_CONNECTS_PER_MINUTE": "1000"}
    a = Server(pg_url, url, logs / "a.log", env=env)
    b = Server(pg_url, url, logs / "b.log", env=env)
    try:
        a.start(START)
        b.start(START)
        yield a, b
    finally:
        b.stop()
        a.stop()


def until(what: str, check: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait for ``check`` to hold (polling; no fixed sleep)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not within {timeout:g} s: {what}"
        time.sleep(0.05)


def processes_seen(server: Server) -> float:
    for line in httpx.get(f"{server.url}/metrics").text.splitlines():
        if line.startswith("yacht_processes_seen "):
            return float(line.split()[1])
    raise AssertionError("no yacht_processes_seen")


def open_table(server: Server) -> str:
    r = httpx.post(f"{server.url}/api/tables", json={"seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def joins_until_refused(servers: list[Server], code: str, client: str) -> list[httpx.Response]:
    """Joins of a seat that does not exist (422, but counted) from ``client``, through the
    servers in turn, up to and including the first 429."""
    answers: list[httpx.Response] = []
    with httpx.Client(headers={"X-Forwarded-For": client}) as http:
        while len(answers) < 4 * JOIN.burst:
            server = servers[len(answers) % len(servers)]
            r = http.post(f"{server.url}/api/tables/{code}/join", json={"seat": 5, "name": "Eve"})
            answers.append(r)
            if r.status_code == 429:
                break
    assert answers[-1].status_code == 429, [r.status_code for r in answers]
    assert {r.status_code for r in answers[:-1]} == {422}
    return answers


def test_two_processes_give_a_client_its_quota_in_total(
    pg_url: str, own_redis: RedisServer, tmp_path: Path
) -> None:
    with two_servers(pg_url, own_redis, tmp_path) as (a, b):
        code = open_table(a)
        answers = joins_until_refused([a, b], code, "203.0.113.10")
        assert len(answers) - 1 == JOIN.burst  # not twice the burst
        refusal = answers[-1].json()
        assert refusal["code"] == "rate_limited"
        assert f"at most {JOIN.burst} in any" in refusal["message"]
        for server in (a, b):  # the other process refuses the client too
            r = httpx.post(
                f"{server.url}/api/tables/{code}/join",
                json={"seat": 5, "name": "Eve"},
                headers={"X-Forwarded-For": "203.0.113.10"},
            )
            assert r.status_code == 429
        other = joins_until_refused([b], code, "203.0.113.11")  # another client: its own
        assert len(other) - 1 == JOIN.burst
        for server in (a, b):
            assert server.errors() == []


def test_without_redis_each_process_gives_its_share(
    pg_url: str, own_redis: RedisServer, tmp_path: Path
) -> None:
    with two_servers(pg_url, own_redis, tmp_path) as (a, b):
        code = open_table(a)
        until("both processes see two", lambda: processes_seen(a) == processes_seen(b) == 2)
        with own_redis.admin() as admin:
            admin.shutdown(nosave=True)
        for server in (a, b):
            answers = joins_until_refused([server], code, "203.0.113.20")
            assert len(answers) - 1 == JOIN.burst // 2  # half each: the quota in total
            assert f"at most {JOIN.burst // 2} in any" in answers[-1].json()["message"]
        for server in (a, b):  # one line when Redis went, no traceback per request
            records = server.records()
            went = [r for r in records if "Redis cannot be reached" in r["message"]]
            assert len(went) == 1 and "share" in went[0]["message"]
            assert not [r for r in records if r["level"] in ("error", "critical")
                        and r["logger"].startswith("yacht.web.edge")]  # fmt: skip


async def sockets_until_refused(
    stack: AsyncExitStack, server: Server, code: str, client: str, most: int
) -> list[ClientConnection]:
    """Open WebSockets from ``client`` until one is refused (or ``most`` are open)."""
    opened: list[ClientConnection] = []
    while len(opened) < most:
        try:
            ws = await stack.enter_async_context(
                connect(ws_url(server.url, code), additional_headers={"X-Forwarded-For": client})
            )
        except InvalidStatus as e:
            assert e.response.status_code == 403
            break
        assert json.loads(await ws.recv())["type"] == "state"
        opened.append(ws)
    return opened


def test_a_killed_process_gives_its_connection_slots_back(
    pg_url: str, own_redis: RedisServer, tmp_path: Path
) -> None:
    with two_servers(pg_url, own_redis, tmp_path) as (a, b):
        code = open_table(a)
        half = MAX_CONNECTIONS // 2

        async def scenario() -> dict[str, Any]:
            async with AsyncExitStack() as on_a, AsyncExitStack() as on_b:
                held_a = await sockets_until_refused(on_a, a, code, "203.0.113.30", half)
                held_b = await sockets_until_refused(on_b, b, code, "203.0.113.30", half + 1)
                refused_on_a = await sockets_until_refused(on_a, a, code, "203.0.113.30", 1)
                a.kill()  # no goodbye: its slots stay in Redis until they expire
                await on_a.aclose()
                deadline = time.monotonic() + 30
                later: list[ClientConnection] = []
                while not later:
                    assert time.monotonic() < deadline, "the killed process's slots stayed"
                    later = await sockets_until_refused(on_b, b, code, "203.0.113.30", 1)
                    if not later:
                        await asyncio.sleep(0.1)  # waiting on the expiry, polled
                more = await sockets_until_refused(on_b, b, code, "203.0.113.30", half + 1)
                return {
                    "a": len(held_a),
                    "b": len(held_b),
                    "refused_on_a": len(refused_on_a),
                    "b_after": len(held_b) + len(later) + len(more),
                }

        seen = asyncio.run(scenario())
        assert seen["a"] == half and seen["b"] == MAX_CONNECTIONS - half  # the cap in total
        assert seen["refused_on_a"] == 0
        assert seen["b_after"] == MAX_CONNECTIONS  # all of them, on the one process left
