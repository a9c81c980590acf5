"""PostgreSQL and Redis for the scale tests, prepared before the session by ``make services``.

``.ci/services`` installs and starts both on 127.0.0.1 and writes their addresses to
``build/services.env``, which the root conftest.py reads into YACHT_TEST_POSTGRES_URL and
YACHT_TEST_REDIS_URL. Nothing is installed or started from inside the test session: without the
addresses the tests are skipped with one line (failed under YACHT_REQUIRE_ALL=1).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


@dataclass(frozen=True)
class Services:
    postgres: str  # SQLAlchemy URL of the test database (postgresql+psycopg://...)
    redis: str  # redis://127.0.0.1:PORT/0


def start_services() -> Services:
    """The running services' addresses, or a skip naming what is missing."""
    postgres = os.environ.get("YACHT_TEST_POSTGRES_URL")
    redis = os.environ.get("YACHT_TEST_REDIS_URL")
    if not (postgres and redis):
        pytest.skip("PostgreSQL or Redis not running: `make services` starts them")
    return Services(postgres, redis)


@contextmanager
def fresh_database(base_url: str) -> Iterator[str]:
    """A new empty PostgreSQL database for one test (dropped afterwards); yields its URL."""
    name = f"yacht_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(base_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
