"""The people around a table, seen in the browser: a rematch both players agree to and the
series score, who is watching, a seat opened on another device, the whole game in the Moves
card, the replay's dice at every step with the review beside it, and sharing the invitation."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from yacht.coach import reason_text

from .helpers import Table
from .live import LiveServer
from .pages import PHONE, Pages, shot

FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url) as client:
        yield client


def wait_for(table: Table, done: Any, seconds: float = 30) -> dict[str, Any]:
    """The game once ``done(game)`` (the server's bots move on their own)."""
    deadline = time.monotonic() + seconds
    while not done(game := table.game):
        assert time.monotonic() < deadline, "the server did not move in time"
        time.sleep(0.05)
    return game


def play_turns(table: Table, seat: int, turns: int) -> dict[str, Any]:
    """Play ``turns`` of ``seat``'s turns (roll, hold two dice, roll, score), the bots'
    turns in between; the game after them."""
    game = table.game
    for _ in range(turns):
        game = wait_for(table, lambda g: g["status"] == "finished" or g["current"] == seat)
        if game["status"] == "finished":
            break
        table.ok(seat, {"kind": "roll"})
        table.ok(seat, {"kind": "hold", "positions": [1, 2]})
        game = table.ok(seat, {"kind": "roll"})
        game = table.ok(seat, {"kind": "score", "category": next(iter(game["potentials"]))})
    return game


def finished_pair(http: httpx.Client) -> Table:
    """Ann and Bob's game over; a bot played Bob's turns, and he took his seat back."""
    t = Table.create(http, "human", "human")  # type: ignore[arg-type]
    t.join(0, "Ann")
    t.join(1, "Bob")
    body = {"type": "hand_to_bot", "seat": 1, "by": 1, "bot": "random", "token": t.tokens[1]}
    assert t.post("hand-to-bot", body).status_code == 200
    play_turns(t, 0, 12)
    wait_for(t, lambda g: g["status"] == "finished" and g["review"] is not None, 90)
    assert t.post("take-back", {"type": "take_back", "seat": 1, "token": t.tokens[1]}).is_success
    return t


def seat_page(pages: Pages, server: LiveServer, t: Table, seat: int, **options: Any) -> Page:
    return pages.open(f"{server.url}/t/{t.code}", seats={t.code: {seat: t.tokens[seat]}}, **options)


def test_a_rematch_starts_when_both_agree_and_the_series_counts(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    t = finished_pair(http)
    first = t.game
    ann = seat_page(pages, server, t, 0)
    bob = seat_page(pages, server, t, 1, viewport=PHONE)
    ann.locator("#rematch").click()
    expect(ann.locator("#rematch-box")).to_contain_text("You asked for a rematch. Waiting for Bob.")
    expect(bob.locator("#rematch-box")).to_contain_text("Ann wants a rematch.")
    bob.get_by_role("button", name="Decline").click()
    expect(ann.locator("#rematch-box")).to_contain_text("Bob declined the rematch.")
    expect(ann.locator("#results")).to_be_visible()  # no game without Bob
    ann.locator("#rematch").click()
    ann.get_by_role("button", name="Withdraw").click()  # Ann changes her mind
    expect(bob.locator("#rematch-box")).to_contain_text("Ann withdrew the rematch.")
    ann.locator("#rematch").click()
    shot(bob, "together-rematch-asked-phone")
    bob.get_by_role("button", name="Accept").click()
    for page in (ann, bob):
        expect(page.locator("#results")).to_be_hidden()
    expect(ann.locator("#turn")).to_contain_text("Round 1 of 12")
    wins = first["series"]
    expect(ann.locator("#series")).to_have_text(f"Series Ann {wins[0]} · Bob {wins[1]}")


def test_the_players_see_who_is_watching(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    t = Table.create(http, "human", "random")  # type: ignore[arg-type]
    t.join(0, "Ann")
    ann = seat_page(pages, server, t, 0)
    expect(ann.locator("#watching")).to_be_hidden()
    carol = pages.open(f"{server.url}/t/{t.code}")
    carol.evaluate("localStorage.setItem('yacht:name', 'Carol')")
    carol.reload()
    pages.open(f"{server.url}/t/{t.code}")  # a watcher with no name
    expect(ann.locator("#watching")).to_have_text("2 watching: Carol")
    expect(carol.locator("#rolls")).to_contain_text("You are watching.")
    shot(ann, "together-watching-desktop")


def test_the_older_tab_hears_which_device_holds_the_seat_and_stops(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    t = Table.create(http, "human", "random")  # type: ignore[arg-type]
    t.join(0, "Ann")
    laptop = seat_page(pages, server, t, 0)
    expect(laptop.locator("#roll")).to_be_enabled()
    phone = seat_page(pages, server, t, 0, viewport=PHONE, user_agent=FIREFOX_ANDROID)
    notice = laptop.locator("#elsewhere")
    expect(notice).to_contain_text("open in another tab or device (Firefox on Android)")
    expect(laptop.locator("#roll")).to_be_disabled()  # no moves from here
    shot(laptop, "together-elsewhere-desktop")
    expect(phone.locator("#roll")).to_be_enabled()
    laptop.get_by_role("button", name="Play here").click()
    expect(notice).to_be_hidden()
    expect(phone.locator("#elsewhere")).to_contain_text(re.compile(r"\(Chrome on Linux\)"))
    laptop.locator("#roll").click()
    expect(laptop.locator("#dice .die").first).to_be_enabled()


def test_the_moves_card_holds_the_whole_game(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    t = Table.create(http, "human", "random")  # type: ignore[arg-type]
    t.join(0, "Ann")
    game = play_turns(t, 0, 4)  # 4 x 4 of Ann's moves, 4 turns of the bot: past the last 12
    game = wait_for(t, lambda g: g["current"] == 0)
    page = seat_page(pages, server, t, 0)
    log = page.locator("#log li:not(.start)")
    expect(log).to_have_count(game["version"])
    expect(log.last).to_contain_text(re.compile(r"^(Ann|Random bot) rolled"))
    page.locator("#roll").click()  # a new move joins the top of the whole list
    expect(log).to_have_count(game["version"] + 1)
    expect(log.first).to_contain_text("Ann rolled")


def test_the_replay_shows_the_dice_at_every_step_and_the_review(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    t = Table.create(http, "human", "random")  # type: ignore[arg-type]
    t.join(0, "Ann")
    play_turns(t, 0, 12)
    game = wait_for(t, lambda g: g["status"] == "finished" and g["review"] is not None, 90)
    page = pages.open(f"{server.url}/games/{game['id']}")
    review = page.locator("#review")
    expect(review).to_be_visible()
    rows = review.locator("tbody tr")
    expect(rows.first).to_be_visible()
    for _ in range(4):  # Ann's first turn: roll, hold, roll, score
        page.locator("#next").click()
    expect(page.locator("#step-text")).to_contain_text("Ann scored")
    expect(page.locator("#dice .blank").first).to_be_hidden()  # the scored dice, no "?"
    expect(page.locator("#dice svg circle").first).to_be_visible()
    expect(review.locator(".now")).to_contain_text("Ann took:")
    expect(review.locator("tr.current")).to_have_count(1)
    rows.nth(3).click()  # a row leads to its step
    expect(review.locator("tr.current")).to_have_count(1)
    expect(review.locator("tbody tr").nth(3)).to_have_class(re.compile(r"current"))
    shot(page, "together-replay-desktop")
    # A costly decision says why in words: the best option's reasons, then the one taken.
    full = http.get(f"/api/games/{game['id']}/review").json()
    ann = next(p for p in full["players"] if p["seat"] == 0)
    costly = [d for d in ann["decisions"] if d["why"]]
    assert costly, "playing to the end scores at once: some decisions cost half a point"
    d = costly[0]
    turn = page.locator("td:nth-child(2)", has_text=re.compile(rf"^{d['turn']}\.{d['roll']}$"))
    review.locator("tbody tr").filter(has_text="Ann").filter(has=turn).click()
    reasons = d["why"]["best"] + d["why"]["taken"]
    said = [reason_text(r["code"], r["args"], "en") for r in reasons]
    expect(review.locator(".now .why span")).to_have_text(said)
    shot(page, "31-replay-why-desktop")


def test_the_invitation_goes_through_the_phones_share_sheet(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    t = Table.create(http, "human", "human")  # type: ignore[arg-type]
    t.join(0, "Ann")
    desktop = seat_page(pages, server, t, 0)
    expect(desktop.locator("#copy-link")).to_be_visible()
    expect(desktop.locator("#share-link")).to_be_hidden()  # no share sheet here: Copy
    phone = seat_page(pages, server, t, 0, viewport=PHONE, is_mobile=True, has_touch=True)
    # A phone's share sheet, as Chromium has it on Android (not on a desktop Linux).
    phone.context.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    phone.reload()
    share = phone.get_by_role("button", name="Share")
    expect(share).to_be_visible()
    shot(phone, "together-share-phone")
    share.click()
    shared = phone.wait_for_function("() => window.shared").json_value()
    assert shared["url"] == f"{server.url}/t/{t.code}" and t.code in shared["title"]
