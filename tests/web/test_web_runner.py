"""Server-side turns: bots play promptly, timed turns time out, reviews are written."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from yacht.dice import ScriptedDice
from yacht.game import Game
from yacht.rules import Category
from yacht.web.service.runner import timeout_action

from .helpers import Table, make_app


def test_a_table_of_bots_plays_to_the_end_and_is_reviewed(client: TestClient) -> None:
    t = Table.create(client, "random", "greedy", "hard")
    t.settle()
    game = t.game
    assert game["status"] == "finished" and all(len(s) == 12 for s in game["sheets"])
    review = game["review"]
    assert [p["name"] for p in review["players"]] == ["Random bot", "Greedy bot", "Hard bot"]
    full = client.get(f"/api/games/{game['id']}/review").json()
    for summary, player in zip(review["players"], full["players"], strict=True):
        assert len(summary["series"]) == len(player["decisions"]) + 1


def test_a_turn_that_runs_out_is_played_for_the_absent_player(client: TestClient) -> None:
    t = Table.create(client, "human", "human", turn_seconds=30)
    t.join(0, "Ann")
    t.join(1, "Bob")
    service = client.app.state.service  # type: ignore[attr-defined]
    game = t.game
    assert game["deadline"] is not None
    now = service.clock()
    assert 29 <= game["deadline"] - now <= 31
    t.ok(0, {"kind": "roll"})  # Ann rolls, then walks away
    service.clock = lambda: now + 31
    client.portal.call(client.app.state.runner.kick, t.code)  # type: ignore[union-attr,attr-defined]
    t.wait_for(lambda g: g["current"] == 1)
    game = t.game
    assert game["current"] == 1 and game["recent"][-1]["seat"] == 0
    points = game["recent"][-1]["points"]
    assert points == max(game["sheets"][0].values()) and len(game["sheets"][0]) == 1
    assert game["deadline"] >= now + 31 + 29  # Bob's turn has its own clock


def test_timeout_scores_the_best_open_category() -> None:
    g = Game(["Ann"], dice=ScriptedDice([2, 3, 4, 5, 6] * 2))
    assert str(timeout_action(g)) == "roll"
    g.apply("roll")
    assert str(timeout_action(g)) == "score big_straight"
    g.apply("score big_straight")
    g.apply("roll")
    assert timeout_action(g).category is Category.CHOICE  # type: ignore[attr-defined]


def test_a_rematch_at_once_keeps_the_finished_games_review(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The review of a game lands on that game's row even when the table has moved on to the
    next game before the review was written."""
    from yacht.web.service import bots

    rematched = threading.Event()

    def late_review(game: Any) -> Any:
        assert rematched.wait(30), "the test did not rematch"
        return bots.review_json(game)

    async def review(game: Any) -> Any:  # in a thread here, where the test can hold it back
        return await asyncio.to_thread(late_review, game)

    monkeypatch.setattr(bots, "review", review)
    with TestClient(make_app(db)) as client:
        t = Table.create(client, "human")
        t.join(0, "Ann")
        while (game := t.game)["status"] != "finished":
            t.play_turn(0)
        body = {"type": "rematch", "seat": 0, "token": t.tokens[0], "game": 1}
        r = t.post("rematch", body)
        assert r.status_code == 200, r.text
        assert r.json()["game"]["number"] == 2
        rematched.set()
        t.settle()
        r = client.get(f"/api/games/{game['id']}/review")
        assert r.status_code == 200, r.text
        assert r.json()["players"][0]["name"] == "Ann"
        assert len(r.json()["players"][0]["decisions"]) == 12
        assert t.game["number"] == 2 and t.game["review"] is None
