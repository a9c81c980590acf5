"""A stored game that cannot be read (its JSON broken or not a game's, a column of the wrong
kind: a damaged database or a hand edit) is left out of ``GET /api/games`` with one log line,
and asked for by itself is the documented error body; every other game is served as before.
On SQLite and on PostgreSQL."""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from starlette.testclient import TestClient

from yacht.web.app import create_app
from yacht.web.settings import Settings

from ..helpers import Table, seed_maker

BOT = [{"kind": "bot", "bot": "greedy"}]

# Each damage, and whether the list still shows the game (its summary reads the players,
# totals and winners only); the game itself is refused either way.
CUT = 'UPDATE games SET state = \'{"format": "yacht-ga\' WHERE id = :id'
NOT_A_GAME = "UPDATE games SET state = '{\"players\": 5}' WHERE id = :id"
FAIR = "UPDATE games SET fair = '[1]' WHERE id = :id"
SQLITE_DAMAGE = {
    "JSON cut short": (CUT, False),
    "JSON not a game's": (NOT_A_GAME, False),
    "a date that is not one": ("UPDATE games SET finished_at = 'later' WHERE id = :id", False),
    "fair not an object": (FAIR, True),
}
POSTGRES_DAMAGE = {  # PostgreSQL keeps its JSON well-formed and its dates dates
    "JSON not a game's": (NOT_A_GAME, False),
    "JSON a list": ("UPDATE games SET state = '[1, 2]' WHERE id = :id", False),
    "events not a list": (
        "UPDATE games SET state = jsonb_set(state::jsonb, '{events}', '5')::json WHERE id = :id",
        True,
    ),
    "fair not an object": (FAIR, True),
}


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'yacht.sqlite3'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    base = os.environ.get("YACHT_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("PostgreSQL not running: `make services` starts it")
    name = f"yacht_t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def finished_games(client: TestClient, n: int) -> list[int]:
    for _ in range(n):
        r = client.post("/api/tables", json={"seats": BOT})
        Table(client, r.json()["code"]).settle()
    ids = [g["id"] for g in client.get("/api/games").json()]
    assert len(ids) == n
    return ids


def check_left_out(url: str, damage: tuple[str, bool], caplog: pytest.LogCaptureFixture) -> None:
    sql, listed = damage
    app = create_app(
        url, settings=Settings(prepare_tables=False), seeds=seed_maker(), bot_delay=0.0
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        ids = finished_games(client, 3)  # newest first
        broken = ids[1]
        engine = create_engine(url)
        with engine.begin() as c:
            c.execute(text(sql), {"id": broken})
        engine.dispose()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="yacht.web.database"):
            r = client.get("/api/games")
        assert r.status_code == 200, r.text
        lines = [m for m in caplog.messages if f"game {broken} cannot be read" in m]
        if listed:
            assert [g["id"] for g in r.json()] == ids and lines == []
        else:
            assert [g["id"] for g in r.json()] == [ids[0], ids[2]]
            assert len(lines) == 1, caplog.messages
        refusal = {
            "type": "error",
            "code": "not_found",
            "message": f"game {broken} cannot be read",
            "ref": None,
            "detail": None,
        }
        r = client.get(f"/api/games/{broken}")
        assert r.status_code == 404 and r.json() == refusal, r.text
        for path in ("/replay", "/review"):  # what they read may be whole: never a 500
            r = client.get(f"/api/games/{broken}{path}")
            assert r.status_code == 200 or (r.status_code == 404 and r.json() == refusal)
        for good in (ids[0], ids[2]):
            assert client.get(f"/api/games/{good}").status_code == 200
            assert client.get(f"/api/games/{good}/replay").status_code == 200
        assert client.get("/games").status_code == 200


@pytest.mark.parametrize("damage", SQLITE_DAMAGE.values(), ids=SQLITE_DAMAGE.keys())
def test_an_unreadable_game_on_sqlite_is_left_out(
    sqlite_url: str, damage: tuple[str, bool], caplog: pytest.LogCaptureFixture
) -> None:
    check_left_out(sqlite_url, damage, caplog)


@pytest.mark.services
@pytest.mark.parametrize("damage", POSTGRES_DAMAGE.values(), ids=POSTGRES_DAMAGE.keys())
def test_an_unreadable_game_on_postgresql_is_left_out(
    postgres_url: str, damage: tuple[str, bool], caplog: pytest.LogCaptureFixture
) -> None:
    check_left_out(postgres_url, damage, caplog)


def damaged(path: Path, start: int) -> None:
    """Garbage written over the file from byte ``start`` on, as a failing disk or a stray
    write leaves it."""
    with path.open("r+b") as f:
        f.seek(start)
        f.write(bytes(range(256)) * 320)


@pytest.mark.parametrize("start", [0, 100, 8192], ids=["whole file", "schema", "data pages"])
@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "0"],
        ["admin", "tables", "list"],
        ["admin", "names", "list"],
        ["admin", "games", "delete", "--player", "Ann"],
        ["db", "upgrade"],
        ["db", "current"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_damaged_sqlite_file_is_one_line(
    argv: list[str], start: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from yacht.cli import main
    from yacht.web.edge.redact import redact

    path = tmp_path / "yacht.sqlite3"
    url = f"sqlite:///{path}"
    assert main(["db", "upgrade", "--database", url]) == 0
    damaged(path, start)
    capsys.readouterr()
    status = main([*argv, "--database", url, "--lang", "en"])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "internal error" not in err, err
    if status == 0:  # db reads the one row of the migration, whose page is whole
        assert argv[0] == "db" and start == 8192
        return
    assert status == 2 and err.count("\n") == 1, err
    # the URL as the error shows it: without the secrets this process was given (an earlier
    # test's database password may be a word of the path, as "yacht" is in the test services)
    assert err.startswith(f"yacht: error: the database {redact(url)} cannot be used: "), err


@pytest.mark.parametrize(
    ("database", "sql", "listed"),
    [
        ("sqlite", "UPDATE tables SET created_at = 'later' WHERE code = :code", False),
        ("sqlite", "UPDATE games SET state = '{\"pla' WHERE table_code = :code", False),
        pytest.param(  # the lobby shows nothing of the state: the table stays listed
            "postgres",
            "UPDATE games SET state = '[1]' WHERE table_code = :code",
            True,
            marks=pytest.mark.services,
        ),
    ],
    ids=["sqlite date", "sqlite JSON", "postgresql JSON a list"],
)
def test_a_waiting_table_that_cannot_be_read_is_left_out_of_the_lobby(
    database: str,
    sql: str,
    listed: bool,
    request: pytest.FixtureRequest,
    caplog: pytest.LogCaptureFixture,
) -> None:
    url: str = request.getfixturevalue(f"{database}_url")
    app = create_app(url, settings=Settings(prepare_tables=False), seeds=seed_maker())
    with TestClient(app, raise_server_exceptions=False) as client:
        seats = [{"kind": "human"}, {"kind": "human"}]
        codes = [client.post("/api/tables", json={"seats": seats}).json()["code"] for _ in "ab"]
        engine = create_engine(url)
        with engine.begin() as c:
            c.execute(text(sql), {"code": codes[0]})
        engine.dispose()
        with caplog.at_level(logging.WARNING, logger="yacht.web.database"):
            r = client.get("/api/tables")
        assert r.status_code == 200, r.text
        lines = [m for m in caplog.messages if f"table {codes[0]} cannot be read" in m]
        if listed:
            assert sorted(t["code"] for t in r.json()) == sorted(codes) and lines == []
        else:
            assert [t["code"] for t in r.json()] == [codes[1]] and len(lines) == 1
        assert client.get("/").status_code == 200


def test_admin_lists_a_table_whose_time_cannot_be_read(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from yacht.cli import main

    app = create_app(sqlite_url, settings=Settings(prepare_tables=False), seeds=seed_maker())
    with TestClient(app) as client:
        seats = [{"kind": "human"}, {"kind": "human"}]
        codes = [client.post("/api/tables", json={"seats": seats}).json()["code"] for _ in "ab"]
    engine = create_engine(sqlite_url)
    with engine.begin() as c:
        c.execute(
            text("UPDATE games SET updated_at = 'later' WHERE table_code = :code"),
            {"code": codes[0]},
        )
    engine.dispose()
    status = main(["admin", "tables", "list", "--database", sqlite_url, "--lang", "en"])
    out, err = capsys.readouterr()
    assert status == 0 and err == "", err
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(lines) == set(codes)
    assert lines[codes[0]].split()[2] == "-"  # no time shown for the damaged one
