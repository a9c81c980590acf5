"""Accounts in the browser: sign up on the lobby (the recovery code shown once), open a table,
and sign in on a second browser, where the invite link opens the same seat, not a spectator's
view; sign out; a wrong password said in the reader's language."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .live import LiveServer
from .pages import PHONE, Pages

PASSWORD = "correct horse battery"


def lobby(pages: Pages, server: LiveServer, **options: object) -> Page:
    page = pages.open(server.url + "/", **options)  # type: ignore[arg-type]
    expect(page.locator("#open")).to_be_enabled()  # the page is ready
    return page


def account(page: Page, name: str, button: str) -> None:
    page.fill("#account-user", name)
    page.fill("#account-password", PASSWORD)
    page.click(f"#account-out button[value={button}]")


def test_the_seat_follows_the_account_to_a_second_browser(pages: Pages, server: LiveServer) -> None:
    laptop = lobby(pages, server)
    account(laptop, "Ann", "up")
    expect(laptop.locator("#account-name")).to_have_text("Ann")
    expect(laptop.locator("#recovery code")).to_have_text(
        re.compile(r"^[0-9A-Z]{5}(-[0-9A-Z]{5}){3}$")
    )
    expect(laptop.locator("#account-out")).to_be_hidden()
    assert laptop.input_value("#name") == "Ann"
    laptop.select_option('#seat-specs select[data-seat="1"]', "bot:greedy")
    laptop.click("#open")
    laptop.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    code = laptop.url.rsplit("/", 1)[1]
    expect(laptop.locator("#roll")).to_be_enabled()  # Ann's seat, her turn

    phone = lobby(pages, server, viewport=PHONE)
    account(phone, "ann", "in")  # the name as it looks: case does not matter
    expect(phone.locator("#account-name")).to_have_text("Ann")
    expect(phone.locator("#recovery")).to_be_hidden()  # shown at sign-up only
    phone.goto(f"{server.url}/t/{code}")
    expect(phone.locator("#roll")).to_be_enabled()  # the same seat, not a spectator's view
    held = phone.evaluate(f"JSON.parse(localStorage.getItem('yacht:tokens'))['{code}']")
    assert list(held) == ["0"]

    phone.goto(f"{server.url}/")
    phone.click("#sign-out")
    expect(phone.locator("#account-out")).to_be_visible()
    assert phone.evaluate("localStorage.getItem('yacht:account')") is None


def test_a_wrong_password_is_said_in_the_readers_language(pages: Pages, server: LiveServer) -> None:
    pages.allow(r"console: Failed to load resource: .* 401")
    page = lobby(pages, server, lang="fi")
    account(page, "Nobody", "in")
    expect(page.locator("#toast")).to_contain_text("väärä nimi tai salasana")
    expect(page.locator("#account-out")).to_be_visible()


def test_a_signed_in_player_opens_a_rated_table_without_hints(
    pages: Pages, server: LiveServer
) -> None:
    page = lobby(pages, server)
    expect(page.locator("#rated-row")).to_be_hidden()  # a guest cannot open one
    account(page, "Rae", "up")
    expect(page.locator("#rated-row")).to_be_visible()
    page.check("#rated")
    expect(page.locator("#hints")).to_be_disabled()
    expect(page.locator("#hints")).not_to_be_checked()
    page.click("#open")  # seats 1 and 2 for people, as the form starts
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]+$"))
    chip = page.locator("#rated-chip")
    expect(chip).to_be_visible()
    expect(chip).to_have_text("Rated")
    assert (chip.get_attribute("href") or "").endswith("/leaderboard?rules=traditional")
    code = page.url.rsplit("/", 1)[1]
    state = page.request.get(f"{server.url}/api/tables/{code}").json()
    assert state["rated"] is True and state["hints"] is False
    assert state["seats"][0]["name"] == "Rae"
