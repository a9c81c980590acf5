"""Strategy tests share the session's table cache (the root conftest.py's ``TABLES``); a test
of the cache itself takes a folder of its own."""

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import one_builder

from yacht.rules import rules_by_name
from yacht.strategy.cache import ENV_VAR
from yacht.strategy.duel import Kind, build_layers
from yacht.strategy.duel.store import table_dir
from yacht.strategy.endgame import Endgame, endgame
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
def duel_layers(own_tables: Callable[[str], Path]) -> Callable[[Kind], Path]:
    """The folder of a traditional two-player table's endgame layers 20-23 (table (a),
    ``MINIMAX``, or a seat's chain of table (b), the best response to ``optimal``, ``FIRST``
    and ``SECOND``), built when first asked for. All three sit in one cache folder of their
    own, each where ``yacht duel solve`` puts it (``store.table_dir``) with
    ``$YACHT_CACHE_DIR`` there (the folder's parent).

    Built once by this code for test_duel_minimax, test_duel_response and test_duel_bot (both
    workers share them through :func:`conftest.one_builder`, a lock per table, so the two
    may build two tables at once; a build finds finished layers and keeps them) and kept
    between runs like the session's cache; a folder of their own, since in the session's
    cache the layers would answer every later heads-up hint of the session as a solved
    table."""
    folder = own_tables("duel-layers")

    def built(kind: Kind) -> Path:
        rules = rules_by_name("traditional")
        table = folder / table_dir(rules, kind.name).name
        table.mkdir(exist_ok=True)
        with one_builder(table):  # a lock per table: two workers may build two of them
            return build_layers(rules, kind, lowest=20, folder=table)

    return built


def exact_endgame() -> Endgame:
    """The traditional double-precision endgame table to two categories each, which
    test_endgame and test_duel_minimax check against: built by this code into the session's
    cache and read from it after that (``endgame(..., double=True)``), the build under the
    cache folder's lock, so that the other worker, asking for it at the same time, waits
    and reads it instead of building it too."""
    folder = Path(os.environ[ENV_VAR])
    folder.mkdir(parents=True, exist_ok=True)
    with one_builder(folder):
        return endgame(rules_by_name("traditional"), 2, double=True)
