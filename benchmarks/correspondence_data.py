"""The data of benchmarks.correspondence_scale: databases beside the test services' own, filled
by ``COPY`` with correspondence games in play (real games of the engine at every stage, each
waiting days on one of its two players' accounts), and the deadline look's claim timed on them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parent.parent
INBOX_GAMES = 200
"""Stored games made to wait on the account whose inbox is timed."""
TEMPLATES = 64
"""Distinct games the stored ones are copies of."""
DAY = 86400.0
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def service_urls() -> tuple[str, str]:
    """PostgreSQL and Redis of the test services (the environment, else build/services.env)."""
    found = {k: os.environ.get(k) for k in ("YACHT_TEST_POSTGRES_URL", "YACHT_TEST_REDIS_URL")}
    env = ROOT / "build" / "services.env"
    if env.exists():
        for line in env.read_text().splitlines():
            key, _, value = line.partition("=")
            if key in found and not found[key]:
                found[key] = value
    pg, redis = found["YACHT_TEST_POSTGRES_URL"], found["YACHT_TEST_REDIS_URL"]
    if not pg or not redis:
        raise SystemExit("no PostgreSQL or Redis: run `make services` (or eval the exports)")
    return pg, redis


@contextmanager
def database(base: str, name: str) -> Iterator[str]:
    """A new database ``name`` beside ``base``'s, migrated, dropped at the end."""
    from yacht.web.storage.store import migrate

    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        c.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    engine = create_engine(url)
    migrate(engine)
    engine.dispose()
    try:
        yield url
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def templates(count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` two-player games at every stage (0 to 22 turns played), by the engine with
    the server's dice: each its state JSON as stored, version, round, totals, seat to act."""
    from yacht.actions import Roll, Score
    from yacht.dice import FairDice
    from yacht.game import Game
    from yacht.rules import CATEGORIES

    rng = random.Random(seed)
    made = []
    for i in range(count):
        game = Game(["P1", "P2"], "traditional", FairDice(f"{i:064x}", f"bench-{i}"))
        for _ in range(rng.randrange(23)):
            game.apply(Roll())
            sheet = game.sheet(game.current)
            open_ = [c for c in CATEGORIES if c not in sheet]
            dice = game.dice or ()
            best = max(open_, key=lambda c: (game.rules.score(dice, c), -c.index))
            game.apply(Score(best))
        made.append(
            {
                "state": json.dumps(game.to_json()),
                "version": game.version,
                "summary": json.dumps(
                    {"version": game.version, "round": game.round, "totals": game.totals}
                ),
                "current": game.current,
            }
        )
    return made


def code_of(g: int) -> str:
    """Stored game ``g``'s table code: 7 letters (the server's are 6 or 13, never these)."""
    out = ""
    for _ in range(7):
        g, r = divmod(g, 32)
        out = ALPHABET[r] + out
    return out


def fill(url: str, stored: int, seed: int = 1) -> dict[str, Any]:
    """``stored`` correspondence games of two accounts each, the seat to act holding a deadline
    1 hour to 7 days away; returns the counts and the seconds the fill took."""
    from yacht.web.service.accounts import account_key

    started = time.perf_counter()
    rng = random.Random(seed)
    games = templates(TEMPLATES, seed)
    accounts = max(2, stored // 5)
    now = datetime.now(UTC)
    moment = time.time()
    engine = create_engine(url)
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()

        def copy(table: str, columns: list[str], rows: Iterator[tuple[Any, ...]]) -> None:
            with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as out:
                for row in rows:
                    out.write_row(row)

        names = (f"c{i:06d}" for i in range(1, accounts + 1))
        copy(
            "accounts",
            ["id", "name", "name_skeleton", "created_at"],
            ((i, n, account_key(n), now) for i, n in enumerate(names, 1)),
        )
        picks = [games[g % TEMPLATES] for g in range(stored)]
        copy(
            "tables",
            [
                *("code", "preset", "hints", "start_rule", "client_seed", "game_number"),
                *("revision", "created_at", "private", "rated", "move_days"),
            ],
            (
                (
                    code_of(g),
                    "traditional",
                    False,
                    "seat",
                    "",
                    1,
                    3 + p["version"],
                    now,
                    False,
                    False,
                    rng.choice((1, 2, 3, 7)),
                )
                for g, p in enumerate(picks)
            ),
        )
        token = hashlib.sha256(b"bench").hexdigest()
        copy(
            "seats",
            [
                *("table_code", "position", "name", "kind", "token_hash", "claimed_at"),
                *("account_id", "deadline"),
            ],
            (
                (
                    code_of(g),
                    seat,
                    f"P{seat + 1}",
                    "human",
                    token,
                    now,
                    rng.randrange(1, accounts + 1),
                    moment + rng.uniform(3600, 7 * DAY) if seat == p["current"] else None,
                )
                for g, p in enumerate(picks)
                for seat in (0, 1)
            ),
        )
        copy(
            "games",
            [
                *("id", "table_code", "number", "server_seed", "commitment", "status"),
                *("version", "state", "created_at", "updated_at", "summary"),
            ],
            (
                (
                    g + 1,
                    code_of(g),
                    1,
                    "s",
                    "c",
                    "playing",
                    p["version"],
                    p["state"],
                    now,
                    now,
                    p["summary"],
                )
                for g, p in enumerate(picks)
            ),
        )
        for table in ("accounts", "games"):  # the rows came with their ids
            cursor.execute(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))")
        raw.commit()
        raw.driver_connection.autocommit = True  # type: ignore[union-attr]
        cursor.execute("VACUUM ANALYZE")
        # The fill's WAL written out now, not during a run (a superuser's right; else
        # PostgreSQL's next checkpoint writes it, spread over the runs).
        with suppress(psycopg.errors.InsufficientPrivilege):
            cursor.execute("CHECKPOINT")
    finally:
        raw.close()
        engine.dispose()
    seconds = round(time.perf_counter() - started, 1)
    return {"stored": stored, "accounts": accounts, "fill_seconds": seconds}


def give_inbox(url: str, account: int, count: int = INBOX_GAMES) -> None:
    """Make ``count`` stored games wait on ``account`` (their waiting seat becomes its)."""
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(
            text(
                "UPDATE seats SET account_id = :a FROM (SELECT table_code, position FROM seats "
                "WHERE deadline IS NOT NULL ORDER BY table_code LIMIT :n) AS w "
                "WHERE seats.table_code = w.table_code AND seats.position = w.position"
            ),
            {"a": account, "n": count},
        )
    engine.dispose()


def forget_live(url: str) -> None:
    """Delete the real-time tables a run left (their seats and games go with them)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as c:
        c.execute(text("DELETE FROM tables WHERE move_days IS NULL"))
        c.execute(text("VACUUM ANALYZE"))
    engine.dispose()


def timings(values: list[float]) -> dict[str, float]:
    return {"median_ms": round(statistics.median(values), 2), "worst_ms": round(max(values), 2)}


def deadline_query(url: str, repeats: int = 30) -> dict[str, Any]:
    """The deadline look's claim (:func:`claim_due`) with none due, then with a batch due (the
    claimed seats' deadlines put back after each), and the plan PostgreSQL chose."""
    from yacht.web.storage.correspondence import DUE_BATCH, claim_due

    engine = create_engine(url)
    now = time.time()
    later = now + 3 * DAY
    none, batch = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        assert claim_due(engine, now, now + 300) == []
        none.append((time.perf_counter() - start) * 1000)
    pick = text(
        "SELECT table_code, position, deadline FROM seats WHERE deadline <= :m "
        "ORDER BY deadline LIMIT :n"
    )
    back = text("UPDATE seats SET deadline = :d WHERE table_code = :c AND position = :p")
    for _ in range(repeats):
        with engine.connect() as c:
            kept = c.execute(pick, {"m": later, "n": DUE_BATCH}).all()
        start = time.perf_counter()
        taken = claim_due(engine, later, later + 300)
        batch.append((time.perf_counter() - start) * 1000)
        with engine.begin() as c:
            c.execute(back, [{"d": d, "c": code, "p": p} for code, p, d in kept])
        if len(taken) != DUE_BATCH:
            raise SystemExit(f"the claim took {len(taken)} seats, not {DUE_BATCH}")
    explain = text(
        "EXPLAIN SELECT table_code, position, deadline FROM seats WHERE deadline <= :m "
        "ORDER BY deadline LIMIT 50 FOR UPDATE SKIP LOCKED"
    )
    with engine.connect() as c:
        plan = c.execute(explain, {"m": later}).all()
    engine.dispose()
    scan = next((line[0].strip(" ->") for line in plan if "Scan" in line[0]), "?")
    return {
        "none_due": timings(none),
        "batch_due": timings(batch),
        "batch": DUE_BATCH,
        "plan": scan.split("  ")[0],
    }
