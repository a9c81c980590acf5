"""Correspondence tables through the API, with the server's clock moved by the test: a move not
made in time is made by the medium bot (the seat goes back to its holder), too many missed
moves leave the seat with the bot and lose a rated game, the idle clean-up spares running
correspondence games and waiting ones expire after 7 days, a restart keeps every deadline, and
the inbox lists the games waiting on a player (all of an account's devices; a guest's by the
tokens their browser holds), soonest deadline first."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from yacht.web.service.correspondence import DAY, LEASE

from .account_helpers import Device, Site, error, site
from .helpers import Table, make_app


class Clock:
    """The server's time, moved by the test (starts now: rows stamped by the database agree)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def web(db: Path, clock: Clock) -> Iterator[Site]:
    with site(db) as opened:
        opened.app.state.service.clock = clock
        yield opened


def look(client: TestClient, app: Any = None) -> list[tuple[str, int]]:
    """The server's look for due deadlines, then its bots' moves."""
    portal = client.portal
    assert portal is not None
    app = app or client.app
    taken: list[tuple[str, int]] = portal.call(app.state.deadlines.look)
    portal.call(app.state.runner.idle)
    return taken


def test_a_missed_deadline_has_the_medium_bot_make_that_move_and_a_restart_keeps_it(
    db: Path, clock: Clock
) -> None:
    with TestClient(make_app(db)) as client:
        client.app.state.service.clock = clock  # type: ignore[attr-defined]
        table = Table.create(client, "human", "human", move_days=2)
        table.join(0, "Ann")
        table.join(1, "Bob")
        state = table.state()
        assert state["move_days"] == 2 and state["missed_limit"] == 3
        assert state["game"]["deadline"] is None  # no real-time clock
        ann, bob = state["seats"]
        assert ann["deadline"] == pytest.approx(clock.now + 2 * DAY)
        assert bob["deadline"] is None
        due = ann["deadline"]
    # A restart: a new app on the same file finds the deadline in the database.
    with TestClient(make_app(db)) as client:
        client.app.state.service.clock = clock  # type: ignore[attr-defined]
        store = client.app.state.service.store  # type: ignore[attr-defined]
        assert table.code not in store.active_codes()  # dormant: not resumed nor announced
        clock.now = due - 1
        assert look(client) == []
        clock.now = due + 1
        assert look(client) == [(table.code, 0)]
        table = Table(client, table.code)
        state = table.state()
        ann, bob = state["seats"]
        game = state["game"]
        assert game["current"] == 1 and len(game["sheets"][0]) == 1  # the bot scored for Ann
        assert game["recent"][-1]["seat"] == 0
        assert (ann["kind"], ann["missed"], ann["stand_in"], ann["deadline"]) == (
            "human",
            1,
            False,
            None,
        )
        assert bob["deadline"] == pytest.approx(clock.now + 2 * DAY)
        assert look(client) == []  # acted on once


def test_a_move_made_in_time_is_kept_and_resets_the_deadline(web: Site, clock: Clock) -> None:
    ann = web.device()
    code = ann.table("human", "human", move_days=1)
    token = ann.join(code, 0, "Ann")
    web.device("198.51.100.2").join(code, 1, "Bob")
    clock.now += DAY - 60
    assert ann.act(code, 0, token, {"kind": "roll"}).status_code == 200
    game = ann.get(f"/api/tables/{code}").json()["game"]
    category = next(iter(game["potentials"]))
    r = ann.act(code, 0, token, {"kind": "score", "category": category})
    assert r.status_code == 200
    seats = r.json()["seats"]
    assert seats[0]["deadline"] is None and seats[1]["deadline"] == pytest.approx(clock.now + DAY)
    clock.now += 120  # Ann's old deadline has passed: nothing is due
    assert look(web.http, web.app) == []


def play_out(code: str, players: dict[int, tuple[Device, str]]) -> dict[str, Any]:
    """Roll once and score the first open category at every person's turn; the bots move."""
    device = next(iter(players.values()))[0]
    portal = device.site.http.portal
    assert portal is not None
    while True:
        portal.call(device.site.app.state.runner.idle)
        state: dict[str, Any] = device.get(f"/api/tables/{code}").json()
        game = state["game"]
        if game["status"] == "finished":
            return state
        who, token = players[game["current"]]
        r = who.act(code, game["current"], token, {"kind": "roll"})
        assert r.status_code == 200, r.text
        category = next(iter(r.json()["game"]["potentials"]))
        r = who.act(code, game["current"], token, {"kind": "score", "category": category})
        assert r.status_code == 200, r.text


def test_missed_moves_up_to_the_limit_leave_the_seat_with_the_bot_and_lose_a_rated_game(
    web: Site, clock: Clock, db: Path
) -> None:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    code = ann.table("human", "human", rated=True, move_days=1, missed_moves=2)
    ann_token, bob_token = ann.join(code, 0), bob.join(code, 1)
    for missed in (1, 2):
        clock.now += DAY + 1
        assert look(web.http, web.app) == [(code, 0)]
        seat = ann.get(f"/api/tables/{code}").json()["seats"][0]
        assert seat["missed"] == missed
        if missed == 1:  # the seat is Ann's again; Bob moves in time, the turn is Ann's
            assert seat["kind"] == "human"
            r = bob.act(code, 1, bob_token, {"kind": "roll"})
            assert r.status_code == 200
            category = next(iter(r.json()["game"]["potentials"]))
            r = bob.act(code, 1, bob_token, {"kind": "score", "category": category})
            assert r.json()["game"]["current"] == 0
    assert (seat["kind"], seat["bot"], seat["stand_in"]) == ("bot", "medium", False)
    back = {"type": "take_back", "seat": 0, "token": ann_token}
    assert error(ann.post(f"/api/tables/{code}/take-back", back)) == (409, "illegal")
    state = play_out(code, {1: (bob, bob_token)})
    assert state["seats"][0]["kind"] == "bot"
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        ranks = c.execute(
            text(
                "SELECT a.name, p.rank, p.total FROM player_games p "
                "JOIN accounts a ON a.id = p.account_id ORDER BY a.name"
            )
        ).all()
        rated = c.execute(text("SELECT count(*) FROM rating_events")).scalar_one()
    engine.dispose()
    assert [(r[0], r[1]) for r in ranks] == [("Ann", 2), ("Bob", 1)]  # whatever the totals
    assert [r[2] for r in ranks] == state["game"]["totals"] and rated == 2
    # A rematch (Bob alone is asked: the bot plays Ann's seat) starts with no move missed, so
    # Ann may take her seat back from the bot again.
    r = bob.post(
        f"/api/tables/{code}/rematch", {"type": "rematch", "seat": 1, "token": bob_token, "game": 1}
    )
    assert r.status_code == 200, r.text
    seat = r.json()["seats"][0]
    assert (seat["kind"], seat["missed"]) == ("bot", 0) and r.json()["game"]["number"] == 2
    assert ann.post(f"/api/tables/{code}/take-back", back).status_code == 200


def test_idle_clean_up_spares_running_correspondence_games_and_waiting_ones_last_7_days(
    web: Site, clock: Clock
) -> None:
    ann = web.device()
    running = ann.table("human", "human", move_days=7)
    ann.join(running, 0, "Ann")
    web.device("198.51.100.2").join(running, 1, "Bob")
    waiting = ann.table("human", "human", move_days=3)
    live = ann.table("human", "human")
    ann.join(live, 0, "Ann")
    web.device("198.51.100.3").join(live, 1, "Cy")
    live_waiting = ann.table("human", "human")
    portal = web.http.portal
    assert portal is not None
    service = web.app.state.service
    clock.now += 2 * DAY  # past the 24-hour idle and the one-hour waiting limits
    assert sorted(portal.call(service.expire)) == sorted([live, live_waiting])
    clock.now += 5 * DAY + 60  # 7 days and a minute
    assert portal.call(service.expire) == [waiting]
    assert ann.get(f"/api/tables/{running}").status_code == 200


def test_the_inbox_lists_the_games_waiting_on_an_account_on_every_device_soonest_first(
    web: Site, clock: Clock
) -> None:
    ann, bob, cy = web.device(), web.device("198.51.100.2"), web.device("198.51.100.3")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    week = ann.table("human", "human", move_days=7)
    ann.join(week, 0)
    bob.join(week, 1)
    clock.now += 60
    day = bob.table("human", "human", "medium", move_days=1)
    ann.join(day, 0)
    cy.join(day, 1, "Cy")
    theirs = ann.table("human", "human", move_days=2)  # Bob's turn, not Ann's
    bob_token = bob.join(theirs, 0)
    ann.join(theirs, 1)
    realtime = ann.table("human", "human")
    ann.join(realtime, 0)
    bob.join(realtime, 1)
    seen = ann.get("/api/inbox").json()
    assert seen["count"] == 2
    assert [g["code"] for g in seen["games"]] == [day, week]  # the one due first on top
    first = seen["games"][0]
    assert first["opponents"][0] == "Cy" and len(first["opponents"]) == 2
    assert (first["round"], first["rounds"], first["move_days"]) == (1, 12, 1)
    assert [s["total"] for s in first["scores"]] == [0, 0, 0]
    assert first["seconds_left"] == pytest.approx(DAY)
    assert first["token"]  # the account's token for the seat: opens it on this device
    # Another device signed in as Ann sees the same games.
    phone = web.device("192.0.2.9")
    assert phone.sign_in("Ann").status_code == 200
    assert [g["code"] for g in phone.get("/api/inbox").json()["games"]] == [day, week]
    # Bob sees his own: the game where Ann waits on him.
    assert [g["code"] for g in bob.get("/api/inbox").json()["games"]] == [theirs]
    r = bob.act(theirs, 0, bob_token, {"kind": "roll"})
    category = next(iter(r.json()["game"]["potentials"]))
    bob.act(theirs, 0, bob_token, {"kind": "score", "category": category})
    assert bob.get("/api/inbox").json() == {"count": 0, "games": []}
    assert ann.get("/api/inbox").json()["count"] == 3


def test_a_guests_inbox_comes_from_the_tokens_their_browser_holds(web: Site) -> None:
    guest, other = web.device(), web.device("198.51.100.2")
    code = guest.table("human", "human", move_days=3)
    token = guest.join(code, 0, "Gus")
    other_token = other.join(code, 1, "Oda")
    assert guest.get("/api/inbox").json() == {"count": 0, "games": []}
    seen = guest.post("/api/inbox", {code: {"0": token}}).json()
    assert [(g["code"], g["seat"], g["token"]) for g in seen["games"]] == [(code, 0, None)]
    assert seen["games"][0]["opponents"] == ["Oda"]
    # The other seat's token lists nothing: the game waits on seat 0, not on it.
    assert other.post("/api/inbox", {code: {"1": other_token}}).json()["count"] == 0
    assert LEASE < DAY  # a claimed deadline is never taken for a move's new one
