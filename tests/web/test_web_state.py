"""The table state is built as plain JSON data on the hot path: it must be exactly what the
schema (TableState, StateMessage) describes, for every kind of table."""

from __future__ import annotations

import json
from typing import Any

from starlette.testclient import TestClient

from yacht.web.protocol.messages import StateMessage, TableState
from yacht.web.service.state import state_json, state_message

from .helpers import Table


def _check(client: TestClient, code: str, connected: tuple[int, ...] = ()) -> dict[str, Any]:
    service = client.app.state.service  # type: ignore[attr-defined]
    portal = client.portal
    assert portal is not None
    snap, game = portal.call(service.load, code)
    data = state_json(snap, game, connected)
    model = TableState.model_validate(data)  # no missing, extra or mistyped field
    assert model.model_dump(mode="json") == data  # and nothing coerced on the way
    message = json.loads(state_message(data))
    assert message == StateMessage(table=model).model_dump(mode="json")
    if not connected:
        assert client.get(f"/api/tables/{code}").json() == data
    return data


def test_the_state_data_is_what_the_schema_describes_for_every_kind_of_table(
    client: TestClient,
) -> None:
    waiting = Table.create(client, "human", "hard", client_seed="a b~")
    assert _check(client, waiting.code)["game"]["phase"] == "waiting"

    # traditional: the tables the bot and the review need are the ones most tests share (a
    # clubhouse review builds tables 64 times larger, most of a minute)
    bots = Table.create(client, "greedy", "random", "easy")
    bots.settle()  # (before any timed table: settle waits for every turn clock)
    data = _check(client, bots.code)
    assert data["game"]["status"] == "finished" and data["game"]["review"] is not None
    assert data["game"]["server_seed"] is not None and len(data["game"]["recent"]) == 12

    timed = Table.create(client, "human", "human", turn_seconds=60, preset="clubhouse")
    timed.join(0, "Ann")
    timed.join(1, "Öla")
    timed.ok(0, {"kind": "roll"})
    timed.ok(0, {"kind": "hold", "positions": [1, 3]})
    data = _check(client, timed.code, connected=(1,))
    assert data["game"]["deadline"] is not None and data["game"]["potentials"]
    assert [s["connected"] for s in data["seats"]] == [False, True]
    assert data["rules"]["upper_bonus"] == {"threshold": 63, "points": 35}
