"""The game in the pocket, in Chromium: the play page is an installable app (the DevTools
protocol finds no installability error), and after one visit with the server up, the server is
stopped (really stopped: the port refuses) and a whole game against the `optimal` bot is played
to its end on the page, with a hint, a reload in the middle that takes the game up again from
IndexedDB, the final total's distribution and the chance to reach a target, and the review;
then the server comes back, and the game goes into the signed-in player's history once, however
often the page reloads. And a new version of the app waits for the game in progress to end."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import numpy as np
import pytest
from playwright.sync_api import ConsoleMessage, Page

from yacht.bots.basic import GreedyBot
from yacht.dice import PlacedDice
from yacht.game import TurnView
from yacht.rules import CATEGORIES, Category, rules_by_name
from yacht.strategy.remaining import remaining
from yacht.strategy.target import target_probability
from yacht.web.api import offline

from .live import CHROMIUM, CHROMIUM_ARGS, LiveServer
from .pages import PHONE, Pages, serious_violations


@pytest.fixture
def app_page(browser: Any, tmp_path: Path) -> Iterator[Page]:
    """A page in a browser profile of its own on disk: an incognito context (Playwright's
    new_context) is never installable. Fails the test on any script error, as `pages` does."""
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
    )
    context.add_init_script(
        "localStorage.setItem('yacht:lang', 'en'); localStorage.setItem('yacht:bot-delay', '0');"
    )
    page = context.pages[0] if context.pages else context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))

    def console(m: ConsoleMessage) -> None:
        # With the server gone, the page's one try of the network (is anyone signed in, to
        # send finished games?) fails as it should; any other failed load is an error.
        refused = m.text.startswith("Failed to load resource: net::ERR_CONNECTION_REFUSED")
        if m.type == "error" and not (refused and m.location["url"].endswith("/api/me")):
            errors.append(f"{page.url}: console: {m.text} ({m.location['url']})")

    page.on("console", console)
    yield page
    context.close()
    assert errors == [], "script errors on the page:\n" + "\n".join(errors)


def open_play(page: Page, server: LiveServer) -> Page:
    page.goto(f"{server.url}/play")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    return page


def human_turn(page: Page) -> None:
    """Roll once and score the first open box (as the sheet lists them)."""
    page.locator("#roll:enabled").click()
    page.locator("#sheet button.box").first.click()


SAVED = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("yacht-offline");
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const all = open.result.transaction("games").objectStore("games").getAll();
    all.onsuccess = () => resolve(all.result);
  };
})"""


SIGN_UP = """async () => {
  const body = JSON.stringify({ name: "Ann", password: "correct horse battery" });
  const headers = { "Content-Type": "application/json" };
  const r = await fetch("api/accounts", { method: "POST", body, headers });
  if (r.status !== 201) throw new Error(`sign-up: ${r.status}`);
  localStorage.setItem("yacht:account", "Ann");
}"""


def round_text(page: Page) -> str:
    return page.locator("#round").inner_text()


def test_a_new_version_waits_for_the_end_of_the_game(
    app_page: Page, server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = open_play(app_page, server)
    page.locator("#seat-count").select_option("1")
    page.locator("#start").click()
    page.locator("#roll:enabled").click()
    monkeypatch.setattr(offline, "version", lambda: "0123456789abcdef")  # a new release
    page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    page.locator("#update").wait_for()
    assert "it loads after this game" in page.locator("#update").inner_text()
    assert page.locator("#update-now").is_hidden()
    page.locator("#sheet button.box").first.click()
    for _ in range(11):
        human_turn(page)
    page.locator("#results").wait_for()
    assert page.locator("#update-now").is_visible()  # between games: offered, not forced
    with page.expect_navigation():
        page.locator("#update-now").click()
    page.wait_for_selector("body[data-ready='true']")
    assert "yacht-0123456789abcdef" in page.evaluate("caches.keys()")
    assert page.locator("#results").is_visible()  # the finished game is still there


def test_installable_and_a_whole_game_with_the_server_gone(
    app_page: Page, server: LiveServer
) -> None:
    page = open_play(app_page, server)
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # Headless Chromium never offers to install (it waits for engagement): the offer, simulated.
    offer = 'Object.assign(new Event("beforeinstallprompt"), {prompt: () => (window.asked = 1)})'
    page.evaluate(f"() => window.dispatchEvent({offer})")
    page.locator("#install").click()
    assert page.evaluate("window.asked") and page.locator("#install").is_hidden()
    page.evaluate(SIGN_UP)  # signed in on this device: its offline games are Ann's

    server.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{server.url}/play", timeout=2)
    page.reload()  # the start URL, from the worker's cache
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("#setup").is_visible()

    page.locator("#seat-count").select_option("2")
    assert page.locator("#seats select").nth(1).input_value() == "optimal"
    page.locator("#start").click()
    page.locator("#roll:enabled").click()
    page.locator("#hint").click()
    hints = page.locator("#hints li")
    assert hints.count() == 3 and page.locator("#hints").is_visible()
    assert serious_violations(page) == []

    page.locator("#sheet button.box").first.click()
    for _ in range(3):
        human_turn(page)
    page.locator("#roll:enabled").wait_for()
    before = round_text(page)
    sheet = page.locator("#sheet").inner_text()
    assert "Round 5 of 12" in before

    page.reload()  # the game is taken up again from IndexedDB, still offline
    page.wait_for_selector("body[data-ready='true']")
    page.locator("#roll:enabled").wait_for()
    assert round_text(page) == before and page.locator("#sheet").inner_text() == sheet

    # The outlook, worked out on the device: the final total's distribution from here and the
    # chance to reach a target, the engine's (yacht.strategy.remaining and target).
    (saved,) = page.evaluate(SAVED)
    used = list(saved["sheets"][0])
    banked = sum(saved["sheets"][0].values())
    page.locator("#outlook summary").click()
    page.locator("#outlook-chart svg").wait_for()
    to_come = remaining("traditional").pmf(used)
    mean = banked + float(to_come @ np.arange(to_come.size))
    assert f"Mean {mean:.2f}, standard deviation" in page.locator("#outlook-chart").inner_text()
    page.locator("#target").fill(str(banked + 100))
    page.locator("#target").dispatch_event("change")
    page.locator("#target-chance").wait_for()
    chance = target_probability("traditional", used, 100)
    assert page.locator("#target-chance").inner_text() == (
        f"Chance to reach {banked + 100}: {100 * chance:.1f}%"
    )
    assert serious_violations(page) == []

    for _ in range(8):
        human_turn(page)
    page.locator("#results").wait_for()
    assert page.locator("#status").inner_text() == "Game over"
    assert re.search("wins with|Shared win", page.locator("#winner").inner_text())
    review = page.locator("#review .review-seat")
    assert review.count() == 2
    assert "Points lost" in review.first.inner_text()  # scoring the first open box loses points
    assert "The chance of winning needs the server" in page.locator("#results").inner_text()
    assert serious_violations(page) == []
    page.goto(f"{server.url}/")  # any page of the app, offline, opens the play page
    page.locator("#results").wait_for()

    # The game as saved: the engine's dice (rule 3, from the page's seed) and the engine's scores.
    (saved,) = page.evaluate(SAVED)
    assert saved["finished"] and saved["preset"] == "traditional"
    dice = PlacedDice(saved["seed"], key=saved["key"])
    first_rolls = [d for d in saved["decisions"] if d["roll"] == 1]
    assert len(first_rolls) >= 24  # every turn's first roll was decided on
    for d in first_rolls:
        assert d["dice"] == dice.roll_at(d["seat"], d["turn"] - 1, 0, range(5))
    rules = rules_by_name(saved["preset"])
    totals = [rules.total({Category(c): v for c, v in sheet.items()}) for sheet in saved["sheets"]]
    shown = page.locator("#sheet tr.sum").last.locator("td").all_inner_texts()
    assert [int(x) for x in shown] == totals
    note = page.locator("#sync-note")
    assert "goes to your profile when the network is back" in note.inner_text()

    # Back online: the first load sends the game, the reloads after it send nothing new.
    server.start()
    page.goto(f"{server.url}/play")
    page.wait_for_selector("body[data-ready='true']")
    status = page.locator("#sync-status")
    status.wait_for()
    assert status.inner_text() == "1 game played offline is now in your profile."
    assert "is in your profile as played offline" in page.locator("#sync-note").inner_text()
    for _ in range(2):
        page.reload()
        page.wait_for_selector("body[data-ready='true']")
    (saved,) = page.evaluate(SAVED)
    profile = httpx.get(f"{server.url}/api/players/Ann").json()
    assert profile["offline_games"] == 1 and profile["presets"] == []  # counted in no figure
    [line] = profile["offline"]
    assert line["record"] == saved["synced"] and line["total"] == totals[0]
    page.goto(f"{server.url}/@/Ann")
    page.locator("#offline-card").wait_for()
    rows = page.locator("#offline-games tr")
    assert rows.count() == 1 and "offline" in rows.first.inner_text()
    assert str(totals[0]) in rows.first.inner_text()


GREEDY = """async (positions) => {
  const g = await import("./static/js/offline-game.js");
  const s = await import("./static/js/solver.js");
  const solver = await s.loadSolver("clubhouse");
  return positions.map(([sheet, dice, rollsUsed]) => g.botChoice(solver, {
    players: [{ kind: "greedy" }], sheets: [sheet], player: 0, dice, rollsUsed,
    decisions: [], seed: "00000000", finished: false,
  }));
}"""


def test_the_greedy_bot_decides_as_the_engines(pages: Pages, server: LiveServer) -> None:
    rules = rules_by_name("clubhouse")
    rng = random.Random(29)
    positions = []
    for _ in range(300):
        used = rng.sample(CATEGORIES, rng.randrange(12))
        sheet = {c.value: rng.choice([0, rules.score([rng.randint(1, 6)] * 5, c)]) for c in used}
        dice = [rng.randint(1, 6) for _ in range(5)]
        positions.append((sheet, dice, rng.randint(1, 3)))
    page = pages.open(f"{server.url}/play")
    got = page.evaluate(GREEDY, positions)
    bot = GreedyBot()
    for (sheet, dice, rolls_used), choice in zip(positions, got, strict=True):
        view = SimpleNamespace(
            dice=tuple(dice),
            rules=rules,
            rolls_left=3 - rolls_used,
            open_categories=[c for c in CATEGORIES if c.value not in sheet],
        )
        move = bot.decide(cast(TurnView, view), rng)
        if isinstance(move, Category):
            assert choice == {"action": "score", "category": move.value}
        else:
            assert choice == {"action": "keep", "keep": list(move)}
