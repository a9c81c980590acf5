"""The daily game in two browsers (issue 31's "done when"): two guests, one on a desktop in
English and one on a phone in Finnish, start the same day's game and roll the same dice; they
hold differently and still draw the same value in each slot both rerolled. Then each game is
played to its end (through the API, with the browser's own guest token, to keep the browser's
time small) and the result, the share text and the ranking are looked at in every language,
light and dark, at 360 and 1280 px (screenshots in test-artifacts/web/)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from playwright.sync_api import Page, expect

from yacht.web.api.routes.daily import daily_service
from yacht.web.service.fairness import verify

from .live import LiveServer
from .pages import PHONE, Pages, serious_violations, shot, wider_than_screen
from .test_web_english_e2e import english

DAY = datetime(2026, 12, 2, 9, 30, tzinfo=UTC).timestamp()


async def in_thread(work: Any, *args: Any) -> Any:
    return await asyncio.to_thread(work, *args)


def faces(page: Page) -> list[int]:
    """The five dice as drawn: each die's pips counted."""
    counts: list[int] = page.eval_on_selector_all(
        "#dice button", "dice => dice.map(d => d.querySelectorAll('.pip').length)"
    )
    return counts


def step(page: Page, click: str) -> None:
    """Click, and wait for the game's next version on the page."""
    board = page.locator("#daily-board")
    version = board.get_attribute("data-version")
    page.click(click)
    page.wait_for_function(
        "v => document.querySelector('#daily-board').dataset.version !== v", arg=version
    )


def finish(page: Page, server: LiveServer) -> None:
    """Play the rest of the page's game through the API with its guest token: roll once and
    score the category with the most points, turn by turn; then load the page again."""
    token = page.evaluate("localStorage.getItem('yacht:daily-guest')")
    headers = {"X-Yacht-Guest": token}
    game = page.request.get(server.url + "/api/daily", headers=headers).json()["mine"]
    while game["status"] != "finished":
        url = f"{server.url}/api/daily/games/{game['id']}/action"
        for action in ("roll", "score"):
            if action == "score":
                best = max(game["potentials"], key=lambda c: game["potentials"][c])
                action = f"score {best}"
            elif game["dice"] is not None:
                continue
            r = page.request.post(
                url, data={"action": action, "version": game["version"]}, headers=headers
            )
            assert r.ok, r.text()
            game = r.json()
    page.reload()
    expect(page.locator("#daily-result")).to_be_visible()


def test_two_browsers_hold_differently_and_draw_the_same_dice(
    pages: Pages, server: LiveServer
) -> None:
    assert server._server is not None
    daily = daily_service(server._server.config.app)
    daily.clock = lambda: DAY
    daily.work = in_thread
    ann = pages.open(server.url + "/daily")
    bob = pages.open(server.url + "/daily", PHONE, lang="fi", scheme="dark")
    for page in (ann, bob):
        expect(page.locator("#daily-start")).to_be_visible()
        page.click("#daily-start")
        expect(page.locator("#daily-board")).to_be_visible()
        step(page, "#roll")
    first = faces(ann)
    assert faces(bob) == first and 0 not in first  # the day's first roll, for everyone
    ann.click("#dice button[data-slot='1']")
    ann.click("#dice button[data-slot='2']")
    bob.keyboard.press("5")  # the keys hold too
    expect(bob.locator("#dice button[data-slot='5']")).to_have_attribute("aria-pressed", "true")
    step(ann, "#roll")
    step(ann, "#roll")  # the hold, then the roll
    step(bob, "#roll")
    step(bob, "#roll")
    a, b = faces(ann), faces(bob)
    assert a[:2] == first[:2] and b[4] == first[4]  # held slots kept their dice
    assert a[2:4] == b[2:4]  # slots 3 and 4, rerolled by both: the same values
    assert serious_violations(ann) == [] and serious_violations(bob) == []
    shot(ann, "daily-play-en-1280-light")
    shot(bob, "daily-play-fi-360-dark")
    step(ann, "#sheet button[data-score]")
    finish(ann, server)
    finish(bob, server)
    # the optimal player's total shows to a player who finished; guests are not ranked
    expect(ann.locator("#ranking-note")).to_contain_text("optimal player scored")
    expect(ann.locator("#ranking")).to_contain_text("Nobody has finished")
    for page, size, scheme in ((ann, 1280, "light"), (bob, 360, "dark")):
        share = page.locator("#share-text").inner_text().splitlines()
        assert len(share) == 2 + 12  # the day and the figures, then a line per category
        assert all(
            len(line.split()[0]) == 5 and set(line.split()[0]) <= set("■□") for line in share[2:]
        )
        for lang in ("en", "fi", "bg", "nb"):
            page.select_option("#lang", lang)
            expect(page.locator("html")).to_have_attribute("lang", lang)
            if lang != "en":
                assert english(page, lang) == []
            assert wider_than_screen(page) == []
            shot(page, f"daily-result-{lang}-{size}-{scheme}", full=True)
    # the next day: yesterday's seed is out, and the game downloaded from the page verifies
    commitment = ann.locator("#fair dd").first.inner_text()
    daily.clock = lambda: DAY + 86400
    ann.reload()
    link = ann.locator("#yesterday-game")
    expect(link).to_be_visible()
    assert ann.locator("#fair dd").nth(2).inner_text() != commitment  # the seed, not a hash
    data = ann.request.get(server.url + "/" + str(link.get_attribute("href"))).json()
    assert verify(data, commitment=commitment).outcome == "daily"
