"""Clickjacking: a page of another site that shows a table in an (invisible) frame gets an
empty frame, so a click on it cannot roll for the visitor; the same page opened directly works."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ..live import LiveServer
from ..pages import Pages


@pytest.fixture
def bait(server: LiveServer) -> Iterator[tuple[str, str]]:
    """A page of another origin on this machine (``localhost`` and a port of its own; the
    game is at 127.0.0.1) that shows a new table in a nearly invisible frame: its URL, and
    the table's code."""
    code = httpx.post(f"{server.url}/api/tables", json={"seats": [{"kind": "human"}]}).json()
    target = f"{server.url}/t/{code['code']}"
    html = f'<!doctype html><iframe src="{target}" style="opacity:0.01"></iframe>'.encode()

    class Bait(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/html")
            self.send_header("content-length", str(len(html)))
            self.end_headers()
            self.wfile.write(html)

        def log_message(self, *args: Any) -> None:
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Bait)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{site.server_address[1]}/", code["code"]
    site.shutdown()
    site.server_close()


def test_a_table_in_a_frame_of_another_site_stays_empty(
    pages: Pages, server: LiveServer, bait: tuple[str, str]
) -> None:
    url, code = bait
    pages.allow(r"violates the following Content Security Policy directive: \"frame-ancestors")
    # the helper's own set-up script, which runs in every document, cannot store on the bait
    pages.allow(r"^http://localhost:\d+/: Failed to read the 'localStorage'")
    page = pages.open(url)
    page.wait_for_load_state("load")
    deadline = time.monotonic() + 10
    while not any("frame-ancestors" in e for e in pages.errors) and (
        len(page.frames) < 2 or not page.frames[1].url.startswith(server.url)
    ):
        assert time.monotonic() < deadline, "the frame was neither shown nor refused"
        time.sleep(0.1)
    frame = page.frames[1]
    assert not frame.url.startswith(server.url), frame.url  # the browser refused to show it
    assert frame.locator("button").count() == 0  # no Roll button to click through
    assert httpx.get(f"{server.url}/api/tables/{code}").status_code == 200


def test_the_same_table_opened_directly_works(
    pages: Pages, server: LiveServer, bait: tuple[str, str]
) -> None:
    page = pages.open(f"{server.url}/t/{bait[1]}")
    page.wait_for_selector("button")
    assert page.locator("button").count() > 0
