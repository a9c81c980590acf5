"""Profiles and the leaderboard at scale: 100,000 accounts and 1,000,000 finished games in
PostgreSQL with a heavy tail (most players with a few games, one with 100,000), then one
``yacht serve`` process answering the profile of the heaviest player, of a typical one, the
heaviest player's games page, and the leaderboard; and the server CPU a rated game's end costs
beyond an unrated one's.

    python -m benchmarks.players_scale [--database URL] [--accounts N] [--games N] [--heavy N]
        [--requests N] [--ends N] [--keep]

``--database``: a PostgreSQL URL whose server lets this role create databases (default: the
test services' ``YACHT_TEST_POSTGRES_URL`` from build/services.env, see ``make services``); a
database ``yacht_bench_players`` is made on it (dropped at the end unless ``--keep``).
Writes benchmarks/results/players_scale.json and the table docs/web/profiles.md includes,
benchmarks/results/players_scale.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from benchmarks.machine import machine

RESULTS = Path(__file__).parent / "results"
ROOT = Path(__file__).parent.parent
NAME = "yacht_bench_players"
PRESET = "traditional"
TABLE_COLUMNS = [
    *("code", "preset", "hints", "start_rule", "client_seed", "game_number", "revision"),
    *("created_at", "private", "rated"),
]
GAME_COLUMNS = [
    *("id", "table_code", "number", "server_seed", "commitment", "status", "version"),
    *("created_at", "updated_at", "finished_at", "review"),
]
REVIEWED = '{"players": []}'  # reviewed (a server resumes a finished game with no review)
RESULT_COLUMNS = [
    *("account_id", "game_id", "table_code", "number", "seat", "preset", "rated", "private"),
    *("players", "total", "rank", "yachts", "loss", "decisions", "accurate", "finished_at"),
]


def services_url() -> str:
    found = os.environ.get("YACHT_TEST_POSTGRES_URL")
    env = ROOT / "build" / "services.env"
    if not found and env.exists():
        for line in env.read_text().splitlines():
            if line.startswith("YACHT_TEST_POSTGRES_URL="):
                found = line.split("=", 1)[1]
    if not found:
        raise SystemExit("no PostgreSQL: give --database URL, or run `make services`")
    return found


@contextmanager
def database(base: str, keep: bool, reuse: bool = False) -> Iterator[str]:
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    if not reuse:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)'))
            c.execute(text(f'CREATE DATABASE "{NAME}"'))
    try:
        yield make_url(base).set(database=NAME).render_as_string(hide_password=False)
    finally:
        if not keep:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{NAME}" WITH (FORCE)'))
        admin.dispose()


def _copy(cursor: Any, table: str, columns: list[str], rows: Iterator[tuple[Any, ...]]) -> int:
    count = 0
    with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def fill(url: str, accounts: int, games: int, heavy: int, seed: int = 1) -> dict[str, Any]:
    """The generated data: accounts named p000001..., games of two players each; player 1 sits
    in ``heavy`` of them, the other seats are drawn with weights 1/rank (a heavy tail: most
    players have a few games). Half the games are rated. Returns the counts and the timings."""
    from yacht.web.service.accounts import account_key
    from yacht.web.storage.store import migrate

    rng = random.Random(seed)
    started = time.perf_counter()
    engine = create_engine(url)
    migrate(engine)
    now = datetime.now(UTC)
    # Seats: player 1 in `heavy` games, the rest drawn by weight 1/rank
    others = list(range(2, accounts + 1))
    weights = [1.0 / (i - 1) for i in others]
    slots = 2 * games - heavy
    drawn = rng.choices(others, weights=weights, k=slots)
    seats: list[tuple[int, int]] = []  # (account of seat 0, account of seat 1) per game
    it = iter(drawn)
    for g in range(games):
        a = 1 if g < heavy else next(it)
        b = next(it)
        while b == a:
            b = rng.randrange(2, accounts + 1)
        seats.append((a, b))
    when = [now - timedelta(seconds=rng.randrange(400 * 86400)) for _ in range(games)]
    rated = [g % 2 == 0 for g in range(games)]
    totals = [(rng.randrange(110, 260), rng.randrange(110, 260)) for _ in range(games)]
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        _copy(
            cursor,
            "accounts",
            ["id", "name", "name_skeleton", "created_at"],
            ((i, f"p{i:06d}", account_key(f"p{i:06d}"), now) for i in range(1, accounts + 1)),
        )
        _copy(
            cursor,
            "tables",
            TABLE_COLUMNS,
            (
                (f"B{g:07d}", PRESET, False, "seat", "", 1, 30, when[g], g % 10 == 9, rated[g])
                for g in range(games)
            ),
        )
        _copy(
            cursor,
            "seats",
            ["table_code", "position", "name", "kind", "account_id"],
            (
                (f"B{g:07d}", p, f"p{seats[g][p]:06d}", "human", seats[g][p])
                for g in range(games)
                for p in (0, 1)
            ),
        )
        _copy(
            cursor,
            "games",
            GAME_COLUMNS,
            (
                (
                    g + 1,
                    f"B{g:07d}",
                    1,
                    "s",
                    "c",
                    "finished",
                    48,
                    when[g],
                    when[g],
                    when[g],
                    REVIEWED,
                )
                for g in range(games)
            ),
        )

        def results() -> Iterator[tuple[Any, ...]]:
            for g in range(games):
                t = totals[g]
                for p in (0, 1):
                    rank = 1 if t[p] >= t[1 - p] else 2
                    loss = round(rng.uniform(0, 40), 2)
                    yield (
                        seats[g][p], g + 1, f"B{g:07d}", 1, p, PRESET, rated[g], g % 10 == 9, 2,
                        t[p], rank, int(rng.random() < 0.3), loss, 30, 26, when[g],
                    )  # fmt: skip

        _copy(
            cursor,
            "player_games",
            RESULT_COLUMNS,
            results(),
        )
        order = sorted((g for g in range(games) if rated[g]), key=lambda g: when[g])
        played: dict[int, int] = {}

        def events() -> Iterator[tuple[Any, ...]]:
            for g in order:
                for p in (0, 1):
                    a = seats[g][p]
                    played[a] = played.get(a, 0) + 1
                    mu = 25 + rng.uniform(-8, 8)
                    yield (g + 1, a, PRESET, 1 + p, mu, 8.0 / (1 + played[a]) ** 0.5 + 0.8,
                           played[a], when[g])  # fmt: skip

        _copy(
            cursor,
            "rating_events",
            ["game_id", "account_id", "preset", "rank", "mu", "sigma", "games", "at"],
            events(),
        )
        for table in ("accounts", "games"):  # the rows came with their ids
            cursor.execute(f"SELECT setval('{table}_id_seq', (SELECT max(id) FROM {table}))")
        raw.commit()
        cursor.execute(
            "INSERT INTO player_stats SELECT account_id, preset, count(*), "
            "sum(CASE WHEN rank = 1 THEN 1 ELSE 0 END), sum(total), max(total), sum(yachts), "
            "count(loss), coalesce(sum(loss), 0), coalesce(sum(decisions), 0), "
            "coalesce(sum(accurate), 0) FROM player_games GROUP BY account_id, preset"
        )
        cursor.execute(
            "INSERT INTO ratings SELECT DISTINCT ON (account_id) account_id, preset, mu, sigma, "
            "mu - 3 * sigma, games, at FROM rating_events ORDER BY account_id, id DESC"
        )
        raw.commit()
        raw.driver_connection.autocommit = True  # type: ignore[union-attr]
        cursor.execute("VACUUM ANALYZE")
    finally:
        raw.close()
        engine.dispose()
    return {**described(url), "fill_seconds": round(time.perf_counter() - started, 1)}


def described(url: str) -> dict[str, Any]:
    """The rows in the database, and the heaviest and the median player."""
    with create_engine(url).connect() as c:
        heavy = c.execute(
            text(
                "SELECT a.name, s.games FROM player_stats s JOIN accounts a ON a.id = s.account_id "
                "ORDER BY s.games DESC LIMIT 1"
            )
        ).one()
        typical = c.execute(
            text(
                "SELECT a.name, s.games FROM player_stats s JOIN accounts a ON a.id = s.account_id "
                "ORDER BY s.games, s.account_id OFFSET (SELECT count(*) / 2 FROM player_stats) "
                "LIMIT 1"
            )
        ).one()
        counts = {
            t: c.execute(text(f"SELECT count(*) FROM {t}")).scalar_one()
            for t in ("accounts", "games", "player_games", "rating_events", "ratings")
        }
    return {
        "counts": counts,
        "heavy": {"name": heavy[0], "games": heavy[1]},
        "typical": {"name": typical[0], "games": typical[1]},
    }


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def served(url: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """One ``yacht serve`` process on the database (no strategy tables prepared)."""
    port = free_port()
    yacht = str(Path(sys.executable).parent / "yacht")
    log = Path(tempfile.mkdtemp()) / "players-scale.log"
    env = {**os.environ, "YACHT_PREPARE_TABLES": "false", "YACHT_DATA_DIR": tempfile.mkdtemp()}
    command = [yacht, "serve", "--port", str(port), "--database", url, "--log-level", "warning"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"yacht serve did not start: see {log}")
            time.sleep(0.2)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def latencies(client: httpx.Client, path: str, requests: int) -> dict[str, Any]:
    """Milliseconds per answer, one request at a time after 10 to warm up."""
    for _ in range(10):
        r = client.get(path)
        if r.status_code != 200:
            raise SystemExit(f"GET {path}: {r.status_code} {r.text[:200]}")
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        client.get(path).raise_for_status()
        times.append((time.perf_counter() - start) * 1000)
    return {
        "path": path,
        "requests": requests,
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2),
    }


def process_cpu(pid: int) -> float:
    """Seconds of CPU the process has used (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ends(base: str, pid: int, count: int) -> dict[str, Any]:
    """Server CPU of a game's last move, rated against unrated: ``count`` two-player games of
    each, played over HTTP to one move before the end; the server's CPU over all the last moves
    (measured from /proc, so nothing else the server does in those moments is left out) divided
    by their number. Alternates rated and unrated batches of 10 to share the machine's noise."""
    players = []
    for who in ("a", "b"):
        client = httpx.Client(base_url=base, timeout=30)
        name = f"bench{who}{random.randrange(10**6)}"
        r = client.post("/api/accounts", json={"name": name, "password": "correct horse battery"})
        r.raise_for_status()
        client.headers["X-CSRF-Token"] = r.json()["csrf_token"]
        players.append(client)

    def near_end(rated: bool) -> Callable[[], None]:
        spec = {"seats": [{"kind": "human"}] * 2, "rated": rated, "hints": False}
        code = players[0].post("/api/tables", json=spec).json()["code"]
        tokens = [
            p.post(f"/api/tables/{code}/join", json={"seat": s, "name": "x"}).json()["token"]
            for s, p in enumerate(players)
        ]
        state = players[0].get(f"/api/tables/{code}").json()["game"]

        def act(action: dict[str, Any]) -> dict[str, Any]:
            seat = state["current"]
            body = {"type": "action", "seat": seat, "token": tokens[seat]}
            body |= {"game": state["number"], "version": state["version"], "action": action}
            r = players[seat].post(f"/api/tables/{code}/actions", json=body)
            r.raise_for_status()
            game: dict[str, Any] = r.json()["game"]
            return game

        for _ in range(23):
            state = act({"kind": "roll"})
            state = act({"kind": "score", "category": next(iter(state["potentials"]))})
        state = act({"kind": "roll"})
        last = {"kind": "score", "category": next(iter(state["potentials"]))}

        def final() -> None:
            act(last)

        return final

    spent = {True: 0.0, False: 0.0}
    for _ in range(count // 10):
        for rated in (False, True):
            finals = [near_end(rated) for _ in range(10)]
            before = process_cpu(pid)
            for final in finals:
                final()
            spent[rated] += process_cpu(pid) - before
    games = (count // 10) * 10
    rated_ms, unrated_ms = spent[True] / games * 1000, spent[False] / games * 1000
    return {
        "games_each": games,
        "rated_end_cpu_ms": round(rated_ms, 2),
        "unrated_end_cpu_ms": round(unrated_ms, 2),
        "difference_ms": round(rated_ms - unrated_ms, 2),
    }


def table(run: dict[str, Any]) -> str:
    lines = [
        "| request | p50 ms | p99 ms | max ms |",
        "|---|---|---|---|",
    ]
    for row in run["requests"]:
        lines.append(
            f"| `GET {row['path']}` ({row['label']}) | {row['p50_ms']} | {row['p99_ms']} "
            f"| {row['max_ms']} |"
        )
    e = run["ends"]
    c = run["data"]["counts"]
    m = run["machine"]
    lines += [
        "",
        f"A game's last move, server CPU (mean of {e['games_each']} games each): rated "
        f"{e['rated_end_cpu_ms']} ms, unrated {e['unrated_end_cpu_ms']} ms, difference "
        f"**{e['difference_ms']} ms**.",
        "",
        f"Data: {c['accounts']:,} accounts, {c['games']:,} finished games, "
        f"{c['player_games']:,} player results, {c['rating_events']:,} rating changes; the "
        f"heavy player has {run['data']['heavy']['games']:,} games, the typical (median) one "
        f"{run['data']['typical']['games']}. Filled in {run['data'].get('fill_seconds', '?')} s.",
        "",
        f"`{run['command']}` on {m['cpu']} ({m['cores']} cores, load {m['load_average']}), "
        f"Python {m['python']}, {run['when']}; each request {run['requests'][0]['requests']} "
        "times, one at a time, after 10 to warm up, from a client on the same machine.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--database", default=None)
    p.add_argument("--accounts", type=int, default=100_000)
    p.add_argument("--games", type=int, default=1_000_000)
    p.add_argument("--heavy", type=int, default=100_000)
    p.add_argument("--requests", type=int, default=300)
    p.add_argument("--ends", type=int, default=40)
    p.add_argument("--keep", action="store_true", help="keep the database afterwards")
    p.add_argument(
        "--reuse", action="store_true", help="measure the database a --keep run left (no fill)"
    )
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    base = args.database or services_url()
    with database(base, args.keep or args.reuse, args.reuse) as url:
        saved = args.out / "players_scale.json"
        if args.reuse:
            data = json.loads(saved.read_text())["data"] if saved.exists() else described(url)
        else:
            data = fill(url, args.accounts, args.games, args.heavy)
        print(json.dumps(data), flush=True)
        with served(url) as (site, process), httpx.Client(base_url=site, timeout=30) as client:
            heavy, typical = data["heavy"]["name"], data["typical"]["name"]
            asks = [
                ("heavy player's profile", f"/api/players/{heavy}"),
                ("typical player's profile", f"/api/players/{typical}"),
                ("heavy player's games, first page", f"/api/players/{heavy}/games"),
                ("leaderboard", f"/api/leaderboard?rules={PRESET}"),
            ]
            rows = []
            for label, path in asks:
                rows.append({"label": label, **latencies(client, path, args.requests)})
                print(json.dumps(rows[-1]), flush=True)
            ended = ends(site, process.pid, args.ends)
            print(json.dumps(ended), flush=True)
    run = {
        "command": "python -m benchmarks.players_scale "
        + " ".join(a for a in (argv if argv is not None else sys.argv[1:]) if "://" not in a),
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
        "data": data,
        "requests": rows,
        "ends": ended,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "players_scale.json").write_text(json.dumps(run, indent=2) + "\n")
    (args.out / "players_scale.md").write_text(table(run))
    print(table(run))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
