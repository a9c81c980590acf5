"""Strategy tests share the session's table cache (the root conftest.py's ``TABLES``); a test
of the cache itself takes a folder of its own."""

import os

import pytest

from yacht.strategy.cache import ENV_VAR
from yacht.strategy.target import TargetTable, target_table


@pytest.fixture(scope="session")
def cache_dir() -> str:
    return os.environ[ENV_VAR]


@pytest.fixture(scope="session")
def targets(cache_dir: str) -> TargetTable:
    """The traditional target table up to 150 points needed, built once for every test that
    asks for a target at most that high (the tables answer smaller targets too)."""
    return target_table("traditional", 150)
