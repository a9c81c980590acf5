"""Fair dice rule 3 at the web's tables (docs/web/fairness.md): every die dealt by its place, so
a server choosing a bot's holds cannot steer a person's dice; the opener gives a seed like
everyone who sits; and the page's checks cannot be talked round (a forged file without its
rule, a tampered seed) on the replay page as in ``yacht verify``."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Route, expect
from starlette.testclient import TestClient

from yacht.dice import FairDice
from yacht.game import Game
from yacht.rules import CATEGORIES
from yacht.web.service.fairness import dice_key, verify

from .helpers import AnnSeat, Table, make_app
from .live import LiveServer
from .pages import Pages


def persons_dice(db: Path, bot: str) -> tuple[list[list[int]], list[str]]:
    """Ann (seat 0, seed "ann-7") against ``bot`` on a fresh server whose seeds repeat from run
    to run; Ann keeps the first two dice each turn and rolls three times. Returns every roll Ann
    saw and every move the bot made (what the server chose for it)."""
    with TestClient(make_app(db)) as client:
        t = Table.create(client, "human", bot)
        r = t.post("join", {"seat": 0, "name": "Ann", "seed": "ann-7"})
        assert r.status_code == 200, r.text
        t.tokens[0] = r.json()["token"]
        for _ in CATEGORIES:
            t.settle()
            t.ok(0, {"kind": "roll"})
            t.ok(0, {"kind": "hold", "positions": [1, 2]})
            t.ok(0, {"kind": "roll"})
            game = t.ok(0, {"kind": "roll"})
            t.ok(0, {"kind": "score", "category": next(iter(game["potentials"]))})
        t.settle()
        data = client.get(f"/api/games/{t.game['id']}").json()
    assert data["fair"]["rule"] == 3 and verify(data, seed="ann-7").fair
    ann = [e["dice"] for e in data["events"] if e["player"] == 0 and e["action"] == "roll"]
    moves = [e["action"] for e in data["events"] if e["player"] == 1]
    return ann, moves


def test_a_bots_holds_chosen_by_the_server_do_not_change_a_persons_dice(tmp_path: Path) -> None:
    """The steering attack through the web: the same commitment and the same seed from Ann, the
    bot seat played two ways (its holds are the server's to choose). Under rule 2's one counter
    the same two games gave Ann different dice in 33 of her 36 rolls."""
    greedy, greedy_moves = persons_dice(tmp_path / "a.sqlite3", "greedy")
    random, random_moves = persons_dice(tmp_path / "b.sqlite3", "random")
    assert greedy_moves != random_moves  # the bot's holds differed
    assert len(greedy) == 36 and greedy == random


def test_a_table_opened_against_a_bot_has_the_openers_seed_in_its_key(
    pages: Pages, server: LiveServer
) -> None:
    page = pages.open(server.url + "/")
    expect(page.locator("#open")).to_be_enabled()
    page.fill("#name", "Carol")
    page.select_option("#seat-count", "2")
    page.select_option("select[data-seat='1']", "bot:medium")
    page.locator("#open").click()
    page.wait_for_url(re.compile(r"/t/[A-Z0-9]{6}$"))
    code = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#my-seed")
    mine = page.inner_text("#my-seed")
    game = httpx.get(f"{server.url}/api/tables/{code}").json()["game"]
    fair = game["fair"]
    assert game["status"] == "playing" and fair["rule"] == 3
    assert [(c["seat"], c["seed"]) for c in fair["contributions"]] == [(0, mine)]
    assert fair["key"] == dice_key(game["commitment"], fair["contributions"])


def finished_file(server: LiveServer) -> dict[str, Any]:
    """A finished game of Ann (seed "ann-7") against the greedy bot, as its file."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        ann = AnnSeat.__new__(AnnSeat)  # Ann's seat, taken with her seed
        ann.http, ann.code = http, http.post("/api/tables", json={"seats": seats}).json()["code"]
        body = {"seat": 0, "name": "Ann", "seed": "ann-7"}
        ann.token = http.post(f"/api/tables/{ann.code}/join", json=body).json()["token"]
        ann.play_turns(len(CATEGORIES))
        game = ann.wait(lambda g: g["status"] == "finished")
        data: dict[str, Any] = http.get(f"/api/games/{game['id']}").json()
    return data | {"id": game["id"]}


def check_on_replay(pages: Pages, server: LiveServer, game_id: int, served: Any) -> str:
    """Open the replay of game ``game_id`` with its file swapped for ``served``; press *Check
    every roll*; the verdict's text."""
    page = pages.open(f"{server.url}/")

    def swap(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(served))

    page.route(re.compile(rf"/api/games/{game_id}$"), swap)
    page.goto(f"{server.url}/games/{game_id}")
    expect(page.locator("#step-label")).to_contain_text("Move")  # the page's script is ready
    page.get_by_role("button", name="Check every roll").click()
    verdict = page.locator("#verdict")
    expect(verdict).not_to_have_text(re.compile(r"^$|Checking"))
    return verdict.inner_text()


def test_the_replay_page_checks_the_key_against_the_seeds(pages: Pages, server: LiveServer) -> None:
    data = finished_file(server)
    game_id = data.pop("id")
    assert check_on_replay(pages, server, game_id, data).startswith("Fair by rule 3: all")
    tampered = copy.deepcopy(data)
    tampered["fair"]["contributions"][0]["seed"] = "not-what-ann-gave"
    assert not verify(tampered).fair
    text = check_on_replay(pages, server, game_id, tampered)
    assert text.startswith("NOT fair") and "dice key is not the one" in text


def test_a_forged_file_without_its_rule_fails_on_the_page(pages: Pages, server: LiveServer) -> None:
    """After seeing Ann's seed the server picks a seed whose dice suit it, a key of its own, a
    commitment to match, and drops ``fair.rule`` so that nothing recomputes the key."""
    data = finished_file(server)
    game_id = data.pop("id")
    chosen = "77" * 32
    g = Game(data["players"], dice=FairDice(chosen, "a key it chose"))
    for _ in CATEGORIES:
        for seat in range(2):
            g.apply("roll", player=seat)
            g.apply(
                f"score {next(c for c in CATEGORIES if c not in g.sheet(seat)).value}", player=seat
            )
    forged = data | g.to_json()
    forged["fair"] = {
        "commitment": FairDice(chosen).commitment,
        "contributions": data["fair"]["contributions"],
        "key": "a key it chose",
    }
    assert not verify(forged).fair
    text = check_on_replay(pages, server, game_id, forged)
    assert text.startswith("NOT fair") and "names no fair dice rule" in text
    forged["fair"]["rule"] = 2  # named as an older rule, the key must still follow the seeds
    text = check_on_replay(pages, server, game_id, forged)
    assert text.startswith("NOT fair") and "dice key is not the one" in text


def test_older_games_check_on_the_page_by_their_own_rule(pages: Pages, server: LiveServer) -> None:
    """Rule 2 (one counter, its own key line) is still fair on the page, and says so; rule 1
    (a key given before the server drew its seed) is dealt by the server alone."""
    from .security.test_fairness import rigged

    page = pages.open(f"{server.url}/")
    check = "async (data) => (await import('/static/js/fair.js')).verifyGame(data)"
    words = "async (data) => { const f = await import('/static/js/fair.js');"
    words += " return f.verdictText(await f.verifyGame(data)); }"
    rule2 = rigged("88" * 32, FairDice("88" * 32).commitment, ["ann"], rule=2)
    assert verify(rule2).fair and page.evaluate(check, rule2)["rule"] == 2
    assert page.evaluate(words, rule2).startswith("Fair by rule 2: all 12 rolls (60 dice)")
    rule1 = copy.deepcopy(rule2)
    rule1["fair"] = {"rule": 1, "commitment": rule2["fair"]["commitment"]}
    assert verify(rule1).alone
    assert page.evaluate(words, rule1).startswith("Dealt by the server alone (rule 1)")
    as_rule3 = copy.deepcopy(rule2)
    as_rule3["fair"]["rule"] = 3  # dice of one counter are not what rule 3 deals
    assert page.evaluate(check, as_rule3)["problems"] == [
        'rule 3 deals placed dice, the file has "fair"'
    ]


def test_a_table_of_bots_says_the_server_deals_it_alone(pages: Pages, server: LiveServer) -> None:
    seats = [{"kind": "bot", "bot": "greedy"}] * 2
    code = httpx.post(f"{server.url}/api/tables", json={"seats": seats}).json()["code"]
    page = pages.open(f"{server.url}/t/{code}", lang="fi")
    expect(page.locator("#server-alone")).to_have_text(
        "Yhdenkään pelaajan siemenluku ei ole noppien avaimessa: palvelin jakaa tämän pelin yksin."
    )
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    code = httpx.post(f"{server.url}/api/tables", json={"seats": seats}).json()["code"]
    page = pages.open(f"{server.url}/t/{code}")
    page.fill("#join-name", "Ann")
    page.click("[data-join='0']")
    expect(page.locator("#my-seed")).to_be_visible()
    expect(page.locator("#fair .seeds li")).to_have_count(1)
    expect(page.locator("#server-alone")).to_have_count(0)


def test_without_web_crypto_the_page_checks_the_same(pages: Pages, server: LiveServer) -> None:
    """A page served over plain http from a LAN address is not a secure context and has no
    crypto.subtle: the plain-JavaScript SHA-256 and HMAC stand in and give the same verdict."""
    data = finished_file(server)
    data.pop("id")
    check = "async (data) => (await import('/static/js/fair.js')).verifyGame(data)"
    secure = pages.open(f"{server.url}/")
    assert secure.evaluate("() => isSecureContext && !!crypto.subtle")
    plain = pages.open(f"{server.url}/")
    plain.add_init_script("Object.defineProperty(window, 'isSecureContext', { value: false })")
    plain.reload()
    assert plain.evaluate("() => isSecureContext") is False
    verdict = verify(data)
    for page in (secure, plain):
        result = page.evaluate(check, data)
        assert result["fair"] and result["problems"] == [] and result["dice"] == verdict.dice
    tampered = copy.deepcopy(data)
    tampered["fair"]["contributions"][0]["seed"] = "not-what-ann-gave"
    assert plain.evaluate(check, tampered)["problems"] == [
        "the dice key is not the one the commitment and the players' seeds make"
    ]
