"""The live coach on the web as a player uses it through the API: turned on, the seat is
marked in the game (the state and the game's file say so); asked about a move before making
it, it says what the move loses against the best one and whether that is over the player's
threshold, in points or (with opponents) in the chance of winning; nothing is played. A
rated table plays without hints, so it refuses the coach and a rated game is never coached."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from .account_helpers import site
from .helpers import Table, until

POINTS = {"unit": "points", "value": 1.0}


def coach(t: Table, seat: int, threshold: dict[str, Any], action: Any = None, **more: Any) -> Any:
    game = t.game
    body: dict[str, Any] = {
        "type": "coach",
        "seat": seat,
        "token": t.tokens.get(seat),
        "game": game["number"],
        "threshold": threshold,
    }
    if action is not None:
        body.update(version=game["version"], action=action)
    return t.post("coach", {**body, **more})


def costly_score(game: dict[str, Any]) -> str:
    """Yacht scored on dice that are not one (zero in the box worth most later), or when it is
    filled or they are, the open box the dice score least in."""
    potentials: dict[str, int] = game["potentials"]
    if potentials.get("yacht") == 0:
        return "yacht"
    return min(sorted(potentials), key=lambda c: potentials[c])


def test_the_coach_weighs_a_move_and_marks_the_game(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    game = t.ok(0, {"kind": "roll"})
    r = coach(t, 0, POINTS, {"kind": "score", "category": costly_score(game)})
    assert r.status_code == 200, r.text
    word = r.json()
    assert word["type"] == "coach" and word["measure"] == "points"
    assert word["warn"] is True and word["loss"] > 1.0 and word["loss"] == word["points_loss"]
    assert word["taken"]["category"] == costly_score(game)
    best = word["best"]
    assert best["expected"] - word["taken"]["expected"] == word["loss"]
    assert best["reasons"] and word["taken"]["reasons"]  # the coach in words, for both
    # Nothing was played, and the seat is marked for everyone to see.
    state = t.state()
    assert state["game"]["version"] == game["version"]
    assert state["game"]["coach"] == [{"seat": 0, "unit": "points", "value": 1.0}]
    # The best move itself loses nothing; a roll keeping what the best keep keeps is weighed.
    action = (
        {"kind": "score", "category": best["category"]}
        if best["action"] == "score"
        else {"kind": "roll"}
    )
    if best["action"] == "keep":
        t.ok(0, {"kind": "hold", "positions": best["hold"]})
    again = coach(t, 0, POINTS, action).json()
    assert (again["warn"], again["loss"]) == (False, 0.0)
    # The record says so: the game's file names the coached seat and its threshold.
    t.play_to_end()
    record = client.get(f"/api/games/{t.game['id']}").json()
    assert record["coach"] == [{"seat": 0, "unit": "points", "value": 1.0}]


def test_with_an_opponent_the_threshold_may_be_the_chance_of_winning(
    client: TestClient,
) -> None:
    t = Table.create(client, "human", "medium")
    t.join(0, "Ann")
    for _ in range(8):  # late in the game the chances come from the small endgame tables
        t.settle()
        t.play_turn(0)
    t.settle()
    game = t.ok(0, {"kind": "roll"})
    win = {"unit": "win", "value": 2.5}
    word = coach(t, 0, win, {"kind": "score", "category": costly_score(game)}).json()
    assert word["measure"] == "win" and 0 <= word["loss"] <= 1
    assert word["warn"] == (word["loss"] > 0.025)
    assert word["best"]["win_probability"] is not None
    assert t.game["coach"] == [{"seat": 0, "unit": "win", "value": 2.5}]
    # Turning it on without a move only marks the seat (a changed threshold is kept).
    r = coach(t, 0, POINTS)
    assert r.status_code == 200 and r.json()["game"]["coach"][0]["unit"] == "points"


def test_a_lone_player_cannot_set_a_chance_of_winning(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    t.ok(0, {"kind": "roll"})
    r = coach(t, 0, {"unit": "win", "value": 2.0})
    assert r.status_code == 422 and r.json()["code"] == "invalid"
    assert t.game["coach"] == []


def test_a_table_without_hints_refuses_the_coach(client: TestClient) -> None:
    t = Table.create(client, "human", "medium", hints=False)
    t.join(0, "Ann")
    t.ok(0, {"kind": "roll"})
    r = coach(t, 0, POINTS, {"kind": "roll"})
    assert r.status_code == 403 and r.json()["code"] == "hints_off"
    assert t.game["coach"] == []


def test_a_rated_table_refuses_the_coach_so_a_rated_game_is_never_coached(db: Path) -> None:
    with site(db) as web:
        ann, bob = web.device(), web.device("198.51.100.2")
        ann.sign_up("Ann")
        bob.sign_up("Bob")
        code = ann.table("human", "human", rated=True)
        token = ann.join(code, 0)
        bob.join(code, 1)
        game = ann.get(f"/api/tables/{code}").json()["game"]
        body = {"type": "coach", "seat": 0, "token": token, "game": game["number"]}
        r = ann.post(f"/api/tables/{code}/coach", {**body, "threshold": POINTS})
        assert r.status_code == 403 and r.json()["code"] == "hints_off"
        assert "rated" in r.json()["message"]
        assert ann.get(f"/api/tables/{code}").json()["game"]["coach"] == []


def test_the_coach_over_the_socket(client: TestClient) -> None:
    t = Table.create(client, "human", "medium")
    t.join(0, "Ann")
    game = t.ok(0, {"kind": "roll"})
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        until(ann, "state")
        ask = {
            "type": "coach",
            "seat": 0,
            "token": t.tokens[0],
            "game": game["number"],
            "version": game["version"],
            "threshold": POINTS,
            "action": {"kind": "score", "category": costly_score(game)},
            "ref": "c1",
        }
        ann.send_json(ask)
        word = until(ann, "coach")
        assert (word["ref"], word["warn"], word["version"]) == ("c1", True, game["version"])
        ann.send_json({**ask, "version": game["version"] - 1, "ref": "old"})
        error = until(ann, "error")
        assert (error["code"], error["ref"]) == ("stale_version", "old")
