"""Helpers of the account tests: an app whose argon2 is cheap and counted, seen from several
devices (each its own address and cookies) through one test client."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

import httpx
from argon2 import PasswordHasher
from fastapi import FastAPI
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from .helpers import make_app

PASSWORD = "correct horse battery"
SAFE = {"GET", "HEAD", "OPTIONS"}


class Counting(PasswordHasher):
    """argon2id at the smallest cost (the tests count the work, they never time it), with a
    count of every hash and verify."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8, parallelism=1, hash_len=16, salt_len=16)
        self.verifies = 0
        self.hashes = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> Literal[True]:
        self.verifies += 1
        return super().verify(hash, password)

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        self.hashes += 1
        return super().hash(password, salt=salt)


def cheap(app: FastAPI) -> Counting:
    """Give the app's accounts the counting hasher."""
    hasher = Counting()
    app.state.service.accounts.hashing.hasher = hasher
    return hasher


class Site:
    """One app seen from any number of devices (:meth:`device`), over HTTP or HTTPS."""

    def __init__(self, app: FastAPI, *, https: bool = False) -> None:
        self.app = app
        self.hasher = cheap(app)
        self.address = "203.0.113.1"

        async def from_address(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "lifespan":
                scope = {**scope, "client": (self.address, 40000)}
            await app(scope, receive, send)

        base = "https://testserver" if https else "http://testserver"
        self.http = TestClient(from_address, base_url=base)

    def device(self, address: str = "203.0.113.1") -> Device:
        return Device(self, address)


@contextmanager
def site(db: Path | FastAPI, *, https: bool = False) -> Iterator[Site]:
    """The app on an SQLite file (or the app given), served for the test."""
    opened = Site(db if isinstance(db, FastAPI) else make_app(db), https=https)
    with opened.http:
        yield opened


class Device:
    """A browser: its address, its cookies and the CSRF token it was last given (sent with
    every change unless told not to)."""

    def __init__(self, site: Site, address: str) -> None:
        self.site = site
        self.address = address
        self.jar = httpx.Cookies()
        self.csrf: str | None = None

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        csrf: bool | str = True,
        **kwargs: Any,
    ) -> httpx.Response:
        http = self.site.http
        self.site.address = self.address
        http.cookies = self.jar
        headers = dict(kwargs.pop("headers", {}))
        token = csrf if isinstance(csrf, str) else self.csrf if csrf else None
        if token and method not in SAFE:
            headers["X-CSRF-Token"] = token
        if body is not None:
            kwargs["json"] = body
        r: httpx.Response = http.request(method, path, headers=headers, **kwargs)
        self.jar = httpx.Cookies(http.cookies)
        if r.headers.get("content-type", "").startswith("application/json"):
            data = r.json()
            if isinstance(data, dict) and isinstance(data.get("csrf_token"), str):
                self.csrf = data["csrf_token"]
        return r

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, body, **kwargs)

    def delete(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, body, **kwargs)

    def plant(self, value: str, name: str = "yacht_session") -> None:
        """Put a session cookie of one's own making in this browser (as the server's are)."""
        self.jar.set(name, value, domain="testserver.local", path="/")

    @property
    def session(self) -> str | None:
        """The session cookie's value (either name)."""
        return self.jar.get("yacht_session") or self.jar.get("__Host-yacht_session")

    def sign_up(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        r = self.post("/api/accounts", {"name": name, "password": password})
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data

    def sign_in(self, name: str, password: str = PASSWORD) -> httpx.Response:
        return self.post("/api/session", {"name": name, "password": password})

    def me(self) -> httpx.Response:
        return self.get("/api/me")

    def table(self, *seats: str, **options: Any) -> str:
        specs = [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats]
        r = self.post("/api/tables", {"seats": specs, **options})
        assert r.status_code == 201, r.text
        code: str = r.json()["code"]
        return code

    def join(self, code: str, seat: int, name: str = "Guest player") -> str:
        r = self.post(f"/api/tables/{code}/join", {"seat": seat, "name": name})
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token

    def act(self, code: str, seat: int, token: str, action: dict[str, Any]) -> httpx.Response:
        game = self.get(f"/api/tables/{code}").json()["game"]
        body = {
            "type": "action",
            "seat": seat,
            "token": token,
            "game": game["number"],
            "version": game["version"],
            "action": action,
        }
        return self.post(f"/api/tables/{code}/actions", body)


def error(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["code"]
