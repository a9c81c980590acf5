"""The chance of winning in the browser (Debian's Chromium, headless, through Playwright): a
person against the medium bot asks for a hint in the heads-up endgame and sees each option's
P(win) beside the expected total, marked exact. The screenshot goes to test-artifacts/web/."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from .live import LiveServer
from .pages import Pages, shot


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "yacht.sqlite3", bot_delay=0)
    live.start()
    yield live
    live.stop()


class Seat:
    """Ann's seat at a table against the medium bot, through the REST API."""

    def __init__(self, http: httpx.Client) -> None:
        self.http = http
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]
        self.code = http.post("/api/tables", json={"seats": seats}).json()["code"]
        joined = http.post(f"/api/tables/{self.code}/join", json={"seat": 0, "name": "Ann"})
        self.token = joined.json()["token"]

    def game(self) -> dict[str, Any]:
        game: dict[str, Any] = self.http.get(f"/api/tables/{self.code}").json()["game"]
        return game

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        g = self.game()
        body = {"type": "action", "seat": 0, "token": self.token, "game": g["number"]}
        r = self.http.post(
            f"/api/tables/{self.code}/actions",
            json={**body, "version": g["version"], "action": action},
        )
        assert r.status_code == 200, r.text
        game: dict[str, Any] = r.json()["game"]
        return game

    def my_turn(self) -> None:
        deadline = time.monotonic() + 30
        while self.game()["current"] != 0:
            assert time.monotonic() < deadline, "the bot did not move"
            time.sleep(0.05)


def test_the_hint_shows_the_chance_of_winning(pages: Pages, server: LiveServer) -> None:
    # The first heads-up hint builds the endgame table (seconds; longer on a loaded machine).
    with httpx.Client(base_url=server.url, timeout=300) as http:
        ann = Seat(http)
        for _ in range(10):  # two boxes left each: the heads-up endgame table decides
            ann.my_turn()
            game = ann.act({"kind": "roll"})
            best = max(game["potentials"].items(), key=lambda item: item[1])[0]
            ann.act({"kind": "score", "category": best})
        ann.my_turn()
        ann.act({"kind": "roll"})
        hint = {"type": "hint", "seat": 0, "token": ann.token}
        reply = http.post(f"/api/tables/{ann.code}/hint", json=hint).json()
    assert reply["exact"] is True
    chances = [f"{100 * o['win_probability']:.1f}%" for o in reply["options"]]
    totals = [f"{o['expected_total']:.1f}" for o in reply["options"]]
    page = pages.open(f"{server.url}/t/{ann.code}", seats={ann.code: {0: ann.token}})
    page.locator("#hint").click()
    box = page.locator("#hints")
    expect(box.locator("h3")).to_have_text("Best options (chance of winning, expected final total)")
    expect(box.locator("li .chance")).to_have_text(chances)
    expect(box.locator("li .expected")).to_have_text(totals)
    expect(box.locator("p.exact")).to_have_text("The chances are exact: the endgame is solved.")
    shot(page, "10-win-hint-desktop")
