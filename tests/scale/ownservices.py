"""A PostgreSQL cluster and a ``redis-server`` of a test's own, on loopback ports of their own,
that the test may stop, start and restart (the shared ones of ``make services`` are never
touched). PostgreSQL is made as ``.ci/services`` makes it: ``initdb`` and ``pg_ctl`` from the
newest installed version, run as the ``postgres`` user when the test runs as root.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from .servers import free_port

ROLE = PASSWORD = "yacht"
DATABASE = "yacht"


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's programs (Debian keeps them out of PATH)."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name or 0)
    )
    for folder in reversed(versions):
        if (folder / "initdb").exists():
            return folder
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _as_owner(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: root runs it as the postgres user."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@dataclass
class OwnPostgres:
    """A PostgreSQL cluster in ``folder``, listening on 127.0.0.1:``port``."""

    bin: Path
    folder: Path
    port: int

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://{ROLE}:{PASSWORD}@127.0.0.1:{self.port}/{DATABASE}"

    def _ctl(self, *args: str) -> None:
        command = [str(self.bin / "pg_ctl"), "-D", str(self.folder / "data"), *args]
        subprocess.run(_as_owner(command), check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -h 127.0.0.1 -k {self.folder / 'sock'} -c max_connections=100"
        log = str(self.folder / "pg.log")
        self._ctl("-l", log, "-w", "-t", "60", "-o", options, "start")

    def stop(self) -> None:
        """``pg_ctl -m fast stop``: every session is ended (as an operator's restart does)."""
        self._ctl("-m", "fast", "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def psql(self, sql: str) -> None:
        command = [str(self.bin / "psql"), "-h", str(self.folder / "sock"), "-p", str(self.port)]
        command += ["-U", "postgres", "-d", "postgres", "-qtA", "-v", "ON_ERROR_STOP=1", "-c", sql]
        subprocess.run(_as_owner(command), check=True, capture_output=True, timeout=60)


@contextmanager
def own_postgres() -> Iterator[OwnPostgres]:
    """A new PostgreSQL cluster with the role and database ``yacht``; removed afterwards."""
    binaries = pg_bin()
    if binaries is None or (os.geteuid() == 0 and not _has_user("postgres")):
        pytest.skip("PostgreSQL not installed: `make services` as root installs it")
    folder = Path(tempfile.mkdtemp(prefix="yacht-pg-"))
    (folder / "sock").mkdir()
    if os.geteuid() == 0:
        folder.chmod(0o755)
        shutil.chown(folder, "postgres")
        shutil.chown(folder / "sock", "postgres")
    server = OwnPostgres(binaries, folder, free_port())
    initdb = [str(binaries / "initdb"), "-D", str(folder / "data"), "-U", "postgres"]
    initdb += ["--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]
    subprocess.run(_as_owner(initdb), check=True, capture_output=True, timeout=120)
    server.start()
    try:
        server.psql(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{PASSWORD}'")
        server.psql(f"CREATE DATABASE {DATABASE} OWNER {ROLE}")
        yield server
    finally:
        with suppress(subprocess.CalledProcessError):  # stopped already
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@dataclass
class OwnRedis:
    """A ``redis-server`` on 127.0.0.1:``port`` that can be stopped and started again there."""

    folder: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
                   "--appendonly", "no", "--dir", str(self.folder)]  # fmt: skip
        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while True:  # until it answers
            if self.process.poll() is not None:
                raise RuntimeError((self.folder / "redis.log").read_text())
            try:
                with redis.Redis(port=self.port, socket_timeout=1) as client:
                    if client.ping():
                        return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)

    def restart(self) -> None:
        self.stop()
        self.start()


@contextmanager
def own_redis() -> Iterator[OwnRedis]:
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server not found: `make services` as root installs it")
    folder = Path(tempfile.mkdtemp(prefix="yacht-redis-"))
    server = OwnRedis(folder, free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
