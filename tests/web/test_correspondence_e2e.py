"""A correspondence game in two browsers: Ann opens a table with two days per move from the
lobby's form, Bob takes the other seat and waits on his table page; Ann moves and closes her
tab; Bob's tab title gets the count of games waiting on him ("(1) ..."), and his inbox lists
the game with its opponent, round, points and deadline."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from .live import LiveServer
from .pages import PHONE, Pages, serious_violations, shot


def test_a_move_made_and_the_tab_closed_shows_in_the_other_players_inbox_and_title(
    pages: Pages, server: LiveServer
) -> None:
    ann = pages.open(server.url + "/")
    expect(ann.locator("#open")).to_be_enabled()
    ann.fill("#name", "Ann")
    expect(ann.locator("#missed-row")).to_be_hidden()
    ann.select_option("#move-days", "2")
    expect(ann.locator("#missed-row")).to_be_visible()  # the missed moves' setting, 3 at first
    assert ann.input_value("#missed-moves") == "3"
    expect(ann.locator("#timer")).to_be_disabled()  # one clock or the other
    ann.click("#open")
    ann.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = ann.url.rsplit("/", 1)[1]
    with httpx.Client(base_url=server.url) as http:
        joined = http.post(f"/api/tables/{code}/join", json={"seat": 1, "name": "Bob"}).json()
    bob = pages.open(f"{server.url}/t/{code}", viewport=PHONE, seats={code: {1: joined["token"]}})
    expect(bob.locator("#letters")).to_contain_text("Move due by")  # Ann's, in Bob's time zone
    expect(ann.locator("#letters")).to_contain_text("Your move by")
    assert not bob.title().startswith("(")

    ann.click("#roll")
    expect(ann.locator("#rolls")).to_have_text("Roll 1 of 3")
    ann.locator("button.score:not(.zero)").first.click()
    expect(ann.locator("#letters")).to_contain_text("Move due by")
    ann.close()

    expect(bob.locator("#letters")).to_contain_text("Your move by")
    expect(bob).to_have_title(re.compile(r"^\(1\) Yacht · "))  # the turn came: the tab says so
    expect(bob.locator("[data-inbox-count]")).to_have_text("1")
    bob.goto(f"{server.url}/inbox")
    expect(bob).to_have_title("(1) Yacht · Inbox")
    game = bob.locator("#inbox li")
    expect(game).to_have_count(1)
    expect(game).to_contain_text("Against Ann")
    expect(game).to_contain_text("Round 1 of 12")
    expect(game).to_contain_text(re.compile(r"Points: Ann \d+, Bob 0"))
    expect(game).to_contain_text(re.compile(r"Time left: 1 day 23 hr|Time left: 2 days"))
    expect(bob.locator("#turn-sound")).not_to_be_checked()  # no sound unless asked for
    bob.check("#turn-sound")
    assert bob.evaluate("localStorage.getItem('yacht:turn-sound')") == "on"
    shot(bob, "correspondence-inbox-phone")
    assert serious_violations(bob) == []  # axe: the inbox page as a screen reader meets it
    game.locator("a").click()
    bob.wait_for_url(re.compile(f"/t/{code}$"))
    expect(bob.locator("#roll")).to_be_enabled()  # his seat, his move
