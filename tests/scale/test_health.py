"""The probes: ``GET /livez`` (the process answers), ``GET /readyz`` and its other name
``/health`` (the database answers a query on the driver the moves use, and the strategy tables
are built: 200, else 503 saying what failed). Redis is reported, never a reason to be unready."""

from __future__ import annotations

import warnings
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from yacht.web.app import create_app

from .conftest import Cluster
from .servers import free_port
from .services import Services, fresh_database

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_a_server_sharing_tables_is_healthy_with_postgres_and_redis(cluster: Cluster) -> None:
    for server in (cluster.a, cluster.b):
        r = httpx.get(f"{server.url}/health")
        assert r.status_code == 200
        assert {k: r.json()[k] for k in ("status", "database", "redis")} == {
            "status": "ok",
            "database": "ok",
            "redis": "ok",
        }


def test_a_single_process_on_sqlite_needs_no_redis(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'y.sqlite3'}")) as client:
        r = client.get("/health")
        assert r.status_code == 200 and r.json()["redis"] == "off"
        assert "/health" in client.get("/openapi.json").json()["paths"]


def test_redis_down_says_so_but_leaves_the_process_ready(pg_url: str) -> None:
    """Each process still serves its own tables without Redis: a balancer must keep it."""
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    with TestClient(create_app(pg_url, redis=nobody)) as client:
        for probe in ("/readyz", "/health"):
            r = client.get(probe)
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["status"] == "ok" and body["database"] == "ok"
            assert body["redis"] not in ("ok", "off") and "Error" in body["redis"]
        assert client.get("/livez").json()["status"] == "ok"


def test_ready_checks_the_pool_the_moves_use(pg_url: str) -> None:
    """A database the moves' driver (asyncpg) cannot reach is unready although SQLAlchemy's
    engine still reaches it: the probe asks the moves' own pool."""
    with TestClient(create_app(pg_url)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        assert service.store.direct is not None  # asyncpg, as the moves
        assert client.get("/readyz").status_code == 200
        # nothing listens there: as when asyncpg alone refuses the server's certificate
        service.store.direct.conninfo = _port(service.store.direct.conninfo, free_port())
        service.store.direct._pool = None  # the next statement makes a new pool
        r = client.get("/readyz")
        assert r.status_code == 503, r.text
        assert r.json()["database"] != "ok"
        assert client.get("/health").status_code == 503
        assert client.get("/livez").status_code == 200
        with service.store.engine.connect() as c:  # SQLAlchemy's side is fine
            assert c.execute(text("SELECT 1")).scalar() == 1


def _port(conninfo: str, port: int) -> str:
    return make_url(conninfo).set(port=port).render_as_string(hide_password=False)


def test_a_lost_database_is_failing_and_says_so(services: Services) -> None:
    with (
        fresh_database(services.postgres) as url,
        TestClient(create_app(url, redis=services.redis)) as client,
    ):
        assert client.get("/health").status_code == 200
        client.app.state.service.store.engine.dispose()  # type: ignore[attr-defined]
        admin = create_engine(services.postgres, isolation_level="AUTOCOMMIT")
        name = make_url(url).database
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()
        r = client.get("/health")
        assert r.status_code == 503
        body = r.json()
        assert body["status"] == "failing" and body["redis"] == "ok"
        assert "does not exist" in body["database"]


def test_a_new_server_starts_its_hint_worker_reading_the_tables(tmp_path: Path) -> None:
    """As it starts, a server has the worker that computes hints, heavy bot moves and reviews
    read every preset's solved values, so the first hint finds them in memory."""
    from yacht.web.service.warmup import Warmup

    with TestClient(create_app(f"sqlite:///{tmp_path / 'y.sqlite3'}")) as client:
        assert client.get("/livez").status_code == 200
        worker = Warmup._worker
        assert worker is not None  # started with the server, before any hint was asked
        assert worker.result(timeout=600) >= 0  # a generous bound: a cold build takes long
