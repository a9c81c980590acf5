"""The solved values that come with the package: one file for every preset, the very table
the solver builds, and read on an empty cache instead of building (so a first game's table
is ready at once, the clubhouse one included)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from yacht.rules import preset_names
from yacht.strategy import cache, solve, solver
from yacht.strategy.shipping import shipped_keys


def test_every_preset_ships_its_solved_values() -> None:
    keys = shipped_keys()
    assert sorted(keys) == sorted(preset_names())
    missing = [k for k in keys.values() if not (cache.SHIPPED / f"{k}.npz").exists()]
    assert missing == [], "run python -m yacht.strategy.shipping"
    assert sorted(p.stem for p in cache.SHIPPED.glob("*.npz")) == sorted(keys.values())


def test_the_shipped_table_is_the_one_the_solver_builds() -> None:
    key = shipped_keys()["traditional"]
    with np.load(cache.SHIPPED / f"{key}.npz") as data:
        shipped = data["array"]
    built = solve("traditional", use_cache=False).values()
    # The same table up to the order a numpy adds in: numpy 2.4.6 (a fresh venv today) differs
    # from the one that wrote the file in 1,352 of 4,096 values, by at most 6e-14 points.
    assert shipped.shape == built.shape
    np.testing.assert_allclose(shipped, built, rtol=0, atol=1e-9)


def test_an_empty_cache_reads_the_shipped_values_without_building(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(cache.ENV_VAR, str(tmp_path))
    monkeypatch.setattr(solver, "_SOLVED", {})

    def no_build(table: object) -> object:
        raise AssertionError("built although the package ships the table")

    monkeypatch.setattr(solver, "build_values", no_build)
    for name in preset_names():
        assert solve(name).expected > 0
    assert list(tmp_path.iterdir()) == []  # nothing written: the package's files are read
