"""Strategy tests cache their tables in a temporary directory, once per session."""

from collections.abc import Iterator

import pytest

from yacht.strategy.cache import ENV_VAR
from yacht.strategy.target import TargetTable, target_table


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = str(tmp_path_factory.mktemp("yacht-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_VAR, path)
        yield path


@pytest.fixture(scope="session")
def targets(cache_dir: str) -> TargetTable:
    """The traditional target table up to 150 points needed, built once for every test that
    asks for a target at most that high (the tables answer smaller targets too)."""
    return target_table("traditional", 150)
