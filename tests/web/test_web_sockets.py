"""The WebSocket: live state for players and spectators, every message and every rejection.

A rejected message is answered by an ``error`` to its sender only, and nothing changes: no
new state is broadcast (the ``pong`` to a ``ping`` sent right after comes next) and the
table reads the same as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from .helpers import Table, until


def quiet(ws: WebSocketTestSession) -> None:
    """Nothing was broadcast: the next message is the answer to a ping."""
    ws.send_json({"type": "ping", "ref": "q"})
    assert ws.receive_json() == {"type": "pong", "ref": "q"}


def two_players(client: TestClient) -> Table:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    return t


def test_connect_sends_the_state_and_unknown_tables_are_refused(client: TestClient) -> None:
    t = two_players(client)
    with client.websocket_connect(f"/ws/tables/{t.code.lower()}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["table"] == t.state()
    with client.websocket_connect("/ws/tables/NOSUCH") as ws:
        assert ws.receive_json()["code"] == "not_found"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_hello_marks_seats_present_until_the_connection_drops(client: TestClient) -> None:
    t = two_players(client)
    with client.websocket_connect(f"/ws/tables/{t.code}") as watcher:
        until(watcher, "state")
        with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
            until(ann, "state")
            ann.send_json(
                {
                    "type": "hello",
                    "ref": "h1",
                    "seats": [{"seat": 0, "token": t.tokens[0]}, {"seat": 1, "token": "wrong"}],
                }
            )
            assert until(ann, "welcome") == {"type": "welcome", "seats": [0], "ref": "h1"}
            seen = until(watcher, "state")["table"]["seats"]
            assert [s["connected"] for s in seen] == [True, False]
        gone = until(watcher, "state")["table"]["seats"]
        assert [s["connected"] for s in gone] == [False, False]


def test_an_action_reaches_every_player_and_spectator(client: TestClient) -> None:
    t = two_players(client)
    with (
        client.websocket_connect(f"/ws/tables/{t.code}") as ann,
        client.websocket_connect(f"/ws/tables/{t.code}") as spectator,
    ):
        until(ann, "state")
        until(spectator, "state")
        ann.send_json(t.message(0, {"kind": "roll"}))
        for ws in (ann, spectator):
            game = until(ws, "state")["table"]["game"]
            assert game["version"] == 1 and game["recent"][-1]["action"] == "roll"
        ann.send_json(t.message(0, {"kind": "hold", "positions": [2]}))
        assert until(spectator, "state")["table"]["game"]["held"] == [2]
        ann.send_json(t.message(0, {"kind": "score", "category": "choice"}))
        game = until(spectator, "state")["table"]["game"]
        assert game["current"] == 1 and "choice" in game["sheets"][0]
        assert game == t.game


def _bad_messages(t: Table) -> list[tuple[str, Any, str]]:
    action = t.message(0, {"kind": "score", "category": "choice"})
    return [
        ("wrong token", {**action, "token": "guess"}, "bad_token"),
        ("spectator", {**action, "token": None}, "spectator"),
        ("stale version", {**action, "version": 0}, "stale_version"),
        ("other game", {**action, "game": 5}, "stale_version"),
        ("out of turn", {**action, "seat": 1, "token": t.tokens[1]}, "not_your_turn"),
        ("no such seat", {**action, "seat": 3}, "invalid"),
        ("bad kind", {**action, "action": {"kind": "cheat"}}, "invalid"),
        ("bad category", {**action, "action": {"kind": "score", "category": "x"}}, "invalid"),
        ("hold 0", {**action, "action": {"kind": "hold", "positions": [0]}}, "invalid"),
        ("missing version", {k: v for k, v in action.items() if k != "version"}, "invalid"),
        ("version as text", {**action, "version": "1"}, "invalid"),
        ("extra field", {**action, "admin": True}, "invalid"),
        ("unknown type", {"type": "teleport", "ref": "r"}, "invalid"),
        ("no type", {"seat": 0}, "invalid"),
        ("not JSON", "roll please", "invalid"),
        ("JSON list", "[1, 2, 3]", "invalid"),
        ("hint spectator", {"type": "hint", "seat": 0}, "spectator"),
        (
            "rematch mid-game",
            {"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1},
            "illegal",
        ),
        (
            "hand a connected seat",
            {"type": "hand_to_bot", "seat": 1, "by": 0, "token": t.tokens[0]},
            "illegal",
        ),
        (
            "hand with a bad token",
            {"type": "hand_to_bot", "seat": 1, "by": 0, "token": "guess"},
            "bad_token",
        ),
    ]


def test_every_bad_message_gets_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    t = two_players(client)
    t.ok(0, {"kind": "roll"})
    with (
        client.websocket_connect(f"/ws/tables/{t.code}") as ann,
        client.websocket_connect(f"/ws/tables/{t.code}") as bob,
    ):
        until(ann, "state")
        until(bob, "state")
        bob.send_json({"type": "hello", "seats": [{"seat": 1, "token": t.tokens[1]}]})
        until(bob, "welcome")
        until(ann, "state")  # Bob is present now
        before = t.state()
        for why, message, code in _bad_messages(t):
            if isinstance(message, dict):
                message.setdefault("ref", why[:20])
                ann.send_text(json.dumps(message))
            else:
                ann.send_text(message)
            error = until(ann, "error")
            assert error["code"] == code, (why, error)
            assert error["message"], why
            if isinstance(message, dict) and message.get("ref") and code != "invalid":
                assert error["ref"] == message["ref"], why
            quiet(ann)
            assert t.state() == before, why
        bob.send_json({"type": "ping"})
        while (message := bob.receive_json())["type"] != "pong":  # Bob saw no change either
            assert message["type"] == "state" and message["table"]["game"] == before["game"]


def test_an_oversized_message_is_refused(client: TestClient) -> None:
    t = two_players(client)
    t.ok(0, {"kind": "roll"})
    before = t.state()
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        until(ann, "state")
        # over the 8 KiB a message may have, under the 64 KiB frame uvicorn refuses by itself
        message = t.message(0, {"kind": "score", "category": "choice"}, pad="x" * 9_000)
        ann.send_text(json.dumps(message))
        error = until(ann, "error")
        assert error["code"] == "too_large" and "too large" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:  # as docs/web/api.md says
            ann.receive_json()
        assert closed.value.code == 1009
    assert t.state() == before


def test_a_repeated_action_is_stale(client: TestClient) -> None:
    t = two_players(client)
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        until(ann, "state")
        roll = t.message(0, {"kind": "roll"}, ref="once")
        ann.send_json(roll)
        until(ann, "state")
        after = t.state()
        ann.send_json(roll)
        error = until(ann, "error")
        assert (error["code"], error["ref"]) == ("stale_version", "once")
        quiet(ann)
        assert t.state() == after


def test_hints_over_the_socket(client: TestClient) -> None:
    t = two_players(client)
    t.ok(0, {"kind": "roll"})
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        until(ann, "state")
        ann.send_json({"type": "hint", "seat": 0, "token": t.tokens[0], "ref": "h"})
        reply = until(ann, "hint")
        assert reply["ref"] == "h" and reply["version"] == 1 and reply["seat"] == 0
        assert reply["options"][0]["expected"] >= reply["options"][-1]["expected"]
        ann.send_json({"type": "hint", "seat": 1, "token": t.tokens[1]})
        assert until(ann, "error")["code"] == "not_your_turn"


def test_hand_to_bot_and_rematch_over_the_socket(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    t.join(1, "Bob")
    with client.websocket_connect(f"/ws/tables/{t.code}") as ann:
        until(ann, "state")
        ann.send_json(  # Ann may not: Bob is here (he just joined)
            {"type": "hand_to_bot", "seat": 1, "by": 0, "token": t.tokens[0]}
        )
        assert until(ann, "error")["code"] == "illegal"
        ann.send_json(  # Bob leaves his seat to a bot of his choice
            {"type": "hand_to_bot", "seat": 1, "bot": "greedy", "by": 1, "token": t.tokens[1]}
        )
        seats = until(ann, "state")["table"]["seats"]
        assert seats[1]["kind"] == "bot" and seats[1]["bot"] == "greedy"
        t.play_to_end()
        ann.send_json({"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1})
        while (state := until(ann, "state"))["table"]["game"]["number"] != 2:
            pass
        assert state["table"]["game"]["status"] == "playing"
        ann.send_json({"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1})
        assert until(ann, "error")["code"] == "stale_version"


def test_ping(client: TestClient) -> None:
    t = two_players(client)
    with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
        until(ws, "state")
        quiet(ws)


def test_every_client_message_has_a_handler_and_is_described() -> None:
    """A new message type cannot be added to the union without the socket handling it, nor
    without the API page's description naming it."""
    from typing import get_args

    from yacht.web.api.pages import describe_api, message_types
    from yacht.web.api.sockets import HANDLERS
    from yacht.web.protocol.messages import ClientMessage, ServerMessage

    assert set(HANDLERS) == set(get_args(get_args(ClientMessage)[0]))
    for name in message_types(ClientMessage) + message_types(ServerMessage):
        assert f"`{name}`" in describe_api()
