"""The web game in a real browser (Debian's Chromium, headless, through Playwright).

Two people in separate browsers play a whole 12-round game with a bot at the table while a
spectator watches every move; one of them reloads the page in the middle of a turn; a server
restart in the middle of a game is survived by the open page. Screenshots of each step (360 px
phone and desktop) are kept in test-artifacts/web/.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .live import ARTIFACTS, LiveServer
from .pages import Pages, write

PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}
expect.set_options(timeout=15_000)


def shot(page: Page, name: str) -> None:
    page.wait_for_function("() => !document.querySelector('.die.rolling')")
    page.evaluate("window.scrollTo(0, 0)")  # the top bar is sticky: keep it on top
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def dice_labels(page: Page) -> list[str]:
    return [d.get_attribute("aria-label") or "" for d in page.locator("#dice .die").all()]


def score_first_open(page: Page, name: str, spectator: Page) -> None:
    """Score the first open category; the spectator must see exactly that move."""
    button = page.locator("button.score >> visible=true").first
    expect(button).to_be_visible()
    label = re.fullmatch(r"Score (\d+) in (.+)", button.get_attribute("aria-label") or "")
    assert label is not None
    write(button)
    move = re.compile(f"^{re.escape(f'{name} scored {label[1]} in {label[2]}')}$")
    expect(spectator.locator("#log li").filter(has_text=move)).to_have_count(1)


def test_two_people_a_bot_and_a_spectator_play_a_whole_game(
    pages: Pages, server: LiveServer
) -> None:
    ann = pages.open(server.url + "/", DESKTOP)
    ann.fill("#name", "Ann")
    ann.select_option("#seat-count", "3")
    ann.locator("#seat-specs select").nth(2).select_option("bot:greedy")
    shot(ann, "01-lobby-desktop")
    ann.get_by_role("button", name="Open the table").click()
    ann.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    expect(ann.locator("#turn")).to_contain_text("Waiting for players")
    invite = ann.locator("#invite-link").input_value()
    code = invite.rsplit("/", 1)[1]
    expect(ann.locator("#invite-code")).to_have_text(code)
    shot(ann, "02-invite-desktop")

    bob = pages.open(invite, PHONE, is_mobile=True, has_touch=True)
    spectator = pages.open(invite, DESKTOP)
    bob.fill("#join-name", "Bob")
    shot(bob, "03-join-phone")
    bob.get_by_role("button", name="Join seat 2").click()
    for page in (ann, bob, spectator):
        expect(page.locator("#turn")).to_contain_text("Round 1 of 12")
    expect(spectator.locator("#join")).to_be_hidden()  # every seat is taken: watching only
    expect(spectator.locator("#roll")).to_be_disabled()

    for round_ in range(1, 13):
        # Ann plays with the keyboard: R rolls, 1-5 hold.
        expect(ann.locator("#turn")).to_contain_text(f"Round {round_} of 12 · Your turn")
        expect(bob.locator("#turn")).to_contain_text("Ann's turn")
        ann.keyboard.press("r")
        expect(ann.locator("#rolls")).to_have_text("Roll 1 of 3")
        if round_ == 4:  # hold two dice, then reload the page in the middle of the turn
            ann.keyboard.press("2")
            expect(ann.locator("#dice .die").nth(1)).to_have_attribute("aria-pressed", "true")
            ann.locator("#dice .die").nth(3).click()
            expect(ann.locator("#dice .die").nth(3)).to_have_attribute("aria-pressed", "true")
            expect(spectator.locator("#dice .die.held")).to_have_count(2)
            before = dice_labels(ann)
            shot(ann, "04-held-desktop")
            ann.reload()
            expect(ann.locator("#turn")).to_contain_text("Round 4 of 12 · Your turn")
            expect(ann.locator("#rolls")).to_have_text("Roll 1 of 3")
            assert dice_labels(ann) == before
            assert [d.get_attribute("aria-pressed") for d in ann.locator("#dice .die").all()] == [
                "false",
                "true",
                "false",
                "true",
                "false",
            ]
        if round_ == 6 and ann.locator("#hint").is_visible():
            ann.locator("#hint").click()
            expect(ann.locator("#hints li").first).to_be_visible()
            # Three players: each option also shows its chance of winning.
            expect(ann.locator("#hints li .chance").first).to_have_text(re.compile(r"^\d+\.\d%$"))
            shot(ann, "05-hint-desktop")
        score_first_open(ann, "Ann", spectator)

        # Bob plays on a phone by tapping.
        expect(bob.locator("#turn")).to_contain_text(f"Round {round_} of 12 · Your turn")
        bob.locator("#roll").click()
        expect(bob.locator("button.score").first).to_be_visible()
        if round_ == 2:
            shot(bob, "06-turn-phone")
            shot(spectator, "07-spectator-desktop")
        score_first_open(bob, "Bob", spectator)
        if round_ < 12:  # the bot moves on its own, then it is Ann's turn again
            expect(spectator.locator("#turn")).to_contain_text(f"Round {round_ + 1} of 12")

    for page in (ann, bob, spectator):
        expect(page.locator("#results")).to_be_visible()
        expect(page.locator("#results-title")).to_contain_text(re.compile(r"wins|Shared win"))
    final = spectator.locator(".sheet .total td").all_inner_texts()
    assert (
        final
        == ann.locator(".sheet .total td").all_inner_texts()
        == bob.locator(".sheet .total td").all_inner_texts()
    )
    expect(spectator.locator(".review")).to_have_count(3, timeout=60_000)
    expect(spectator.locator("#results")).to_have_attribute("aria-busy", "false")
    spectator.locator(".review summary").first.click()  # every decision, fetched on demand
    rows = spectator.locator(".review").first.locator("tbody tr:not(.why)")  # not the coach's
    expect(rows).to_have_count(12, timeout=10_000)
    # Ann rolled once a turn: one decision (the scoring) in each of 12 turns
    # With opponents the review rates by the hint's measure, the chance of winning, not by
    # expected points.
    first = spectator.locator(".review").first
    expect(first).to_contain_text("Rated as the hint ranks: by the chance to finish first.")
    expect(first.locator("tbody tr td:last-child").first).to_contain_text("%")
    expect(ann.locator("#rematch")).to_be_visible()
    expect(spectator.locator("#rematch")).to_have_count(0)
    spectator.get_by_role("button", name="Check every roll").click()
    expect(spectator.locator("#verdict")).to_contain_text("Fair by rule 3: all")
    shot(ann, "08-results-desktop")
    expect(bob.locator(".review")).to_have_count(3)
    shot(bob, "09-results-phone")
    spectator.select_option("#lang", "fi")
    expect(spectator.locator("#turn")).to_have_text("Peli päättyi")
    expect(spectator.locator("#conn")).to_have_text("Yhdistetty")
    shot(spectator, "10-results-finnish")

    bob.locator("#rematch").click()  # a proposal: the game starts when Ann agrees too
    expect(ann.locator("#rematch-box")).to_contain_text("Bob wants a rematch.")
    expect(spectator.locator("#results")).to_be_visible()
    ann.get_by_role("button", name="Accept").click()
    for page in (ann, bob, spectator):
        expect(page.locator("#results")).to_be_hidden()
    expect(ann.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn")

    # The finished game can be browsed and replayed.
    bob.goto(server.url + "/games")
    expect(bob.locator("#games tr")).to_have_count(1)
    bob.get_by_role("link", name="Replay").click()
    expect(bob.locator("#step-text")).to_have_text("Before the first roll")
    bob.locator("#last").click()
    expect(bob.locator("#step-text")).to_contain_text(re.compile(r"wins|Shared win"))
    assert bob.locator(".sheet .total td").all_inner_texts() == final
    bob.locator("#first").click()
    bob.locator("#next").click()
    expect(bob.locator("#step-text")).to_contain_text("Ann rolled")
    shot(bob, "12-replay-phone")


def test_one_browser_holds_two_seats(pages: Pages, server: LiveServer) -> None:
    page = pages.open(server.url + "/", DESKTOP)
    page.fill("#name", "Ann")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#turn")).to_contain_text("Waiting for players")
    page.fill("#join-name", "Bea")
    page.get_by_role("button", name="Join seat 2").click()
    expect(page.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn, Ann")
    page.keyboard.press(" ")
    score = page.locator("button.score").first
    expect(score).to_be_visible()
    write(score)
    expect(page.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn, Bea")
    expect(page.locator(".sheet thead th.current")).to_contain_text("Bea")
    shot(page, "13-pass-and-play-desktop")


def test_keys_pressed_faster_than_the_server_answers_are_all_kept(
    pages: Pages, server: LiveServer
) -> None:
    page = pages.open(server.url + "/", DESKTOP)
    page.fill("#name", "Ann")
    page.locator("fieldset select").nth(1).select_option(label="bot: greedy")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_contain_text("Roll 1 of 3")  # the roll has arrived
    for key in "135":  # no wait between keys: each is sent before the last one's answer
        page.keyboard.press(key)
    pressed = page.locator('#dice .die[aria-pressed="true"]')
    expect(pressed).to_have_count(3)
    page.keyboard.press("3")
    page.keyboard.press("r")  # queued behind the release of die 3
    expect(page.locator("#rolls")).to_contain_text("Roll 2 of 3")
    expect(pressed).to_have_count(2)


def test_the_open_page_survives_a_server_restart(pages: Pages, server: LiveServer) -> None:
    ann = pages.open(server.url + "/", PHONE, is_mobile=True, has_touch=True)
    ann.fill("#name", "Ann")
    ann.select_option("#seat-count", "2")
    ann.locator("#seat-specs select").nth(1).select_option("bot:easy")
    shot(ann, "00-lobby-phone")
    ann.get_by_role("button", name="Open the table").click()
    expect(ann.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn")
    ann.locator("#roll").click()
    expect(ann.locator("button.score").first).to_be_visible()
    write(ann.locator("button.score").first)
    expect(ann.locator("#turn")).to_contain_text("Round 2 of 12 · Your turn")  # the bot moved
    ann.locator("#roll").click()
    expect(ann.locator("#rolls")).to_have_text("Roll 1 of 3")
    ann.locator("#dice .die").nth(0).click()
    expect(ann.locator("#dice .die").nth(0)).to_have_attribute("aria-pressed", "true")
    before = dice_labels(ann)
    sheet = ann.locator(".sheet").inner_text()

    # While the server is down the page's reconnection attempts are refused, and Chromium
    # says so on the console: expected here, and only here.
    pages.allow(r"console: WebSocket connection to .* failed: .*ERR_CONNECTION_REFUSED")
    server.stop()
    expect(ann.locator("#conn")).to_have_text("Reconnecting…")
    server.start()  # a new app on the same database file and port
    expect(ann.locator("#conn")).to_have_text("Live")
    assert dice_labels(ann) == before and ann.locator(".sheet").inner_text() == sheet
    shot(ann, "11-after-restart-phone")
    ann.locator("#roll").click()
    expect(ann.locator("#rolls")).to_have_text("Roll 2 of 3")
    assert dice_labels(ann)[0] == before[0]  # the held die stayed
    write(ann.locator("button.score").first)
    expect(ann.locator("#turn")).to_contain_text("Round 3 of 12 · Your turn")


def test_a_player_leaving_picks_the_bot_that_plays_on(pages: Pages, server: LiveServer) -> None:
    ann = pages.open(server.url + "/", DESKTOP)
    ann.fill("#name", "Ann")
    ann.get_by_role("button", name="Open the table").click()
    expect(ann.locator("#turn")).to_contain_text("Waiting for players")
    bob = pages.open(ann.locator("#invite-link").input_value(), PHONE)
    bob.fill("#join-name", "Bob")
    bob.get_by_role("button", name="Join seat 2").click()
    expect(ann.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn")
    # The level sits beside Bob's own Leave button and is named for his seat (a lone "Bot
    # level" select at the bottom of the Seats card read as another bot's setting).
    level = bob.locator(".seat").nth(1).get_by_label("Bot level for Bob's seat")
    expect(bob.locator("#seats select")).to_have_count(1)
    level.select_option("greedy")
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.get_by_role("button", name="Leave: a bot plays for me").click()
    expect(ann.locator(".seat").nth(1)).to_contain_text("bot: greedy")
    expect(ann.locator(".seat").nth(1).locator("select")).to_have_count(0)
    ann.keyboard.press("r")
    write(ann.locator("button.score").first)
    expect(ann.locator("#turn")).to_contain_text("Round 2 of 12 · Your turn")  # the bot played
    expect(ann.locator("#log")).to_contain_text("Bob scored")


def test_the_page_checks_dice_exactly_like_yacht_verify(pages: Pages, tmp_path: Path) -> None:
    import copy
    import json
    import time
    import urllib.request

    from yacht.dice import FairDice, PlacedDice
    from yacht.web.service.fairness import verify

    def get(path: str, body: object = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            live.url + path, data=data, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request) as response:
            return json.loads(response.read())

    live = LiveServer(tmp_path / "bots.sqlite3", bot_delay=0)  # nobody watches these bots
    live.start()
    seats = [{"kind": "bot", "bot": "greedy"}] * 3
    code = get("/api/tables", {"seats": seats, "start": "roll-off", "client_seed": "x:y"})["code"]
    deadline = time.monotonic() + 60
    while (game := get(f"/api/tables/{code}")["game"])["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    data = get(f"/api/games/{game['id']}")
    verdict = verify(data)  # bots only: every die re-derives, but no player's seed is in the key
    assert data["start"]["rolls"] and verdict.alone and not verdict.problems

    page = pages.open(live.url + "/", DESKTOP)
    check = "async (data) => (await import('/static/js/fair.js')).verifyGame(data)"
    result = page.evaluate(check, data)
    rolls = sum(e["action"] == "roll" for e in data["events"])
    assert result == {
        "fair": False,
        "alone": True,
        "rule": 3,
        "seeds": 0,
        "rolls": rolls,
        "dice": verdict.dice,
        "problems": [],
    }
    seed, key = data["dice"]["server_seed"], data["dice"]["key"]
    places = [(s, t, r, p) for s in range(3) for t in (0, 11) for r in range(3) for p in range(5)]
    derive = "async ([s, k, places]) => { const f = await import('/static/js/fair.js');"
    derive += " return Promise.all(places.map((at) => f.placedFace(s, k, ...at))); }"
    faces = page.evaluate(derive, [seed, key, places])
    assert faces == [PlacedDice(seed, key).roll_at(s, t, r, [p])[0] for s, t, r, p in places]
    derive = "async ([s, c, n]) => { const f = await import('/static/js/fair.js');"
    derive += " return Array.from({length: n}, (_, i) => f.fairDie(s, c, i)); }"
    faces = page.evaluate(derive, [seed, key, 60])  # rules 1 and 2, one counter
    assert faces == [FairDice.die(seed, key, i) for i in range(60)]
    for where in ("start", "event"):
        tampered = copy.deepcopy(data)
        if where == "start":
            tampered["start"]["rolls"][0][0] = tampered["start"]["rolls"][0][0] % 6 + 1
        else:
            roll = next(e for e in tampered["events"] if e["action"] == "roll")
            roll["dice"][4] = roll["dice"][4] % 6 + 1
        assert page.evaluate(check, tampered)["problems"]
        assert verify(tampered).problems
    live.stop()
