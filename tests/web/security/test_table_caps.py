"""Tables that cost the server are capped per client and in all: tables of bots only (they play
at once, and cost CPU until they end) as tables waiting for players are; a client is an IPv4
address or an IPv6 /64."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from yacht.web.app import create_app
from yacht.web.settings import Settings

from ..helpers import seed_maker

BOTS = {"seats": [{"kind": "bot", "bot": "winner"} for _ in range(6)]}


class Clients:
    """One app seen from any address: ``as_(address)`` is the client a request comes from."""

    def __init__(self, tmp_path: Path, **settings: int) -> None:
        app = create_app(
            f"sqlite:///{tmp_path / 'caps.sqlite3'}",
            settings=Settings(prepare_tables=False, **settings),  # type: ignore[arg-type]
            seeds=seed_maker(),
            bot_delay=3600,  # the bots wait: the tables stay in play
        )
        self.address = "203.0.113.1"

        async def from_address(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "lifespan":
                scope = {**scope, "client": (self.address, 40000)}
            await app(scope, receive, send)

        self.http = TestClient(from_address)

    def open(self, address: str, body: Mapping[str, object] = BOTS) -> tuple[int, str]:
        self.address = address
        r = self.http.post("/api/tables", json=body)
        return r.status_code, r.json().get("code", "") if r.status_code != 201 else "created"


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[Clients]:
    c = Clients(tmp_path, bot_tables_per_client=2, bot_tables_total=4)
    with c.http:
        yield c


def test_one_client_has_at_most_its_cap_of_tables_of_bots(clients: Clients) -> None:
    assert [clients.open("203.0.113.1") for _ in range(3)] == [
        (201, "created"),
        (201, "created"),
        (429, "rate_limited"),
    ]
    assert clients.open("203.0.113.2") == (201, "created")  # another client may


def test_an_ipv6_host_cannot_take_more_by_changing_address(clients: Clients) -> None:
    said = [clients.open(f"2001:db8:a:b::{i + 1:x}") for i in range(3)]
    assert said[-1] == (429, "rate_limited"), said


def test_the_server_has_at_most_its_cap_of_tables_of_bots(clients: Clients) -> None:
    for address in ("203.0.113.1", "203.0.113.2"):
        for _ in range(2):
            assert clients.open(address) == (201, "created")
    assert clients.open("203.0.113.3") == (503, "busy")
    people = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
    assert clients.open("203.0.113.3", people) == (201, "created")  # a person's table opens


def test_a_finished_table_of_bots_no_longer_counts(tmp_path: Path) -> None:
    fast = create_app(
        f"sqlite:///{tmp_path / 'fast.sqlite3'}",
        settings=Settings(prepare_tables=False, bot_tables_per_client=1),
        seeds=seed_maker(),
        bot_delay=0,
    )
    one = {"seats": [{"kind": "bot", "bot": "greedy"}]}
    with TestClient(fast, client=("203.0.113.1", 40000)) as http:
        code = http.post("/api/tables", json=one).json()["code"]
        assert http.post("/api/tables", json=one).status_code == 429
        portal = http.portal
        assert portal is not None
        portal.call(fast.state.runner.idle)
        assert http.get(f"/api/tables/{code}").json()["game"]["status"] == "finished"
        assert http.post("/api/tables", json=one).status_code == 201
