"""Player names on every page, isolated: a right-to-left name (Hebrew here) sits in a ``<bdi>``
holding only the name wherever it is shown, so it cannot reorder the sentence or row around it;
and a name that looks like markup is shown as the text it is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from .helpers import Table
from .live import LiveServer
from .pages import Pages, shot

expect.set_options(timeout=15_000)

HEBREW = "אבי"
ENGLISH = "Quinn"

PLACES = """(name) => [...document.querySelectorAll("body *")]
  .filter((e) => !["SCRIPT", "STYLE", "OPTION", "TEXTAREA"].includes(e.tagName))
  .flatMap((e) => [...e.childNodes]
    .filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent.includes(name))
    .map((n) => ({
      where: (e.closest("[id]") || e).id + " " + e.tagName.toLowerCase() + "." + e.className,
      text: n.textContent,
      isolated: (e.tagName === "BDI" || e.getAttribute("dir") === "auto") && e.textContent === name,
    })))"""
"""Every text node showing ``name``: where it is and whether its element is a <bdi> (or has
dir=auto) holding only the name."""


@pytest.fixture
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url) as client:
        yield client


def places(page: Page, name: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(PLACES, name)
    return found


def assert_isolated(page: Page, name: str, at_least: int) -> list[dict[str, Any]]:
    found = places(page, name)
    assert len(found) >= at_least, found
    assert [p for p in found if not p["isolated"]] == []
    return found


def starts_with_name(page: Page, selector: str, name: str, rest: str) -> None:
    """The element's first node is the name's <bdi>, and its text reads name, then ``rest``."""
    el = page.locator(selector)
    first = el.evaluate("(e) => [e.firstChild.nodeName, e.firstChild.textContent]")
    assert first == ["BDI", name]
    assert re.match(f"^{re.escape(name)}{rest}", el.text_content() or ""), el.text_content()


def test_a_right_to_left_name_is_isolated_on_every_page(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    table = Table.create(http, "human", "human", start="roll-off")  # type: ignore[arg-type]
    table.join(0, HEBREW)
    table.join(1, ENGLISH)
    first = table.game["first"]
    me = first  # the browser holds the seat that starts
    name, other = [HEBREW, ENGLISH][me], [HEBREW, ENGLISH][1 - me]
    page = pages.open(f"{server.url}/t/{table.code}", seats={table.code: {me: table.tokens[me]}})
    expect(page.locator("#start-note")).to_contain_text("Roll-off:")
    # Seat panels, the seat list, the sheet's columns, the roll-off and the log's start line.
    for who in (HEBREW, ENGLISH):
        expect(page.locator("#players .panel-name bdi", has_text=who)).to_have_count(1)
        expect(page.locator("#seats .seat-name bdi", has_text=who)).to_have_count(1)
        expect(page.locator(".sheet thead th bdi", has_text=who)).to_have_count(1)
        assert page.locator("#start-note bdi", has_text=who).count() >= 1
    starts = page.locator("#start-note")
    assert (starts.text_content() or "").endswith(f"{name} starts.")
    assert starts.evaluate("(e) => e.lastElementChild.textContent") == name

    page.locator("#roll").click()
    expect(page.locator("#log li").first).to_contain_text(f"{name} rolled")
    starts_with_name(page, "#log li:not(.start) >> nth=0", name, r" rolled \d \d \d \d \d$")
    page.locator("button.score:not(.zero) >> visible=true").first.click()
    expect(page.locator("#log li").first).to_contain_text(f"{name} scored")
    starts_with_name(page, "#log li:not(.start) >> nth=0", name, r" scored \d+ in \w")
    expect(page.locator("#turn")).to_contain_text(f"{other}'s turn")
    turn = page.locator("#turn")
    assert turn.evaluate("(e) => e.querySelector('bdi').textContent") == other
    assert re.fullmatch(f"Round 1 of 12 · {re.escape(other)}'s turn", turn.text_content() or "")
    for who in (HEBREW, ENGLISH):
        assert_isolated(page, who, at_least=5)
    shot(page, "names-right-to-left-table", full=True)

    # The rest of the game through the API; then the results, /games and the replay.
    table.play_turn(1 - me)
    while table.game["status"] != "finished":
        table.play_turn(table.game["current"])
    expect(page.locator("#results-title")).to_contain_text("wins")
    expect(page.locator(".review h3 bdi")).to_have_count(2, timeout=60_000)
    winners = table.game["winners"]
    title = page.locator("#results-title")
    opening = title.evaluate("(e) => e.firstChild.nodeName")
    assert opening == ("BDI" if len(winners) == 1 else "#text")  # "Shared win: ..."
    for who in (HEBREW, ENGLISH):
        assert_isolated(page, who, at_least=6)

    page.goto(f"{server.url}/games")
    expect(page.locator("#games tr")).to_have_count(1)
    for who in (HEBREW, ENGLISH):
        expect(page.locator("#games td bdi", has_text=who)).to_have_count(1)
        assert_isolated(page, who, at_least=1)

    with page.expect_response(lambda r: r.url.endswith("/replay")):  # the steps are loaded
        page.get_by_role("link", name="Replay").click()
    expect(page.locator("#step-text")).to_have_text("Before the first roll")
    page.locator("#first").click()
    page.locator("#next").click()
    expect(page.locator("#step-text")).to_contain_text(f"{name} rolled")
    starts_with_name(page, "#step-text", name, r" rolled \d \d \d \d \d$")
    for who in (HEBREW, ENGLISH):
        assert_isolated(page, who, at_least=1)  # the sheet's column, the step line
    page.locator("#last").click()
    expect(page.locator("#step-text")).to_contain_text("wins")
    for who in (HEBREW, ENGLISH):
        assert_isolated(page, who, at_least=1)


def test_the_lobby_isolates_names_and_shows_markup_as_text(
    pages: Pages, server: LiveServer, http: httpx.Client
) -> None:
    markup = "<img src=x onerror=alert(1)>"
    table = Table.create(http, "human", "human", "human")  # type: ignore[arg-type]
    table.join(0, HEBREW)
    table.join(1, markup)
    page = pages.open(server.url + "/")
    dialogs: list[str] = []

    def dialog(d: Any) -> None:  # an alert() would mean the name ran as markup
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    row = page.locator("#open-tables li", has_text=table.code)
    expect(row).to_contain_text(f"{HEBREW}, {markup}, —")
    assert row.locator("bdi").all_text_contents() == [HEBREW, markup, "—"]
    assert row.locator("img").count() == 0
    assert_isolated(page, HEBREW, at_least=1)

    page.goto(f"{server.url}/t/{table.code}")
    expect(page.locator("#players .panel-name bdi", has_text=markup)).to_have_count(1)
    expect(page.locator("#seats .seat-name", has_text=markup)).to_have_count(1)
    assert page.locator("#players img, #seats img, #sheet img").count() == 0
    assert_isolated(page, markup, at_least=3)
    shot(page, "names-markup-as-text")
    assert dialogs == []
