"""A hint on its way, in the browser (Debian's Chromium, headless, through Playwright): the Hint
button says it is working (``aria-busy``) until the answer comes, and a hint asked before a
hold is dropped and asked again for the position after the hold, whose answer is shown.

The server's hint desk here works in a thread of the test that waits for the test's word, so
the hint is still on its way while the player holds a die."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from yacht.game import TurnView
from yacht.web.service.bots import hint_reply
from yacht.web.service.hints import HintDesk

from .live import LiveServer
from .pages import DESKTOP, PHONE, Pages, new_table, shot


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path / "yacht.sqlite3", bot_delay=0)
    live.start()
    yield live
    live.stop()


class HeldHints:
    """Hints worked out only once the test lets them (each view asked is kept)."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.asked: list[TurnView] = []

    def compute(self, view: TurnView) -> dict[str, Any]:
        self.asked.append(view)
        self.go.wait(60)
        return hint_reply(view)


def test_the_hint_button_is_busy_and_a_hold_asks_again(pages: Pages, server: LiveServer) -> None:
    assert server._server is not None
    held = HeldHints()
    app: Any = server._server.config.app
    service = app.state.service
    service.hints = HintDesk(held.compute, executor=ThreadPoolExecutor(1))
    with httpx.Client(base_url=server.url, timeout=60) as http:
        code = http.post("/api/tables", json={"seats": [{"kind": "human"}]}).json()["code"]
        token = http.post(f"/api/tables/{code}/join", json={"seat": 0, "name": "Ann"}).json()[
            "token"
        ]
        body = {"type": "action", "seat": 0, "token": token, "game": 1, "version": 0}
        r = http.post(f"/api/tables/{code}/actions", json={**body, "action": {"kind": "roll"}})
        assert r.status_code == 200, r.text
    page = pages.open(f"{server.url}/t/{code}", seats={code: {0: token}})
    button = page.locator("#hint")
    expect(button).to_have_attribute("aria-busy", "false")
    button.click()
    expect(button).to_have_attribute("aria-busy", "true")
    shot(page, "11-hint-busy-desktop")
    page.keyboard.press("1")  # hold the first die while the hint is worked out
    expect(page.locator('.die[data-pos="1"]')).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_attribute("aria-busy", "true")  # asked again, for the new position
    expect(page.locator("#hints")).to_be_hidden()
    held.go.set()
    expect(page.locator("#hints li").first).to_be_visible()
    expect(button).to_have_attribute("aria-busy", "false")
    assert [sorted(v.held) for v in held.asked] == [[], [1]]
    shown = page.locator("#hints li .expected").all_inner_texts()
    answer = hint_reply(held.asked[-1])["options"]
    assert shown == [f"{o['expected_total']:.1f}" for o in answer]


@pytest.mark.parametrize(
    ("lang", "viewport", "scheme"),
    [("en", DESKTOP, "light"), ("fi", PHONE, "dark")],
)
def test_the_hint_says_why_in_words(
    pages: Pages, server: LiveServer, lang: str, viewport: dict[str, int], scheme: str
) -> None:
    from yacht.coach import reason_text

    assert server._server is not None
    app: Any = server._server.config.app
    asked = HeldHints()
    asked.go.set()
    app.state.service.hints = HintDesk(asked.compute, executor=ThreadPoolExecutor(1))
    code, token = new_table(server, "human")
    with httpx.Client(base_url=server.url, timeout=60) as http:
        body = {"type": "action", "seat": 0, "token": token, "game": 1, "version": 0}
        r = http.post(f"/api/tables/{code}/actions", json={**body, "action": {"kind": "roll"}})
        assert r.status_code == 200, r.text
    page = pages.open(
        f"{server.url}/t/{code}", viewport, scheme=scheme, lang=lang, seats={code: {0: token}}
    )
    page.locator("#hint").click()
    why = page.locator("#hints details.why")
    expect(why).to_be_visible()
    expect(why.locator("li").first).to_be_hidden()  # folded: the options stay in view
    why.locator("summary").click()
    (view,) = asked.asked
    options = hint_reply(view)["options"]
    items = why.locator("li")
    expect(items).to_have_count(len(options))
    said = [items.nth(i).locator("span").all_inner_texts() for i in range(len(options))]
    wanted = [[reason_text(r["code"], r["args"], lang) for r in o["reasons"]] for o in options]
    assert said == wanted
    assert len(said[0]) == 1 and all(len(s) in (1, 2) for s in said[1:])
    if lang == "en":
        assert said[0][0].startswith(("Keep ", "Roll all five again: ", "Scoring "))
        assert all(" instead " in s[-1] or " now leaves " in s[-1] for s in said[1:])
    width = "phone" if viewport is PHONE else "desktop"
    shot(page, f"31-hint-why-{lang}-{width}-{scheme}")
    page.locator("#hints-close").click()
    page.locator("#hint").click()
    expect(why.locator("li").first).to_be_visible()  # stays open for the next hint
