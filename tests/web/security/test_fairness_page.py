"""Fair dice on the page: the browser makes its own seed with crypto.getRandomValues after the
commitment is on screen, sends it with the join and for the next game, shows it, and its check
follows rule 3 like ``yacht verify`` (the key, the commitment it saw, its seed)."""

from __future__ import annotations

import re
from typing import Any

import httpx

from ..live import LiveServer
from ..pages import Pages
from .test_fairness import rigged

CHECK = (
    "async ([data, code]) => (await import('/static/js/fairness-seed.js')).checkSeeds(data, code)"
)
FULL = "async ([data, code]) => (await import('/static/js/fairness-seed.js')).checkGame(data, code)"


def test_the_page_gives_shows_and_checks_its_own_seed(pages: Pages, server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        table = http.post("/api/tables", json={"seats": seats}).json()
        code, seen = table["code"], table["game"]["commitment"]
        page = pages.open(f"{server.url}/t/{code}")
        page.fill("#join-name", "Ann")
        page.click("[data-join='0']")
        page.wait_for_selector("#my-seed")
        shown = page.inner_text("#my-seed")
        assert re.fullmatch(r"[0-9a-f]{32}", shown)
        page.wait_for_function("() => document.querySelectorAll('#fair .seeds li').length === 1")
        game = http.get(f"/api/tables/{code}").json()["game"]
        fair = game["fair"]
        assert [(c["seat"], c["seed"]) for c in fair["contributions"]] == [(0, shown)]
        assert game["commitment"] == seen and fair["key"]
        for _ in range(50):  # and, unasked, a seed for the rematch's new commitment
            nxt = http.get(f"/api/tables/{code}").json()["game"]["fair"]["next_contributions"]
            if nxt:
                break
            page.wait_for_timeout(100)
        assert nxt[0]["seat"] == 0 and nxt[0]["seed"] not in (shown, "")

    # the server's seed stays secret here: files with the live commitment and made-up seeds
    honest: dict[str, Any] = rigged("44" * 32, seen, [shown]) | {"table": {"code": code, "game": 1}}
    assert page.evaluate(CHECK, [honest, code]) == []
    swapped = rigged("55" * 32, "ab" * 32, [shown]) | {"table": {"code": code, "game": 1}}
    problems = page.evaluate(CHECK, [swapped, code])
    assert any("not the one this browser saw" in p for p in problems)
    dropped = rigged("44" * 32, seen, ["someone"]) | {"table": {"code": code, "game": 1}}
    assert any("seed is not among" in p for p in page.evaluate(CHECK, [dropped, code]))
    bad_key = rigged("44" * 32, seen, [shown]) | {"table": {"code": code, "game": 1}}
    bad_key["dice"] = {**bad_key["dice"], "key": "0" * 64}
    assert any("dice key is not" in p for p in page.evaluate(FULL, [bad_key, code])["problems"])
