"""``yacht db`` (upgrade from the previous release's schema, downgrade, current, a newer
release's database refused) and ``yacht admin`` (tables, banned names, a player's games), on
SQLite and, marked ``services``, on a PostgreSQL database of the test's own."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from starlette.testclient import TestClient

from yacht.cli import main
from yacht.web.app import create_app
from yacht.web.settings import Settings
from yacht.web.storage.store import Store, head_revision, migrate

from .helpers import Table, seed_maker


@pytest.fixture(autouse=True)
def english(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("YACHT_") and not name.startswith("YACHT_TEST"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("YACHT_LANG", "en")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.services)])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'yacht.sqlite3'}"
        return
    base = os.environ.get("YACHT_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("PostgreSQL not running: `make services` starts it")
    from scale.services import fresh_database

    with fresh_database(base) as fresh:
        yield fresh


def out(capsys: pytest.CaptureFixture[str], *args: str, status: int = 0) -> str:
    assert main(list(args)) == status, capsys.readouterr()
    captured = capsys.readouterr()
    return captured.out if status == 0 else captured.err


def test_upgrade_from_the_first_release_keeps_its_games_and_downgrade_goes_back(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = create_engine(url)
    migrate(engine, "0001")  # the first release's schema, with a finished game in it
    when = datetime(2025, 1, 2, tzinfo=UTC)
    with engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO tables VALUES ('OLD234', 'traditional', true, NULL, 'seat', "
                "'', 1, 7, :when)"
            ),
            {"when": when},
        )
        c.execute(
            text("INSERT INTO seats VALUES ('OLD234', 0, 'Ann', 'human', NULL, NULL, :when)"),
            {"when": when},
        )
        c.execute(
            text(
                "INSERT INTO games (table_code, number, server_seed, commitment, status, "
                "version, created_at, updated_at) VALUES ('OLD234', 1, 's', 'c', 'finished', "
                "40, :when, :when)"
            ),
            {"when": when},
        )
    assert "at migration 0001 " in out(capsys, "db", "current", "--database", url)
    assert f"at migration {head_revision()} " in out(capsys, "db", "upgrade", "--database", url)
    with engine.connect() as c:
        row = c.execute(text("SELECT creator, fair_next, revision FROM tables")).one()
        assert tuple(row) == (None, None, 7)
        assert c.execute(text("SELECT name, seen_at FROM seats")).one() == ("Ann", None)
    assert "banned_names" in inspect(engine).get_table_names()
    lines = out(capsys, "admin", "tables", "list", "--database", url).splitlines()
    assert lines[1].split()[:2] == ["OLD234", "finished"] and lines[1].endswith("Ann")

    # Back to the ratings' migration (the later ones are checked by their own features' tests).
    assert "at migration 0007 " in out(capsys, "db", "downgrade", "0007", "--database", url)
    assert "at migration 0006 " in out(capsys, "db", "downgrade", "--database", url)
    assert "ratings" not in inspect(engine).get_table_names()  # the ratings' migration gone
    with engine.connect() as c:
        assert c.execute(text("SELECT name FROM seats")).one() == ("Ann",)
    assert "at migration 0005 " in out(capsys, "db", "downgrade", "--database", url)
    assert "accounts" not in inspect(engine).get_table_names()  # the accounts' migration gone
    with engine.connect() as c:
        assert c.execute(text("SELECT name FROM seats")).one() == ("Ann",)
    assert "at migration 0004 " in out(capsys, "db", "downgrade", "--database", url)
    with engine.connect() as c:  # the rematch columns gone, the games kept
        assert c.execute(text("SELECT count(*) FROM games")).scalar_one() == 1
    assert "at migration 0003 " in out(capsys, "db", "downgrade", "--database", url)
    with engine.connect() as c:  # the private tables' migration gone, the games kept
        assert c.execute(text("SELECT count(*) FROM seats")).scalar_one() == 1
    assert "at migration 0002 " in out(capsys, "db", "downgrade", "--database", url)
    assert "banned_names" not in inspect(engine).get_table_names()
    err = out(capsys, "admin", "names", "list", "--database", url, status=2)
    assert (
        f"is at migration 0002, this yacht needs {head_revision()}: run yacht db upgrade first"
        in err
    )
    out(capsys, "db", "upgrade", "--database", url)
    engine.dispose()


def test_a_database_of_a_newer_release_is_refused_naming_both_migrations(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out(capsys, "db", "upgrade", "--database", url)
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("UPDATE alembic_version SET version_num='9999_future'"))
    engine.dispose()
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: pytest.fail("yacht serve started"))
    from yacht.web.edge import serving

    monkeypatch.setattr(serving, "serve", lambda *a, **k: pytest.fail("started"), raising=False)
    for command in (["serve"], ["db", "upgrade"], ["admin", "tables", "list"]):
        err = out(capsys, *command, "--database", url, status=2)
        assert err.count("\n") == 1, err
        assert "is at migration 9999_future, which this yacht does not know" in err
        head = head_revision()
        assert f"(its newest is {head})" in err and f"yacht db downgrade {head}" in err
    assert "at migration 9999_future " in out(capsys, "db", "current", "--database", url)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, str]]:
    url = f"sqlite:///{tmp_path / 'yacht.sqlite3'}"
    settings = Settings(prepare_tables=False, bot_delay=0)
    app = create_app(url, settings=settings, seeds=seed_maker())
    with TestClient(app) as client:
        yield client, url


def test_a_banned_name_cannot_be_taken_and_a_look_alike_can(
    served: tuple[TestClient, str], capsys: pytest.CaptureFixture[str]
) -> None:
    client, url = served
    assert out(capsys, "admin", "names", "ban", " Mallory ", "--database", url) == (
        "banned: Mallory\n"
    )
    assert "already banned: MALLORY" in out(
        capsys, "admin", "names", "ban", "MALLORY", "--database", url
    )
    t = Table.create(client, "human", "human", "human")
    for taken in ("Mallory", "mallory", " MALLORY"):
        r = client.post(f"/api/tables/{t.code}/join", json={"seat": 0, "name": taken})
        assert (r.status_code, r.json()["code"]) == (422, "invalid"), r.text
        assert "cannot be taken here" in r.json()["message"]
    for look_alike in ("Mal1ory", "\u041callory"):  # a digit one, a Cyrillic Em
        Table.create(client, "human").join(0, look_alike)  # another name until banned itself
    r = client.post("/api/tables", json={"seats": [{"kind": "bot", "name": "MALLORY"}]})
    assert r.status_code == 422, r.text  # nor as a bot's name
    listed = out(capsys, "admin", "names", "list", "--database", url)
    assert listed.strip().endswith("  Mallory") and listed.count("\n") == 1
    err = out(capsys, "admin", "names", "ban", "Ev\x1be", "--database", url, status=2)
    assert "'Ev\\x1be' is not a name a player could take" in err and "\x1b" not in err
    out(capsys, "admin", "names", "unban", "mallory", "--database", url)
    t.join(0, "Mallory")
    err = out(capsys, "admin", "names", "unban", "Mallory", "--database", url, status=2)
    assert "Mallory is not banned" in err
    assert "no banned names" in out(capsys, "admin", "names", "list", "--database", url)


def test_tables_are_listed_and_a_closed_table_is_gone_for_its_players(
    served: tuple[TestClient, str], capsys: pytest.CaptureFixture[str]
) -> None:
    client, url = served
    t = Table.create(client, "human", "human")
    t.join(0, "Ann")
    other = Table.create(client, "human")
    lines = out(capsys, "admin", "tables", "list", "--database", url).splitlines()
    assert lines[0].split() == ["code", "status", "last", "move", "players"]
    rows = {line.split()[0]: line for line in lines[1:]}
    assert set(rows) == {t.code, other.code}
    assert "waiting" in rows[t.code] and rows[t.code].endswith("Ann, -")
    assert out(capsys, "admin", "tables", "close", t.code.lower(), "--database", url) == (
        f"table {t.code} closed\n"
    )
    r = client.get(f"/api/tables/{t.code}")
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = client.post(f"/api/tables/{t.code}/join", json={"seat": 1, "name": "Bob"})
    assert r.status_code == 404
    err = out(capsys, "admin", "tables", "close", t.code, "--database", url, status=2)
    assert f"no table with code {t.code}" in err
    err = out(capsys, "admin", "tables", "close", "AB\x07'; DROP", "--database", url, status=2)
    assert 'not a table code: "AB\\x07\'; DROP"' in err
    assert other.code in out(capsys, "admin", "tables", "list", "--database", url)
    fi = out(capsys, "admin", "tables", "list", "--lang", "fi", "--database", url)
    assert fi.split()[:2] == ["koodi", "tila"]


def test_a_players_finished_games_are_deleted_on_request(
    served: tuple[TestClient, str], capsys: pytest.CaptureFixture[str]
) -> None:
    client, url = served

    def bots_game(name: str) -> dict[str, object]:
        seats = [{"kind": "bot", "bot": "random", "name": name}, {"kind": "bot", "bot": "random"}]
        r = client.post("/api/tables", json={"seats": seats})
        assert r.status_code == 201, r.text
        table = Table(client, r.json()["code"])
        table.settle()
        return table.game

    first, second, kept = bots_game("Ann"), bots_game("Ann"), bots_game("Annie")
    assert first["status"] == second["status"] == kept["status"] == "finished"
    words = out(capsys, "admin", "games", "delete", "--player", "Ann", "--database", url)
    assert words == "2 finished games of Ann; add --yes to delete them\n"
    assert client.get(f"/api/games/{first['id']}").status_code == 200  # only counted
    words = out(capsys, "admin", "games", "delete", "--player", "Ann", "--yes", "--database", url)
    assert words == "deleted 2 finished games of Ann\n"
    for game in (first, second):
        assert client.get(f"/api/games/{game['id']}").status_code == 404
    assert client.get(f"/api/games/{kept['id']}").status_code == 200
    words = out(capsys, "admin", "games", "delete", "--player", "Ann", "--yes", "--database", url)
    assert words == "deleted 0 finished games of Ann\n"
    nb = out(
        capsys, "admin", "games", "delete", "--player", "Zed", "--lang", "nb", "--database", url
    )
    assert "Zed" in nb and "--yes" in nb and "finished" not in nb


def test_the_store_refuses_nothing_it_made_itself(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'y.sqlite3'}")
    store.migrate()
    store.migrate()  # at the newest already: nothing to do, nothing refused
    store.close()


def test_admin_flags_accounts_whose_last_rated_games_lose_implausibly_little(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out(capsys, "db", "upgrade", "--database", url)
    assert "no account flagged" in out(capsys, "admin", "flagged", "--database", url)
    engine = create_engine(url)
    when = datetime(2027, 1, 1, tzinfo=UTC)
    # (name, points lost in each of its reviewed games, oldest first, rated?)
    players = [
        ("Cleo", [30.0] * 5 + [1.0] * 20, True),  # sharp lately: flagged
        ("Dan", [1.0] * 19, True),  # too few games to tell
        ("Eve", [1.0] * 19 + [80.0], True),  # one bad game lifts the mean
        ("Fay", [0.5] * 25, False),  # unrated games never flag
    ]
    with engine.begin() as c:
        for i, (name, losses, rated) in enumerate(players, start=1):
            c.execute(
                text(
                    "INSERT INTO accounts (id, name, name_skeleton, created_at) "
                    "VALUES (:i, :n, :s, :w)"
                ),
                {"i": i, "n": name, "s": name.lower(), "w": when},
            )
            c.execute(
                text(
                    "INSERT INTO player_stats VALUES (:i, 'traditional', :g, 0, 0, 0, 0, :g, "
                    ":l, 0, 0)"
                ),
                {"i": i, "g": len(losses), "l": sum(losses)},
            )
            for k, loss in enumerate(losses):
                c.execute(
                    text(
                        "INSERT INTO player_games (account_id, game_id, table_code, number, "
                        "seat, preset, rated, private, players, total, rank, yachts, loss, "
                        "decisions, accurate, finished_at) VALUES (:i, :g, 'T', 1, 0, "
                        "'traditional', :r, false, 2, 200, 1, 0, :l, 30, 28, :w)"
                    ),
                    {"i": i, "g": i * 100 + k, "r": rated, "l": loss, "w": when.replace(day=k + 1)},
                )
    engine.dispose()
    lines = out(capsys, "admin", "flagged", "--database", url).splitlines()
    assert lines == ["Cleo  traditional: 1.00 points lost a game over the last 20 rated games"]
