"""Every option of a web server, in one pydantic-settings class.

Each field can be given to :func:`yacht.web.app.create_app` as an argument or read from the
environment as ``YACHT_<FIELD>`` (``YACHT_DATABASE``, ``YACHT_BOT_DELAY``, ...); nothing else in
the web package reads ``os.environ`` for its own options.

>>> Settings(bot_delay=0).bot_delay
0.0
>>> import os
>>> os.environ["YACHT_WAITING_TOTAL"] = "20"
>>> Settings().waiting_total
20
>>> del os.environ["YACHT_WAITING_TOTAL"]
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "data_dir", "default_database_url", "random_seed"]


def random_seed() -> str:
    """A fresh secret server seed: 32 random bytes as hex."""
    return secrets.token_hex(32)


class Settings(BaseSettings):
    """Everything :func:`yacht.web.app.create_app` can be told.

    ``seeds`` makes the secret server seeds (tests inject a deterministic one so games repeat;
    not read from the environment); ``bot_delay`` is the pause, in seconds, before a bot acts,
    so people can follow its moves; ``prepare_tables``: when a table with opponents opens,
    build the tables of P(win) hints and the ``winner`` bot in the background (tests that do
    not need them turn it off); ``waiting_ttl``, ``idle_ttl``: tables waiting for players, and
    games in play without a move, are deleted after that many seconds (checked every
    ``sweep_every`` seconds); ``pg_direct``: a move's statements on PostgreSQL go through
    asyncpg from the event loop (off: SQLAlchemy in worker threads).
    """

    model_config = SettingsConfigDict(env_prefix="YACHT_", frozen=True, extra="forbid")

    database: str = ""
    redis: str = ""
    data_dir: Path | None = None
    seeds: Callable[[], str] = Field(default=random_seed, exclude=True)
    bot_delay: float = 0.6
    public_url: str = ""
    prepare_tables: bool = True
    waiting_ttl: float = 3600.0  # s a table may wait for players before it is deleted
    idle_ttl: float = 86400.0  # s a game in play may go without a move (abandoned: deleted)
    sweep_every: float = 60.0  # s between two clean-ups
    waiting_per_client: int = 5  # tables waiting for players one client may have opened
    waiting_total: int = 1000  # tables waiting for players on the whole server
    pg_direct: bool = True
    # s a process's entry and connection slots in Redis outlive it (yacht.web.edge.shared)
    limits_ttl: float = Field(default=30.0, gt=0)
    # s SIGTERM waits for requests in flight before it cancels them (then the process exits)
    shutdown_grace: float = Field(default=10.0, ge=0)
    # addresses and networks whose connections may read /metrics, comma-separated
    metrics_allow: str = "127.0.0.1,::1"
    # The path behind a reverse proxy (/yacht for https://example.org/yacht/; "": the root).
    root_path: str = Field(default="", pattern=r"^(/[A-Za-z0-9._~-]+)*$")

    def database_url(self) -> str:
        """The database to use: ``database``, else an SQLite file in :func:`data_dir`."""
        return self.database or default_database_url(self.data_dir)


def data_dir(override: Path | None = None) -> Path:
    """The directory for the default database: ``override`` (``$YACHT_DATA_DIR``), else the
    user data dir."""
    if override is None:
        override = Settings().data_dir
    if override is not None:
        return override.expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("yacht"))


def default_database_url(override: Path | None = None) -> str:
    """An SQLite file in :func:`data_dir` (created when missing)."""
    directory = data_dir(override)
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'yacht.sqlite3'}"
