"""The chance of winning in the browser (Debian's Chromium, headless, through Playwright): a
person against the medium bot asks for a hint in the heads-up endgame and sees each option's
P(win) beside the expected total, marked exact. The screenshot goes to test-artifacts/web/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from .helpers import AnnSeat
from .live import LiveServer
from .pages import Pages, shot


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "yacht.sqlite3", bot_delay=0)
    live.start()
    yield live
    live.stop()


def test_the_hint_shows_the_chance_of_winning(pages: Pages, server: LiveServer) -> None:
    # The first heads-up hint builds the endgame table (seconds; longer on a loaded machine).
    with httpx.Client(base_url=server.url, timeout=300) as http:
        ann = AnnSeat(http)
        for _ in range(10):  # two boxes left each: the heads-up endgame table decides
            ann.wait(lambda g: g["current"] == 0)
            game = ann.act({"kind": "roll"})
            best = max(game["potentials"].items(), key=lambda item: item[1])[0]
            ann.act({"kind": "score", "category": best})
        ann.wait(lambda g: g["current"] == 0)
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
