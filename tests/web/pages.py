"""Pages in a real browser for the web tests: Debian's Chromium, headless, through Playwright.

Every page opened through :class:`Pages` (the ``pages`` fixture) records uncaught exceptions
(``pageerror``) and console errors; the test fails when any was seen, unless it declared that
one is expected (:meth:`Pages.allow`). Screenshots go to ``test-artifacts/web/`` (gitignored).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

from .live import ARTIFACTS, LiveServer

PHONE = {"width": 360, "height": 740}
PHONE_LARGE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


class Pages:
    """Opens pages (one browser context each) and remembers every script error they show."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []
        self._contexts: list[Any] = []

    def open(
        self,
        url: str,
        viewport: dict[str, int] | None = None,
        *,
        scheme: str = "light",
        lang: str = "en",
        seats: dict[str, dict[int, str]] | None = None,
        **options: Any,
    ) -> Page:
        """A new page at ``url``: colour ``scheme`` light or dark, texts in ``lang``, and the
        seat tokens ``seats`` ({code: {seat: token}}) already held by this browser."""
        context = self.browser.new_context(
            viewport=viewport or DESKTOP,  # type: ignore[arg-type]
            color_scheme=scheme,  # type: ignore[arg-type]
            **options,
        )
        self._contexts.append(context)
        stored = {"yacht:lang": lang}
        if seats:
            stored["yacht:tokens"] = json.dumps(seats)
        context.add_init_script(
            f"for (const [k, v] of Object.entries({json.dumps(stored)})) "
            "if (localStorage.getItem(k) === null) localStorage.setItem(k, v);"
        )
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: {error}"))

        def console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(f"{page.url}: console: {message.text}")

        page.on("console", console)
        page.goto(url)
        return page

    def allow(self, pattern: str) -> None:
        """Declare an error the test expects (a regular expression on its text)."""
        self.allowed.append(re.compile(pattern))

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]

    def close(self) -> None:
        for context in self._contexts:
            context.close()
        self._contexts.clear()


def shot(page: Page, name: str, *, full: bool = False) -> None:
    """Save a screenshot under test-artifacts/web/ once the dice have landed."""
    page.wait_for_function("() => !document.querySelector('.die.rolling')")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full)


def write(box: Any) -> None:
    """Click ``box`` (a box to score in) and, when it asks first (a zero is written only when
    confirmed), confirm."""
    box.click()
    page = box.page
    if page.locator("#zero").is_visible():
        page.locator("#zero-yes").click()


def new_table(
    server: LiveServer, *seats: str, name: str = "Ann", **options: Any
) -> tuple[str, str]:
    """Open a table through the API ("human" or a bot level per seat) and take its first
    person's seat as ``name``; the table code and that seat's token."""
    specs = [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats]
    with httpx.Client(base_url=server.url) as http:
        r = http.post("/api/tables", json={"seats": specs, **options})
        r.raise_for_status()
        code: str = r.json()["code"]
        first = [s["kind"] for s in specs].index("human")
        joined = http.post(f"/api/tables/{code}/join", json={"seat": first, "name": name})
        joined.raise_for_status()
        token: str = joined.json()["token"]
    return code, token


_AXE: list[Any] = []


ALSO = ("page-has-heading-one", "heading-order", "landmark-one-main", "region")
"""Rules of lesser impact held all the same: every page has its one h1, headings in order, and
all content in landmarks."""


def serious_violations(page: Page) -> list[str]:
    """axe-core's violations of impact serious or critical (and of the rules in ``ALSO``) on
    the page as it is now, one line each (rule, impact, the first elements)."""
    from axe_playwright_python.sync_playwright import Axe

    if not _AXE:
        _AXE.append(Axe())
    results = _AXE[0].run(page)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical") or v["id"] in ALSO:
            where = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
            found.append(
                f"{v['id']} ({v['impact']}): {where} {v['nodes'][0].get('failureSummary', '')}"
            )
    return found


def wider_than_screen(page: Page) -> list[str]:
    """The visible elements that stick out past the right edge of the screen (nothing should:
    a page that scrolls sideways on a phone hides its controls)."""
    found: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('body *')].filter(e => {"
        " const r = e.getBoundingClientRect();"
        " const scrolled = e.closest('.sheet-scroll, .table-scroll');"
        " return r.width > 0 && r.right > innerWidth + 1 && !scrolled;"
        " }).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + '.' + e.className)"
    )
    return found
