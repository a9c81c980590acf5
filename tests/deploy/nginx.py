"""The kit's nginx configuration, run by real nginx (the Debian package, /usr/sbin/nginx) for the
tests: deploy/nginx/yacht.conf with only its ports, certificate paths and IPv6 lines changed, so
the configuration tested is the one shipped."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KIT = ROOT / "deploy" / "nginx" / "yacht.conf"
NGINX = Path("/usr/sbin/nginx")
PREFIX = "/yacht"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost made by openssl, and its key."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl not found: the Debian package openssl makes the test's certificate")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def render(upstreams: tuple[int, int], https: int, http: int, cert: Path, key: Path) -> str:
    """The kit's file with the test's ports and certificate (each change must apply once)."""
    text = KIT.read_text()
    changes = {
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{upstreams[0]} ",
        "server 127.0.0.1:8002 ": f"server 127.0.0.1:{upstreams[1]} ",
        "listen 443 ssl": f"listen 127.0.0.1:{https} ssl",
        "listen 80;": f"listen 127.0.0.1:{http};",
        "/etc/letsencrypt/live/games.example.org/fullchain.pem": str(cert),
        "/etc/letsencrypt/live/games.example.org/privkey.pem": str(key),
    }
    for old, new in changes.items():
        assert text.count(old) == 1, f"deploy/nginx/yacht.conf no longer has {old!r} once"
        text = text.replace(old, new)
    # The test machine may have no IPv6: the [::] listeners go.
    return "\n".join(line for line in text.splitlines() if "listen [::]" not in line) + "\n"


@dataclass
class Nginx:
    """nginx in ``folder`` with the kit's server blocks, in front of two yacht processes."""

    folder: Path
    upstreams: tuple[int, int]
    https: int = field(default_factory=free_port)
    http: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https}{PREFIX}"

    @property
    def cert(self) -> Path:
        return self.folder / "cert.pem"

    def start(self) -> Nginx:
        if not NGINX.exists():
            pytest.skip(f"nginx is not installed at {NGINX}: the Debian package nginx")
        self.folder.mkdir(parents=True, exist_ok=True)
        cert, key = self_signed(self.folder)
        site = self.folder / "yacht.conf"
        site.write_text(render(self.upstreams, self.https, self.http, cert, key))
        temp = {k: self.folder / k for k in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
        for path in temp.values():
            path.mkdir(exist_ok=True)
        conf = self.folder / "nginx.conf"
        conf.write_text(
            ("user root;\n" if os.geteuid() == 0 else "")  # workers read the test's folders
            + f"daemon off;\nworker_processes 1;\npid {self.folder / 'nginx.pid'};\n"
            f"error_log {self.folder / 'error.log'} info;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"  access_log {self.folder / 'access.log'};\n"
            + "".join(f"  {k}_temp_path {v};\n" for k, v in temp.items()).replace(
                "body_temp", "client_body_temp"
            )
            + f"  include {site};\n}}\n"
        )
        command = [str(NGINX), "-c", str(conf), "-p", str(self.folder), "-e", "stderr"]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        log = (self.folder / "nginx.out").open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (self.folder / "nginx.out").read_text()
            try:
                socket.create_connection(("127.0.0.1", self.https), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not listen")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def errors(self) -> list[str]:
        """nginx's error log lines of level error and worse (an upstream refused is [error])."""
        log = self.folder / "error.log"
        text = log.read_text() if log.exists() else ""
        return [line for line in text.splitlines() if any(f"[{w}]" in line for w in LEVELS)]


LEVELS = ("error", "crit", "alert", "emerg")
