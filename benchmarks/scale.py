"""Server CPU per move when two server processes share the tables (the issue-6 load setting).

Two table services on one database in this process stand for two ``yacht serve`` processes:
each table has seat 1 on the first and seat 2 on the second, as ``yacht loadtest`` deals
them, and the tables take turns moving (roll, hold, roll, score), so every turn starts on a
service whose snapshot of the table is stale. A move here is the server's own work: check the
message, decide, store it, build the state message and hand it to the broadcaster (no
sockets, no Redis; the database's own CPU is not counted). PostgreSQL from
``$YACHT_TEST_POSTGRES_URL`` when set (``eval "$(bash .ci/services)"``), else SQLite. Three runs,
each on a fresh database: the median and the worst are printed.

Run: ``python -m benchmarks.scale`` (or ``make bench``).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import create_engine, text

from benchmarks.machine import header, on_one_core
from yacht.loadtest.run import decide
from yacht.web.bus.broadcast import LocalBroadcaster
from yacht.web.protocol.messages import ClientMessage, CreateTable, JoinSeat
from yacht.web.service.tables import TableService
from yacht.web.settings import Settings
from yacht.web.storage.store import Store

TABLES = 40
MOVES = 1200
RUNS = 3
MESSAGE: TypeAdapter[Any] = TypeAdapter(ClientMessage)


def _fresh_postgres(url: str) -> str:
    """A new database beside the one in ``url`` (each run starts empty)."""
    name = f"yacht_bench_{os.getpid()}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        c.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return url.rsplit("/", 1)[0] + "/" + name


def _drop_postgres(url: str, fresh: str) -> None:
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f"DROP DATABASE IF EXISTS {fresh.rsplit('/', 1)[1]}"))
    admin.dispose()


async def _moves(url: str) -> tuple[int, float, float]:
    """(moves, CPU seconds, wall seconds) of MOVES moves over TABLES tables."""
    first = Store(url)
    first.migrate()
    services = [
        TableService(store, LocalBroadcaster(), Settings(database=url, bot_delay=0))
        for store in (first, Store(url))
    ]
    tables: list[tuple[str, list[str], dict[str, Any]]] = []
    for _ in range(TABLES):
        state = await services[0].create(CreateTable.model_validate({"seats": [{}, {}]}))
        tokens = []
        for seat, service in enumerate(services):
            joined = await service.join(state["code"], JoinSeat(seat=seat, name=f"P{seat + 1}"))
            tokens.append(joined.token)
        tables.append((state["code"], tokens, joined.table.game.model_dump(mode="json")))
    done = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while done < MOVES:
        for i, (code, tokens, game) in enumerate(tables):
            seat = game["current"]
            message = {
                "type": "action",
                "seat": seat,
                "token": tokens[seat],
                "game": game["number"],
                "version": game["version"],
                "action": decide(game),
            }
            msg = MESSAGE.validate_json(json.dumps(message))
            game = (await services[seat].act(code, msg))["game"]
            if game["status"] == "finished":  # seat 0 proposes, seat 1 agrees: the next game
                for asked, service in enumerate(services):
                    rematch = _rematch(tokens, game, asked)
                    reply = (await service.rematch(code, rematch))["game"]
                game = reply
            tables[i] = (code, tokens, game)
            done += 1
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    for service in services:
        await service.store.aclose()  # the asyncpg pool: the database is dropped next
        service.store.close()
    return done, cpu, wall


def _rematch(tokens: list[str], game: dict[str, Any], seat: int) -> Any:
    return MESSAGE.validate_python(
        {"type": "rematch", "seat": seat, "token": tokens[seat], "game": game["number"]}
    )


def _run(url: str, figures: list[tuple[int, float, float]]) -> None:
    figures.append(asyncio.run(_moves(url)))


def main() -> None:
    postgres = os.environ.get("YACHT_TEST_POSTGRES_URL")
    figures: list[tuple[int, float, float]] = []
    for _ in range(RUNS):  # each on a fresh database
        with tempfile.TemporaryDirectory() as folder:
            url = _fresh_postgres(postgres) if postgres else f"sqlite:///{Path(folder) / 'b.db'}"
            try:
                on_one_core(partial(_run, url, figures))
            finally:
                if postgres:
                    _drop_postgres(postgres, url)
    per_move = [cpu / moves * 1000 for moves, cpu, _ in figures]
    rate = [moves / wall for moves, _, wall in figures]
    where = "PostgreSQL" if postgres else "SQLite"
    print(header(f"web scale-out: two services on one {where} database, {TABLES} tables"))
    print(
        f"  {'server CPU per move (this process, database not counted)':<58} "
        f"{statistics.median(per_move):.2f} ms (worst {max(per_move):.2f} of {RUNS} runs)"
    )
    print(
        f"  {'moves per second, one after another':<58} "
        f"{statistics.median(rate):.0f} (worst {min(rate):.0f})"
    )


if __name__ == "__main__":
    main()
