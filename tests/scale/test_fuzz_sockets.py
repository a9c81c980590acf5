"""Property-based fuzzing of WebSocket messages (hypothesis), on PostgreSQL with Redis.

Whatever a client sends - garbage text, binary frames, any JSON, and messages that are nearly
right (real and wrong tokens, seats, game numbers and versions around the current ones, legal
and illegal actions) - the server answers with well-formed messages, keeps serving, and the
game changes only by a legal action of the seat whose turn it is, decided on the current
version: exactly what the rules engine, fed the same action, says.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from yacht.actions import GameError
from yacht.game import Game
from yacht.rules import CATEGORIES
from yacht.web.app import create_app
from yacht.web.bus.redis import RedisBroadcaster
from yacht.web.protocol.messages import ActionMessage, ClientMessage, ServerMessage

from .client import open_table
from .services import Services, fresh_database

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession
    from starlette.websockets import WebSocketDisconnect

CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)


@dataclass
class Arena:
    client: TestClient
    code: str
    tokens: dict[int, str]

    def stored(self) -> tuple[dict[str, Any], Game]:
        """The table as the API shows it, and the game exactly as stored (with its dice)."""
        store = self.client.app.state.service.store  # type: ignore[attr-defined]
        snap = store.load(self.code)
        assert snap is not None and snap.game.state is not None
        table = self.client.get(f"/api/tables/{self.code}").json()
        return table, Game.from_json(snap.game.state)

    def fresh_table(self) -> None:
        self.code, self.tokens = open_table(self.client, 2)


@pytest.fixture(scope="module")
def arena(services: Services) -> Iterator[Arena]:
    with fresh_database(services.postgres) as url:
        bus = RedisBroadcaster(services.redis, prefix="yacht-fuzz:")
        with TestClient(create_app(url, broadcaster=bus, bot_delay=0)) as client:
            # the fuzzer opens a socket per example, far over a browser's reconnects: it is the
            # operator's own client, as a load test is
            client.app.state.service.limits.exempt = frozenset({"testclient"})  # type: ignore[attr-defined]
            code, tokens = open_table(client, 2)
            yield Arena(client, code, tokens)


# --- messages -----------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
action_bodies = st.one_of(
    st.just({"kind": "roll"}),
    st.builds(
        lambda p: {"kind": "hold", "positions": p},
        st.lists(st.integers(-1, 7), max_size=6),
    ),
    st.builds(
        lambda c: {"kind": "score", "category": c},
        st.sampled_from([c.value for c in CATEGORIES] + ["yahtzee", "", "FIVES"]),
    ),
    json_values,
)


@st.composite
def near_messages(draw: st.DrawFn, game: dict[str, Any], tokens: dict[int, str]) -> dict[str, Any]:
    """A message of a real type with fields around the table's real values."""
    seat = draw(st.sampled_from([0, 1, 0, 1, 2, 6, -1]))
    token = draw(st.sampled_from([tokens[0], tokens[1], tokens[0], tokens[1], None, "", "x" * 30]))
    kind = draw(
        st.sampled_from(["action"] * 6 + ["hello", "hint", "ping", "rematch", "hand_to_bot"])
    )
    message: dict[str, Any] = {"type": kind, "ref": draw(st.none() | st.text(max_size=10))}
    if kind == "action":
        version = draw(
            st.sampled_from([game["version"]] * 3 + [game["version"] - 1, game["version"] + 1, -1])
        )
        message |= {
            "seat": seat,
            "token": token,
            "game": draw(st.sampled_from([game["number"], game["number"], 0, 2])),
            "version": version,
            "action": draw(action_bodies),
        }
    elif kind == "hello":
        message["seats"] = [{"seat": seat, "token": token or ""}]
    elif kind in ("hint", "rematch"):
        message |= {"seat": seat, "token": token, "game": game["number"]}
        if kind == "hint":
            del message["game"]
    elif kind == "hand_to_bot":  # never with a real token: a bot would then play on its own
        message |= {"seat": seat, "by": 1 - seat if seat in (0, 1) else 0, "token": "not-a-token"}
    if draw(st.integers(0, 9)) == 0:  # now and then an extra or a missing field
        if draw(st.booleans()):
            message[draw(st.text(min_size=1, max_size=6))] = draw(json_values)
        elif len(message) > 1:
            message.pop(draw(st.sampled_from(sorted(message))))
    return message


def right_actions(game: dict[str, Any], tokens: dict[int, str]) -> st.SearchStrategy[str]:
    """Actions by the player to act, on the current version (legal or not by the rules)."""
    seat = game["current"] if game["current"] is not None else 0
    return action_bodies.map(
        lambda body: json.dumps(
            {
                "type": "action",
                "seat": seat,
                "token": tokens[seat],
                "game": game["number"],
                "version": game["version"],
                "action": body,
            }
        )
    )


def frames(game: dict[str, Any], tokens: dict[int, str]) -> st.SearchStrategy[str | bytes]:
    return st.one_of(
        right_actions(game, tokens),
        right_actions(game, tokens),
        near_messages(game, tokens).map(json.dumps),
        near_messages(game, tokens).map(json.dumps),
        near_messages(game, tokens).map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=200),
        st.binary(max_size=64),
    )


# --- the property -------------------------------------------------------------------------


def expected(game: Game, number: int, text: str | bytes, tokens: dict[int, str]) -> Game | None:
    """What the rules say the message does: the game after it, or None for no change."""
    if isinstance(text, bytes):
        return None
    try:
        message = CLIENT.validate_json(text)
    except ValidationError:
        return None
    if not isinstance(message, ActionMessage) or game.finished:
        return None
    if message.token != tokens.get(message.seat) or message.seat != game.current:
        return None
    if message.game != number or message.version != game.version:
        return None
    after = Game.from_json(game.to_json())
    try:
        after.apply(message.action.to_action(), player=message.seat)
    except GameError:
        return None
    return after


def exchange(ws: WebSocketTestSession, frame: str | bytes) -> list[dict[str, Any]]:
    """Send a frame, then a ping; every message up to the pong (all must be well-formed)."""
    if isinstance(frame, bytes):
        ws.send_bytes(frame)
    else:
        ws.send_text(frame)
    ws.send_text('{"type": "ping", "ref": "fuzz-fence"}')
    replies: list[dict[str, Any]] = []
    while True:
        message = ws.receive_json()
        SERVER.validate_python(message)  # every reply is a ServerMessage
        if message == {"type": "pong", "ref": "fuzz-fence"}:
            return replies
        replies.append(message)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_messages_never_crash_the_server_or_change_a_game_illegally(
    arena: Arena, data: st.DataObject
) -> None:
    table, game = arena.stored()
    if game.finished:
        arena.fresh_table()
        table, game = arena.stored()
    with arena.client.websocket_connect(f"/ws/tables/{arena.code}") as ws:
        assert ws.receive_json()["type"] == "state"
        before_json = game.to_json()
        for _ in range(data.draw(st.integers(1, 8), label="messages")):
            frame = data.draw(frames(table["game"], arena.tokens), label="frame")
            want = expected(game, table["game"]["number"], frame, arena.tokens)
            try:
                replies = exchange(ws, frame)
            except WebSocketDisconnect as e:
                raise AssertionError(
                    f"the server closed the connection ({e.code}) on {frame!r}"
                ) from None
            table, game = arena.stored()
            event("accepted" if want is not None else "refused")
            if want is None:
                assert game.to_json() == before_json, frame
            else:
                assert game.to_json() == want.to_json(), frame
                assert any(r["type"] == "state" for r in replies), replies
            before_json = game.to_json()
    assert arena.client.get("/api/presets").status_code == 200  # still serving
