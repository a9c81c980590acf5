"""A whole game to the results in English and Bulgarian, in both colour schemes, on a phone and a
desktop, checked by axe-core at every step (lobby, each phase of a turn, the results with the
review open, /games, the replay): no script error and no serious or critical violation.
Screenshots of lobby, table and results go to test-artifacts/web/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .live import LiveServer
from .pages import (
    DESKTOP,
    PHONE,
    Pages,
    serious_violations,
    shot,
    wider_than_screen,
    write,
)

TEXTS = {
    "en": {"open": "Open the table", "round": "Round {n} of 12", "over": "Game over"},
    "fi": {"open": "Avaa pöytä", "round": "Kierros {n}/12", "over": "Peli päättyi"},
    "bg": {"open": "Отворете масата", "round": "Рунд {n} от 12", "over": "Край на играта"},
    "nb": {"open": "Åpne bordet", "round": "Runde {n} av 12", "over": "Spillet er slutt"},
}
RUNS = [  # both schemes, both widths, a Latin and a Cyrillic script (every page, the results
    # with every decision shown included, in each language: test_web_english_e2e)
    ("en", "light", DESKTOP),
    ("bg", "dark", PHONE),
]


def accessible(page: Page, where: str) -> None:
    found = serious_violations(page)
    assert found == [], f"axe on {where}:\n" + "\n".join(found)
    assert wider_than_screen(page) == [], f"{where} is wider than the screen"


@pytest.mark.parametrize(("lang", "scheme", "viewport"), RUNS, ids=[r[0] for r in RUNS])
def test_a_whole_game_to_the_results(
    pages: Pages, server: LiveServer, lang: str, scheme: str, viewport: dict[str, int]
) -> None:
    texts = TEXTS[lang]
    size = str(viewport["width"])
    page = pages.open(server.url + "/", viewport, scheme=scheme, lang=lang)
    expect(page.locator("#open")).to_be_enabled()  # the lobby's script is ready
    page.fill("#name", "Ann")
    page.select_option("#seat-count", "1")
    accessible(page, "the lobby")
    shot(page, f"game-{size}-{scheme}-{lang}-1-lobby", full=True)
    page.get_by_role("button", name=texts["open"]).click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    for n in range(1, 13):
        expect(page.locator("#turn")).to_contain_text(texts["round"].format(n=n))
        expect(page.locator("#roll")).to_be_enabled()
        if n == 1:
            accessible(page, "a turn before the roll")
        page.keyboard.press("r")
        score = page.locator("button.score >> visible=true").first
        expect(score).to_be_visible()
        if n == 2:
            page.keyboard.press("2")
            expect(page.locator("#dice .die").nth(1)).to_have_attribute("aria-pressed", "true")
            accessible(page, "a turn with a die held")
            shot(page, f"game-{size}-{scheme}-{lang}-2-table")
        if n == 12:
            page.keyboard.press("r")
            page.keyboard.press("r")
            expect(page.locator("#roll")).to_be_disabled()
            accessible(page, "a turn with no roll left")
        write(score)
    expect(page.locator("#turn")).to_have_text(texts["over"])
    expect(page.locator("#results")).to_be_visible()
    expect(page.locator(".review")).to_have_count(1, timeout=60_000)
    page.locator(".review summary").first.click()
    rows = page.locator(".review tbody tr")
    expect(rows.first).to_be_visible(timeout=20_000)
    if viewport == DESKTOP:  # the decision table is not cut off in a narrow card
        scroll = page.locator(".review .table-scroll").first
        assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    # The chart has a grid with labelled values, a legend, and the three biggest losses marked
    # (this player always scored the first open box: plenty lost), as in the decision list.
    chart = page.locator(".review .chart").first
    expect(chart.locator(".loss")).to_have_count(3, timeout=20_000)
    assert chart.locator(".grid").count() >= 3
    expect(page.locator(".review .legend li")).to_have_count(4)
    expect(page.locator(".review tr.worst")).to_have_count(3)
    accessible(page, "the results with the review open")
    shot(page, f"game-{size}-{scheme}-{lang}-3-results", full=True)

    page.goto(server.url + "/games")
    expect(page.locator("#games tr")).to_have_count(1)
    accessible(page, "/games")
    page.locator("#games a").first.click()
    expect(page.locator("#step-label")).not_to_be_empty()  # the replay has loaded
    page.locator("#last").click()
    expect(page.locator("#step-text")).to_contain_text("Ann")
    accessible(page, "the replay")
    shot(page, f"game-{size}-{scheme}-{lang}-4-replay", full=True)
