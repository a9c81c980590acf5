"""The game in the pocket (/play, docs/web/offline.md) in Chromium with the server gone.

After one visit with the server up (the service worker precaches the app), the server is
stopped and the page is timed: the first offline start (a reload answered by the worker, up to
the page being ready to play: texts, tables and any saved game loaded), and a whole game of
the bots `optimal` and `hard` with no pause between moves (every move a hint of solver.js,
every move saved in IndexedDB and drawn). Also the sizes of what the worker precaches, as
stored and gzipped.

Run: ``python -m benchmarks.offline_play``. Needs Chromium at /usr/bin/chromium and Playwright
(the test extras).
"""

from __future__ import annotations

import gzip
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.machine import machine

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
STARTS = 5
GAMES = 5


def shell_sizes() -> list[tuple[str, int, int]]:
    """Each precached file of the static folder: its URL, bytes and gzipped bytes."""
    from yacht.web.api.offline import SHELL, STATIC

    out = []
    for url in SHELL:
        path = STATIC / "play.html" if url == "play" else STATIC / url.removeprefix("static/")
        if url.startswith("static/") or url == "play":
            data = path.read_bytes()
            out.append((url, len(data), len(gzip.compress(data, 6))))
    return out


def measure() -> dict[str, list[float]]:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from yacht.web.app import create_app
    from yacht.web.settings import Settings

    folder = Path(tempfile.mkdtemp())
    app = create_app(f"sqlite:///{folder / 'y.sqlite3'}", settings=Settings(prepare_tables=False))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    starts, games = [], []
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(folder / "profile"), executable_path=str(CHROMIUM), args=ARGS
        )
        context.add_init_script("localStorage.setItem('yacht:bot-delay', '0');")
        page = context.pages[0]
        page.goto(f"http://127.0.0.1:{port}/play")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        server.should_exit = True
        thread.join()
        for _ in range(STARTS):
            page.reload()
            page.wait_for_selector("body[data-ready='true']")
            starts.append(page.evaluate("performance.now()"))
        for _ in range(GAMES):
            page.locator("#seat-count").select_option("2")
            page.locator("#seats select").nth(0).select_option("optimal")
            page.locator("#seats select").nth(1).select_option("hard")
            began = time.perf_counter()
            page.locator("#start").click()
            page.locator("#results").wait_for()
            games.append((time.perf_counter() - began) * 1000)
            page.locator("#again").click()
        context.close()
    return {"starts": starts, "games": games}


def main() -> None:
    if not CHROMIUM.exists():
        print(f"offline play: skipped (no Chromium at {CHROMIUM})")
        return
    m = machine()
    figures = measure()
    print(
        f"offline play in Chromium, the server stopped ({m['cpu']}, {m['cores']} cores, "
        f"load average {m['load_average'][0]}; medians and worst)"
    )
    starts, games = figures["starts"], figures["games"]
    print(
        f"  first offline start, reload to ready:   {statistics.median(starts):7.0f} ms "
        f"(worst {max(starts):.0f} of {len(starts)})"
    )
    print(
        f"  a whole game, optimal vs hard:          {statistics.median(games):7.0f} ms "
        f"(worst {max(games):.0f} of {len(games)})"
    )
    sizes = shell_sizes()
    code = [s for s in sizes if s[0].endswith((".js", ".css", "play"))]
    print("  precached, bytes (gzipped):")
    for url, raw, packed in sizes:
        print(f"    {url:<44} {raw:>9,} {packed:>9,}")
    print(
        f"  the page's HTML, scripts and styles:        {sum(s[1] for s in code):>9,} "
        f"{sum(s[2] for s in code):>9,}"
    )


if __name__ == "__main__":
    main()
