"""Practice in the browser: a signed-in player on a phone gets a position, answers it with the
exact best option (found by the library from the position the page was sent), sees "Your
answer is the best." and their practice rating rise, and the next position is another one; the
page passes axe, with no script error (the pages fixture fails on any)."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from yacht.rules import Category
from yacht.training import Position

from .live import LiveServer
from .pages import PHONE, Pages, serious_violations
from .test_accounts_e2e import account, lobby


def served(page: Page, action: Any) -> dict[str, Any]:
    """The position the page is sent while ``action`` runs."""
    with page.expect_response(lambda r: r.url.endswith("/api/practice/next")) as info:
        action()
    body: dict[str, Any] = info.value.json()
    return body


def answer_best(page: Page, p: dict[str, Any]) -> None:
    sheet = {Category(c): points for c, points in p["sheet"].items()}
    best = Position(p["rules"], sheet, tuple(p["dice"]), p["rolls_left"]).hint().best
    if best.action == "score":
        assert best.category is not None
        page.locator(f'#scores button[data-category="{best.category.value}"]').click()
        return
    wanted = list(best.keep or ())
    for i, face in enumerate(p["dice"]):
        if face in wanted:
            wanted.remove(face)
            page.locator(f'#dice .die[data-pos="{i}"]').click()
    page.click("#keep")


def test_a_signed_in_player_solves_a_position_and_moves_on(
    pages: Pages, server: LiveServer
) -> None:
    page = lobby(pages, server, viewport=PHONE)
    account(page, "Pia", "up")
    expect(page.locator("#account-name")).to_have_text("Pia")
    first = served(page, lambda: page.goto(server.url + "/practice"))
    expect(page.locator("#rating")).to_have_text("Practice rating: 1500?")
    expect(page.locator("#dice .die")).to_have_count(5)
    assert serious_violations(page) == []
    answer_best(page, first)
    expect(page.locator("#verdict-title")).to_have_text("Your answer is the best.")
    expect(page.locator("#rating-change")).to_contain_text("Practice rating: 1500? →")
    expect(page.locator("#options tr.best.taken")).to_have_count(1)
    why = page.locator("#why li").first  # the coach's words, as yacht.coach writes them
    expect(why).to_have_text(re.compile(r"^(Keep|Roll all five|Scoring) .+\.$"))
    assert serious_violations(page) == []
    second = served(page, lambda: page.click("#next"))
    assert second["key"] != first["key"]
    expect(page.locator("#verdict")).to_be_hidden()
    expect(page.locator("#scores button").first).to_be_enabled()
