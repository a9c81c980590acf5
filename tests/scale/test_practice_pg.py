"""Practice answers on PostgreSQL: many first answers at once, the same account's to one
position and many accounts' to one new position, each rate exactly once (the rows locked, a
lost insert tried again), and the ratings add up."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from sqlalchemy import create_engine, text

from yacht.web.service.practice import _rate_rows
from yacht.web.storage.practice import record_answer
from yacht.web.storage.store import Store

NOW = datetime(2027, 3, 2, tzinfo=UTC)


def test_first_answers_at_once_rate_once_each(pg_url: str) -> None:
    store = Store(pg_url)
    store.migrate()
    store.close()  # no connection of its own left for the database's drop at teardown
    engine = create_engine(pg_url, pool_size=8)

    def answer(account: int, key: str) -> bool:
        done = record_answer(
            engine, account, key, solved=account % 2 == 0, loss=0.5, now=NOW, rate=_rate_rows
        )
        return done.first

    with ThreadPoolExecutor(8) as pool:
        same = list(pool.map(lambda _: answer(1, "k-same"), range(8)))  # one account, one key
        many = list(pool.map(lambda a: answer(a, "k-new"), range(10, 18)))  # 8 accounts
    assert sum(same) == 1 and all(many)
    with engine.connect() as c:
        assert c.execute(text("SELECT count(*) FROM practice_answers")).scalar_one() == 9
        attempts, solved = c.execute(
            text("SELECT attempts, solved FROM practice_positions WHERE key = 'k-new'")
        ).one()
        assert (attempts, solved) == (8, 4)  # every answer counted on the position
        assert (
            c.execute(
                text("SELECT attempts FROM practice_ratings WHERE account_id = 1")
            ).scalar_one()
            == 1
        )
    engine.dispose()
