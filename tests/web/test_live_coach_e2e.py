"""The live coach in the browser (Debian's Chromium, headless, through Playwright): a player
turns it on, scores a costly box, sees the warning with what it loses and the best move, takes
it back with the keyboard (nothing is sent), then goes on; the game's file is marked."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from .live import LiveServer
from .pages import Pages, new_table, serious_violations, shot


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "yacht.sqlite3", bot_delay=0)
    live.start()
    yield live
    live.stop()


def test_the_live_coach_warns_takes_back_and_goes_on(pages: Pages, server: LiveServer) -> None:
    code, token = new_table(server, "human")
    page = pages.open(f"{server.url}/t/{code}", seats={code: {0: token}})
    http = httpx.Client(base_url=server.url, timeout=30)
    setting = page.locator("#coach-on")
    expect(setting).not_to_be_checked()  # off by default
    setting.check()
    expect(page.locator("#coach-threshold")).to_have_value("1")
    expect(page.locator("#coach-unit")).to_have_text("points of your expected total")
    page.locator("#roll").click()
    # the dice are drawn before the roll too (disabled): wait for the rolled ones
    expect(page.locator("#dice .die").first).to_be_enabled()
    state = http.get(f"/api/tables/{code}").json()
    game = state["game"]
    assert game["coach"] == [{"seat": 0, "unit": "points", "value": 1.0}]
    costly = "yacht" if game["potentials"]["yacht"] == 0 else "ones"
    box = page.locator(f'#sheet [data-category="{costly}"]')
    box.click()
    warning = page.locator("#coach-warning")
    expect(warning).to_be_visible()
    expect(page.locator("#coach-loss")).to_contain_text("points of your expected total")
    expect(page.locator("#coach-best")).to_contain_text("The best move: ")
    expect(page.locator("#coach-back")).to_be_focused()
    assert serious_violations(page) == []  # the dialog as assistive technology reads it
    shot(page, "live-coach-warning-desktop")
    page.keyboard.press("Enter")  # "Take it back", which has the focus
    expect(warning).to_be_hidden()
    expect(page.locator("#toast")).to_have_text("Taken back: the move was not made.")
    assert http.get(f"/api/tables/{code}").json()["game"]["version"] == game["version"]
    box.click()
    expect(warning).to_be_visible()
    page.locator("#coach-go").click()
    if costly == "yacht":  # a zero asks once more
        page.locator("#zero-yes").click()
    expect(page.locator("#roll")).to_be_enabled()
    after = http.get(f"/api/tables/{code}").json()["game"]
    assert costly in after["sheets"][0] and after["version"] == game["version"] + 1
    record = http.get(f"/api/games/{after['id']}").json()
    assert record["coach"] == [{"seat": 0, "unit": "points", "value": 1.0}]
    http.close()
