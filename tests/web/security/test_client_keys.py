"""Who a client is, for the limits: an IPv6 host is its /64, and the server's own machine,
127.0.0.1 and ::1 alike, is exempt only on a request no proxy relayed; a proxy on ::1 is
trusted by default, as one on 127.0.0.1 is, so its visitors do not share one client's cap."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from yacht.web.edge import serving

from ..helpers import make_app

TABLE = {"seats": [{"kind": "human"}, {"kind": "human"}]}
WAITING = 5  # tables one client may have waiting for players


def creations(client: TestClient, n: int, headers: dict[str, str] | None = None) -> list[int]:
    return [client.post("/api/tables", json=TABLE, headers=headers).status_code for _ in range(n)]


@pytest.mark.parametrize("loopback", ["127.0.0.1", "::1"])
def test_the_servers_own_machine_is_not_limited_when_no_proxy_relayed(
    tmp_path: Path, loopback: str
) -> None:
    with TestClient(make_app(tmp_path / "k.sqlite3"), client=(loopback, 40000)) as client:
        assert set(creations(client, WAITING + 2)) == {201}


@pytest.mark.parametrize("loopback", ["127.0.0.1", "::1"])
@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded"])
def test_a_relayed_request_from_a_loopback_address_is_limited(
    tmp_path: Path, loopback: str, header: str
) -> None:
    """Behind a proxy on the same machine, a visitor whose forwarded address is a loopback
    one (or whose proxy did not rewrite the client) is a client like any other."""
    with TestClient(make_app(tmp_path / "k.sqlite3"), client=(loopback, 40000)) as client:
        said = creations(client, WAITING + 1, {header: loopback})
    assert said == [201] * WAITING + [429]


def test_one_ipv6_host_is_one_client_whatever_address_of_its_64_it_takes(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path / "k.sqlite3")
    address = ["2001:db8:5:6::1"]

    async def from_address(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            scope = {**scope, "client": (address[0], 40000)}
        await app(scope, receive, send)

    with TestClient(from_address) as client:
        said = []
        for i in range(WAITING + 1):
            address[0] = f"2001:db8:5:6:{i:x}::{i + 1:x}"
            said += creations(client, 1)
        assert said == [201] * WAITING + [429]
        address[0] = "2001:db8:5:7::1"  # another /64: another host
        assert creations(client, 1) == [201]


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.fixture
def served_on_ipv6_loopback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """``yacht serve``'s own options (no $FORWARDED_ALLOW_IPS) on ::1."""
    if not _ipv6_loopback():
        pytest.skip("no IPv6 loopback on this machine")
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    options = serving.serve_options()
    config = uvicorn.Config(
        make_app(tmp_path / "k.sqlite3"), host="::1", port=0, log_level="warning", **options
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    thread.join(10)


def test_a_proxy_on_ipv6_loopback_is_trusted_like_one_on_127_0_0_1(
    served_on_ipv6_loopback: int,
) -> None:
    port = served_on_ipv6_loopback
    cap = serving.MAX_CONNECTIONS
    held = [socket.create_connection(("::1", port), timeout=10) for _ in range(cap)]
    extra = socket.create_connection(("::1", port), timeout=10)
    extra.sendall(
        b"GET /health HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n"
        b"Connection: close\r\n\r\n"
    )
    answer = b""
    while chunk := extra.recv(4096):
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    for s in (*held, extra):
        s.close()
