"""The rematch's agreement and the "open elsewhere" word are checked like every other
message: a spectator cannot agree, a stale or repeated agreement changes nothing, and only a
seat's own token moves it away from another tab."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from ..helpers import Table, until
from .test_postgres_names import pg_client  # noqa: F401 (a fixture)


def unchanged(ws: WebSocketTestSession, revision: int) -> None:
    """Nothing changed at the table for this socket: whatever comes before the answer to a
    ping sent now is a state at ``revision`` (an announcement of who is here, at most)."""
    ws.send_json({"type": "ping", "ref": "q"})
    while (message := ws.receive_json())["type"] != "pong":
        assert message["type"] == "state", message
        assert message["table"]["revision"] == revision


def over(client: TestClient) -> Table:
    """Ann and Bob's game over (Bob's seat played by a bot he took back at the end)."""
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    body = {"type": "hand_to_bot", "seat": 1, "by": 1, "bot": "random", "token": t.tokens[1]}
    assert t.post("hand-to-bot", body).status_code == 200
    t.play_to_end()
    assert t.post("take-back", {"type": "take_back", "seat": 1, "token": t.tokens[1]}).is_success
    return t


def test_who_may_agree_and_what_changes_nothing(client: TestClient) -> None:
    who_may_agree(client)


@pytest.mark.services
def test_who_may_agree_on_postgresql(pg_client: TestClient) -> None:  # noqa: F811
    who_may_agree(pg_client)


def who_may_agree(client: TestClient) -> None:
    t = over(client)
    body = {"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1}
    revision = t.state()["revision"]
    refused = {
        "a spectator": ({**body, "token": None}, "spectator"),
        "a wrong token": ({**body, "token": t.tokens[1]}, "bad_token"),
        "a decline of nothing": ({**body, "agree": False}, "illegal"),
        "a game to come": ({**body, "game": 2}, "stale_version"),
        "a seat that is not there": ({**body, "seat": 4}, "invalid"),
        "a string for a flag": ({**body, "agree": "yes"}, "invalid"),
    }
    for why, (message, code) in refused.items():
        assert t.post("rematch", message).json()["code"] == code, why
    assert t.state()["revision"] == revision  # nothing was written
    assert t.post("rematch", body).json()["game"]["rematch"]["agreed"] == [0]
    revision = t.state()["revision"]
    assert t.post("rematch", body).json()["code"] == "illegal"  # Ann agreed already
    assert t.state()["revision"] == revision and t.game["number"] == 1
    assert t.post("rematch", {**body, "seat": 1, "token": t.tokens[1]}).is_success
    assert t.game["number"] == 2
    assert t.post("rematch", body).json()["code"] == "stale_version"  # game 1 is history
    assert t.post("rematch", {**body, "game": 2}).json()["code"] == "illegal"  # not over


def test_refused_over_the_socket_to_the_sender_only(client: TestClient) -> None:
    t = over(client)
    url = f"/ws/tables/{t.code}"
    with client.websocket_connect(url) as spectator, client.websocket_connect(url) as ann:
        until(spectator, "state")
        revision = until(ann, "state")["table"]["revision"]
        spectator.send_json({"type": "rematch", "seat": 0, "game": 1})
        assert until(spectator, "error")["code"] == "spectator"
        unchanged(ann, revision)  # the table heard nothing
        ann.send_json({"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1})
        while (state := until(ann, "state")["table"])["revision"] == revision:
            pass
        assert state["game"]["rematch"]["waiting"] == [1]
        ann.send_json({"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1})
        assert until(ann, "error")["code"] == "illegal"
        unchanged(spectator, state["revision"])


def test_only_the_seats_token_moves_it_from_another_tab(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    url = f"/ws/tables/{t.code}"
    with client.websocket_connect(url) as ann, client.websocket_connect(url) as mallory:
        until(mallory, "state")
        revision = until(ann, "state")["table"]["revision"]
        ann.send_json({"type": "hello", "seats": [{"seat": 0, "token": t.tokens[0]}]})
        assert until(ann, "welcome")["seats"] == [0]
        mallory.send_json({"type": "hello", "seats": [{"seat": 0, "token": t.tokens[1]}]})
        assert until(mallory, "welcome")["seats"] == []  # Bob's token does not hold seat 1
        bad_name = {"type": "hello", "seats": [], "name": "Mal\u200blory"}
        mallory.send_json(bad_name)
        assert until(mallory, "error")["code"] == "invalid"
        unchanged(ann, revision)  # no "elsewhere" (Ann's own arrival is told, at most)
