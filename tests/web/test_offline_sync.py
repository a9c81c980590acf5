"""Offline games into a signed-in player's history (docs/web/offline.md, *Sync*), through the
API: a game played on the device is replayed by the server and stored once however often it
is sent; the profile lists it as offline and counts it nowhere: not in the rating, the best
score, the average, the skill figure or the leaderboard. On SQLite and PostgreSQL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import text

from .account_helpers import PASSWORD, Site
from .offline_helpers import offline_game, seed, sync
from .test_profiles import idle, web
from .test_rated import play_out, rated_pair

__all__ = ["web"]  # the fixture: SQLite and PostgreSQL


def _figures(profile: dict[str, Any]) -> dict[str, Any]:
    return {p["preset"]: p for p in profile["presets"]}


def test_an_offline_game_is_stored_once_and_counts_in_no_figure(web: Site) -> None:
    code, players = rated_pair(web)
    online = play_out(code, players)
    idle(web)  # the review is made: Ann has a skill figure
    ann = players[0][0]
    before = ann.get("/api/players/Ann").json()
    board = ann.get("/api/leaderboard?rules=traditional").json()["players"]
    mine = _figures(before)["traditional"]
    assert mine["games"] == 1 and mine["rating"] is not None and mine["skill"] is not None
    # an offline game whose total beats her online best and wins (so it would move each figure)
    n = next(
        n
        for n in range(1, 400)
        if (g := offline_game(seed(n)))["totals"][0] > max(online["totals"]) + 5
        and g["totals"][0] > g["totals"][1]
    )
    game = offline_game(seed(n), game_id="lx9-sync0001")
    r = sync(ann, game)
    assert r.status_code == 200, r.text
    [first] = r.json()["games"]
    assert first["status"] == "stored" and first["id"] == "lx9-sync0001"
    # sent again, alone and twice at once (the page reloaded while a send was under way)
    assert sync(ann, game).json()["games"] == [{**first, "status": "already"}]
    with ThreadPoolExecutor(2) as pool:
        again = list(pool.map(lambda _: sync(ann, game).json()["games"][0], range(2)))
    assert {a["record"] for a in again} == {first["record"]}
    assert {a["status"] for a in again} == {"already"}

    after = ann.get("/api/players/Ann").json()
    assert after["offline_games"] == 1
    [line] = after["offline"]
    assert line["record"] == first["record"] and line["total"] == game["totals"][0]
    assert (line["preset"], line["players"], line["seat"], line["rank"]) == ("traditional", 2, 0, 1)
    now = _figures(after)["traditional"]
    assert now["games"] == mine["games"] and now["wins"] == mine["wins"]
    assert now["best"] == mine["best"] < game["totals"][0]  # not the best score
    assert now["average"] == mine["average"]  # not in the average
    assert now["yachts"] == mine["yachts"] and now["reviewed"] == mine["reviewed"]
    assert now["skill"] == mine["skill"]  # not in the skill figure
    assert now["accuracy"] == mine["accuracy"]
    assert now["rating"] == mine["rating"] and now["history"] == mine["history"]  # not rated
    assert ann.get("/api/leaderboard?rules=traditional").json()["players"] == board
    # and the other player's profile has no offline game
    assert players[1][0].get("/api/players/Bob").json()["offline_games"] == 0


def test_a_batch_stores_the_real_games_and_refuses_the_rest(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    good = offline_game(seed(7), ("human", "greedy", "human"), game_id="a-1")
    other = offline_game(seed(8), ("human",), game_id="a-2", preset="knizia")
    cheat = {**offline_game(seed(9), game_id="a-3")}
    cheat["totals"] = [cheat["totals"][0] + 50, cheat["totals"][1]]
    r = sync(ann, good, cheat, other)
    assert r.status_code == 200, r.text
    answers = r.json()["games"]
    assert [a["status"] for a in answers] == ["stored", "refused", "stored"]
    assert "totals" in answers[1]["reason"] and answers[1]["record"] is None
    profile = ann.get("/api/players/Ann").json()
    assert profile["offline_games"] == 2 and profile["presets"] == []
    assert [g["preset"] for g in profile["offline"]] == ["traditional", "knizia"] or [
        g["preset"] for g in profile["offline"]
    ] == ["knizia", "traditional"]
    # a game id is the account's own: Bob sending Ann's game stores his own record of it
    bob = web.device("198.51.100.2")
    bob.sign_up("Bob")
    [bobs] = sync(bob, good).json()["games"]
    assert bobs["status"] == "stored" and bobs["record"] != answers[0]["record"]
    # Ann's data holds her offline games, whole; deleting her account deletes them, not Bob's
    data = ann.get("/api/me/data").json()["offline_games"]
    assert sorted(g["id"] for g in data) == ["a-1", "a-2"]
    assert next(g for g in data if g["id"] == "a-1")["moves"] == good["moves"]
    assert ann.delete("/api/me", {"password": PASSWORD}).status_code == 204
    with web.app.state.service.store.engine.connect() as c:
        left = c.execute(text("SELECT client_id FROM offline_games")).scalars().all()
    assert left == ["a-1"]  # Bob's
