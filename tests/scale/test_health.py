"""``GET /health`` checks the database and Redis: 200 when both answer, 503 saying what failed."""

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


def test_redis_down_is_failing_and_says_so(pg_url: str) -> None:
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    with TestClient(create_app(pg_url, redis=nobody)) as client:
        r = client.get("/health")
        assert r.status_code == 503
        body = r.json()
        assert body["status"] == "failing" and body["database"] == "ok"
        assert body["redis"] not in ("ok", "off") and "Error" in body["redis"]


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
