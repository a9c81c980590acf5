"""A seat opened on another device connected to the other server process: the word that
the seat moved goes through Redis, and the older page hears which device holds it."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import connect

from yacht.loadtest.target import ws_url

from .client import open_table
from .conftest import Cluster

FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"


def until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = json.loads(ws.recv(10))
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def test_the_older_connection_on_another_process_hears_of_the_newer(cluster: Cluster) -> None:
    with httpx.Client(base_url=cluster.a.url) as a:
        code, tokens = open_table(a, 2)
    seat = [{"seat": 0, "token": tokens[0]}]
    with connect(ws_url(cluster.a.url, code), open_timeout=10) as laptop:
        until(laptop, "state")
        laptop.send(json.dumps({"type": "hello", "seats": seat}))
        assert until(laptop, "welcome")["seats"] == [0]
        phone_url = ws_url(cluster.b.url, code)
        with connect(phone_url, open_timeout=10, user_agent_header=FIREFOX_ANDROID) as phone:
            until(phone, "state")
            phone.send(json.dumps({"type": "hello", "seats": seat}))
            assert until(phone, "welcome")["seats"] == [0]
            moved = until(laptop, "elsewhere")
            assert (moved["seats"], moved["browser"], moved["system"]) == (
                [0],
                "Firefox",
                "Android",
            )
