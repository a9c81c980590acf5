"""The table's and lobby's rough edges, as a player meets them: the keyboard's focus stays on
Roll, an away player's seat is offered to a bot with a live countdown (and a refusal says why in
every language), a zero is written only when asked twice, and a missing replay offers nothing to
play or check."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from .helpers import Table
from .live import LiveServer
from .pages import DESKTOP, Pages, shot

expect.set_options(timeout=15_000)


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url) as client:
        yield client


def solo(http: httpx.Client) -> Table:
    table = Table.create(http, "human")  # type: ignore[arg-type]
    table.join(0, "Ann")
    return table


def tab_to(page: Page, selector: str) -> None:
    for _ in range(30):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_enter_on_roll_keeps_the_focus_on_roll(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = solo(http)
    page = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {0: table.tokens[0]}})
    expect(page.locator("#roll")).to_be_enabled()
    tab_to(page, "#roll")
    page.keyboard.press("Enter")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    expect(page.locator("#roll")).to_be_focused()
    page.keyboard.press("Enter")  # and again: a second roll straight from the keyboard
    expect(page.locator("#rolls")).to_have_text("Roll 2 of 3")
    expect(page.locator("#roll")).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")


HAND = {
    "en": {
        "wait": "Hand to a bot in {n} sec",
        "ready": "Hand to a bot (medium)",
        "why": "has waited on them for",  # the server's own English words
        "bot": "bot: medium",
    },
    "fi": {
        "wait": "Anna paikka botille {n} s kuluttua",
        "ready": "Anna paikka botille (keskitasoinen)",
        "why": "kun peli on odottanut häntä minuutin",
        "bot": "botti: keskitasoinen",
    },
}


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_an_away_players_seat_is_offered_to_a_bot_with_a_countdown(
    pages: Pages,
    server: LiveServer,
    http: httpx.Client,
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
) -> None:
    words = HAND[lang]
    table = Table.create(http, "human", "human")  # type: ignore[arg-type]
    table.join(0, "Ann")
    table.join(1, "Bob")  # Bob never opens the page: he is away
    ann = pages.open(
        f"{server.url}/t/{table.code}", lang=lang, seats={table.code: {0: table.tokens[0]}}
    )
    ann.clock.install()
    expect(ann.locator("#roll")).to_be_enabled()
    bob = ann.locator(".seat").nth(1)
    # Not Bob's turn: the game does not wait on him, so nothing is offered yet.
    expect(bob.locator("[data-hand]")).to_have_count(0)

    table.play_turn(0)
    hand = bob.locator("[data-hand]")
    expect(hand).to_have_text(words["wait"].format(n=60))
    expect(hand).to_be_disabled()
    ann.clock.run_for(30_000)  # the countdown is live
    expect(hand).to_have_text(words["wait"].format(n=30))
    expect(hand).to_be_disabled()
    ann.clock.run_for(31_000)
    expect(hand).to_have_text(words["ready"])
    expect(hand).to_be_enabled()
    shot(ann, f"hand-to-bot-{lang}")

    # This page's clock ran ahead of the server's: refused, and the toast says why.
    hand.click()
    expect(ann.locator("#toast")).to_contain_text(words["why"])
    assert table.state()["seats"][1]["kind"] == "human"

    monkeypatch.setattr("yacht.web.service.decisions.GRACE", 0.0)  # the server's minute passes
    hand.click()
    expect(bob.locator(".tags")).to_contain_text(words["bot"])
    assert table.state()["seats"][1]["kind"] == "bot"


def zero_box(page: Page) -> str:
    """A box the dice score 0 in (Yacht unless the dice are five of a kind)."""
    found = page.locator("#sheet button.score.zero").evaluate_all(
        "bs => bs.map(b => b.dataset.category)"
    )
    assert found, "the dice score something in every box"
    return "yacht" if "yacht" in found else str(found[0])


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_zero_is_written_only_when_asked_twice(
    pages: Pages, server: LiveServer, http: httpx.Client, lang: str
) -> None:
    table = solo(http)
    page = pages.open(
        f"{server.url}/t/{table.code}", DESKTOP, lang=lang, seats={table.code: {0: table.tokens[0]}}
    )
    expect(page.locator("#roll")).to_be_enabled()
    page.locator("#roll").click()
    expect(page.locator("#sheet button.score").first).to_be_visible()
    category = zero_box(page)
    box = page.locator(f'#sheet button.score[data-category="{category}"]')
    dialog = page.locator("#zero")

    box.click()
    expect(dialog).to_be_visible()
    label = "Score 0 in" if lang == "en" else "Merkitäänkö 0 kategoriaan"
    expect(dialog).to_contain_text(label)
    expect(page.locator("#zero-no")).to_be_focused()  # Enter alone does not spend the box
    shot(page, f"zero-confirm-{lang}")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    box.click()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert category not in table.game["sheets"][0]
    expect(page.locator("#log li")).to_have_count(1)  # the roll only

    box.click()
    page.locator("#zero-yes").click()
    expect(page.locator(f'.sheet td.filled[data-category="{category}"]')).to_have_text("0")
    assert table.game["sheets"][0][category] == 0


def test_a_box_with_points_is_written_at_once(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = solo(http)
    page = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {0: table.tokens[0]}})
    page.locator("#roll").click()
    box = page.locator("#sheet button.score:not(.zero)").first
    category = box.get_attribute("data-category")
    box.click()
    expect(page.locator(f'.sheet td.filled[data-category="{category}"]')).not_to_have_text("0")
    expect(page.locator("#zero")).to_be_hidden()


def test_a_missing_game_offers_nothing_to_play_or_check(pages: Pages, server: LiveServer) -> None:
    pages.allow(r"/api/games/999/replay|status of 404")  # the page asks, and is told there is none
    page = pages.open(f"{server.url}/games/999")
    expect(page.locator("#title")).to_have_text("There is no finished game with this number.")
    for control in ("#play", "#first", "#next", "#step", "#verify"):
        expect(page.locator(control)).to_be_hidden()
    expect(page.get_by_role("link", name="Finished games")).to_be_visible()
    expect(page).to_have_title(re.compile("Replay"))
