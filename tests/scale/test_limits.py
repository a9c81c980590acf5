"""Floods get a clear error and a closed connection, never a stalled server: messages over
the size limit, connections over the rate limit, binary frames, oversized HTTP bodies, and
(in a real ``yacht serve``) frames the protocol layer refuses before the app sees them."""

from __future__ import annotations

import asyncio
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from yacht.loadtest.target import ws_url
from yacht.web.app import create_app
from yacht.web.edge.limits import BURST, MAX_BODY, MAX_FRAME, MAX_MESSAGE

from .client import open_table, table_state
from .conftest import Cluster

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession
    from starlette.websockets import WebSocketDisconnect


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'y.sqlite3'}", bot_delay=0)) as c:
        yield c


def ping(ws: WebSocketTestSession, ref: str = "p") -> None:
    ws.send_text(json.dumps({"type": "ping", "ref": ref}))
    while (message := ws.receive_json())["type"] != "pong":
        assert message["type"] == "state", message


def test_a_message_over_the_size_limit_is_answered_then_closed(client: TestClient) -> None:
    code, _ = open_table(client, 2)
    before = table_state(client, code)
    with (
        client.websocket_connect(f"/ws/tables/{code}") as big,
        client.websocket_connect(f"/ws/tables/{code}") as other,
    ):
        big.receive_json()
        other.receive_json()
        message = {"type": "ping", "ref": None, "pad": "x" * MAX_MESSAGE}
        big.send_text(json.dumps(message))
        error = big.receive_json()
        assert error["type"] == "error" and error["code"] == "too_large"
        assert f"the limit is {MAX_MESSAGE}" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            big.receive_json()
        assert closed.value.code == 1009
        ping(other)  # everyone else goes on
    assert table_state(client, code) == before


def test_a_burst_is_fine_but_a_flood_is_cut_off(client: TestClient) -> None:
    code, _ = open_table(client, 2)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.receive_json()
        for i in range(BURST):  # a burst up to the limit is answered in full
            ws.send_text(json.dumps({"type": "ping", "ref": str(i)}))
        assert [ws.receive_json()["ref"] for _ in range(BURST)] == [str(i) for i in range(BURST)]
    with client.websocket_connect(f"/ws/tables/{code}") as flood:
        flood.receive_json()
        for i in range(10 * BURST):
            flood.send_text(json.dumps({"type": "ping", "ref": str(i)}))
        replies = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                replies.append(flood.receive_json())
        assert closed.value.code == 1008
        assert replies[-1]["type"] == "error" and replies[-1]["code"] == "rate_limited"
        assert "a second per connection" in replies[-1]["message"]
        assert BURST <= len(replies) - 1 < 10 * BURST  # answered up to the limit, then cut off
    with client.websocket_connect(f"/ws/tables/{code}") as fresh:  # a new connection is served
        fresh.receive_json()
        ping(fresh)


def test_a_binary_frame_is_refused_and_the_connection_stays(client: TestClient) -> None:
    code, _ = open_table(client, 2)
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.receive_json()
        ws.send_bytes(b'{"type": "ping"}')
        error = ws.receive_json()
        assert error["code"] == "invalid" and "binary frames" in error["message"]
        ping(ws)


def test_an_oversized_request_body_gets_413_and_changes_nothing(client: TestClient) -> None:
    body = {"seats": [{"kind": "human"}], "client_seed": "x" * MAX_BODY}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 413
    assert r.json()["code"] == "too_large" and str(MAX_BODY) in r.json()["message"]
    assert client.get("/api/tables").json() == []


async def test_a_real_server_refuses_huge_frames_and_floods_without_stalling(
    cluster: Cluster,
) -> None:
    async with httpx.AsyncClient(base_url=cluster.a.url) as http:
        r = await http.post("/api/tables", json={"seats": [{"kind": "human"}] * 2})
        code = r.json()["code"]
    url = ws_url(cluster.a.url, code)
    async with connect(url, max_size=None) as huge:
        await huge.recv()
        await huge.send("x" * (MAX_FRAME + 1))  # refused by the WebSocket layer itself
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await huge.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    async with connect(url) as flood, connect(url) as calm:
        await flood.recv()
        await calm.recv()
        await asyncio.gather(
            *(flood.send(json.dumps({"type": "ping", "ref": str(i)})) for i in range(20 * BURST))
        )
        await calm.send(json.dumps({"type": "ping", "ref": "calm"}))
        assert json.loads(await asyncio.wait_for(calm.recv(), 10)) == {
            "type": "pong",
            "ref": "calm",
        }
        codes = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                codes.append(json.loads(await asyncio.wait_for(flood.recv(), 10)).get("code"))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert codes[-1] == "rate_limited"
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{cluster.a.url}/health")).status_code == 200
