"""Fixtures for the terminal game's tests: a private data directory and fixed dice."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from yacht.tui.records import Records


def faces(seed: int = 7, n: int = 1500) -> list[int]:
    """A long fixed sequence of faces for ScriptedDice (a seeded generator, not stored data)."""
    rng = random.Random(seed)
    return [rng.randint(1, 6) for _ in range(n)]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saves and records go to a fresh folder (also through $YACHT_DATA_DIR for the CLI)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("YACHT_DATA_DIR", str(folder))
    return folder


@pytest.fixture
def records(data_dir: Path) -> Records:
    return Records.open_default(data_dir)
