"""What the daily game's tests share: the day they start on, a clock they move, the daily
service's work in a thread of the test process, and a player's moves through the API."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from yacht.web.api.routes.daily import daily_service

from .account_helpers import Device, Site, site

DAY = datetime(2026, 12, 2, 9, 30, tzinfo=UTC).timestamp()
ONE_DAY = 86400.0


class Clock:
    """The daily service's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = DAY

    def __call__(self) -> float:
        return self.now


async def in_thread(work: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(work, *args)


def guest(device: Device, token: str) -> dict[str, str]:
    return {"X-Yacht-Guest": token}


def start(device: Device, token: str | None = None) -> dict[str, Any]:
    headers = {} if token is None else guest(device, token)
    r = device.post("/api/daily", {"preset": "traditional"}, headers=headers)
    assert r.status_code in (200, 201), r.text
    data: dict[str, Any] = r.json()
    return data


def move(device: Device, game: dict[str, Any], action: str, token: str | None = None) -> Any:
    headers = {} if token is None else guest(device, token)
    r = device.post(
        f"/api/daily/games/{game['id']}/action",
        {"action": action, "version": game["version"]},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return r.json()


def play_out(device: Device, game: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    """Roll once and score the open category with the most points, turn by turn."""
    while game["status"] != "finished":
        game = move(device, game, "roll", token)
        best = max(game["potentials"], key=lambda c: game["potentials"][c])
        game = move(device, game, f"score {best}", token)
    return game


GUEST = "guest-browser-token-0001"


@contextmanager
def daily_site(db: Path) -> Iterator[tuple[Site, Clock]]:
    """A site whose daily service reads the test's clock and does its work in a thread of the
    test process (the worker process, niced, starves on a loaded machine)."""
    with site(db) as opened:
        clock = Clock()
        daily = daily_service(opened.app)
        daily.clock, daily.work = clock, in_thread
        yield opened, clock
