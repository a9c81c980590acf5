from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():  # starlette warns about httpx at import; the client works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from .helpers import make_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "yacht.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as c:
        yield c
