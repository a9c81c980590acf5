"""The web game on PostgreSQL: the same Alembic schema as SQLite, whole games, restarts, and
actions serialised per table when two servers race on one table (optimistic concurrency)."""

from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, inspect, text

from yacht.game import Game
from yacht.web.app import create_app
from yacht.web.bus.redis import RedisBroadcaster
from yacht.web.service.fairness import verify
from yacht.web.storage.store import Store

from .client import action_message, open_table, play_rest, table_state
from .services import Services

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def schema(url: str) -> dict[str, Any]:
    """Tables, columns (name, nullable, primary key), indexes and unique constraints."""
    engine = create_engine(url)
    try:
        found = inspect(engine)
        out: dict[str, Any] = {}
        for name in sorted(found.get_table_names()):
            out[name] = {
                "columns": [(c["name"], c["nullable"]) for c in found.get_columns(name)],
                "primary": found.get_pk_constraint(name)["constrained_columns"],
                "indexes": sorted(
                    (i["name"], tuple(i["column_names"]))
                    for i in found.get_indexes(name)
                    if not i.get("duplicates_constraint")  # PostgreSQL lists a unique's index
                ),
                "unique": sorted(
                    (u["name"], tuple(u["column_names"]))
                    for u in found.get_unique_constraints(name)
                ),
                "foreign": sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"])
                    for f in found.get_foreign_keys(name)
                ),
            }
        with engine.connect() as c:
            out["version"] = c.execute(text("SELECT version_num FROM alembic_version")).scalar()
        return out
    finally:
        engine.dispose()


def test_the_migrations_make_the_same_schema_as_on_sqlite(pg_url: str, tmp_path: Path) -> None:
    sqlite = f"sqlite:///{tmp_path / 'y.sqlite3'}"
    for url in (pg_url, sqlite):
        store = Store(url)
        store.migrate()
        store.migrate()  # a second run finds the schema at head and does nothing
        store.close()
    on_pg, on_sqlite = schema(pg_url), schema(sqlite)
    assert set(on_pg) >= {"tables", "seats", "games", "version"}
    assert on_pg == on_sqlite


def app(url: str, services: Services, prefix: str) -> Any:
    return create_app(url, broadcaster=RedisBroadcaster(services.redis, prefix=prefix), bot_delay=0)


def test_a_game_on_postgres_survives_a_restart_and_verifies(
    pg_url: str, services: Services, redis_prefix: str
) -> None:
    with TestClient(app(pg_url, services, redis_prefix)) as client:
        code, tokens = open_table(client, 2)
        middle = play_rest(client, code, tokens, 21)
        before = table_state(client, code)
    assert middle["version"] == 21 and middle["status"] == "playing"
    with TestClient(app(pg_url, services, redis_prefix)) as client:
        assert table_state(client, code) == before  # exactly where it was
        end = play_rest(client, code, tokens, 1000)
        assert end["status"] == "finished" and end["version"] == 2 * 2 * 12
        r = client.get(f"/api/games/{end['id']}")
        assert r.status_code == 200
        data = r.json()
    assert not verify(data).problems, verify(data).problems
    assert Game.from_json(data).totals == end["totals"]


def test_two_servers_racing_on_one_table_take_each_version_once(
    pg_url: str, services: Services, redis_prefix: str
) -> None:
    """Both servers get the same action on the same version at the same moment: one is
    taken, the other is refused as stale, and the game moves one version at a time."""
    with (
        TestClient(app(pg_url, services, redis_prefix)) as a,
        TestClient(app(pg_url, services, redis_prefix)) as b,
    ):
        code, tokens = open_table(a, 2)
        for step in range(16):
            game = table_state(a, code)["game"]
            message = action_message(game, tokens)
            results: dict[str, Any] = {}
            start = threading.Barrier(2)

            def send(
                name: str,
                client: TestClient,
                msg: dict[str, Any] = message,
                start: threading.Barrier = start,
                results: dict[str, Any] = results,
            ) -> None:
                start.wait()
                results[name] = client.post(f"/api/tables/{code}/actions", json=msg)

            threads = [
                threading.Thread(target=send, args=("a", a)),
                threading.Thread(target=send, args=("b", b)),
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status_code for r in results.values())
            assert codes == [200, 409], (step, [r.text for r in results.values()])
            refused = next(r for r in results.values() if r.status_code == 409).json()
            assert refused["code"] == "stale_version", refused
            after = table_state(b, code)["game"]
            assert after["version"] == game["version"] + 1
        stored = Game.from_json(a.get(f"/api/tables/{code}/game.json").json())
        assert stored.version == 16  # the engine replays every stored event legally
