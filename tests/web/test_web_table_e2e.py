"""The table page's small promises, each seen in the browser: an unknown code, the roll-off,
the focus after scoring by keyboard, holds logged as faces, another player's possible scores,
and names the server sends as ids shown in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from .helpers import Table
from .live import LiveServer
from .pages import Pages, new_table


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url) as client:
        yield client


def faces(page: Page) -> list[int]:
    labels = [d.get_attribute("aria-label") or "" for d in page.locator("#dice .die").all()]
    return [int(re.search(r": (\d)", label)[1]) for label in labels]  # type: ignore[index]


def test_an_unknown_table_code_says_so_and_leads_to_the_lobby(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    assert http.get("/t/ZZZZZZ").status_code == 404
    pages.allow(r"/t/ZZZZZZ: console: Failed to load resource: .* 404")  # the page itself
    page = pages.open(server.url + "/t/ZZZZZZ")
    expect(page.get_by_role("heading", name="No such table")).to_be_visible()
    expect(page.locator("#board")).to_be_hidden()
    expect(page.locator("#conn")).to_be_hidden()  # no "Reconnecting..." for ever
    page.get_by_role("link", name="Back to the lobby").click()
    page.wait_for_url(server.url + "/")
    expect(page.get_by_role("button", name="Open the table")).to_be_visible()


def test_the_roll_off_is_shown_before_the_first_move(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = Table.create(http, "human", "human", start="roll-off")  # type: ignore[arg-type]
    table.join(0, "Ann")
    table.join(1, "Bob")
    game = table.game
    first = ["Ann", "Bob"][game["first"]]
    page = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {0: table.tokens[0]}})
    rolls = game["start_rolls"][0]
    note = page.locator("#start-note")
    expect(note).to_contain_text(f"Roll-off: Ann {rolls[0]}, Bob {rolls[1]}")
    expect(note).to_contain_text(f"{first} starts.")
    expect(page.locator("#log li.start")).to_have_text(note.inner_text())


def test_focus_stays_in_the_game_after_scoring_with_enter(pages: Pages, server: LiveServer) -> None:
    code, token = new_table(server, "human")
    page = pages.open(f"{server.url}/t/{code}", seats={code: {0: token}})
    expect(page.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn")
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    page.locator("button.score:not(.zero)").first.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#turn")).to_contain_text("Round 2 of 12 · Your turn")
    expect(page.locator("#roll")).to_be_focused()  # it dropped to <body>
    page.keyboard.press("Enter")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")


def test_a_hold_is_logged_as_the_faces_held(pages: Pages, server: LiveServer) -> None:
    code, token = new_table(server, "human")
    page = pages.open(f"{server.url}/t/{code}", seats={code: {0: token}})
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    page.keyboard.press("1")
    expect(page.locator("#dice .die").nth(0)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("3")
    expect(page.locator("#dice .die.held")).to_have_count(2)
    dice = faces(page)
    held = " ".join(str(f) for f in sorted([dice[0], dice[2]]))
    expect(page.locator("#log li").first).to_have_text(f"Ann held {held}")


def test_another_players_possible_scores_are_marked_as_such(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = Table.create(http, "human", "human")  # type: ignore[arg-type]
    table.join(0, "Ann")
    table.join(1, "Bob")
    page = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {0: table.tokens[0]}})
    table.play_turn(0)
    table.ok(1, {"kind": "roll"})
    possible = page.locator(".sheet td .potential")
    expect(possible).to_have_count(12)  # all of Bob's boxes are open
    expect(possible.first).to_contain_text("possible")
    style = possible.first.evaluate(
        "e => [getComputedStyle(e).fontStyle, getComputedStyle(e).borderTopStyle]"
    )
    assert style == ["italic", "dashed"]
    expect(page.locator(".sheet td.filled")).to_have_count(1)  # Ann's score: plain and bold


def test_bots_and_presets_are_named_in_the_readers_language(
    pages: Pages, server: LiveServer
) -> None:
    lobby = pages.open(server.url + "/", lang="fi")
    lobby.select_option("#seat-count", "3")
    seat = lobby.locator("#seat-specs select").nth(2)
    expect(seat.locator("option:checked")).to_have_text("botti: keskitasoinen")
    options = lobby.locator("#preset option").all_inner_texts()
    assert "Neljä samaa laskee kaikki nopat" in options and "all-dice-four" not in options
    expect(lobby.locator("#preset-about")).to_contain_text("ei bonuksia")

    code, token = new_table(server, "human", "medium", "hard")
    page = pages.open(f"{server.url}/t/{code}", lang="bg", seats={code: {0: token}})
    panels = page.locator("#players .panel")
    expect(panels.nth(1)).to_contain_text("Среден бот")
    expect(panels.nth(1)).to_contain_text("бот: среден")
    expect(panels.nth(2)).to_contain_text("Труден бот")
