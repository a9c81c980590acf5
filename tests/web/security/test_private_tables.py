"""Private tables: an invite code of 13 characters (65 bits), never listed among the waiting
tables, their finished games not among the public ones, and table codes cannot be guessed in
bulk (a client asking for many codes no table has is refused for a while)."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from yacht.web.edge.limits import QUOTAS

from ..helpers import Table

CODE = re.compile(r"^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]+$")
BOT = [{"kind": "bot", "bot": "greedy"}]


def open_table(client: TestClient, seats: list[dict[str, str]], private: bool) -> str:
    r = client.post("/api/tables", json={"seats": seats, "private": private})
    assert r.status_code == 201, r.text
    code: str = r.json()["code"]
    return code


def test_a_private_table_has_a_long_code_and_is_never_listed(client: TestClient) -> None:
    public = open_table(client, [{"kind": "human"}, {"kind": "human"}], private=False)
    private = open_table(client, [{"kind": "human"}, {"kind": "human"}], private=True)
    assert CODE.match(public) and len(public) == 6
    assert CODE.match(private) and len(private) == 13  # 32 ** 13 = 2 ** 65
    listed = [t["code"] for t in client.get("/api/tables", params={"limit": 100}).json()]
    assert listed == [public]
    t = Table(client, private)  # whoever has the code plays as at any table
    assert t.state()["code"] == private
    t.join(0, "Ann")
    t.join(1, "Bob")
    assert t.game["status"] == "playing"
    assert client.get(f"/t/{private}").status_code == 200
    with client.websocket_connect(f"/ws/tables/{private.lower()}") as ws:
        assert ws.receive_json()["table"]["code"] == private


def test_a_private_tables_finished_games_are_not_public(client: TestClient) -> None:
    public = open_table(client, BOT, private=False)
    private = open_table(client, BOT, private=True)
    for code in (public, private):
        Table(client, code).settle()
        assert Table(client, code).game["status"] == "finished"
    games = client.get("/api/games", params={"limit": 100}).json()
    assert [g["table"] for g in games] == [public]
    assert private not in client.get("/games").text
    ids = {g["table"]: g["id"] for g in games}
    assert client.get(f"/api/games/{ids[public]}/replay").json()["table"] == public
    hidden = next(i for i in range(1, 10) if i != ids[public])
    replay = client.get(f"/api/games/{hidden}/replay").json()
    assert replay["table"] == "" and private not in str(replay)
    assert private not in client.get(f"/api/games/{hidden}").text


def test_table_codes_cannot_be_guessed_in_bulk(client: TestClient) -> None:
    real = open_table(client, [{"kind": "human"}], private=True)
    misses = [client.get(f"/api/tables/{i:06d}").status_code for i in range(QUOTAS["guess"].burst)]
    assert misses == [404] * QUOTAS["guess"].burst
    r = client.get(f"/api/tables/{real}")
    assert r.status_code == 429 and r.json()["code"] == "rate_limited"
    assert "unknown table codes" in r.json()["message"]


def test_guesses_through_the_websocket_count_too(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    for i in range(QUOTAS["guess"].burst):
        try:
            with client.websocket_connect(f"/ws/tables/{i:06d}") as ws:
                ws.receive_json()
                ws.receive_json()
        except WebSocketDisconnect as e:
            assert e.code == 4404
    assert client.get("/api/tables/NOSUCH").status_code == 429
