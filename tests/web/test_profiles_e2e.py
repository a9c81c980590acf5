"""Profiles and the leaderboard in the browser (issue 28's "done when"): two players sign up
on the lobby in two browsers, open and play a rated game to the end (the moves through the
API with each browser's own cookies, to keep the browser's time small), and each sees the new
ratings on the leaderboard and the skill figure on their profile; the seat opens on a second
browser signed in as the same player."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import APIRequestContext, Page, expect

from .live import LiveServer
from .pages import PHONE, Pages
from .test_accounts_e2e import account, lobby
from .test_web_english_e2e import english


class Player:
    """A signed-in browser's API calls, with its cookies and CSRF token."""

    def __init__(self, page: Page, server: LiveServer) -> None:
        self.http: APIRequestContext = page.request
        self.base = server.url
        self.csrf = self.get("/api/me")["csrf_token"]

    def get(self, path: str) -> Any:
        r = self.http.get(self.base + path)
        assert r.ok, r.text()
        return r.json()

    def post(self, path: str, body: Any) -> Any:
        r = self.http.post(self.base + path, data=body, headers={"X-CSRF-Token": self.csrf})
        assert r.ok, r.text()
        return r.json()

    def act(self, code: str, seat: int, token: str, action: dict[str, Any]) -> Any:
        game = self.get(f"/api/tables/{code}")["game"]
        body = {"type": "action", "seat": seat, "token": token, "game": game["number"]}
        return self.post(
            f"/api/tables/{code}/actions", {**body, "version": game["version"], "action": action}
        )


def test_a_rated_game_shows_on_the_leaderboard_and_the_profiles(
    pages: Pages, server: LiveServer
) -> None:
    ann_page = lobby(pages, server)
    account(ann_page, "Ann", "up")
    expect(ann_page.locator("#account-name")).to_have_text("Ann")
    bob_page = lobby(pages, server, viewport=PHONE, lang="fi")
    account(bob_page, "Bob", "up")
    expect(bob_page.locator("#account-name")).to_have_text("Bob")
    ann, bob = Player(ann_page, server), Player(bob_page, server)

    seats = [{"kind": "human"}, {"kind": "human"}]
    code = ann.post("/api/tables", {"seats": seats, "rated": True})["code"]
    tokens = {0: ann.post(f"/api/tables/{code}/join", {"seat": 0, "name": "Ann"})["token"]}
    tokens[1] = bob.post(f"/api/tables/{code}/join", {"seat": 1, "name": "Bob"})["token"]

    phone = lobby(pages, server, viewport=PHONE)  # Ann's second device: her seat opens there
    account(phone, "ann", "in")
    expect(phone.locator("#account-name")).to_have_text("Ann")
    phone.goto(f"{server.url}/t/{code}")
    expect(phone.locator("#roll")).to_be_enabled()
    phone.context.close()

    players = {0: ann, 1: bob}
    while True:
        game = ann.get(f"/api/tables/{code}")["game"]
        if game["status"] == "finished":
            break
        who, seat = players[game["current"]], game["current"]
        rolled = who.act(code, seat, tokens[seat], {"kind": "roll"})
        category = next(iter(rolled["game"]["potentials"]))
        who.act(code, seat, tokens[seat], {"kind": "score", "category": category})
    deadline = 0
    while ann.http.get(f"{server.url}/api/games/{game['id']}/review").status != 200:
        deadline += 1
        assert deadline < 300, "no review"
        ann_page.wait_for_timeout(100)
    board = {line["name"]: line["rating"] for line in ann.get("/api/leaderboard")["players"]}
    assert set(board) == {"Ann", "Bob"}

    for page, me in ((ann_page, "Ann"), (bob_page, "Bob")):
        page.goto(f"{server.url}/")
        page.click("nav a[href=leaderboard]")
        rows = page.locator("#board tr")
        expect(rows).to_have_count(2)
        for name, rating in board.items():
            row = rows.filter(has=page.locator(f"a[href='@/{name}']"))
            expect(row).to_contain_text(re.compile(rf"{rating['shown']}\s*\?"))
        if page is bob_page:
            assert english(page, "fi") == []  # the leaderboard speaks Finnish
        page.goto(f"{server.url}/")
        page.click("#account-profile")
        page.wait_for_url(re.compile(rf"/@/{me}$"))
        expect(page.locator("#player-name")).to_have_text(me)
        expect(page.locator("#skill .headline")).to_contain_text(re.compile(r"\d"))
        expect(page.locator("#skill svg.chart")).to_be_visible()
        expect(page.locator("#rating .headline")).to_contain_text(str(board[me]["shown"]))
        expect(page.locator("#games tr")).to_have_count(1)
        expect(page.locator(f"#games a[href='games/{game['id']}']")).to_be_visible()
    expect(bob_page.locator("#skill .headline")).to_contain_text("Pelasi kuin")
    assert english(bob_page, "fi", code) == []  # and so does the profile
