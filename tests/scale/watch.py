"""A WebSocket watcher of one table (websockets' sync client): the newest state it was sent."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import ClientConnection, connect

from yacht.loadtest.target import ws_url


class Watcher:
    """One connection to ``/ws/tables/{code}`` on the server at ``base``."""

    def __init__(self, base: str, code: str) -> None:
        self.ws: ClientConnection = connect(ws_url(base, code), open_timeout=10).__enter__()
        self.revision = -1
        self.versions: list[tuple[int, int]] = []  # (game number, version) as first seen
        first = self.receive(10)
        assert first["type"] == "state", first
        self.table: dict[str, Any] = first["table"]
        self._note(self.table)

    def _note(self, table: dict[str, Any]) -> bool:
        if table["revision"] < self.revision:
            return False  # published earlier by the other process, delivered later
        self.revision = table["revision"]
        self.table = table
        key = (table["game"]["number"], table["game"]["version"])
        if not self.versions or self.versions[-1] != key:
            self.versions.append(key)
        return True

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self, timeout: float) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout))
        return message

    def until(self, number: int, version: int, timeout: float = 10.0) -> dict[str, Any]:
        """Read until the table's game ``number`` is at ``version``; that table."""
        deadline = time.monotonic() + timeout
        while (self.table["game"]["number"], self.table["game"]["version"]) < (number, version):
            self._next(deadline)
        return self.table

    def until_revision(self, revision: int, timeout: float = 10.0) -> dict[str, Any]:
        """Read until the table is at ``revision`` (any change: a join, a move); that table."""
        deadline = time.monotonic() + timeout
        while self.revision < revision:
            self._next(deadline)
        return self.table

    def _next(self, deadline: float) -> None:
        message = self.receive(max(0.01, deadline - time.monotonic()))
        if message["type"] == "error":
            raise AssertionError(f"error from the server: {message}")
        if message["type"] == "state":
            self._note(message["table"])

    def close(self) -> None:
        self.ws.__exit__(None, None, None)
