"""Ratings are written in the transaction of a game's last move, on PostgreSQL both ways (asyncpg
straight from the loop, and SQLAlchemy): two games of one player ending at the same moment are
both counted, a change that fails half-way writes nothing (the move is not stored either), and
a change stored once cannot be counted twice."""

from __future__ import annotations

import asyncio
import warnings
from itertools import product
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from yacht.web.app import create_app
from yacht.web.service.ratings import START, Rating, Seat, _rate, rate_game
from yacht.web.settings import Settings
from yacht.web.storage.changes import Change
from yacht.web.storage.results import Finish, Result, Standing
from yacht.web.storage.store import ConflictError, Store

from .test_pg_direct import opened

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def opened_many(url: str, count: int) -> list[str]:
    """``count`` tables of two people, opened and joined through one app (the games are on)."""
    app = create_app(url, settings=Settings(prepare_tables=False), bot_delay=0)
    codes = []
    with TestClient(app) as client:
        for _ in range(count):
            code = client.post("/api/tables", json={"seats": [{"kind": "human"}] * 2}).json()
            for s in (0, 1):
                client.post(f"/api/tables/{code['code']}/join", json={"seat": s, "name": f"P{s}"})
            codes.append(code["code"])
    return codes


def finish(accounts: tuple[int, int], rate: Any = None) -> Finish:
    results = (Result(accounts[0], 0, 200, 1, 1), Result(accounts[1], 1, 150, 2, 0))
    rate = rate or _rate({accounts[0]: 1, accounts[1]: 2})
    return Finish("traditional", False, True, 2, results, rate, START)


def rows(url: str, sql: str) -> list[Any]:
    engine = create_engine(url)
    with engine.connect() as c:
        found = list(c.execute(text(sql)).all())
    engine.dispose()
    return found


@pytest.mark.parametrize("direct", [True, False], ids=["asyncpg", "sqlalchemy"])
def test_two_games_of_one_player_ending_at_once_are_both_counted(pg_url: str, direct: bool) -> None:
    codes = opened_many(pg_url, 8)
    store = Store(pg_url, direct=direct)

    async def end(code: str, other: int) -> int:
        snap = await store.aload(code)
        assert snap is not None
        change = Change(game={"status": "finished"}, finish=finish((1, other)))
        return await store.achange(code, snap.revision, change)

    async def work() -> None:
        for i in range(0, 8, 2):  # four rounds of two games ending together: 8 for player 1
            await asyncio.gather(end(codes[i], 2), end(codes[i + 1], 3))
        await store.aclose()

    asyncio.run(work())
    store.close()
    (games, mu), *_ = rows(pg_url, "SELECT games, mu FROM ratings WHERE account_id = 1")
    assert games == 8
    events = rows(pg_url, "SELECT games FROM rating_events WHERE account_id = 1 ORDER BY id")
    assert [e[0] for e in events] == list(range(1, 9))  # each game saw the one before it
    assert len(rows(pg_url, "SELECT * FROM player_games WHERE account_id = 1")) == 8
    # Player 1 won all eight, against players 2 and 3 in turn: the same as rating the games
    # one after the other, in the order the two of each round were stored (either)
    assert any(
        mu == pytest.approx(one_by_one(orders), abs=1e-12) for orders in product(*[(0, 1)] * 4)
    )


def one_by_one(orders: tuple[int, ...]) -> float:
    ratings = {1: Rating(), 2: Rating(), 3: Rating()}
    for first in orders:
        for other in (2, 3) if first == 0 else (3, 2):
            changes = rate_game([Seat(1, ratings[1], 1), Seat(other, ratings[other], 2)])
            ratings[1], ratings[other] = changes[0].after, changes[1].after
    return ratings[1].mu


@pytest.mark.parametrize("direct", [True, False], ids=["asyncpg", "sqlalchemy"])
def test_a_last_move_that_fails_half_way_writes_nothing_and_counts_once_later(
    pg_url: str, direct: bool
) -> None:
    code, _ = opened(pg_url)
    store = Store(pg_url, direct=direct)

    def crash(before: Any) -> dict[int, Standing]:
        raise RuntimeError("the process died here")

    async def work() -> None:
        snap = await store.aload(code)
        assert snap is not None
        broken = Change(game={"status": "finished"}, finish=finish((4, 5), crash))
        with pytest.raises(RuntimeError):
            await store.achange(code, snap.revision, broken)
        assert (await store.aload(code)).game.status == "playing"  # type: ignore[union-attr]
        change = Change(game={"status": "finished"}, finish=finish((4, 5)))
        revision = await store.achange(code, snap.revision, change)
        assert revision == snap.revision + 1
        with pytest.raises(ConflictError):  # the same change again: refused whole
            await store.achange(code, snap.revision, change)
        review = {
            "players": [
                {"seat": s, "loss": 1.5 * s, "decisions": [{"accurate": True}]} for s in (0, 1)
            ]
        }
        await store.achange(code, revision, Change(game={"review": review}))
        await store.aclose()

    asyncio.run(work())
    store.close()
    assert rows(pg_url, "SELECT account_id, games FROM ratings ORDER BY account_id") == [
        (4, 1),
        (5, 1),
    ]
    assert len(rows(pg_url, "SELECT * FROM rating_events")) == 2
    found = rows(pg_url, "SELECT seat, loss, decisions, accurate FROM player_games ORDER BY seat")
    assert found == [(0, 0.0, 1, 1), (1, 1.5, 1, 1)]  # the review's figures, with the review
    sums = "SELECT account_id, games, wins, total_sum, best, yachts, reviewed, loss_sum, "
    sums += "decisions FROM player_stats ORDER BY account_id"
    assert rows(pg_url, sums) == [
        (4, 1, 1, 200, 200, 1, 1, 0.0, 1),
        (5, 1, 0, 150, 150, 0, 1, 1.5, 1),
    ]
