"""A ``redis-server`` of a test's own on 127.0.0.1: TLS with a certificate authority made by
the test (``openssl``), a Unix socket, passwords and ACL users. The shared Redis of ``make
services`` stays plain; what a test changes here (a pause, a killed client) touches no one else.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from .servers import free_port

PASSWORD = "s3cret pass@/:"  # characters a URL must escape
USER, USER_PASSWORD = "yachtuser", "user-s3cret"


@dataclass(frozen=True)
class Certificates:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def openssl(*args: str | Path) -> None:
    subprocess.run(["openssl", *map(str, args)], check=True, capture_output=True)


def make_certificates(folder: Path) -> Certificates:
    """A self-signed certificate authority, and a server (127.0.0.1) and a client certificate
    it signed."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl not found: the Debian package openssl makes the test's certificates")
    ca, ca_key = folder / "ca.pem", folder / "ca.key"
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", "/CN=yacht test CA", "-keyout", ca_key, "-out", ca)  # fmt: skip
    made = {}
    for name, extension in (("server", "subjectAltName=IP:127.0.0.1"), ("client", "")):
        key, request, cert = (folder / f"{name}.{e}" for e in ("key", "csr", "pem"))
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN=yacht test {name}",
                "-keyout", key, "-out", request)  # fmt: skip
        extra = folder / f"{name}.ext"
        extra.write_text(extension + "\n")
        openssl("x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
                "-days", "2", "-out", cert, "-extfile", extra)  # fmt: skip
        made[name] = (cert, key)
    return Certificates(ca, *made["server"], *made["client"])


@dataclass(frozen=True)
class RedisServer:
    port: int  # 0: TLS only
    tls_port: int
    socket: Path
    certificates: Certificates | None

    def admin(self) -> redis.Redis:
        """A synchronous client over the Unix socket, as the default user."""
        return redis.Redis(unix_socket_path=str(self.socket), password=PASSWORD)


@contextmanager
def redis_server(*, tls: str | None = None) -> Iterator[RedisServer]:
    """A new ``redis-server``: a password for the default user, the ACL user ``USER``, a Unix
    socket, and with ``tls`` (``no``, ``yes`` or ``optional``: whether it asks clients for a
    certificate) only a TLS port. Stopped and removed afterwards."""
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server not found: `make services` as root installs it")
    # A short folder of its own: a Unix socket's path has room for about 100 bytes.
    folder = Path(tempfile.mkdtemp(prefix="yacht-redis-"))
    certificates = make_certificates(folder) if tls else None
    port = 0 if tls else free_port()
    tls_port = free_port() if tls else 0
    socket = folder / "redis.sock"
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "",
               "--appendonly", "no", "--dir", str(folder), "--unixsocket", str(socket),
               "--unixsocketperm", "700", "--requirepass", PASSWORD,
               "--user", USER, "on", f">{USER_PASSWORD}", "~*", "&*", "+@all"]  # fmt: skip
    if tls and certificates is not None:
        command += ["--tls-port", str(tls_port), "--tls-cert-file", str(certificates.server_cert),
                    "--tls-key-file", str(certificates.server_key),
                    "--tls-ca-cert-file", str(certificates.ca),
                    "--tls-auth-clients", tls]  # fmt: skip
    log = (folder / "redis.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = RedisServer(port, tls_port, socket, certificates)
    try:
        deadline = time.monotonic() + 20
        while True:  # until it answers on its socket
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {(folder / 'redis.log').read_text()}")
            try:
                with server.admin() as admin:
                    if admin.ping():
                        break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield server
    finally:
        process.terminate()
        process.wait(10)
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
