from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from .servers import Server
from .services import Services, fresh_database, start_services


@pytest.fixture(scope="session")
def services() -> Services:
    return start_services()


@pytest.fixture
def pg_url(services: Services) -> Iterator[str]:
    """An empty PostgreSQL database of this test's own."""
    with fresh_database(services.postgres) as url:
        yield url


@pytest.fixture
def redis_prefix() -> str:
    """A channel namespace of this test's own (pub/sub channels are server-wide)."""
    return f"yacht-test-{uuid.uuid4().hex[:8]}:"


@dataclass(frozen=True)
class Cluster:
    """Two ``yacht serve`` processes sharing one PostgreSQL database and Redis."""

    a: Server
    b: Server
    database: str


@pytest.fixture(scope="session")
def cluster(services: Services, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Shared by the tests that only play (they never stop a process); logs in tmp."""
    logs: Path = tmp_path_factory.mktemp("cluster")
    with fresh_database(services.postgres) as url:
        a = Server(url, services.redis, logs / "a.log").start()
        try:
            b = Server(url, services.redis, logs / "b.log").start()
            try:
                yield Cluster(a, b, url)
            finally:
                b.stop()
        finally:
            a.stop()
