"""Nothing left in English: every page in Finnish, Bulgarian and Norwegian (the lobby, a table
waiting for a person, an unknown table code, a table in its first round against a bot with the
hint open, the results of a finished game with every decision shown, the finished games, the
replay checked to its last move), read word by word — the text, the tab's title, the options of
every list, labels and tooltips — against the English of the catalogs (tests/english.py).
Numbers on the results page and in the hint are the language's own ("110,2", "30,8 %"), and no
page shows a script error. Screenshots go to test-artifacts/web/."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect

from english import english_words
from yacht.web.protocol.texts import catalog

from .helpers import AnnSeat
from .live import ARTIFACTS, LiveServer
from .pages import Pages, shot

expect.set_options(timeout=30_000)
ALLOWED = {"Ann"}
LEVELS = ("random", "greedy", "easy", "medium", "hard", "optimal", "winner")
HEX = re.compile(r"\b[0-9a-f]{16,}\b")
TEXT = """() => {
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) parts.push(walker.currentNode.nodeValue);
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    for (const a of ['aria-label', 'title', 'placeholder', 'alt']) {
      parts.push(el.getAttribute(a) || '');
    }
  }
  return parts.join('\\n');
}"""
ROLL_OFF = {"fi": "Aloitusheitot: ", "bg": "Хвърляне за начало: ", "nb": "Startkast: "}
DECIMAL = {"fi": r"\d,\d", "bg": r"\d,\d", "nb": r"\d,\d"}
PERCENT = {"fi": r"\d\u00a0%", "bg": r"\d%", "nb": r"\d\u00a0%"}


@pytest.fixture(scope="module")
def tables(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[LiveServer, AnnSeat, AnnSeat, AnnSeat]]:
    """One server for the module: a finished game with its review, a game in its first round
    with Ann to roll again (dice on the table; who starts was rolled off, and the log says so),
    and a table waiting for a second person."""
    server = LiveServer(tmp_path_factory.mktemp("english") / "yacht.sqlite3", bot_delay=0)
    server.start()
    with httpx.Client(base_url=server.url, timeout=120) as http:
        done = AnnSeat(http)
        done.play_turns(12)
        done.wait(lambda g: g["status"] == "finished" and g.get("review") is not None)
        playing = AnnSeat(http, start="roll-off")
        playing.wait(lambda g: g["current"] == 0)
        playing.act({"kind": "roll"})
        waiting = AnnSeat(http, {"kind": "human"})
        yield server, done, playing, waiting
    server.stop()


def english(page: Page, lang: str, code: str = "") -> list[str]:
    text = HEX.sub(" ", page.evaluate(TEXT))
    if code:
        text = text.replace(code, " ")
    found = english_words(text, lang, allowed=ALLOWED)
    # bot levels are also words the command line takes as typed (so not in the check above)
    own = catalog(lang)["messages"]
    levels = [lv for lv in LEVELS if own.get(lv, lv) != lv]
    found += [lv for lv in levels if re.search(rf"\b{lv}\b", text, re.IGNORECASE)]
    return [f"{w} in {context(text, w)!r}" for w in found]


def context(text: str, word: str) -> str:
    m = re.search(rf"\b{re.escape(word)}\b", text)
    return text[max(0, m.start() - 40) : m.end() + 40] if m else ""


def save_text(name: str, text: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"{name}.txt").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("lang", ["fi", "bg", "nb"])
def test_every_page_speaks_the_language(
    pages: Pages, tables: tuple[LiveServer, AnnSeat, AnnSeat, AnnSeat], lang: str
) -> None:
    server, done, playing, waiting = tables
    found: dict[str, list[str]] = {}

    page = pages.open(server.url + "/", lang=lang)
    expect(page.locator("#open")).to_be_enabled()
    expect(page.locator(f"#open-tables a[href='t/{waiting.code}']")).to_be_visible()
    found["lobby"] = english(page, lang, waiting.code)
    shot(page, f"english-{lang}-1-lobby", full=True)

    page = pages.open(f"{server.url}/t/{waiting.code}", lang=lang)
    expect(page.locator("#join button").first).to_be_visible()
    found["waiting table"] = english(page, lang, waiting.code)
    shot(page, f"english-{lang}-1-waiting", full=True)

    pages.allow(r"/t/ZZZZZZ: console: Failed to load resource: .* 404")
    page = pages.open(f"{server.url}/t/ZZZZZZ", lang=lang)
    expect(page.locator("#missing")).to_be_visible()
    found["no such table"] = english(page, lang, "ZZZZZZ")

    seats = {playing.code: {0: playing.token}}
    page = pages.open(f"{server.url}/t/{playing.code}", lang=lang, seats=seats)
    page.locator("#hint").click()
    expected = page.locator("#hints li .expected")
    expect(expected.first).to_have_text(re.compile(DECIMAL[lang]))
    expect(page.locator("#log")).to_contain_text(ROLL_OFF[lang])
    found["table"] = english(page, lang, playing.code)
    shot(page, f"english-{lang}-2-table", full=True)

    seats = {done.code: {0: done.token}}
    page = pages.open(f"{server.url}/t/{done.code}", lang=lang, seats=seats)
    results = page.locator("#results")
    expect(results.locator(".review").first).to_be_visible()
    for summary in results.locator("details summary").all():
        summary.click()
    expect(results.locator("table.decisions tbody tr").first).to_be_visible()
    stats = results.locator(".review .stats").first
    expect(stats).to_contain_text(re.compile(DECIMAL[lang]))
    expect(stats).to_contain_text(re.compile(PERCENT[lang]))
    expect(results.locator("table.decisions tbody").first).to_contain_text(
        re.compile(DECIMAL[lang])
    )
    assert "." not in results.locator("table.decisions tbody td:last-child").first.inner_text()
    expect(results.locator("svg.chart text.tick").first).to_be_visible()
    found["results"] = english(page, lang, done.code)
    save_text(f"english-{lang}-results", results.inner_text())
    shot(page, f"english-{lang}-3-results", full=True)

    page = pages.open(f"{server.url}/games", lang=lang)
    expect(page.locator("#games tr td a").first).to_be_visible()
    found["games"] = english(page, lang, done.code)
    shot(page, f"english-{lang}-4-games", full=True)

    game_id = done.game()["id"]
    page = pages.open(f"{server.url}/games/{game_id}", lang=lang)
    expect(page.locator("#step-label")).not_to_be_empty()
    page.locator("#last").click()
    page.locator("#verify").click()
    expect(page.locator("#verdict.ok")).to_be_visible()
    found["replay"] = english(page, lang, done.code)
    shot(page, f"english-{lang}-5-replay", full=True)

    assert {where: words for where, words in found.items() if words} == {}


def test_the_tab_titles_are_translated(
    pages: Pages, tables: tuple[LiveServer, AnnSeat, AnnSeat, AnnSeat]
) -> None:
    server, done, playing, _ = tables
    game_id = done.game()["id"]
    titles = {
        "/games": "Yacht · Päättyneet pelit",
        f"/games/{game_id}": f"Yacht · {{replay}} · Pöytä {done.code}, peli 1",
        f"/t/{playing.code}": f"Yacht · {playing.code}",
    }
    for path, title in titles.items():
        page = pages.open(server.url + path, lang="fi")
        expect(page.locator("#lang")).to_have_value("fi")
        replay = page.evaluate("async () => (await import('/static/js/i18n.js')).t('Replay')")
        expect(page).to_have_title(title.replace("{replay}", replay))
