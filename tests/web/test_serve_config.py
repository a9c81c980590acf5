"""``yacht serve`` configured like a service: every option also from a ``YACHT_*`` variable
(the command line wins), the URLs from files, ``postgres://`` accepted, start-up problems one
line and exit status 2, and no password printed anywhere or left on the command line."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from yacht.cli import main
from yacht.cli.db import settings_from
from yacht.web.edge import serving
from yacht.web.edge.logs import JsonFormatter
from yacht.web.edge.redact import RedactFilter, redact, remember
from yacht.web.settings import Settings
from yacht.web.storage.store import Store, head_revision

YACHT = str(Path(sys.executable).with_name("yacht"))
SECRET = "Tr0ub4dor-and-3"


def refused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def no_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """A serve that gets past its checks fails the test instead of serving for ever."""

    def started(*_args: object, **_kwargs: object) -> int:
        raise AssertionError("yacht serve started")

    monkeypatch.setattr(serving, "serve", started, raising=False)
    monkeypatch.setattr("uvicorn.run", started)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in list(os.environ):
        if name.startswith("YACHT_") and not name.startswith("YACHT_TEST"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("YACHT_LANG", "en")
    yield monkeypatch


def test_every_serve_option_comes_from_the_environment_and_the_command_line_wins(
    clean_env: pytest.MonkeyPatch,
) -> None:
    env = {
        "YACHT_DATABASE_URL": "postgres://ann@db.example/yacht",
        "YACHT_REDIS_URL": "redis://cache.example:6379/1",
        "YACHT_HOST": "0.0.0.0",
        "YACHT_PORT": "8123",
        "YACHT_LOG_LEVEL": "warning",
        "YACHT_LOG_FORMAT": "json",
    }
    for name, value in env.items():
        clean_env.setenv(name, value)
    s = settings_from(argparse.Namespace(lang=None))
    assert (s.database, s.redis) == (
        "postgresql+psycopg://ann@db.example/yacht",
        "redis://cache.example:6379/1",
    )
    assert (s.host, s.port, s.log_level, s.log_format) == ("0.0.0.0", 8123, "warning", "json")
    given = argparse.Namespace(host="127.0.0.2", port=9000, database="sqlite://", log_format=None)
    s = settings_from(given)
    assert (s.host, s.port, s.database, s.log_format) == ("127.0.0.2", 9000, "sqlite://", "json")
    clean_env.delenv("YACHT_PORT")
    assert settings_from(argparse.Namespace()).port == 8000  # the default
    assert Settings(database="postgresql://a@b/c").database == "postgresql+psycopg://a@b/c"


def test_the_help_names_a_variable_for_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help", "--lang", "en"])
    shown = " ".join(capsys.readouterr().out.split())
    for name in ("HOST", "PORT", "DATABASE_URL", "DATABASE_URL_FILE", "REDIS_URL"):
        assert f"$YACHT_{name}" in shown
    assert "$YACHT_REDIS_URL_FILE" in shown and "$YACHT_LOG_FORMAT" in shown


def test_urls_from_files_are_read_and_stripped(
    clean_env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "database-url"
    secret.write_text(f"  sqlite:///{tmp_path / 'y.sqlite3'}\n")
    clean_env.setenv("YACHT_DATABASE_URL_FILE", str(secret))
    assert settings_from(argparse.Namespace()).database == f"sqlite:///{tmp_path / 'y.sqlite3'}"
    assert main(["db", "current"]) == 0
    assert "database at migration none" in capsys.readouterr().out
    clean_env.setenv("YACHT_DATABASE_URL", "sqlite://")
    assert main(["db", "current"]) == 2
    err = capsys.readouterr().err
    assert "give YACHT_DATABASE_URL or YACHT_DATABASE_URL_FILE, not both" in err
    clean_env.delenv("YACHT_DATABASE_URL")
    clean_env.setenv("YACHT_REDIS_URL_FILE", str(tmp_path / "missing"))
    assert main(["db", "current"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "YACHT_REDIS_URL_FILE: cannot read" in err


def start_up_failures(tmp_path: Path) -> list[tuple[str, str]]:
    stamped = tmp_path / "future.sqlite3"
    store = Store(f"sqlite:///{stamped}")
    store.migrate()
    with store.engine.begin() as c:
        c.exec_driver_sql("UPDATE alembic_version SET version_num='9999_future'")
    store.close()
    port = refused_port()
    return [
        (f"postgresql://yacht:{SECRET}@127.0.0.1:{port}/yacht", "cannot be used: connection"),
        (f"postgres://yacht:{SECRET}@127.0.0.1:{port}/yacht", "Connection refused"),
        (f"sqlite:///{tmp_path}/no/such/dir/y.sqlite3", "unable to open database file"),
        (f"mysqlx://yacht:{SECRET}@db/yacht", "unknown kind of database mysqlx"),
        ("not a url", "cannot use the database URL not a url: not a database URL"),
        (
            f"sqlite:///{stamped}",
            "is at migration 9999_future, which this yacht does not know "
            f"(its newest is {head_revision()})",
        ),
    ]


def test_start_up_problems_are_one_line_and_status_2(
    tmp_path: Path,
    no_start: None,
    clean_env: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for url, words in start_up_failures(tmp_path):
        assert main(["serve", "--database", url]) == 2, url
        captured = capsys.readouterr()
        assert words in captured.err, captured.err
        assert captured.err.count("\n") == 1 and captured.err.startswith("yacht: error: ")
        assert SECRET not in captured.err + captured.out
        assert "bug" not in captured.err and "Traceback" not in captured.err


@pytest.mark.services
def test_a_missing_postgres_database_is_one_line(
    no_start: None, clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = os.environ.get("YACHT_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("PostgreSQL not running: `make services` starts it")
    url = base.rsplit("/", 1)[0].replace("postgresql+psycopg://", "postgres://") + "/no_such_db"
    clean_env.setenv("YACHT_DATABASE_URL", url)
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert 'database "no_such_db" does not exist' in err and err.count("\n") == 1


def test_redis_down_at_start_serves_and_says_so_once(
    tmp_path: Path, clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server whose Redis is down still serves its own tables: it starts, says so in one line
    (the password hidden), and reaches Redis when it comes (see the readiness probe)."""
    started: list[int] = []

    def serve(*_args: object, **_kwargs: object) -> int:
        started.append(1)
        return 0

    clean_env.setattr(serving, "serve", serve, raising=False)
    clean_env.setattr("uvicorn.run", serve)
    port = refused_port()
    clean_env.setenv("YACHT_REDIS_URL", f"redis://:{SECRET}@127.0.0.1:{port}/0")
    assert main(["serve", "--database", f"sqlite:///{tmp_path / 'y.sqlite3'}"]) == 0
    assert started == [1]
    err = capsys.readouterr().err
    assert "Redis cannot be reached" in err and "serving, and trying again" in err
    assert f"redis://:***@127.0.0.1:{port}/0" in err and SECRET not in err


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [YACHT, "serve", *args], env=env, capture_output=True, text=True, timeout=120
    )


def _env(**more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("YACHT_")}
    return {**env, "YACHT_LANG": "en", **more}


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_password_in_the_environment_is_not_printed_when_serve_refuses(log_format: str) -> None:
    port = refused_port()
    env = _env(
        YACHT_DATABASE_URL=f"postgresql://yacht:{SECRET}@127.0.0.1:{port}/yacht",
        YACHT_LOG_FORMAT=log_format,
    )
    done = _run(env)
    assert done.returncode == 2
    assert f"postgresql+psycopg://yacht:***@127.0.0.1:{port}/yacht" in done.stderr
    assert SECRET not in done.stdout + done.stderr


def test_a_password_in_the_environment_is_not_in_the_logs_nor_the_command_line(
    tmp_path: Path,
) -> None:
    """A server running with a Redis that is down (each failure logged, as JSON lines): the
    password is in no line, and not on the server's command line."""
    port, log_format = refused_port(), "json"
    web = refused_port()
    env = _env(
        YACHT_DATABASE_URL=f"sqlite:///{tmp_path / 'y.sqlite3'}",
        YACHT_REDIS_URL=f"redis://ann:{SECRET}@127.0.0.1:{port}/0",
        YACHT_PORT=str(web),
        YACHT_LOG_FORMAT=log_format,
        YACHT_PREPARE_TABLES="0",
    )
    server = subprocess.Popen(
        [YACHT, "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    seen: list[str] = []
    try:
        assert server.stderr is not None
        # Until uvicorn says it listens (or the server exits). Not "Application startup
        # complete": uvicorn logs that before it binds the port, so a request may be refused.
        for line in server.stderr:
            seen.append(line)
            if "Uvicorn running on" in line:
                break
        assert server.poll() is None, "".join(seen)
        cmdline = Path(f"/proc/{server.pid}/cmdline").read_bytes()
        assert SECRET.encode() not in cmdline and b"serve" in cmdline
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        with httpx.Client(base_url=f"http://127.0.0.1:{web}", timeout=30) as http:
            http.post("/api/tables", json={"seats": seats})  # a publish Redis never gets
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=60)
    err = "".join(seen) + err
    assert "Redis" in err and f"ann:***@127.0.0.1:{port}" in err
    assert SECRET not in out + err


def test_the_log_filter_hides_passwords_in_messages_arguments_and_tracebacks() -> None:
    remember("hunter2-pw")
    record = logging.LogRecord(
        "yacht.web", logging.ERROR, __file__, 1, "cannot reach %s", ("redis://:x9y8z7@h/0",), None
    )
    try:
        raise ConnectionError("auth failed for postgresql://ann:hunter2-pw@db/yacht")
    except ConnectionError:
        record.exc_info = sys.exc_info()
    record.url = "postgres://ann:hunter2-pw@db/yacht"
    assert RedactFilter().filter(record)
    for line in (logging.Formatter().format(record), JsonFormatter().format(record)):
        assert "x9y8z7" not in line and "hunter2-pw" not in line
        assert "ConnectionError" in line and "ann:***@db" in line
    assert redact("sslpassword=abc123 host=db") == "sslpassword=*** host=db"
