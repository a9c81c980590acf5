"""A real ``yacht serve`` as its operator meets it: SIGTERM stops it within its grace
(``YACHT_SHUTDOWN_GRACE``) even while a client sends a body slowly, and its WebSockets are told
to reconnect (1012); ``/metrics`` answers by the connection's own address, which no
X-Forwarded-For can stand in for."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import threading
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from yacht.loadtest.target import ws_url
from yacht.web.edge.serving import CLEANUP

from .servers import Server

pytestmark = pytest.mark.services

START = 120.0  # s a process may take to start on a loaded machine
GRACE = 2.0
MARGIN = 10.0  # s on top of the grace and the app's cleanup: the interpreter's own exit


def trickle(port: int, stop: threading.Event) -> socket.socket:
    """A client that sends a request's headers, then its body a byte at a time, slowly."""
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b"content-length: 1000\r\n\r\n{"
    )

    def more() -> None:
        while not stop.wait(0.5):
            try:
                s.sendall(b" ")
            except OSError:
                return

    threading.Thread(target=more, daemon=True).start()
    return s


def test_sigterm_tells_sockets_to_reconnect_and_exits_within_the_grace(
    pg_url: str, tmp_path: Path
) -> None:
    server = Server(pg_url, None, tmp_path / "s.log", env={"YACHT_SHUTDOWN_GRACE": str(GRACE)})
    stop = threading.Event()
    try:
        server.start(START)
        r = httpx.post(f"{server.url}/api/tables", json={"seats": [{"kind": "human"}] * 2})
        code = r.json()["code"]

        async def scenario() -> int | None:
            async with connect(ws_url(server.url, code)) as ws:
                assert json.loads(await ws.recv())["type"] == "state"
                slow = trickle(server.port, stop)
                # answered after the slow client's headers were read (one loop, in order)
                assert httpx.get(f"{server.url}/api/bots").status_code == 200
                assert server.process is not None
                server.process.send_signal(signal.SIGTERM)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(ws.recv(), 30)
                with pytest.raises(httpx.ConnectError):  # no new connections
                    httpx.get(f"{server.url}/api/bots")
                slow.settimeout(GRACE + CLEANUP + MARGIN)
                answer = b""  # refused at the grace: try again (another process)
                while chunk := slow.recv(4096):  # the server closes the connection after it
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 503"), answer
                assert b"retry-after: 1" in answer.lower() and b'"busy"' in answer
                return closed.value.rcvd.code if closed.value.rcvd else None

        assert asyncio.run(scenario()) == 1012  # "service restart": the page reconnects
        try:
            server.process.wait(GRACE + CLEANUP + MARGIN)  # type: ignore[union-attr]
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {GRACE + CLEANUP + MARGIN:g} s after SIGTERM")
        # uvicorn raises the signal again once it has shut down: "ended by SIGTERM", as a
        # supervisor expects of a process it told to stop
        assert server.process is not None and server.process.returncode in (0, -signal.SIGTERM)
        assert server.errors() == [] or all(  # uvicorn's one line saying it cancelled
            "timeout graceful shutdown exceeded" in r["message"] for r in server.errors()
        )
    finally:
        stop.set()
        server.stop()


def test_metrics_answer_the_connections_own_address_not_a_forwarded_one(
    pg_url: str, tmp_path: Path
) -> None:
    env = {"YACHT_METRICS_ALLOW": "10.9.9.9", "FORWARDED_ALLOW_IPS": "*"}
    server = Server(pg_url, None, tmp_path / "m.log", env=env)
    try:
        server.start(START)
        assert httpx.get(f"{server.url}/metrics").status_code == 404  # loopback: not listed
        claimed = httpx.get(f"{server.url}/metrics", headers={"X-Forwarded-For": "10.9.9.9"})
        assert claimed.status_code == 404 and "yacht_" not in claimed.text
    finally:
        server.stop()
    server = Server(pg_url, None, tmp_path / "d.log")  # the default: this machine only
    try:
        server.start(START)
        scrape = httpx.get(f"{server.url}/metrics")
        assert scrape.status_code == 200
        assert "process_resident_memory_bytes" in scrape.text
        assert 'yacht_http_request_duration_seconds_count{method="GET",route=' in scrape.text
    finally:
        server.stop()
