"""The table on a phone held upright: on your turn the dice, Roll, Hint and all twelve of your
score boxes are on screen without scrolling, every control is a 44x44 px touch target, and the
hint list opens over the page instead of pushing the boxes away."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .live import LiveServer
from .pages import PHONE, PHONE_LARGE, Pages, new_table, shot, wider_than_screen


def box_of(page: Page, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        "els => els.filter(e => e.offsetParent !== null).map(e => {"
        " const r = e.getBoundingClientRect();"
        " return {what: e.id || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30),"
        " x: r.x, y: r.y, w: r.width, h: r.height}; })",
    )
    return found


def assert_on_screen(page: Page, selector: str, count: int) -> None:
    size = page.viewport_size
    assert size is not None
    boxes = box_of(page, selector)
    assert len(boxes) == count, (selector, boxes)
    for b in boxes:
        inside = b["x"] >= 0 and b["y"] >= 0
        inside = inside and b["x"] + b["w"] <= size["width"] and b["y"] + b["h"] <= size["height"]
        assert inside, f"{b} is not on the {size['width']}x{size['height']} screen"


def whole_turn_on_screen(page: Page) -> None:
    expect(page.locator("#card button.score")).to_have_count(12)
    assert page.evaluate("window.scrollY") == 0
    assert wider_than_screen(page) == []
    assert_on_screen(page, "#dice .die", 5)
    assert_on_screen(page, "#roll", 1)
    assert_on_screen(page, "#hint", 1)
    assert_on_screen(page, "#card .box", 12)


@pytest.mark.parametrize("lang", ["fi", "bg"])
def test_four_players_and_long_words_still_fit(pages: Pages, server: LiveServer, lang: str) -> None:
    code, token = new_table(server, "human", "optimal", "greedy", "medium", name="Annikki")
    page = pages.open(f"{server.url}/t/{code}", PHONE, lang=lang, seats={code: {0: token}})
    expect(page.locator("#players .panel")).to_have_count(4)
    expect(page.locator("#roll")).to_be_enabled()
    page.locator("#roll").click()
    expect(page.locator("#card button.score")).to_have_count(12)
    shot(page, f"phone-360-four-players-{lang}")
    whole_turn_on_screen(page)


@pytest.mark.parametrize(("viewport", "name"), [(PHONE, "360"), (PHONE_LARGE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_whole_turn_fits_on_a_phone_screen(
    pages: Pages, server: LiveServer, viewport: dict[str, int], name: str, scheme: str
) -> None:
    code, token = new_table(server, "human")
    options: dict[str, Any] = {"is_mobile": True, "has_touch": True}
    page = pages.open(
        f"{server.url}/t/{code}", viewport, scheme=scheme, seats={code: {0: token}}, **options
    )
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.locator("#roll").tap()
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    whole_turn_on_screen(page)
    # Every control of the turn is a touch target of at least 44x44 px.
    small = [
        b
        for b in box_of(page, "#board button, #card button, .topbar select, .topbar button")
        if b["w"] < 44 or b["h"] < 44
    ]
    assert small == []
    shot(page, f"phone-{name}-{scheme}-turn")

    # The hint list opens as a sheet over the page: the boxes stay where they were on the page
    # (it scrolls them above the sheet, none under it).
    def on_page() -> list[tuple[float, float]]:
        scrolled = page.evaluate("scrollY")
        return [(round(b["x"]), round(b["y"] + scrolled)) for b in box_of(page, "#card .box")]

    before = on_page()
    page.locator("#hint").tap()
    expect(page.locator("#hints li").first).to_be_visible()
    assert on_page() == before
    sheet_top = page.locator("#hints").evaluate("e => e.getBoundingClientRect().top")
    assert all(b["y"] + b["h"] <= sheet_top for b in box_of(page, "#card .box"))
    assert page.locator("#hints").evaluate("e => getComputedStyle(e).position") == "fixed"
    shot(page, f"phone-{name}-{scheme}-hint")
    page.locator("#hints-close").tap()
    expect(page.locator("#hints")).to_be_hidden()

    page.locator("#card button.score:not(.zero)").first.tap()
    expect(page.locator("#card .box.filled")).to_have_count(1)
