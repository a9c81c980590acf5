"""Make the screenshots of the README and the docs: ``python docs/screenshots.py``.

- ``docs/images/terminal.svg``: the terminal game's own screenshot (Textual's
  ``save_screenshot``), round 5 of a game against the medium bot, two dice held, hint open;
- ``docs/images/web.png``: the web game in headless Chromium (``/usr/bin/chromium``, or
  ``$YACHT_CHROMIUM``), served by a real ``yacht serve`` on 127.0.0.1: a table of a person
  against the medium bot, two dice held, the hint list open.

The terminal game is seeded, so running it again gives the same picture unless the face
changed; the web game's dice are the server's fair dice, new each time.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

from yacht.bots import make_bot
from yacht.dice import RandomDice
from yacht.game import Game

if TYPE_CHECKING:
    from playwright.sync_api import Page

IMAGES = Path(__file__).parent / "images"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def terminal(out: Path) -> None:
    from yacht.tui.app import YachtApp
    from yacht.tui.saves import write_save
    from yacht.tui.seats import TableConfig

    config = TableConfig.default("en")
    game = Game(config.names, config.preset, RandomDice(seed=11), undo=config.undo)
    bot, rng = make_bot("medium"), random.Random(11)
    while sum(len(sheet) for sheet in game.sheets) < 8:
        game.apply(bot.act(game.view(), rng))
    game.apply("roll")
    game.apply(bot.act(game.view(), rng))
    game.apply("roll")

    async def shoot(folder: Path) -> None:
        write_save(folder, config, game)
        app = YachtApp(data_dir=folder, bot_delay=0, resume=True, lang="en")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("h")
            for _ in range(300):  # the hint is computed in a worker
                await app.workers.wait_for_complete()
                await pilot.pause(0.1)
                if "Thinking" not in _screen_text(app):
                    break
            app.save_screenshot(filename=out.name, path=str(out.parent))

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(shoot(Path(folder)))


def _screen_text(app: object) -> str:
    export = getattr(app, "export_screenshot")  # noqa: B009 (Textual App, imported lazily)
    return str(export())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, YACHT_DATA_DIR=folder)
        yacht = Path(sys.executable).with_name("yacht")
        server = subprocess.Popen(
            [str(yacht), "serve", "--port", str(port), "--log-level", "warning"], env=env
        )
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            with sync_playwright() as p:
                chromium = os.environ.get("YACHT_CHROMIUM", "/usr/bin/chromium")
                browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
                page = browser.new_page(viewport={"width": 1100, "height": 820})
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(base)
                _web_table(page)
                page.screenshot(path=str(out), type="png")
                browser.close()
                if errors:
                    raise SystemExit(f"page script errors: {errors}")
        finally:
            server.terminate()
            server.wait(10)


def _web_table(page: Page) -> None:
    """Open a table against the medium bot from the lobby, play four rounds (roll once, score
    the box that pays most), then roll, hold two dice, roll again and open the hint list."""
    from playwright.sync_api import expect

    page.fill("#name", "Ann")
    page.select_option("#seat-count", "2")
    page.locator("#seat-specs select").nth(1).select_option("bot:medium")
    expect(page.locator("#open")).to_be_enabled()
    page.get_by_role("button", name="Open the table").click()
    for round_ in range(1, 5):
        expect(page.locator("#turn")).to_contain_text(f"Round {round_} of 12 · Your turn")
        page.keyboard.press("r")
        expect(page.locator("#rolls")).to_contain_text("Roll 1 of 3")
        boxes = page.locator("button.score")
        points = [int(text or 0) for text in boxes.all_inner_texts()]
        boxes.nth(points.index(max(points))).click()
    expect(page.locator("#turn")).to_contain_text("Round 5 of 12 · Your turn")
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_contain_text("Roll 1 of 3")
    page.keyboard.press("1")
    page.keyboard.press("2")
    expect(page.locator('#dice .die[aria-pressed="true"]')).to_have_count(2)
    page.keyboard.press("r")
    expect(page.locator("#rolls")).to_contain_text("Roll 2 of 3")
    page.locator("#hint").click()
    expect(page.locator("#hints")).to_contain_text("%", timeout=60_000)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function("() => !document.querySelector('.die.rolling')")
    page.wait_for_timeout(300)


if __name__ == "__main__":
    IMAGES.mkdir(exist_ok=True)
    which = sys.argv[1:] or ["terminal", "web"]
    if "terminal" in which:
        terminal(IMAGES / "terminal.svg")
    if "web" in which:
        web(IMAGES / "web.png")
