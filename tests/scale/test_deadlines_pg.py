"""Correspondence deadlines on PostgreSQL: exactly one process acts on each due deadline.

The claim locks the due seats ``FOR UPDATE SKIP LOCKED`` and pushes each on by a lease in the
same transaction: a process looking while another holds some rows takes the others without
waiting, and two processes claiming at once never take one seat twice nor leave one out; then
the bot's move is made on PostgreSQL through the service (the deadline passes on a test clock).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import warnings

from sqlalchemy import create_engine, text

from yacht.web.app import create_app
from yacht.web.service.correspondence import DAY
from yacht.web.settings import Settings
from yacht.web.storage.correspondence import claim_due

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

TABLES = 9  # within one client's quota of new tables
WORKER = """
import json, sys
from sqlalchemy import create_engine
from yacht.web.storage.correspondence import claim_due
engine = create_engine(sys.argv[1])
print("ready", flush=True)
sys.stdin.readline()  # both processes start claiming together
taken = []
while True:
    got = claim_due(engine, 2000.0, 9000.0, limit=2)
    if not got:
        break
    taken += got
print(json.dumps(taken), flush=True)
"""


def opened(url: str, count: int) -> list[str]:
    """``count`` correspondence games of two people on ``url``, the game waiting on seat 0."""
    app = create_app(url, settings=Settings(prepare_tables=False), bot_delay=0)
    codes = []
    with TestClient(app) as client:
        for _ in range(count):
            body = {"seats": [{"kind": "human"}] * 2, "move_days": 1}
            code = client.post("/api/tables", json=body).json()["code"]
            for s in (0, 1):
                client.post(f"/api/tables/{code}/join", json={"seat": s, "name": f"P{s}"})
            codes.append(code)
    return codes


def due_at(url: str, moment: float) -> None:
    engine = create_engine(url)
    with engine.begin() as c:
        c.execute(text("UPDATE seats SET deadline = :m WHERE deadline IS NOT NULL"), {"m": moment})
    engine.dispose()


def test_a_process_skips_the_deadlines_another_holds_and_two_processes_share_them_out(
    pg_url: str,
) -> None:
    codes = opened(pg_url, TABLES)
    due_at(pg_url, 1000.0)
    a, b = create_engine(pg_url), create_engine(pg_url)
    # A holds 3 due seats in an open transaction; B's claim takes the others, without waiting.
    with a.connect() as held:
        held.begin()
        locked = (
            held.execute(
                text(
                    "SELECT table_code FROM seats WHERE deadline IS NOT NULL ORDER BY deadline, "
                    "table_code LIMIT 3 FOR UPDATE"
                )
            )
            .scalars()
            .all()
        )
        got: list[list[tuple[str, int]]] = []
        claim = threading.Thread(target=lambda: got.append(claim_due(b, 1500.0, 1800.0, 100)))
        claim.start()
        claim.join(60)  # a guard against a hang, not a measure: it returns at once
        assert got, "the claim waited for the rows another transaction holds"
        assert sorted(code for code, _ in got[0]) == sorted(set(codes) - set(locked))
        held.rollback()
    assert sorted(claim_due(b, 1500.0, 1800.0, 100)) == sorted((c, 0) for c in locked)
    assert claim_due(b, 1500.0, 1800.0, 100) == []  # leased until 1800: nobody takes it again
    a.dispose()
    b.dispose()
    # Two processes claim the same due seats at once: each seat is taken exactly once.
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, pg_url],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for w in workers:
        assert w.stdout is not None and w.stdout.readline().strip() == "ready"
    for w in workers:
        assert w.stdin is not None
        w.stdin.write("go\n")
        w.stdin.flush()
    taken = []
    for w in workers:
        out, _ = w.communicate(timeout=120)
        taken += [tuple(t) for t in json.loads(out)]
    assert sorted(taken) == sorted((c, 0) for c in codes)  # all of them, none twice


def test_the_medium_bot_makes_a_missed_move_on_postgresql(pg_url: str) -> None:
    (code,) = opened(pg_url, 1)
    app = create_app(pg_url, settings=Settings(prepare_tables=False), bot_delay=0)
    with TestClient(app) as client:
        portal = client.portal
        assert portal is not None
        seat = client.get(f"/api/tables/{code}").json()["seats"][0]
        app.state.service.clock = lambda: seat["deadline"] + 1
        assert portal.call(app.state.deadlines.look) == [(code, 0)]
        portal.call(app.state.runner.idle)
        state = client.get(f"/api/tables/{code}").json()
    assert state["game"]["current"] == 1 and state["seats"][0]["missed"] == 1
    assert state["seats"][1]["deadline"] == seat["deadline"] + 1 + DAY
