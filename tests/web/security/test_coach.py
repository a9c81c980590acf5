"""The live coach against hostile use: someone else's seat, a spectator, thresholds out of
range or of the wrong type, moves it does not weigh, unknown fields, another game, a player
not on turn. Each is refused with a clear error, and the game is neither marked nor played."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.web.edge.limits import QUOTAS
from yacht.web.service import coach as live_coach

from ..helpers import Table, until

POINTS = {"unit": "points", "value": 1.0}


@pytest.fixture
def table(client: TestClient) -> Table:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    t.ok(0, {"kind": "roll"})
    return t


def ask(t: Table, **fields: Any) -> dict[str, Any]:
    game = t.game
    body = {
        "type": "coach",
        "seat": 0,
        "token": t.tokens[0],
        "game": game["number"],
        "version": game["version"],
        "threshold": POINTS,
        "action": {"kind": "score", "category": "yacht"},
    }
    body.update(fields)
    return {k: v for k, v in body.items() if v is not ...}


def refused(t: Table, body: dict[str, Any], status: int, code: str) -> None:
    before = t.state()
    r = t.post("coach", body)
    assert (r.status_code, r.json()["code"]) == (status, code), r.text
    after = t.state()
    assert after["game"]["coach"] == [] and after["game"]["version"] == before["game"]["version"]


def test_someone_elses_seat_is_refused_and_not_marked(table: Table) -> None:
    refused(table, ask(table, token=table.tokens[1]), 403, "bad_token")
    refused(table, ask(table, token=...), 403, "spectator")
    refused(table, ask(table, token="x" * 200), 403, "bad_token")
    refused(table, ask(table, seat=5), 422, "invalid")  # no such seat at this table


@pytest.mark.parametrize(
    "threshold",
    [
        {"unit": "points", "value": 0.0},
        {"unit": "points", "value": 0.09},
        {"unit": "points", "value": 5.01},
        {"unit": "points", "value": -1},
        {"unit": "win", "value": 10.5},
        {"unit": "win", "value": 0},
        {"unit": "points", "value": "1"},
        {"unit": "points", "value": True},
        {"unit": "points", "value": 1e300},
        {"unit": "euros", "value": 1.0},
        {"unit": "points"},
        {"unit": "points", "value": 1.0, "extra": 1},
        None,
    ],
)
def test_bad_thresholds_are_refused(table: Table, threshold: Any) -> None:
    refused(table, ask(table, threshold=threshold), 422, "invalid")


def test_moves_it_does_not_weigh_and_hostile_fields_are_refused(table: Table) -> None:
    refused(table, ask(table, action={"kind": "hold", "positions": [1]}), 422, "invalid")
    refused(table, ask(table, action={"kind": "score", "category": "bogus"}), 422, "invalid")
    refused(table, ask(table, version=...), 422, "invalid")  # a move needs its version
    refused(table, ask(table, game=0), 422, "invalid")
    refused(table, ask(table, ref="r" * 65), 422, "invalid")
    refused(table, ask(table, loss=0), 422, "invalid")  # unknown fields are refused


def test_another_game_or_a_player_not_on_turn_gets_no_word(table: Table) -> None:
    refused(table, ask(table, game=2), 409, "stale_version")
    t = table
    bob = ask(t, seat=1, token=t.tokens[1])
    r = t.post("coach", bob)  # Bob may play with the coach, but his move is not now
    assert (r.status_code, r.json()["code"]) == (409, "not_your_turn")
    assert t.game["coach"][0]["seat"] == 1  # turned on: marked, though he was not on turn


def test_a_score_in_a_filled_box_and_a_roll_with_none_left_are_refused(table: Table) -> None:
    t = table
    t.ok(0, {"kind": "score", "category": "yacht"})
    t.ok(1, {"kind": "roll"})
    t.ok(1, {"kind": "score", "category": "ones"})
    t.ok(0, {"kind": "roll"})
    r = t.post("coach", ask(t))
    assert (r.status_code, r.json()["code"]) == (409, "illegal")
    t.ok(0, {"kind": "roll"})
    t.ok(0, {"kind": "roll"})
    r = t.post("coach", ask(t, action={"kind": "roll"}))
    assert (r.status_code, r.json()["code"]) == (409, "illegal")


def test_hostile_socket_messages_get_errors_and_change_nothing(
    client: TestClient, table: Table
) -> None:
    before = table.state()
    with client.websocket_connect(f"/ws/tables/{table.code}") as ws:
        until(ws, "state")
        ws.send_json(ask(table, token=table.tokens[1], ref="a"))
        assert until(ws, "error")["code"] == "bad_token"
        ws.send_json(ask(table, threshold={"unit": "win", "value": 99.0}, ref="b"))
        assert until(ws, "error")["code"] == "invalid"
        ws.send_text('{"type": "coach", "seat": 0, "threshold": {"unit": "points"')
        assert until(ws, "error")["code"] == "invalid"
        infinite = '"threshold": {"unit": "points", "value": 1e999}'  # json reads inf
        ws.send_text(f'{{"type": "coach", "seat": 0, "game": 1, {infinite}}}')
        assert until(ws, "error")["code"] == "invalid"
    after = table.state()
    assert after["game"]["coach"] == [] and after["game"] == before["game"]


def test_the_coach_shares_the_hints_quota(table: Table) -> None:
    """A flood of questions to the coach is refused like a flood of hints: the same bucket."""
    burst = QUOTAS["hint"].burst
    table.post("hint", {"type": "hint", "seat": 0, "token": table.tokens[0]})
    answers = [table.post("coach", ask(table)) for _ in range(burst)]
    assert [r.status_code for r in answers] == [200] * (burst - 1) + [429]
    assert answers[-1].json()["code"] == "rate_limited"


def test_a_full_desk_answers_busy_and_changes_nothing(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every client together may have only so many moves weighed at once."""
    monkeypatch.setattr(live_coach, "_weighing", [live_coach.QUEUE])
    r = table.post("coach", ask(table))
    assert (r.status_code, r.json()["code"]) == (503, "busy")
    assert table.game["version"] == 1  # nothing played; the mark alone was written
