"""Real ``yacht serve`` processes on 127.0.0.1 for the multi-process, crash and load tests."""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

YACHT = str(Path(sys.executable).with_name("yacht"))


@functools.cache
def strategy_tables() -> None:
    """Build every preset's solved values once in the test session's cache (YACHT_CACHE_DIR),
    so a server reads them from disk: it is ready (``/readyz``) only once it has them."""
    from yacht.rules import preset_names
    from yacht.strategy import solve

    for name in preset_names():
        solve(name)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """One ``yacht serve`` process; its JSON-lines log goes to ``log``."""

    database: str
    redis: str | None
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    env: dict[str, str] = field(default_factory=dict)  # YACHT_* settings of this process

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> Server:
        strategy_tables()
        command = [YACHT, "serve", "--port", str(self.port), "--database", self.database]
        command += ["--log-format", "json", "--log-level", "info"]
        if self.redis:
            command += ["--redis", self.redis]
        env = {**os.environ, "YACHT_DATA_DIR": str(self.log.parent), **self.env}
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"yacht serve exited ({self.process.returncode}):\n{self.tail()}"
                )
            try:
                if httpx.get(f"{self.url}/health", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"yacht serve did not become healthy:\n{self.tail()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing more from this process."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, lines: int = 30) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def records(self) -> list[dict[str, Any]]:
        """The log, one JSON object per line (raises if a line is not JSON)."""
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def errors(self) -> list[dict[str, Any]]:
        """Log records of level error or worse (tracebacks of unhandled exceptions)."""
        return [r for r in self.records() if r["level"] in ("error", "critical")]
