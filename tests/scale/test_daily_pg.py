"""The daily game on PostgreSQL: the migration's tables and unique keys, one attempt a day (a
second start, even two at once, gives the same game back), a guest's game beside an
account's, the ranking, and the game file with the seed after the day, which verifies."""

from __future__ import annotations

import asyncio
import warnings
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from yacht.web.api.routes.daily import daily_service
from yacht.web.app import create_app
from yacht.web.service.fairness import verify
from yacht.web.settings import Settings

with warnings.catch_warnings():  # starlette warns about httpx at import; the client works
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DAY = datetime(2026, 12, 2, 9, 30, tzinfo=UTC).timestamp()


async def in_thread(work: Any, *args: Any) -> Any:
    return await asyncio.to_thread(work, *args)


def play_out(http: TestClient, game: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    """Roll once and score the first open category, turn by turn."""
    url = f"/api/daily/games/{game['id']}/action"
    while game["status"] != "finished":
        for action in ("roll", "score"):
            if action == "score":
                action = f"score {next(iter(game['potentials']))}"
            r = http.post(url, json={"action": action, "version": game["version"]}, headers=headers)
            assert r.status_code == 200, r.text
            game = r.json()
    return game


def test_a_daily_game_on_postgresql(pg_url: str) -> None:
    app = create_app(pg_url, settings=Settings(prepare_tables=False))
    now = [DAY]
    with TestClient(app) as http:
        daily = daily_service(app)
        daily.clock, daily.work = lambda: now[0], in_thread
        ann = {"X-Yacht-Guest": "ann-browser-token-0001"}
        bob = {"X-Yacht-Guest": "bob-browser-token-0002"}
        body = {"preset": "traditional"}
        with ThreadPoolExecutor(2) as pool:  # two starts at once: one attempt
            answers = list(
                pool.map(lambda _: http.post("/api/daily", json=body, headers=ann), "ab")
            )
        assert sorted(r.status_code for r in answers) == [200, 201]
        games = [r.json() for r in answers]
        assert games[0]["id"] == games[1]["id"]
        mine = play_out(http, games[0], ann)
        theirs = play_out(http, http.post("/api/daily", json=body, headers=bob).json(), bob)
        assert theirs["id"] != mine["id"] and theirs["sheet"] == mine["sheet"]  # same dice
        board = http.get("/api/daily/ranking", headers=ann).json()
        assert board["players"] == [] and board["optimal"] > 0  # guests are not ranked
        commitment = http.get("/api/daily").json()["today"]["commitment"]
        now[0] += 86400
        data = http.get(f"/api/daily/games/{mine['id']}/file").json()
        assert verify(data, commitment=commitment).outcome == "daily"
