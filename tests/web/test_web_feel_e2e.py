"""What makes the table feel like a game, in the browser: dice that tumble and land (not under
prefers-reduced-motion), the moment a score is written, a Yacht celebrated, and sound that is
off until the player turns it on."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .live import LiveServer
from .pages import Pages, new_table

WATCH_ROLLING = """() => {
  window.rolled = 0;
  new MutationObserver(() => {
    if (document.querySelector('.die.rolling')) window.rolled += 1;
  }).observe(document.getElementById('dice'), {subtree: true, childList: true, attributes: true});
}"""


def my_table(pages: Pages, server: LiveServer, motion: str = "no-preference") -> Page:
    code, token = new_table(server, "human")
    page = pages.open(f"{server.url}/t/{code}", seats={code: {0: token}}, reduced_motion=motion)
    expect(page.locator("#turn")).to_contain_text("Your turn")
    return page


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_dice_tumble_and_land_unless_motion_is_reduced(
    pages: Pages, server: LiveServer, motion: str
) -> None:
    page = my_table(pages, server, motion)
    page.evaluate(WATCH_ROLLING)
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    expect(page.locator("#dice .die.rolling")).to_have_count(0)  # landed
    tumbled = page.evaluate("window.rolled") > 0
    assert tumbled == (motion == "no-preference")


def test_a_written_score_lights_up_its_box_and_the_total(pages: Pages, server: LiveServer) -> None:
    page = my_table(pages, server)
    page.keyboard.press("r")
    button = page.locator("button.score:not(.zero)").first
    category = button.get_attribute("data-category")
    button.click()
    expect(page.locator(f'.sheet td.filled[data-category="{category}"]')).to_have_class(
        "current filled just-scored"
    )
    expect(page.locator('.panel-total[data-seat="0"]')).to_have_class("panel-total just-scored")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_yacht_is_celebrated_and_confetti_respects_reduced_motion(
    pages: Pages, server: LiveServer, motion: str
) -> None:
    page = my_table(pages, server, motion)
    page.evaluate(
        "async () => (await import('/static/js/effects.js'))"
        ".celebrate(document.getElementById('celebrate'), 'Ann', 50)"
    )
    banner = page.locator("#celebrate")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("role", "status")  # announced to screen readers
    expect(banner).to_contain_text("Yacht!")
    expect(banner).to_contain_text("Ann scores 50")
    expect(banner.locator("i")).to_have_count(24 if motion == "no-preference" else 0)
    expect(banner).to_be_hidden(timeout=5000)  # it goes away by itself


def test_sound_is_off_until_turned_on(pages: Pages, server: LiveServer) -> None:
    page = my_table(pages, server)
    sound = page.get_by_role("button", name="Sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.get_by_role("button", name="Sound")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#turn")).to_contain_text("Your turn")
    page.keyboard.press("r")  # a roll with sound on plays without a script error
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")


def test_each_player_has_a_panel_with_name_total_connection_and_clock(
    pages: Pages, server: LiveServer
) -> None:
    code, token = new_table(server, "human", "greedy", turn_seconds=60)
    page = pages.open(f"{server.url}/t/{code}", seats={code: {0: token}})
    panels = page.locator("#players .panel")
    expect(panels).to_have_count(2)
    expect(panels.nth(0).locator(".panel-name")).to_have_text("Ann")
    expect(panels.nth(0).locator(".dot")).to_have_attribute("aria-label", "connected")
    expect(panels.nth(1).locator(".panel-name")).to_have_text("Greedy bot")
    expect(panels.nth(0)).to_have_attribute("aria-current", "true")
    expect(panels.nth(0).locator(".clock")).to_have_text(re.compile(r"^\d+ sec$"))
    page.keyboard.press("r")
    points = page.locator("button.score:not(.zero)").first.inner_text()
    page.locator("button.score:not(.zero)").first.click()
    expect(page.locator("#log li", has_text="Ann scored")).to_have_count(1)
    expect(panels.nth(0).locator(".panel-total")).to_have_text(points)


def test_a_yacht_written_in_the_game_is_celebrated(pages: Pages, server: LiveServer) -> None:
    """The page's own path from a new state to the banner: the next state (as the server
    would send it after a Yacht is scored) is drawn by the page's view module."""
    page = my_table(pages, server)
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    page.evaluate(
        """async () => {
          const { S } = await import('/static/js/state.js');
          const { render } = await import('/static/js/view.js');
          const before = S.table;
          const next = structuredClone(before);
          const g = next.game;
          g.version += 1;
          const event = {seat: 0, action: 'score yacht', dice: null, points: 50};
          g.recent.push({version: g.version, ...event});
          g.sheets[0].yacht = 50;
          g.totals[0] += 50;
          g.dice = null;
          g.held = [];
          g.potentials = {};
          next.revision += 1;
          S.table = next;
          render(before);
        }"""
    )
    banner = page.locator("#celebrate")
    expect(banner).to_contain_text("Yacht!")
    expect(banner).to_contain_text("Ann scores 50")
    expect(page.locator('.sheet td.filled[data-category="yacht"]')).to_have_class(
        re.compile("just-scored")
    )
