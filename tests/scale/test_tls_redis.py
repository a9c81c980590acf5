"""Two ``yacht serve`` processes sharing tables through a Redis that speaks only TLS
(``rediss://``, its certificate signed by a certificate authority the test made): both are
healthy, and a move made through one process reaches a socket on the other."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from .client import action_message, open_table, table_state
from .redis_servers import PASSWORD, RedisServer, redis_server
from .servers import Server
from .watch import Watcher


@pytest.fixture(scope="module")
def tls_redis() -> Iterator[RedisServer]:
    with redis_server(tls="no") as server:  # a client needs no certificate of its own
        yield server


def test_a_move_crosses_between_processes_through_a_tls_redis(
    pg_url: str, tls_redis: RedisServer, tmp_path: Path
) -> None:
    assert tls_redis.port == 0 and tls_redis.certificates is not None  # TLS or nothing
    url = (
        f"rediss://:{quote(PASSWORD, safe='')}@127.0.0.1:{tls_redis.tls_port}/0"
        f"?ssl_ca_certs={tls_redis.certificates.ca}"
    )
    a = Server(pg_url, url, tmp_path / "a.log").start()
    try:
        b = Server(pg_url, url, tmp_path / "b.log").start()
        try:
            for server in (a, b):
                assert httpx.get(f"{server.url}/health").json()["redis"] == "ok"
            with httpx.Client(base_url=a.url) as client:
                code, tokens = open_table(client, 2)
                watcher = Watcher(b.url, code)  # a socket on the other process
                try:
                    game = table_state(client, code)["game"]
                    r = client.post(
                        f"/api/tables/{code}/actions", json=action_message(game, tokens)
                    )
                    assert r.status_code == 200, r.text
                    seen = watcher.until(game["number"], game["version"] + 1)["game"]
                    assert seen == table_state(client, code)["game"]
                finally:
                    watcher.close()
            for server in (a, b):
                assert server.errors() == []
                assert PASSWORD not in server.log.read_text()
        finally:
            b.stop()
    finally:
        a.stop()
