"""Names on PostgreSQL itself: a NUL (which PostgreSQL text cannot hold) or any other bad
name is refused with 422 before the database sees it, and the table goes on."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from starlette.testclient import TestClient

from yacht.web.app import create_app
from yacht.web.settings import Settings

from ..helpers import Table, seed_maker

pytestmark = pytest.mark.services


@pytest.fixture
def pg_client() -> Iterator[TestClient]:
    base = os.environ.get("YACHT_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("PostgreSQL not running: `make services` starts it")
    name = f"yacht_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    try:
        app = create_app(url, settings=Settings(prepare_tables=False), seeds=seed_maker())
        with TestClient(app) as client:
            yield client
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def test_nul_and_control_names_never_reach_postgresql(pg_client: TestClient) -> None:
    t = Table.create(pg_client, "human", "human")
    for name in ("Ann\x00", "\x00", "\x1c", "\u202e", "\u200b"):
        r = t.post("join", {"seat": 0, "name": name})
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), name
    r = pg_client.post(
        "/api/tables", json={"seats": [{"kind": "bot", "bot": "greedy", "name": "B\x00t"}]}
    )
    assert (r.status_code, r.json()["code"]) == (422, "invalid")
    t.join(0, "Ann")
    t.join(1, "Zoë")
    assert t.game["status"] == "playing"
    assert [s["name"] for s in t.state()["seats"]] == ["Ann", "Zoë"]


def test_invisible_and_look_alike_names_are_refused_on_postgresql(pg_client: TestClient) -> None:
    t = Table.create(pg_client, "human", "human", "human")
    t.join(0, "Ann")
    for name in ("An\u200bn", "\ufeffBob", "Bob\U000e0041", "B\u2028ob", "\u0410nn", "ANN"):
        r = t.post("join", {"seat": 1, "name": name})
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), name
    bots = [{"kind": "bot", "bot": "greedy", "name": n} for n in ("Ann", "\u0410nn")]
    r = pg_client.post("/api/tables", json={"seats": bots})
    assert (r.status_code, r.json()["code"]) == (422, "invalid")
    t.join(1, "Anna")
    t.join(2, "Bob")
    assert [s["name"] for s in t.state()["seats"]] == ["Ann", "Anna", "Bob"]


def test_a_private_tables_long_code_on_postgresql(pg_client: TestClient) -> None:
    r = pg_client.post("/api/tables", json={"seats": [{"kind": "human"}], "private": True})
    code = r.json()["code"]
    assert r.status_code == 201 and len(code) == 13
    Table(pg_client, code).join(0, "Ann")
    assert Table(pg_client, code).game["status"] == "playing"
    assert pg_client.get("/api/tables").json() == []
