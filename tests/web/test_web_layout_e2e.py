"""What a player sees fits: on a 360 px phone the lobby's seats stay in their card, names and the
language are shown whole where there is room, held dice say so without their tags running
together, the hint sheet leaves the score card in view and the replay's buttons make one row; on
a desktop the results leave no empty column; the review's chart labels neither overlap nor leave
the plot, its decision list has a disclosure arrow and needs no sideways scroll on a phone; and
/docs passes axe."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .helpers import Table
from .live import LiveServer
from .pages import DESKTOP, PHONE, Pages, shot, wider_than_screen

expect.set_options(timeout=15_000)


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def cut(page: Page, selector: str) -> list[str]:
    """The visible elements of ``selector`` whose text is cut off (ellipsis or line clamp)."""
    found: list[str] = page.locator(selector).evaluate_all(
        "els => els.filter(e => e.offsetParent !== null)"
        " .filter(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)"
        " .map(e => e.textContent.trim())"
    )
    return found


def select_cut(page: Page, selector: str) -> bool:
    """Whether the select shows less than its chosen option's whole text."""
    cut_off: bool = page.locator(selector).evaluate(
        "s => { const c = s.cloneNode(true); c.removeAttribute('id');"
        " c.style.maxWidth = 'none'; c.style.width = 'max-content'; c.style.position = 'absolute';"
        " s.parentNode.append(c); const whole = c.getBoundingClientRect().width; c.remove();"
        " return s.getBoundingClientRect().width + 1 < whole; }"
    )
    return cut_off


def overlapping(boxes: list[dict[str, float]]) -> list[tuple[int, int]]:
    return [
        (i, j)
        for i, a in enumerate(boxes)
        for j, b in enumerate(boxes)
        if i < j
        and a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    ]


def rects(page: Page, selector: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )
    return found


@pytest.mark.parametrize("lang", ["fi", "nb", "bg"])
def test_the_lobby_and_the_table_fit_a_phone(
    pages: Pages, server: LiveServer, http: httpx.Client, lang: str
) -> None:
    lobby = pages.open(server.url + "/", PHONE, lang=lang)
    expect(lobby.locator("#open")).to_be_enabled()
    lobby.select_option("#seat-count", "6")
    card = lobby.locator("#create").evaluate(
        "e => e.closest('.card').getBoundingClientRect().right"
    )
    fieldset = rects(lobby, ".seat-specs")[0]
    assert fieldset["x"] + fieldset["width"] <= card
    for select in rects(lobby, ".seat-specs select"):
        assert select["x"] + select["width"] <= fieldset["x"] + fieldset["width"]
    assert wider_than_screen(lobby) == []
    assert not select_cut(lobby, "#lang")
    shot(lobby, f"layout-360-lobby-{lang}", full=True)

    table = Table.create(http, "human", "easy", "medium")  # type: ignore[arg-type]
    table.join(0, "Annikki Virtanen")
    page = pages.open(
        f"{server.url}/t/{table.code}", PHONE, lang=lang, seats={table.code: {0: table.tokens[0]}}
    )
    expect(page.locator("#roll")).to_be_enabled()
    page.locator("#roll").click()
    expect(page.locator("#card button.score").first).to_be_visible()
    for n in "12345":
        page.keyboard.press(n)
    expect(page.locator("#dice .die.held")).to_have_count(5)
    page.wait_for_function("() => !document.querySelector('.die.rolling')")
    # Every die says it is held, each tag under its own die and clear of its neighbours'.
    tags = rects(page, "#dice .held-tag")
    dice = rects(page, "#dice .die")
    assert overlapping(tags) == []
    gaps = [b["x"] - (a["x"] + a["width"]) for a, b in itertools.pairwise(tags)]
    assert min(gaps) >= 3, f"the held tags run together: {gaps}"
    for tag, die in zip(tags, dice, strict=True):
        assert die["x"] - 4 <= tag["x"] and tag["x"] + tag["width"] <= die["x"] + die["width"] + 4
    assert cut(page, "#players .panel-name") == []
    assert cut(page, ".sheet thead .who") == []
    assert not select_cut(page, "#lang")
    assert wider_than_screen(page) == []
    shot(page, f"layout-360-table-{lang}", full=True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hint_sheet_leaves_the_card_in_view(
    pages: Pages, server: LiveServer, http: httpx.Client, scheme: str
) -> None:
    table = Table.create(http, "human")  # type: ignore[arg-type]
    table.join(0, "Ann")
    options: dict[str, Any] = {"is_mobile": True, "has_touch": True}
    page = pages.open(
        f"{server.url}/t/{table.code}",
        PHONE,
        scheme=scheme,
        seats={table.code: {0: table.tokens[0]}},
        **options,
    )
    page.locator("#roll").tap()
    expect(page.locator("#card button.score")).to_have_count(12)
    page.locator("#hint").tap()
    expect(page.locator("#hints li").first).to_be_visible(timeout=60_000)
    sheet = rects(page, "#hints")[0]
    boxes = rects(page, "#card .box")
    assert len(boxes) == 12
    under = [b for b in boxes if b["y"] + b["height"] > sheet["y"]]
    assert under == [], f"boxes under the hint sheet (its top at {sheet['y']}): {under}"
    assert all(b["y"] >= 0 for b in boxes)
    expect(page.locator("#dice .die").first).to_be_in_viewport()
    shot(page, f"layout-360-hint-{scheme}")
    page.locator("#hints-close").tap()
    expect(page.locator("#hints")).to_be_hidden()


def finish(http: httpx.Client) -> Table:
    """A game of Annikki against the easy bot, played to the end through the API."""
    table = Table.create(http, "human", "easy")  # type: ignore[arg-type]
    table.join(0, "Annikki Virtanen")
    while True:
        table.wait_for(lambda g: g["status"] == "finished" or g["current"] == 0, seconds=30)
        if table.game["status"] == "finished":
            return table
        table.play_turn(0)


def loss_labels(page: Page, chart: str) -> list[dict[str, float]]:
    found: list[dict[str, float]] = page.locator(f"{chart} .loss-text").evaluate_all(
        "els => els.map(e => { const b = e.getBBox();"
        " return {x: b.x, y: b.y, width: b.width, height: b.height}; })"
    )
    return found


def inside_the_plot(labels: list[dict[str, float]]) -> bool:
    left, right, bottom = 36, 340 - 12, 170 - 30  # chart.js: the plot inside its axes
    return all(
        b["x"] >= left and b["x"] + b["width"] <= right and b["y"] >= 0 and b["y"] <= bottom
        for b in labels
    )


def test_results_and_review_fit_desktop_and_phone(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = finish(http)
    seats = {table.code: {0: table.tokens[0]}}
    page = pages.open(f"{server.url}/t/{table.code}", DESKTOP, seats=seats)
    expect(page.locator(".review")).to_have_count(2, timeout=60_000)
    # No empty column: the sheet reaches the side cards (the grid's gap apart).
    sheet = rects(page, ".sheet-card")[0]
    side = rects(page, "#side")[0]
    assert side["x"] - (sheet["x"] + sheet["width"]) <= 17
    expect(page.locator(".review .loss").first).to_be_visible(timeout=20_000)
    for n in range(2):
        labels = loss_labels(page, f".review:nth-child({n + 1}) .chart")
        assert overlapping(labels) == [] and inside_the_plot(labels), labels
    shot(page, "layout-1280-results", full=True)

    phone = pages.open(f"{server.url}/t/{table.code}", PHONE, lang="fi", seats=seats)
    summary = phone.locator(".review summary").first
    expect(summary).to_be_visible(timeout=60_000)
    arrow = "e => getComputedStyle(e, '::before')"
    assert summary.evaluate(f"{arrow}.borderLeftWidth") != "0px"  # the disclosure arrow
    assert summary.evaluate(f"{arrow}.transform") == "none"
    summary.click()
    expect(phone.locator(".review tbody tr").first).to_be_visible(timeout=20_000)
    phone.wait_for_function(
        "() => getComputedStyle(document.querySelector('.review summary'), '::before')"
        ".transform !== 'none'"
    )  # turned down: the list is open
    scroll = phone.locator(".review .table-scroll").first
    assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "Best and Lost are cut off"
    assert wider_than_screen(phone) == []
    assert cut(phone, ".sheet thead .who") == []  # the winner's star and name, whole
    shot(phone, "layout-360-results-fi", full=True)

    game_id = table.game["id"]
    replay = pages.open(f"{server.url}/games/{game_id}", PHONE)
    expect(replay.locator("#step-label")).not_to_be_empty()
    buttons = rects(replay, ".replay-controls button")
    assert len(buttons) == 5
    assert len({round(b["y"]) for b in buttons}) == 1, "the replay's buttons make one row"
    row_left = buttons[0]["x"]
    row_right = buttons[-1]["x"] + buttons[-1]["width"]
    assert abs(row_left - (PHONE["width"] - row_right)) <= 24, "the row sits in the middle"
    shot(replay, "layout-360-replay")


def test_close_losses_get_labels_apart(pages: Pages, server: LiveServer) -> None:
    page = pages.open(server.url + "/", PHONE, lang="fi")
    expect(page.locator("#open")).to_be_enabled()
    # Three big losses on the first three decisions, at nearly the same height: the labels that
    # printed two losses as one ("-4,4-5,7") and ran over the axis at the left.
    page.evaluate(
        """async () => {
          const { chartSvg } = await import(new URL('static/js/chart.js', document.baseURI));
          const losses = [4.4, 5.7, 4.9, 0, 0, 0];
          const decisions = losses.map((loss, i) => ({ turn: 1 + i, roll: 1, loss }));
          const series = [160, 156, 151, 147, 147, 147, 147];
          const box = document.createElement('div');
          box.id = 'made';
          box.innerHTML = chartSvg(series, 140, 160, 'chart', decisions);
          document.querySelector('main').append(box);
        }"""
    )
    labels = loss_labels(page, "#made .chart")
    assert len(labels) == 3
    assert overlapping(labels) == [], labels
    assert inside_the_plot(labels), labels


def test_the_api_documentation_passes_axe(pages: Pages, server: LiveServer) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = pages.open(server.url + "/docs")
    expect(page.locator(".opblock-summary-path").first).to_be_visible(timeout=20_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator(".opblock-summary-path", has_text="/api/presets").first.click()
    expect(page.get_by_role("button", name="Try it out")).to_be_visible()
    results = Axe().run(page).response["violations"]
    serious = [
        f"{v['id']}: {[n['target'] for n in v['nodes'][:3]]}"
        for v in results
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    shot(page, "docs-axe")
