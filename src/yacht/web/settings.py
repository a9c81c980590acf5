"""Settings of a web server: its database, how bots pace themselves, where dice seeds come from."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Settings", "data_dir", "default_database_url", "random_seed"]


def data_dir() -> Path:
    """The directory for the default database: $YACHT_DATA_DIR, else the user data dir."""
    override = os.environ.get("YACHT_DATA_DIR")
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("yacht"))


def default_database_url() -> str:
    """An SQLite file in :func:`data_dir` (created when missing)."""
    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'yacht.sqlite3'}"


def random_seed() -> str:
    """A fresh secret server seed: 32 random bytes as hex."""
    return secrets.token_hex(32)


@dataclass(frozen=True)
class Settings:
    """Everything :func:`yacht.web.app.create_app` can be told.

    ``seeds`` makes the secret server seeds (tests inject a deterministic one so games repeat);
    ``bot_delay`` is the pause, in seconds, before a bot acts, so people can follow its moves;
    ``prepare_tables``: when a table with opponents opens, build the tables of P(win) hints and
    the ``winner`` bot in the background (tests that do not need them turn it off);
    ``waiting_ttl``, ``idle_ttl``: tables waiting for players, and games in play without a
    move, are deleted after that many seconds (checked every ``sweep_every`` seconds).
    """

    database: str = ""
    seeds: Callable[[], str] = field(default=random_seed)
    bot_delay: float = 0.6
    public_url: str = ""
    prepare_tables: bool = True
    waiting_ttl: float = 3600.0  # s a table may wait for players before it is deleted
    idle_ttl: float = 86400.0  # s a game in play may go without a move (abandoned: deleted)
    sweep_every: float = 60.0  # s between two clean-ups
    waiting_per_client: int = 5  # tables waiting for players one client may have opened
    waiting_total: int = 1000  # tables waiting for players on the whole server

    def database_url(self) -> str:
        return self.database or default_database_url()
