"""Strategy tests cache their tables in a temporary directory, once per session."""

from collections.abc import Iterator

import pytest

from yacht.strategy.cache import ENV_VAR


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    path = str(tmp_path_factory.mktemp("yacht-cache"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_VAR, path)
        yield path
