"""The web game: app start, action latency over REST and WebSocket, resume after a restart.

Rows: building the app on a new SQLite file (Alembic migrations included); a solo game's
actions over REST, each one checked, committed to SQLite and broadcast (in-process ASGI, no
network); an action sent over the WebSocket until its ``state`` broadcast comes back; loading
a table whose 6-player game is over after a restart (the engine replays its event log); the
size of that table's ``state`` message.

Run: ``python -m benchmarks.web`` (or ``make bench``).
"""

from __future__ import annotations

import statistics
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from yacht.web.app import create_app
from yacht.web.protocol.messages import StateMessage

GAMES = 4


def _ms(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20)
    return f"p50 {statistics.median(values) * 1000:.1f} ms, p95 {q[18] * 1000:.1f} ms"


def _solo(client: TestClient) -> tuple[str, str]:
    code = client.post("/api/tables", json={"seats": [{"kind": "human"}]}).json()["code"]
    token = client.post(f"/api/tables/{code}/join", json={"seat": 0, "name": "Ann"}).json()
    return code, token["token"]


def _act(client: TestClient, code: str, token: str, game: dict[str, Any], action: Any) -> Any:
    body = {"type": "action", "seat": 0, "token": token, "game": 1, "version": game["version"]}
    return client.post(f"/api/tables/{code}/actions", json={**body, "action": action}).json()


def main() -> None:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        start = time.perf_counter()
        app = create_app(f"sqlite:///{db}", bot_delay=0)
        rows.append(
            ("app start on a new SQLite file", f"{(time.perf_counter() - start) * 1000:.0f} ms")
        )
        with TestClient(app) as client:
            times: list[float] = []
            for _ in range(GAMES):
                code, token = _solo(client)
                game = client.get(f"/api/tables/{code}").json()["game"]
                while game["status"] != "finished":
                    action: dict[str, Any] = {"kind": "roll"}
                    if game["dice"] is not None:
                        action = {"kind": "score", "category": next(iter(game["potentials"]))}
                    t0 = time.perf_counter()
                    game = _act(client, code, token, game, action)["game"]
                    times.append(time.perf_counter() - t0)
            rows.append((f"REST action, {len(times)} actions", _ms(times)))
            rows.append(("REST actions per second (one table)", f"{len(times) / sum(times):.0f}"))

            code, token = _solo(client)
            times = []
            with client.websocket_connect(f"/ws/tables/{code}") as ws:
                game = ws.receive_json()["table"]["game"]
                while game["status"] != "finished":
                    action = {"kind": "roll"}
                    if game["dice"] is not None:
                        action = {"kind": "score", "category": next(iter(game["potentials"]))}
                    msg = {"type": "action", "seat": 0, "token": token, "game": 1}
                    t0 = time.perf_counter()
                    ws.send_json({**msg, "version": game["version"], "action": action})
                    game = ws.receive_json()["table"]["game"]
                    times.append(time.perf_counter() - t0)
            rows.append((f"WebSocket action -> state broadcast, {len(times)}", _ms(times)))

            six = client.post(
                "/api/tables", json={"seats": [{"kind": "bot", "bot": "greedy"}] * 6}
            ).json()["code"]
            client.portal.call(app.state.runner.idle)  # type: ignore[union-attr]
        app = create_app(f"sqlite:///{db}", bot_delay=0)
        service = app.state.service
        with TestClient(app) as client:
            t0 = time.perf_counter()
            _, game = client.portal.call(service.load, six)  # type: ignore[union-attr]
            rows.append(
                (
                    f"restart: load a finished 6-player game ({game.version} events)",
                    f"{(time.perf_counter() - t0) * 1000:.1f} ms",
                ),
            )
            state = client.portal.call(service.state, six)  # type: ignore[union-attr]
            size = len(StateMessage(table=state).model_dump_json())
            rows.append(
                ("state message of that table (sheets, review summary)", f"{size / 1024:.1f} KiB")
            )
    print("web game (in-process ASGI, SQLite)")
    for label, value in rows:
        print(f"  {label:<58} {value}")


if __name__ == "__main__":
    main()
