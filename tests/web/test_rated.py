"""Rated tables as players use them through the API: opened and joined signed in only, no
hints, and a finished game's ranks change both players' ratings (OpenSkill, one rating per
preset) in the transaction of its last move, with each account's result recorded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from yacht.web.service.ratings import Rating, Seat, ranks_from_totals, rate_game

from .account_helpers import Device, Site, error, site


@pytest.fixture
def web(db: Path) -> Iterator[Site]:
    with site(db) as opened:
        yield opened


def play_out(code: str, players: dict[int, tuple[Device, str]]) -> dict[str, Any]:
    """Roll once and score the first open category, turn by turn, to the end."""
    device = next(iter(players.values()))[0]
    while True:
        game: dict[str, Any] = device.get(f"/api/tables/{code}").json()["game"]
        if game["status"] == "finished":
            return game
        who, token = players[game["current"]]
        r = who.act(code, game["current"], token, {"kind": "roll"})
        assert r.status_code == 200, r.text
        category = next(iter(r.json()["game"]["potentials"]))
        r = who.act(code, game["current"], token, {"kind": "score", "category": category})
        assert r.status_code == 200, r.text


def rated_pair(web: Site) -> tuple[str, dict[int, tuple[Device, str]]]:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    code = ann.table("human", "human", rated=True)
    return code, {0: (ann, ann.join(code, 0)), 1: (bob, bob.join(code, 1))}


def test_a_rated_game_rates_both_players_by_final_rank(web: Site, db: Path) -> None:
    code, players = rated_pair(web)
    state = players[0][0].get(f"/api/tables/{code}").json()
    assert state["rated"] is True and state["hints"] is False
    game = play_out(code, players)
    totals = game["totals"]
    portal = web.http.portal
    assert portal is not None
    portal.call(web.app.state.runner.idle)  # the review is made and kept
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        rows = c.execute(
            text(
                "SELECT a.name, r.mu, r.sigma, r.games, r.preset FROM ratings r "
                "JOIN accounts a ON a.id = r.account_id ORDER BY a.name"
            )
        ).all()
        results = c.execute(
            text(
                "SELECT a.name, p.total, p.rank, p.rated, p.players, p.loss, p.decisions, "
                "p.accurate, p.yachts FROM player_games p "
                "JOIN accounts a ON a.id = p.account_id ORDER BY a.name"
            )
        ).all()
        events = c.execute(text("SELECT count(*) FROM rating_events")).scalar_one()
        sums = c.execute(
            text(
                "SELECT games, wins, total_sum, best, yachts, reviewed, loss_sum, decisions, "
                "accurate FROM player_stats ORDER BY account_id"
            )
        ).all()
    engine.dispose()
    assert [r[0] for r in results] == ["Ann", "Bob"] and events == 2
    finals = [r[1] for r in results]
    assert finals == totals
    ranks = ranks_from_totals(finals)
    assert [r[2] for r in results] == ranks and all(r[3] and r[4] == 2 for r in results)
    game_id = players[0][0].get(f"/api/tables/{code}").json()["game"]["id"]
    review = players[0][0].get(f"/api/games/{game_id}/review").json()
    for row, seat in zip(results, review["players"], strict=True):  # the review's figures
        decisions = seat["decisions"]
        assert row[5] == seat["loss"] and row[6] == len(decisions) >= 12
        assert row[7] == sum(d["accurate"] for d in decisions)
    assert [tuple(r) for r in sums] == [  # one game each: the sums are that game's figures
        (1, int(r[2] == 1), r[1], r[1], r[8], 1, r[5], r[6], r[7]) for r in results
    ]
    expected = rate_game([Seat("Ann", Rating(), ranks[0]), Seat("Bob", Rating(), ranks[1])])
    for row, change in zip(rows, expected, strict=True):
        assert row[4] == "traditional" and row[3] == 1
        assert row[1] == pytest.approx(change.after.mu) and row[2] == pytest.approx(
            change.after.sigma
        )


def test_a_rated_table_is_for_signed_in_people_only(web: Site) -> None:
    guest = web.device("198.51.100.7")
    assert error(guest.post("/api/tables", {"seats": [{"kind": "human"}] * 2, "rated": True})) == (
        401,
        "unauthorized",
    )
    ann = web.device()
    ann.sign_up("Ann")
    bot_seat = [{"kind": "human"}, {"kind": "bot", "bot": "medium"}]
    assert error(ann.post("/api/tables", {"seats": bot_seat, "rated": True})) == (422, "invalid")
    assert error(ann.post("/api/tables", {"seats": [{"kind": "human"}], "rated": True})) == (
        422,
        "invalid",
    )
    code = ann.table("human", "human", rated=True)
    ann.join(code, 0)
    r = guest.post(f"/api/tables/{code}/join", {"seat": 1, "name": "Gus"})
    assert error(r) == (401, "unauthorized")
    assert error(ann.post(f"/api/tables/{code}/join", {"seat": 1, "name": "x"})) == (
        409,
        "seat_taken",
    )
    state = ann.get(f"/api/tables/{code}").json()
    assert state["seats"][1]["name"] is None  # nothing changed


def test_an_unrated_game_records_results_but_no_rating(web: Site, db: Path) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    code = ann.table("human")  # a solo game: a finished game with a signed-in player
    game = play_out(code, {0: (ann, ann.join(code, 0))})
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM ratings")).scalar_one() == 0
        row = c.execute(text("SELECT rated, players, total, rank FROM player_games")).one()
        assert tuple(row) == (0, 1, game["totals"][0], 1)
    engine.dispose()
