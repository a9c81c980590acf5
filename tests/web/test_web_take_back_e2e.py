"""A seat handed to a bot stays its holder's: the page offers the holder (and nobody else)
"Take back my seat", and after it the holder plays their turns again."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from .helpers import Table
from .live import LiveServer
from .pages import Pages

expect.set_options(timeout=15_000)


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url) as client:
        yield client


def test_a_player_takes_back_the_seat_a_bot_played(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = Table.create(http, "human", "human")  # type: ignore[arg-type]
    table.join(0, "Ann")
    table.join(1, "Bob")  # Bob plays through the API
    ann = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {0: table.tokens[0]}})
    watcher = pages.open(f"{server.url}/t/{table.code}")
    expect(ann.locator("#turn")).to_contain_text("Round 1 of 12")
    expect(ann.locator("[data-take-back]")).to_have_count(0)  # nothing to take back yet

    ann.locator(".seat").nth(0).get_by_label("Bot level for Ann's seat").select_option("greedy")
    ann.on("dialog", lambda dialog: dialog.accept())
    ann.get_by_role("button", name="Leave: a bot plays for me").click()
    expect(ann.locator(".seat").nth(0)).to_contain_text("bot: greedy")
    take_back = ann.get_by_role("button", name="Take back my seat")
    expect(take_back).to_be_visible()
    expect(watcher.locator(".seat").nth(0)).to_contain_text("bot: greedy")
    expect(watcher.locator("[data-take-back]")).to_have_count(0)  # only the holder may

    if table.game["current"] == 1:
        table.play_turn(1)
    expect(ann.locator("#log")).to_contain_text("Ann scored")  # the bot played Ann's turn
    table.wait_for(lambda g: g["current"] == 1)
    expect(ann.locator("#turn")).to_contain_text("Bob's turn")

    take_back.click()
    expect(ann.locator("[data-take-back]")).to_have_count(0)
    expect(ann.locator(".seat").nth(0)).not_to_contain_text("bot:")
    expect(watcher.locator(".seat").nth(0)).not_to_contain_text("bot:")
    assert table.state()["seats"][0]["kind"] == "human"
    scored = table.game["sheets"][0]

    table.play_turn(1)
    expect(ann.locator("#turn")).to_contain_text("Your turn")
    ann.keyboard.press("r")
    expect(ann.locator("#rolls")).to_have_text("Roll 1 of 3")
    assert table.game["sheets"][0] == scored  # no bot moved for Ann after she came back
