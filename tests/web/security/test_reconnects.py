"""Reconnecting costs the others nothing and cannot be looped: a ``hello`` for a seat already
connected sends no state to the table, one seat's hellos and one client's WebSocket opens are
rate-limited (shared through the per-client limits), and the table still hears when a seat
comes or goes."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from yacht.web.edge.limits import QUOTAS

from ..helpers import Table, until


def states_before_pong(ws: WebSocketTestSession) -> list[dict[str, Any]]:
    """The states the socket was sent before the answer to a ping sent now."""
    ws.send_json({"type": "ping", "ref": "q"})
    seen = []
    while (message := ws.receive_json())["type"] != "pong":
        seen.append(message)
    return [m for m in seen if m["type"] == "state"]


def hello(ws: WebSocketTestSession, seat: int, token: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seats": [{"seat": seat, "token": token}], "ref": "h"})
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] in ("welcome", "error"):
            return message


def two_players(client: TestClient) -> Table:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    return t


def test_a_second_tab_of_a_connected_seat_sends_the_watchers_nothing(client: TestClient) -> None:
    t = two_players(client)
    url = f"/ws/tables/{t.code}"
    with client.websocket_connect(url) as watcher, client.websocket_connect(url) as ann:
        until(watcher, "state")
        until(ann, "state")
        assert hello(ann, 0, t.tokens[0])["seats"] == [0]
        seen = until(watcher, "state")["table"]["seats"]  # Ann came: the table hears it
        assert [s["connected"] for s in seen] == [True, False]
        assert states_before_pong(watcher) == []
        with client.websocket_connect(url) as again:
            assert until(again, "state")["table"]["seats"][0]["connected"] is True
            assert hello(again, 0, t.tokens[0])["seats"] == [0]
            assert states_before_pong(watcher) == []  # nothing changed for the others
        assert states_before_pong(watcher) == []  # and the seat is still connected
    assert t.state()["seats"][0]["connected"] is False


def test_one_seat_cannot_reconnect_in_a_loop(client: TestClient) -> None:
    t = two_players(client)
    url = f"/ws/tables/{t.code}"
    burst = QUOTAS["seat"].burst
    for _ in range(burst):
        with client.websocket_connect(url) as ws:
            until(ws, "state")
            assert hello(ws, 0, t.tokens[0])["type"] == "welcome"
    with client.websocket_connect(url) as ws:
        until(ws, "state")
        refused = hello(ws, 0, t.tokens[0])
        assert refused["code"] == "rate_limited" and "reconnects" in refused["message"]
        assert hello(ws, 1, t.tokens[1])["seats"] == [1]  # another seat is not held up
    with client.websocket_connect(url) as ws:  # the socket of a refused hello still watches
        assert until(ws, "state")["table"]["code"] == t.code


def test_one_client_cannot_open_websockets_in_a_loop(client: TestClient) -> None:
    t = two_players(client)
    url = f"/ws/tables/{t.code}"
    for _ in range(QUOTAS["connect"].burst):
        with client.websocket_connect(url) as ws:
            until(ws, "state")
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url) as ws:
        ws.receive_json()
    assert refused.value.code == 1008
    assert "too many connections" in (refused.value.reason or "")
