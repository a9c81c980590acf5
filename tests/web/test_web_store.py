"""Storage: Alembic builds the schema, models and migrations agree, races are caught, and a
server restart in the middle of a game loses nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from starlette.testclient import TestClient

from yacht.web.storage.changes import Change
from yacht.web.storage.models import Base
from yacht.web.storage.store import ConflictError, Store

from .helpers import Table, make_app


def test_migrations_build_the_schema_the_models_describe(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    store.migrate()
    store.migrate()  # a second start changes nothing
    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []
    names = {
        row[0]
        for row in sqlite3.connect(tmp_path / "a.sqlite3").execute(
            "select name from sqlite_master where type = 'table'"
        )
    }
    assert {"tables", "seats", "games", "alembic_version"} <= names
    store.close()


def test_a_change_from_a_stale_revision_writes_nothing(db: Path, client: TestClient) -> None:
    t = Table.create(client, "human", "human")
    store = Store(f"sqlite:///{db}")
    snap = store.load(t.code)
    assert snap is not None
    revision = store.change(t.code, snap.revision, Change(seats={0: {"name": "Ann"}}))
    with pytest.raises(ConflictError):
        store.change(t.code, snap.revision, Change(seats={1: {"name": "Late"}}))
    again = store.load(t.code)
    assert again is not None and again.revision == revision
    assert [s.name for s in again.seats] == ["Ann", None]
    store.close()


def test_a_restart_in_the_middle_of_a_game_loses_nothing(db: Path) -> None:
    with TestClient(make_app(db)) as client:
        t = Table.create(client, "human", "human", "greedy", hints=False, client_seed="s")
        t.join(0, "Ann")
        t.join(1, "Bob")
        for _ in range(4):
            t.play_turn(0)
            t.play_turn(1)
            t.settle()
        t.ok(0, {"kind": "roll"})
        t.ok(0, {"kind": "hold", "positions": [1, 3]})
        tokens = dict(t.tokens)
        before = t.state()
        export = client.get(f"/api/tables/{t.code}/game.json").json()
    with TestClient(make_app(db, seed_start=100)) as client:  # a new server on the same file
        again = Table(client, t.code)
        again.tokens = tokens
        assert again.state() == before
        assert client.get(f"/api/tables/{t.code}/game.json").json() == export
        assert again.game["held"] == [1, 3] and again.game["rolls_used"] == 1
        game = again.ok(0, {"kind": "roll"})  # the same tokens still act, dice continue
        assert game["version"] == before["game"]["version"] + 1
        final = again.play_to_end()
        assert final["status"] == "finished" and final["commitment"] == before["game"]["commitment"]
        data = client.get(f"/api/games/{final['id']}").json()
        from yacht.web.service.fairness import verify

        assert not verify(data).problems  # its people gave no seeds: dealt by the server alone


def test_bots_resume_after_a_restart(db: Path) -> None:
    with TestClient(make_app(db, bot_delay=3600)) as client:  # the bot waits: we stop first
        t = Table.create(client, "human", "easy")
        t.join(0, "Ann")
        t.play_turn(0)
        assert t.game["current"] == 1
    with TestClient(make_app(db)) as client:
        again = Table(client, t.code)
        again.settle()
        game = again.game
        assert game["current"] == 0 and game["round"] == 2 and len(game["sheets"][1]) == 1


def test_the_migrations_render_for_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    from alembic import command
    from alembic.config import Config

    from yacht.web.storage.store import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", "postgresql+psycopg://yacht@localhost/yacht")
    command.upgrade(config, "head", sql=True)  # offline: DDL only, no server needed
    ddl = capsys.readouterr().out
    for table in ("tables", "seats", "games"):
        assert f"CREATE TABLE {table} (" in ddl
    assert "state JSON" in ddl and "SERIAL NOT NULL" in ddl and "FOREIGN KEY" in ddl
