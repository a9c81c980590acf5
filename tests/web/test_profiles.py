"""Profiles and leaderboards through the API: two players play a rated game to the end, then
the leaderboard lists both with their new ratings and each profile shows their figures and
skill figure; a player's games page by cursor and leave private tables' games out (while the
figures count them); bad input is refused with the one error body and changes nothing. On
SQLite, and on PostgreSQL (whose last move and review take the asyncpg path)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.web.app import create_app
from yacht.web.settings import Settings

from .account_helpers import Device, Site, error, site
from .helpers import seed_maker
from .test_rated import play_out, rated_pair


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.services)])
def web(request: pytest.FixtureRequest, db: Path) -> Iterator[Site]:
    with ExitStack() as stack:
        if request.param == "sqlite":
            yield stack.enter_context(site(db))
            return
        base = os.environ.get("YACHT_TEST_POSTGRES_URL")
        if not base:
            pytest.skip("PostgreSQL not running: `make services` starts it")
        from scale.services import fresh_database

        url = stack.enter_context(fresh_database(base))
        app = create_app(
            url, settings=Settings(prepare_tables=False), seeds=seed_maker(), bot_delay=0.0
        )
        yield stack.enter_context(site(app))


def idle(web: Site) -> None:
    """Wait for the runner: bots' moves and reviews are made and kept."""
    portal = web.http.portal
    assert portal is not None
    portal.call(web.app.state.runner.idle)


def solo(web: Site, who: Device, *, private: bool = False) -> dict[str, Any]:
    """An unrated game of ``who`` against the random bot, played to the end."""
    code = who.table("human", "random", private=private)
    token = who.join(code, 0, "x")
    while True:
        game: dict[str, Any] = who.get(f"/api/tables/{code}").json()["game"]
        if game["status"] == "finished":
            return game
        if game["current"] != 0:
            idle(web)
            continue
        r = who.act(code, 0, token, {"kind": "roll"})
        category = next(iter(r.json()["game"]["potentials"]))
        who.act(code, 0, token, {"kind": "score", "category": category})


def test_a_rated_game_shows_on_the_leaderboard_and_both_profiles(web: Site) -> None:
    assert web.device().get("/api/leaderboard").json()["players"] == []
    code, players = rated_pair(web)
    game = play_out(code, players)
    idle(web)
    board = web.device("192.0.2.9").get("/api/leaderboard?rules=traditional").json()
    assert board["preset"] == "traditional" and board["active_days"] == 30
    lines = board["players"]
    assert sorted(line["name"] for line in lines) == ["Ann", "Bob"]
    assert [line["rank"] for line in lines] == [1, 2]
    totals = dict(zip(["Ann", "Bob"], game["totals"], strict=True))
    winner = max(totals, key=lambda n: totals[n])
    if totals["Ann"] != totals["Bob"]:
        assert lines[0]["name"] == winner and lines[0]["rating"]["shown"] > 1500
        assert lines[1]["rating"]["shown"] < 1500
    for line in lines:
        assert line["rating"]["provisional"] is True and line["rating"]["games"] == 1

    for name, line in ((line["name"], line) for line in lines):
        me = web.device("192.0.2.9").get(f"/api/players/{name.lower()}").json()
        assert me["name"] == name
        (figures,) = me["presets"]
        assert figures["preset"] == "traditional" and figures["games"] == 1
        assert figures["average"] == figures["best"] == totals[name]
        assert figures["wins"] == int(totals[name] == max(totals.values()))
        assert figures["rating"] == line["rating"]
        (point,) = figures["history"]
        assert point["shown"] == line["rating"]["shown"] and point["games"] == 1
        assert figures["reviewed"] == 1 and 0 <= figures["accuracy"] <= 100
        skill = figures["skill"]
        assert skill["games"] == 1 and skill["standard_error"] is None
        assert skill["window"] == 20 and skill["optimum"] == pytest.approx(166.96, abs=0.01)
        review = web.device().get(f"/api/games/{point['game']}/review").json()
        mine = next(p for p in review["players"] if p["name"] == name)
        assert skill["played_like"] == pytest.approx(166.96 - mine["loss"], abs=0.02)
        assert [m["bot"] for m in skill["marks"]] == ["easy", "medium", "hard", "optimal"]
        listed = web.device().get(f"/api/players/{name}/games").json()
        assert [g["id"] for g in listed["games"]] == [point["game"]]
        assert listed["games"][0]["table"] == code and listed["next"] is None


def test_games_page_by_cursor_and_private_ones_are_counted_not_listed(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    for i, private in enumerate((False, True, False)):
        ann.address = f"198.51.100.{10 + i}"  # each game from its own address: the action limit
        solo(web, ann, private=private)
    idle(web)
    figures = ann.get("/api/players/Ann").json()["presets"][0]
    assert figures["games"] == 3 and figures["rating"] is None and figures["history"] == []
    assert figures["skill"]["games"] == 3 and figures["skill"]["standard_error"] is not None
    first = ann.get("/api/players/Ann/games?limit=1").json()
    assert len(first["games"]) == 1 and first["next"]
    second = ann.get(f"/api/players/Ann/games?limit=1&before={first['next']}").json()
    assert len(second["games"]) == 1 and second["next"]
    third = ann.get(f"/api/players/Ann/games?limit=1&before={second['next']}").json()
    assert third == {"games": [], "next": None}
    listed = first["games"] + second["games"]
    assert len({g["id"] for g in listed}) == 2  # the private game is not listed
    assert [g["finished_at"] for g in listed] == sorted(
        (g["finished_at"] for g in listed), reverse=True
    )
    assert all(not g["rated"] and g["players"] == 2 for g in listed)


def test_bad_input_is_refused_and_changes_nothing(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    solo(web, ann)
    idle(web)
    guest = web.device("192.0.2.7")
    before = guest.get("/api/players/Ann").json()
    assert error(guest.get("/api/players/Nobody")) == (404, "not_found")
    assert error(guest.get("/api/players/Nobody/games")) == (404, "not_found")
    assert error(guest.get("/api/players/%00")) == (404, "not_found")
    assert error(guest.get("/api/players/" + "x" * 200)) == (422, "invalid")
    assert error(guest.get("/api/leaderboard?rules=chess")) == (422, "invalid")
    assert "unknown rules preset" in guest.get("/api/leaderboard?rules=chess").json()["message"]
    for garbage in ("x", "1-", "-1", "1-0", "12345678901234567890-1", "1-2-3", "1.5-2", "%27"):
        r = guest.get(f"/api/players/Ann/games?before={garbage}")
        assert error(r) == (422, "invalid"), garbage
    assert error(guest.get("/api/players/Ann/games?limit=0")) == (422, "invalid")
    assert error(guest.get("/api/players/Ann/games?limit=101")) == (422, "invalid")
    assert guest.get("/api/players/Ann").json() == before


def test_the_endpoints_are_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in ("/api/players/{name}", "/api/players/{name}/games", "/api/leaderboard"):
        operation = doc["paths"][path]["get"]
        assert "200" in operation["responses"] and "404" in operation["responses"], path
    assert {"Profile", "PlayerGames", "Leaderboard"} <= set(doc["components"]["schemas"])
