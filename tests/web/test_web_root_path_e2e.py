"""The game under a sub-path, in the browser, through the kit's nginx over TLS: the lobby at
https://…/yacht/ opens a table, the table's page plays a move over its WebSocket, and the links
lead back, with no script error and every request under /yacht/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from deploy.nginx import PREFIX, Nginx

from .live import LiveServer
from .pages import Pages


@pytest.fixture
def proxied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Nginx]:
    """``yacht serve`` told its root path, behind nginx (both of the kit's upstreams on it)."""
    monkeypatch.setenv("YACHT_ROOT_PATH", PREFIX)
    server = LiveServer(tmp_path / "yacht.sqlite3")
    server.start()
    nginx = Nginx(tmp_path / "nginx", (server.port, server.port))
    try:
        yield nginx.start()
    finally:
        nginx.stop()
        server.stop()


def test_a_move_through_a_proxy_under_a_sub_path(pages: Pages, proxied: Nginx) -> None:
    base = proxied.url
    page = pages.open(base + "/", ignore_https_errors=True)
    expect(page.locator("#open")).to_be_enabled()  # the lobby's script and its API calls
    page.fill("#name", "Ann")
    page.select_option("#seat-count", "1")
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_url(re.compile(re.escape(base) + r"/t/[A-Z0-9]{6}$"))
    expect(page.locator("#turn")).to_contain_text("Round 1 of 12 · Your turn")
    page.keyboard.press("r")  # a move over the table's WebSocket, through nginx
    expect(page.locator("#rolls")).to_have_text("Roll 1 of 3")
    page.locator("button.score:not(.zero) >> visible=true").first.click()
    expect(page.locator("#turn")).to_contain_text("Round 2 of 12 · Your turn")
    code = page.url.rsplit("/", 1)[1]
    assert page.locator("#invite-link").input_value() == f"{base}/t/{code}"
    page.locator("a.brand").click()
    page.wait_for_url(base + "/")
    page.get_by_role("link", name="Finished games").click()
    page.wait_for_url(base + "/games")
    expect(page.locator("h1")).to_be_visible()
    requests = (proxied.folder / "access.log").read_text().splitlines()
    paths = [line.split('"')[1].split()[1] for line in requests]
    assert paths and all(p.startswith(PREFIX + "/") for p in paths), paths
    socket = re.compile(rf"GET {re.escape(PREFIX)}/ws/tables/{code}[? ].*\" 101 ")
    assert any(socket.search(line) for line in requests), requests
