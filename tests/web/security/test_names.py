"""One rule for names on every way in (join, bot seats), checked before
anything reaches the engine or a database: bad names get 422 ``invalid`` with a message."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from ..helpers import Table

BAD = {
    "file separator only (U+001C)": "\x1c",
    "unit separator only (U+001F)": "\x1f",
    "NUL inside": "Ann\x00",
    "escape inside": "An\x1bn",
    "right-to-left override": "Ann\u202egnp.exe",
    "left-to-right isolate": "\u2066Ann",
    "zero-width space only": "\u200b",
    "zero-width joiners only": "\u200d\u200d",
    "Hangul filler only": "\u3164",
    "spaces only": "   ",
    "ideographic space only": "\u3000",
    "private use": "Ann\ue000",
    "too long": "x" * 41,
}
GOOD = ["Ann", "Zoë", "Ольга", "محمد", "李雷", "Bob 🎲", "O'Neil-Smith", "👩‍👩‍👧"]


@pytest.mark.parametrize("name", BAD.values(), ids=BAD.keys())
def test_a_bad_name_is_refused_at_join_and_the_table_still_starts(
    client: TestClient, name: str
) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    r = t.post("join", {"seat": 1, "name": name})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["type"] == "error" and body["code"] == "invalid" and "name" in body["message"]
    assert t.state()["seats"][1]["taken"] is False  # nothing changed
    t.join(1, "Bob")  # the table can still fill and start
    assert t.game["status"] == "playing"


@pytest.mark.parametrize("name", BAD.values(), ids=BAD.keys())
def test_a_bad_bot_name_is_refused_at_creation(client: TestClient, name: str) -> None:
    r = client.post("/api/tables", json={"seats": [{"kind": "bot", "bot": "greedy", "name": name}]})
    assert r.status_code == 422 and r.json()["code"] == "invalid", r.text


@pytest.mark.parametrize("name", GOOD)
def test_names_in_every_script_are_kept_as_typed(client: TestClient, name: str) -> None:
    t = Table.create(client, "human")
    t.join(0, f"  {name} ")
    assert t.state()["seats"][0]["name"] == name
    assert t.game["status"] == "playing"


def test_the_websocket_only_ever_sees_checked_names(client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
        ws.receive_json()
        assert t.post("join", {"seat": 1, "name": "\u202e"}).status_code == 422
        t.join(1, "Bob")
        while (msg := ws.receive_json())["table"]["seats"][1]["name"] is None:
            pass
        assert [s["name"] for s in msg["table"]["seats"]] == ["Ann", "Bob"]
