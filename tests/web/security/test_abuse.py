"""What keeps one client from using up the server for everyone: per-client rate limits (429 with
the error body), caps on waiting tables, expiry of waiting and abandoned tables, a fixed list of
bot levels, and hints that are cached per position and computed behind a bounded queue."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.testclient import TestClient

from yacht.web.edge.limits import QUOTAS
from yacht.web.service.hints import HintDesk
from yacht.web.settings import Settings

from ..helpers import Table

WAITING_PER_CLIENT = Settings().waiting_per_client


def service(client: TestClient) -> Any:
    return client.app.state.service  # type: ignore[attr-defined]


def test_one_client_cannot_flood_the_lobby_with_tables(client: TestClient) -> None:
    seats = {"seats": [{"kind": "human"}] * 6}
    codes: list[str] = []
    for _ in range(WAITING_PER_CLIENT):
        r = client.post("/api/tables", json=seats)
        assert r.status_code == 201, r.text
        codes.append(r.json()["code"])
    r = client.post("/api/tables", json=seats)
    assert r.status_code == 429
    assert r.json() == {**r.json(), "type": "error", "code": "rate_limited"}
    assert "waiting" in r.json()["message"]
    assert len(client.get("/api/tables", params={"limit": 100}).json()) == WAITING_PER_CLIENT
    # a table of bots only waits for nobody: not a waiting table (it has a cap of its own,
    # test_table_caps.py), and the rate counts it
    bots = {"seats": [{"kind": "bot", "bot": "greedy"}]}
    statuses = [client.post("/api/tables", json=bots).status_code for _ in range(20)]
    assert statuses[0] == 201
    assert statuses.count(201) <= QUOTAS["create"].burst - WAITING_PER_CLIENT - 1
    assert set(statuses) == {201, 429}


def test_waiting_tables_and_abandoned_games_expire(client: TestClient) -> None:
    waiting = Table.create(client, "human", "human")
    playing = Table.create(client, "human")
    playing.join(0, "Ann")
    playing.ok(0, {"kind": "roll"})
    svc = service(client)
    portal = client.portal
    assert portal is not None
    svc.clock = lambda: time.time() + svc.settings.waiting_ttl + 1
    assert portal.call(svc.expire) == [waiting.code]
    assert client.get(f"/api/tables/{waiting.code}").status_code == 404
    assert client.get("/api/tables").json() == []
    svc.clock = lambda: time.time() + svc.settings.idle_ttl + 1
    assert portal.call(svc.expire) == [playing.code]
    assert client.get(f"/api/tables/{playing.code}").json()["code"] == "not_found"


def test_only_the_listed_bot_levels_are_seated(client: TestClient) -> None:
    levels = client.get("/api/bots").json()
    assert "target:200" in levels and "medium" in levels
    for level in ("target:201", "target:99999999", "target:-1", "nobody"):
        r = client.post("/api/tables", json={"seats": [{"kind": "bot", "bot": level}]})
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), level
        assert "target:200" in r.json()["message"]
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    body = {"type": "hand_to_bot", "seat": 0, "by": 0, "token": t.tokens[0], "bot": "target:7"}
    assert t.post("hand-to-bot", body).json()["code"] == "invalid"


def test_joins_and_rest_actions_are_rate_limited(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    statuses = [
        t.post("join", {"seat": 5, "name": "Eve"}).status_code
        for _ in range(QUOTAS["join"].burst + 1)
    ]
    assert statuses[:-1] == [422] * QUOTAS["join"].burst  # no seat 6: refused, but counted
    assert statuses[-1] == 429
    t2 = Table.create(client, "human")
    codes: list[str] = []
    while len(codes) < 20 * QUOTAS["action"].burst and "rate_limited" not in codes:
        r = t2.post("rematch", {"type": "rematch", "seat": 0, "token": "x", "game": 1})
        codes.append(r.json()["code"])
    assert codes[-1] == "rate_limited" and r.status_code == 429
    assert len(codes) > QUOTAS["action"].burst  # the burst went through first


def test_hints_are_rate_limited_and_cached_per_position(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    t.ok(0, {"kind": "roll"})
    body = {"type": "hint", "seat": 0, "token": t.tokens[0]}
    answers = [t.post("hint", body) for _ in range(QUOTAS["hint"].burst + 1)]
    assert [r.status_code for r in answers] == [200] * QUOTAS["hint"].burst + [429]
    assert answers[-1].json()["code"] == "rate_limited"
    assert service(client).hints.computed == 1  # ten answers, one computation
    assert len({r.text for r in answers[:-1]}) == 1


def test_a_full_hint_desk_answers_busy_and_moves_go_on(client: TestClient) -> None:
    gate = threading.Event()

    def slow(view: Any) -> dict[str, Any]:
        gate.wait(10)
        return {"options": [], "exact": None}

    svc = service(client)
    svc.hints = HintDesk(slow, queue=1, executor=ThreadPoolExecutor(1))  # a closure: no pickle
    solo = [Table.create(client, "human") for _ in range(2)]
    for t in solo:
        t.join(0, "Ann")
        t.ok(0, {"kind": "roll"})
    portal = client.portal
    assert portal is not None

    async def ask(t: Table) -> Any:
        from yacht.web.protocol.messages import HintMessage

        return await svc.hint(t.code, HintMessage(seat=0, token=t.tokens[0]))

    first = portal.start_task_soon(ask, solo[0])
    time.sleep(0.2)
    r = solo[1].post("hint", {"type": "hint", "seat": 0, "token": solo[1].tokens[0]})
    assert (r.status_code, r.json()["code"]) == (503, "busy")
    solo[1].ok(0, {"kind": "hold", "positions": [1]})  # a move does not wait for hints
    gate.set()
    assert first.result(10).options == []
    assert asyncio.iscoroutinefunction(ask)


def test_the_server_caps_waiting_tables_in_total(db: Any) -> None:
    from yacht.web.app import create_app
    from yacht.web.settings import Settings

    from ..helpers import seed_maker

    settings = Settings(prepare_tables=False, waiting_total=2)
    app = create_app(f"sqlite:///{db}", settings=settings, seeds=seed_maker())
    with TestClient(app) as client:
        for _ in range(2):
            assert (
                client.post("/api/tables", json={"seats": [{"kind": "human"}]}).status_code == 201
            )
        r = client.post("/api/tables", json={"seats": [{"kind": "human"}]})
        assert (r.status_code, r.json()["code"]) == (503, "busy")
        assert "join one of them" in r.json()["message"]


def test_the_servers_own_machine_is_not_limited(db: Any) -> None:
    """Load tests and health checks run on the server's machine (loopback): no per-client
    limits there (behind a proxy, clients are told apart by X-Forwarded-For)."""
    from ..helpers import make_app

    with TestClient(make_app(db), client=("127.0.0.1", 50000)) as local:
        for _ in range(QUOTAS["create"].burst + WAITING_PER_CLIENT):
            assert local.post("/api/tables", json={"seats": [{"kind": "human"}]}).status_code == 201


def test_hints_over_the_socket_share_the_clients_bucket(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    t.ok(0, {"kind": "roll"})
    body = {"type": "hint", "seat": 0, "token": t.tokens[0]}
    assert t.post("hint", body).status_code == 200  # one token spent over REST
    with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
        ws.receive_json()
        kinds = []
        for i in range(QUOTAS["hint"].burst):
            ws.send_json({**body, "ref": str(i)})
            while (msg := ws.receive_json())["type"] not in ("hint", "error"):
                pass
            kinds.append(msg.get("code") or msg["type"])
        assert kinds == ["hint"] * (QUOTAS["hint"].burst - 1) + ["rate_limited"]
        ws.send_json({"type": "ping"})
        while (msg := ws.receive_json())["type"] == "state":
            pass
        assert msg["type"] == "pong"  # refused, not disconnected
