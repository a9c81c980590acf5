"""Accessibility of the table page, beyond the whole-game runs: axe-core on a table waiting for
players and on another player's turn (light and dark), and a whole turn played with the
keyboard alone (Tab, 1-5, R, H, Esc, Enter)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import expect

from .helpers import Table
from .live import LiveServer
from .pages import DESKTOP, PHONE, Pages, serious_violations, shot


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_waiting_table_and_another_players_turn_pass_axe(
    pages: Pages, server: LiveServer, scheme: str
) -> None:
    with httpx.Client(base_url=server.url) as http:
        table = Table.create(http, "human", "human", "human")  # type: ignore[arg-type]
        table.join(0, "Ann")
        seats = {table.code: {0: table.tokens[0]}}
        ann = pages.open(f"{server.url}/t/{table.code}", DESKTOP, scheme=scheme, seats=seats)
        expect(ann.locator("#turn")).to_contain_text("Waiting for players")
        guest = pages.open(f"{server.url}/t/{table.code}", PHONE, scheme=scheme)
        expect(guest.get_by_role("button", name="Join seat 2")).to_be_visible()
        for page, where in ((ann, "the inviting player"), (guest, "a guest")):
            found = serious_violations(page)
            assert found == [], f"axe on a waiting table, {where}:\n" + "\n".join(found)
        shot(ann, f"waiting-1280-{scheme}")
        table.join(1, "Bob")
        table.join(2, "Cy")
        table.play_turn(0)
        table.ok(1, {"kind": "roll"})
        expect(ann.locator("#turn")).to_contain_text("Bob's turn")
        expect(ann.locator(".sheet td .potential").first).to_be_visible()
        found = serious_violations(ann)
        assert found == [], "axe on another player's turn:\n" + "\n".join(found)
        shot(ann, f"others-turn-1280-{scheme}")


def test_a_whole_turn_with_the_keyboard_alone(pages: Pages, server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as http:
        table = Table.create(http, "human")  # type: ignore[arg-type]
        table.join(0, "Ann")
    page = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {0: table.tokens[0]}})
    expect(page.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn")
    # Tab reaches Roll; Enter rolls.
    for _ in range(12):
        if page.evaluate("document.activeElement.id") == "roll":
            break
        page.keyboard.press("Tab")
    expect(page.locator("#roll")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    page.keyboard.press("1")  # 1-5 hold
    page.keyboard.press("5")
    expect(page.locator("#dice .die.held")).to_have_count(2)
    page.keyboard.press("r")  # R rolls again, the held dice stay
    expect(page.locator("#rolls")).to_have_text("Roll 2 of 3")
    page.keyboard.press("h")  # H asks for a hint, Esc closes it
    expect(page.locator("#hints li").first).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#hints")).to_be_hidden()
    # Tab on to the first box with points to score, and Enter writes it.
    for _ in range(20):
        if page.evaluate("document.activeElement.matches('.score:not(.zero)')"):
            break
        page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    label = re.fullmatch(r"Score (\d+) in (.+)", focused or "")
    assert label is not None, focused
    page.keyboard.press("Enter")
    expect(page.locator("#log li").first).to_have_text(f"Ann scored {label[1]} in {label[2]}")
    expect(page.locator("#turn")).to_contain_text("Round 2 of 12 · Your turn")
    expect(page.locator("#roll")).to_be_focused()
