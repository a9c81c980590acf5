"""One client cannot starve the server: a client slow to send its request is dropped (408), and
one client cannot hold more than the cap of connections at once (HTTP and WebSocket together):
``yacht serve``'s HTTP protocol, run here on a real socket with short timeouts."""

from __future__ import annotations

import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn

from yacht.web.edge import serving

from ..helpers import make_app


@pytest.fixture(params=[(), ("127.0.0.1",)], ids=["direct", "behind a proxy"])
def port(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[int]:
    protocol = serving.guarded_protocol(
        header_timeout=0.5, body_timeout=0.5, max_connections=4, proxies=request.param
    )
    config = uvicorn.Config(
        make_app(tmp_path / "yacht.sqlite3"),
        host="127.0.0.1",
        port=0,
        http=protocol,
        log_level="warning",
        lifespan="on",
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


def connect(port: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    return s


def read_all(s: socket.socket) -> bytes:
    data = b""
    while chunk := s.recv(4096):
        data += chunk
    return data


def test_a_client_trickling_its_headers_is_dropped(port: int) -> None:
    s = connect(port)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    for _ in range(20):  # one header byte at a time, slower than the timeout allows
        try:
            s.sendall(b"X")
        except OSError:
            break
        time.sleep(0.1)
    answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 408")
    assert b'"code": "invalid"' in answer and b"headers" in answer  # 408: the timeout's answer


def test_a_client_trickling_its_body_is_dropped(port: int) -> None:
    s = connect(port)
    s.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: 100\r\n\r\n{"
    )
    answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 408") and b"body" in answer


def test_a_quick_client_is_served(port: int) -> None:
    s = connect(port)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert read_all(s).startswith(b"HTTP/1.1 200")


def test_one_client_holds_at_most_the_cap_of_connections(
    port: int, request: pytest.FixtureRequest
) -> None:
    held = [connect(port) for _ in range(4)]
    time.sleep(0.1)
    extra = connect(port)
    if "proxy" in request.node.callspec.id:  # all of a proxy's clients come from its address
        extra.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert read_all(extra).startswith(b"HTTP/1.1 200")
        return
    answer = read_all(extra)
    assert answer.startswith(b"HTTP/1.1 429") and b"rate_limited" in answer
    for s in held:
        s.close()
    time.sleep(0.3)
    again = connect(port)  # once they are closed, the client is welcome again
    again.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert read_all(again).startswith(b"HTTP/1.1 200")


def test_one_client_holds_at_most_the_cap_of_websockets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from yacht.web.api import sockets

    from ..helpers import Table

    monkeypatch.setattr(sockets, "MAX_CONNECTIONS", 2)
    with TestClient(make_app(tmp_path / "ws.sqlite3")) as client:
        t = Table.create(client, "human")
        url = f"/ws/tables/{t.code}"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
            a.receive_json()
            b.receive_json()
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url):
                pass
            assert refused.value.code == 1008
        with client.websocket_connect(url) as again:  # the two closed: welcome again
            assert again.receive_json()["type"] == "state"


def test_the_limits_fail_closed_when_uvicorn_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A uvicorn whose httptools protocol lacks a method the guard extends: no options that
    would serve without timeouts and cap, but an error naming what is missing."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    monkeypatch.delattr(HttpToolsProtocol, "on_headers_complete")
    with pytest.raises(serving.UnguardedError, match="on_headers_complete"):
        serving.serve_options()


def test_yacht_serve_refuses_to_start_unguarded(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without httptools the server does not start: one line, exit status 2, nothing served."""
    from yacht.cli import main

    monkeypatch.setitem(sys.modules, "uvicorn.protocols.http.httptools_impl", None)
    db = tmp_path / "yacht.sqlite3"
    status = main(["serve", "--port", "0", "--database", f"sqlite:///{db}"])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("yacht serve: ") and "uvicorn[standard]" in err
    assert len(err.strip().splitlines()) == 1
    assert not db.exists()  # it stopped before opening the database
