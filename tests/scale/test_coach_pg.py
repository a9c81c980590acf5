"""The live coach on PostgreSQL: the seat's mark (a JSON column written by the one-statement
move path) is stored, read back after a restart, and kept in the game's file."""

from __future__ import annotations

import warnings

from yacht.web.app import create_app
from yacht.web.bus.redis import RedisBroadcaster

from .client import open_table, table_state
from .services import Services

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

MARK = {"seat": 1, "unit": "win", "value": 2.5}


def test_the_coach_mark_survives_a_restart(
    pg_url: str, services: Services, redis_prefix: str
) -> None:
    def app() -> TestClient:
        broadcaster = RedisBroadcaster(services.redis, prefix=redis_prefix)
        return TestClient(create_app(pg_url, broadcaster=broadcaster, bot_delay=0))

    with app() as client:
        code, tokens = open_table(client, 2)
        game = table_state(client, code)["game"]
        body = {"type": "coach", "seat": 1, "token": tokens[1], "game": game["number"]}
        threshold = {"unit": "win", "value": 2.5}
        r = client.post(f"/api/tables/{code}/coach", json={**body, "threshold": threshold})
        assert r.status_code == 200, r.text
        assert r.json()["game"]["coach"] == [MARK]
    with app() as client:
        assert table_state(client, code)["game"]["coach"] == [MARK]
        game_id = table_state(client, code)["game"]["id"]
        assert client.get(f"/api/games/{game_id}").json()["coach"] == [MARK]
