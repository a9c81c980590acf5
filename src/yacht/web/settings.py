"""Every option of a web server, in one pydantic-settings class.

Each field can be given to :func:`yacht.web.app.create_app` as an argument or read from the
environment as ``YACHT_<FIELD>`` (``YACHT_BOT_DELAY``, ``YACHT_HOST``, ...); the database and
Redis URLs as ``YACHT_DATABASE_URL`` and ``YACHT_REDIS_URL`` (``YACHT_DATABASE`` and
``YACHT_REDIS`` also work), or read from a file named by ``YACHT_DATABASE_URL_FILE`` /
``YACHT_REDIS_URL_FILE`` (a secret mounted by the service manager; surrounding whitespace is
dropped). Nothing else in the web package reads ``os.environ`` for its own options.

>>> Settings(bot_delay=0).bot_delay
0.0
>>> import os
>>> os.environ["YACHT_WAITING_TOTAL"] = "20"
>>> Settings().waiting_total
20
>>> del os.environ["YACHT_WAITING_TOTAL"]
>>> Settings(database="postgres://ann:pw@db/yacht").database
'postgresql+psycopg://ann:pw@db/yacht'
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

__all__ = [
    "SECRET_FILES",
    "Settings",
    "SettingsError",
    "data_dir",
    "default_database_url",
    "driver_url",
    "random_seed",
]

SECRET_FILES = {"database": "YACHT_DATABASE_URL_FILE", "redis": "YACHT_REDIS_URL_FILE"}
"""The fields that may be read from a file, and the variable that names the file."""


class SettingsError(ValueError):
    """An option that cannot be read (a secret file missing, a value given twice)."""


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

    model_config = SettingsConfigDict(
        env_prefix="YACHT_", frozen=True, extra="forbid", populate_by_name=True
    )

    database: str = Field(
        default="", validation_alias=AliasChoices("YACHT_DATABASE_URL", "YACHT_DATABASE")
    )
    redis: str = Field(default="", validation_alias=AliasChoices("YACHT_REDIS_URL", "YACHT_REDIS"))
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    log_format: Literal["text", "json"] = "text"
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
    # tables played by bots only (they cost CPU while they play) one client may have opened,
    # and on the whole server
    bot_tables_per_client: int = 2
    bot_tables_total: int = 20
    # origins besides the server's own whose pages may open its WebSockets, comma-separated
    # (https://play.example.org); a request with no Origin (not a browser) is always allowed
    allowed_origins: str = ""
    pg_direct: bool = True
    # s a process's entry and connection slots in Redis outlive it (yacht.web.edge.shared)
    limits_ttl: float = Field(default=30.0, gt=0)
    # WebSockets one client may open in any minute (a page reconnects after a drop; more for
    # many players behind one address)
    connects_per_minute: int = Field(default=30, ge=1)
    # s SIGTERM waits for requests in flight before it cancels them (then the process exits)
    shutdown_grace: float = Field(default=10.0, ge=0)
    # addresses and networks whose connections may read /metrics, comma-separated
    metrics_allow: str = "127.0.0.1,::1"
    # days a signed-in browser's session lasts without a request (accounts: docs/web/accounts.md)
    session_days: float = Field(default=30.0, gt=0)
    # Web Push (docs/web/notifications.md): the push services' hosts the server may post to,
    # comma-separated ("*.push.apple.com": any name under it); https on port 443 only
    push_hosts: str = (
        "fcm.googleapis.com,updates.push.services.mozilla.com,*.push.apple.com,*.notify.windows.com"
    )
    # also endpoints on this machine (http or https, any port): for tests, never in production
    push_loopback: bool = False
    # the VAPID "sub" the push services may write to (mailto: or https:; "": the public URL)
    push_contact: str = ""
    push_send: bool = True  # this process delivers the outbox (off: it only writes to it)
    push_timeout: float = Field(default=10.0, gt=0)  # s one delivery may take
    push_lease: float = Field(default=60.0, gt=0)  # s a claimed message is this process's
    # The path behind a reverse proxy (/yacht for https://example.org/yacht/; "": the root).
    root_path: str = Field(default="", pattern=r"^(/[A-Za-z0-9._~-]+)*$")

    @field_validator("database")
    @classmethod
    def _driver(cls, value: str) -> str:
        return driver_url(value)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, _SecretFiles(settings_cls)

    def database_url(self) -> str:
        """The database to use: ``database``, else an SQLite file in :func:`data_dir`."""
        return self.database or default_database_url(self.data_dir)


class _SecretFiles(PydanticBaseSettingsSource):
    """``YACHT_DATABASE_URL_FILE`` and ``YACHT_REDIS_URL_FILE``: the value is the file's text."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # all read at once in __call__

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name, variable in SECRET_FILES.items():
            path = os.environ.get(variable)
            if not path:
                continue
            direct = [v for v in (f"{variable[:-5]}", f"YACHT_{name.upper()}") if os.environ.get(v)]
            if direct:
                raise SettingsError(f"give {direct[0]} or {variable}, not both")
            try:
                found[name] = Path(path).read_text(encoding="utf-8").strip()
            except OSError as e:
                raise SettingsError(f"{variable}: cannot read {path}: {e.strerror}") from None
        return found


def driver_url(url: str) -> str:
    """A database URL as the store opens it: ``postgres://`` and ``postgresql://`` (the form
    libpq and hosting services give) go through psycopg 3, the driver the store uses.

    >>> driver_url("postgresql://ann@db:5432/yacht?sslmode=require")
    'postgresql+psycopg://ann@db:5432/yacht?sslmode=require'
    >>> driver_url("sqlite:///yacht.sqlite3")
    'sqlite:///yacht.sqlite3'
    """
    for plain in ("postgres://", "postgresql://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain) :]
    return url


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
