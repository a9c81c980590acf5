"""PostgreSQL and Redis for the scale tests, started by the repository's own .ci/services.

CI exports YACHT_TEST_POSTGRES_URL and YACHT_TEST_REDIS_URL (``.ci/run``); on a developer
machine without them the script is run from here: it installs the Debian packages when they
are missing (as root) and starts both servers on 127.0.0.1 from a throwaway directory.
"""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "services"


@dataclass(frozen=True)
class Services:
    postgres: str  # SQLAlchemy URL of the test database (postgresql+psycopg://...)
    redis: str  # redis://127.0.0.1:PORT/0


def start_services() -> Services:
    postgres = os.environ.get("YACHT_TEST_POSTGRES_URL")
    redis = os.environ.get("YACHT_TEST_REDIS_URL")
    if postgres and redis:
        return Services(postgres, redis)
    done = subprocess.run(
        ["bash", str(SCRIPT)],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f".ci/services failed ({done.returncode}):\n{done.stderr}")
    found = dict(re.findall(r"^export (\w+)='([^']*)'$", done.stdout, re.MULTILINE))
    return Services(found["YACHT_TEST_POSTGRES_URL"], found["YACHT_TEST_REDIS_URL"])


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
