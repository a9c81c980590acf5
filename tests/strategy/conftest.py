"""Strategy tests share the session's table cache (the root conftest.py's ``TABLES``); a test
of the cache itself takes a folder of its own."""

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import one_builder

from yacht.rules import rules_by_name
from yacht.strategy.cache import ENV_VAR
from yacht.strategy.duel import MINIMAX, build_layers
from yacht.strategy.duel.response import FIRST, SECOND
from yacht.strategy.duel.store import table_dir
from yacht.strategy.target import TargetTable, target_table


@pytest.fixture(scope="session")
def cache_dir() -> str:
    return os.environ[ENV_VAR]


@pytest.fixture(scope="session")
def targets(cache_dir: str) -> TargetTable:
    """The traditional target table up to 150 points needed, built once for every test that
    asks for a target at most that high (the tables answer smaller targets too)."""
    return target_table("traditional", 150)


@pytest.fixture(scope="session")
def duel_layers(own_tables: Callable[[str], Path]) -> Path:
    """A cache folder holding the traditional two-player tables' endgame layers 20-23: table
    (a), minimax, and both seats' chains of table (b), the best response to ``optimal``, each
    where ``yacht duel solve`` puts it (``store.table_dir``) with ``$YACHT_CACHE_DIR`` here.

    Built once by this code for test_duel_minimax, test_duel_response and test_duel_bot (both
    workers share it through :func:`conftest.one_builder`) and kept between runs like the
    session's cache; a folder of its own, since in the session's cache the layers would answer
    every later heads-up hint of the session as a solved table."""
    folder = own_tables("duel-layers")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(ENV_VAR, str(folder))
        with one_builder(folder):
            for kind in (MINIMAX, FIRST, SECOND):
                build_layers(rules_by_name("traditional"), kind, lowest=20)
    return folder


def duel_folder(layers: Path, kind: str) -> Path:
    """The folder of one table (``minimax``, ``response-first``, ``response-second``) in
    :func:`duel_layers`."""
    return layers / table_dir(rules_by_name("traditional"), kind).name
