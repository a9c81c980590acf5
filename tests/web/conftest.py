from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette warns about httpx at import; the client works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from .account_helpers import Site
from .daily_helpers import Clock, daily_site
from .helpers import make_app
from .live import CHROMIUM, CHROMIUM_ARGS, LiveServer
from .pages import Pages


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "yacht.sqlite3"


@pytest.fixture
def daily_web(db: Path) -> Iterator[tuple[Site, Clock]]:
    """A site whose daily game runs on a clock the test moves."""
    with daily_site(db) as opened:
        yield opened


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(make_app(db)) as c:
        yield c


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, shared by the browser tests of one module.

    Not by the session: Playwright's sync API keeps an event loop running on the main thread
    while it is open, and every asyncio test or ``asyncio.run`` doctest after it would fail."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Chromium is not installed at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    """Pages that fail the test on any script error (uncaught exception or console error)."""
    opened = Pages(browser)
    yield opened
    errors = opened.unexpected()
    opened.close()
    assert errors == [], "script errors on the page:\n" + "\n".join(errors)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """``yacht serve`` on a real port, on a database file of the test's own."""
    live = LiveServer(tmp_path / "yacht.sqlite3")
    live.start()
    yield live
    live.stop()
