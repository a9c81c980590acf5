"""A client reads one error shape whatever it sent: every request body that cannot be read
answers 422 ``invalid`` in the documented error body (never FastAPI's 400 ``{"detail": ...}``),
and changes nothing."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from ..helpers import Table

DEEP = "[" * 30_000 + "]" * 30_000  # under the 64 KiB body limit
HUGE = "1" * 4_301  # more digits than Python turns into an int by default


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        '{"seats": ' + DEEP + "}",
        '{"seats": [{"kind": "human"}], "turn_seconds": ' + HUGE + "}",
        '{"seats": [{"kind": "human"}], "turn_seconds": 1e99999}',
        '{"seats": [{"kind": "human"}], "turn_seconds": NaN}',
        '{"seats": [{"kind": "human"}',
        "\xff\xfe",
    ],
    ids=["deep", "deep field", "4301 digits", "infinite", "NaN", "cut short", "not UTF-8"],
)
def test_unreadable_bodies_get_the_documented_error(client: TestClient, body: str) -> None:
    r = client.post(
        "/api/tables", content=body.encode("latin-1"), headers={"content-type": "application/json"}
    )
    assert r.status_code == 422, r.text
    error = r.json()
    assert set(error) == {"type", "code", "message", "ref", "detail"}
    assert (error["type"], error["code"]) == ("error", "invalid")
    assert client.get("/api/tables").json() == []


def test_unreadable_messages_on_the_socket_get_an_error(client: TestClient) -> None:
    t = Table.create(client, "human")
    t.join(0, "Ann")
    with client.websocket_connect(f"/ws/tables/{t.code}") as ws:
        ws.receive_json()
        for text in ("[" * 4000 + "]" * 4000, '{"type": "ping", "ref": ' + HUGE[:4000] + "}"):
            ws.send_text(text)
            reply = ws.receive_json()
            assert (reply["type"], reply["code"]) == ("error", "invalid")
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"  # the connection is still good


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("GET", "/api/no-such-thing", 404, "not_found"),
        ("GET", "/api/games/7/nothing", 404, "not_found"),
        ("DELETE", "/api/tables", 405, "not_allowed"),
        ("PUT", "/api/presets", 405, "not_allowed"),
    ],
)
def test_unknown_routes_and_methods_get_the_documented_error(
    client: TestClient, method: str, path: str, status: int, code: str
) -> None:
    """A path no route serves, or a method its route does not take: the same error body as
    every other refusal (never ``{"detail": ...}``); a 405 still says what is allowed."""
    r = client.request(method, path)
    assert r.status_code == status, r.text
    error = r.json()
    assert set(error) == {"type", "code", "message", "ref", "detail"}
    assert (error["type"], error["code"]) == ("error", code)
    assert path in error["message"]
    if status == 405:
        assert r.headers["allow"]
