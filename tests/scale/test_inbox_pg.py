"""The inbox's rows and dormant games on PostgreSQL (tests/web/test_inbox_rows.py on SQLite): the
rows from the stored summaries answer what the games' own states say, an older server's rows
answer the same, no dormant game enters the snapshot cache at start-up or from the inbox, and
a restart keeps every deadline: the restarted server's deadline look hands each due seat to the
bot, and the tables leave memory again once the bot has moved."""

from __future__ import annotations

import warnings

from sqlalchemy import create_engine, text

from web import test_inbox_rows as rows

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_the_inbox_answers_from_the_summaries_and_keeps_no_game_in_memory(pg_url: str) -> None:
    rows.the_inbox_answers_from_summaries_and_keeps_no_game(pg_url)


def deadlines(url: str) -> dict[tuple[str, int], float]:
    engine = create_engine(url)
    with engine.connect() as c:
        found = c.execute(
            text("SELECT table_code, position, deadline FROM seats WHERE deadline IS NOT NULL")
        ).all()
    engine.dispose()
    return {(code, position): deadline for code, position, deadline in found}


def test_a_restart_keeps_every_deadline_and_the_bot_moves_when_they_pass(pg_url: str) -> None:
    codes, _ = rows.opened(pg_url)
    before = deadlines(pg_url)
    assert sorted(before) == sorted((code, 0) for code in codes)  # each waits on Ann
    app = rows.app_on(pg_url)
    with TestClient(app) as client:
        assert not rows.cached(app) & set(codes)
        for code in codes:
            seats = client.get(f"/api/tables/{code}").json()["seats"]
            assert seats[0]["deadline"] == before[(code, 0)] and seats[1]["deadline"] is None
        for code in codes:
            app.state.service._seen.drop(code)  # the reads above kept them: forget them
        service = app.state.service
        service.clock = lambda: max(before.values()) + 1
        portal = client.portal
        assert portal is not None
        taken = portal.call(app.state.deadlines.look)
        portal.call(app.state.runner.idle)
        assert sorted(taken) == sorted(before)
        after = deadlines(pg_url)
        assert sorted(after) == sorted((code, 1) for code in codes)  # the bot moved for Ann
        assert not rows.cached(app) & set(codes)  # dormant again, and nobody watches
