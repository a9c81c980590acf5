"""The daily game through the API: the same dice for everyone whatever they hold, one attempt a
day, guests unofficial, the ranking by the skill figure, the days' commitments published ahead
and the seed revealed only after the day, and ``yacht verify`` on a daily game after it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from yacht.cli import main
from yacht.rules import CATEGORIES
from yacht.web.service.fairness import verify

from .account_helpers import Site
from .daily_helpers import GUEST, ONE_DAY, Clock, guest, move, play_out, start


def test_holding_differently_draws_the_same_value_in_each_rerolled_slot(
    daily_web: tuple[Site, Clock],
) -> None:
    site_, _ = daily_web
    ann, bob, cy = site_.device(), site_.device("198.51.100.2"), site_.device("198.51.100.3")
    ann.sign_up("Ann")
    cy.sign_up("Cy")
    a, b, c = start(ann), start(bob, GUEST), start(cy)
    assert a["official"] and c["official"] and not b["official"]
    a, b, c = move(ann, a, "roll"), move(bob, b, "roll", GUEST), move(cy, c, "roll")
    assert a["dice"] == b["dice"] == c["dice"]  # the first roll of the day, for everyone
    first = a["dice"]
    a = move(ann, move(ann, a, "hold 1 2"), "roll")  # rerolls slots 3-5
    b = move(bob, move(bob, b, "hold 3 4 5", GUEST), "roll", GUEST)  # rerolls 1-2
    c = move(cy, c, "roll")  # rerolls all five
    assert a["dice"][2:] == c["dice"][2:] and b["dice"][:2] == c["dice"][:2]
    assert a["dice"][:2] == first[:2] and b["dice"][2:] == first[2:]  # the held slots kept
    # from the second turn on, both play alike: they see the same dice to the end of the game
    a = move(ann, a, "score choice")
    c = move(cy, c, "score choice")
    a, c = play_out(ann, a), play_out(cy, c)
    assert {k: v for k, v in a["sheet"].items() if k != "choice"} == {
        k: v for k, v in c["sheet"].items() if k != "choice"
    }
    assert a["decisions"] == c["decisions"] == 13


def test_one_attempt_a_day_and_guests_are_unofficial(daily_web: tuple[Site, Clock]) -> None:
    site_, clock = daily_web
    ann, bob = site_.device(), site_.device("198.51.100.2")
    ann.sign_up("Ann")
    first = start(ann)
    again = ann.post("/api/daily", {"preset": "traditional"})
    assert again.status_code == 200 and again.json()["id"] == first["id"]
    finished = play_out(ann, first)
    assert start(ann) == finished  # a second start gives the finished game back
    r = ann.post(
        f"/api/daily/games/{first['id']}/action", {"action": "roll", "version": finished["version"]}
    )
    assert r.status_code == 409 and r.json()["code"] == "game_over"
    # the guest's browser: its own attempt, unofficial; another browser's token is another guest
    g = play_out(bob, start(bob, GUEST), GUEST)
    assert g["official"] is False and g["status"] == "finished"
    assert start(bob, GUEST)["id"] == g["id"]
    assert start(bob, "another-browser-token-02")["id"] != g["id"]
    r = bob.get(f"/api/daily/games/{first['id']}", headers=guest(bob, GUEST))
    assert r.status_code == 404  # Ann's game is not the guest's to see or move
    board = ann.get("/api/daily/ranking").json()
    assert [p["name"] for p in board["players"]] == ["Ann"]  # the guest is not ranked
    # the streak: days played in a row
    assert ann.get("/api/daily").json()["streak"] == 1
    clock.now += ONE_DAY
    assert ann.get("/api/daily").json()["streak"] == 1  # today not played yet: still 1
    assert start(ann)["id"] != first["id"]  # a new day, a new game
    play_out(ann, start(ann))
    assert ann.get("/api/daily").json()["streak"] == 2
    clock.now += 2 * ONE_DAY
    assert ann.get("/api/daily").json()["streak"] == 0


def test_the_ranking_is_by_skill_and_the_optimal_total_shows_after_finishing(
    daily_web: tuple[Site, Clock],
) -> None:
    site_, clock = daily_web
    ann, bob = site_.device(), site_.device("198.51.100.2")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    a = play_out(ann, start(ann))
    b = start(bob)
    assert bob.get("/api/daily/ranking").json()["optimal"] is None  # not finished: no optimal
    while b["status"] != "finished":  # Bob scores the first open category, worse play
        b = move(bob, b, "roll")
        b = move(bob, b, f"score {next(iter(b['potentials']))}")
    assert a["skill"] != b["skill"]
    board = bob.get("/api/daily/ranking").json()
    names = [
        p["name"]
        for p in sorted([a | {"name": "Ann"}, b | {"name": "Bob"}], key=lambda p: p["skill"])
    ]
    assert [p["name"] for p in board["players"]] == names
    assert [p["rank"] for p in board["players"]] == [1, 2]
    assert [p["skill"] for p in board["players"]] == sorted([a["skill"], b["skill"]])
    assert [p["you"] for p in board["players"]] == [n == "Bob" for n in names]
    assert isinstance(board["optimal"], int) and board["optimal"] > 0
    guest_view = site_.device("198.51.100.9").get("/api/daily/ranking").json()
    assert guest_view["optimal"] is None and len(guest_view["players"]) == 2
    clock.now += ONE_DAY  # after the day, everyone sees it
    after = (
        site_.device("198.51.100.9").get("/api/daily/ranking", params={"day": "2026-12-02"}).json()
    )
    assert after["optimal"] == board["optimal"]
    assert site_.device().get("/api/daily/ranking", params={"day": "2026-12-09"}).status_code == 409


def test_commitments_ahead_seed_after_and_verify(
    daily_web: tuple[Site, Clock], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site_, clock = daily_web
    ann = site_.device()
    ann.sign_up("Ann")
    days = ann.get("/api/daily").json()
    assert days["today"]["day"] == "2026-12-02" and days["tomorrow"]["day"] == "2026-12-03"
    assert days["today"]["seed"] is None and days["tomorrow"]["seed"] is None
    assert days["yesterday"]["seed"] is not None
    today, tomorrow = days["today"]["commitment"], days["tomorrow"]["commitment"]
    assert today != tomorrow and len(today) == 64
    assert ann.get("/api/daily", params={"preset": "nope"}).status_code == 422
    game = play_out(ann, start(ann))
    r = ann.get(f"/api/daily/games/{game['id']}/file")
    assert r.status_code == 409 and "seed" not in json.dumps(game)  # hidden while the day runs
    assert "server_seed" not in r.text
    clock.now += ONE_DAY
    days = ann.get("/api/daily").json()
    assert days["yesterday"]["commitment"] == today and days["today"]["commitment"] == tomorrow
    assert days["yesterday_game"] == game["id"] and days["mine"] is None
    seed = days["yesterday"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == today
    data = ann.get(f"/api/daily/games/{game['id']}/file").json()
    assert data["dice"]["server_seed"] == seed
    verdict = verify(data, commitment=today)
    assert verdict.outcome == "daily" and verdict.daily == "2026-12-02" and not verdict.fair
    assert verdict.rolls == 12
    path = tmp_path / "daily.json"
    path.write_text(json.dumps(data))
    assert main(["verify", str(path), "--commitment", today, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "the daily game of 2026-12-02" in out and "server alone" not in out
    # tampered: a die changed, or the day's public seed replaced by another
    bad = json.loads(path.read_text())
    bad["events"][0]["dice"] = [7 - d for d in bad["events"][0]["dice"]]
    assert verify(bad).outcome == "not fair"
    bad = json.loads(path.read_text())
    bad["fair"]["contributions"][0]["seed"] = "daily:traditional:2026-12-01"
    assert verify(bad).outcome == "not fair"
    assert main(["verify", str(path), "--commitment", tomorrow, "--lang", "en"]) == 1
    # yesterday's game can no longer be moved
    r = ann.post(
        f"/api/daily/games/{game['id']}/action", {"action": "roll", "version": game["version"]}
    )
    assert r.status_code == 409


def test_refused_moves_change_nothing(daily_web: tuple[Site, Clock]) -> None:
    site_, _ = daily_web
    bob = site_.device()
    game = start(bob, GUEST)
    url = f"/api/daily/games/{game['id']}/action"
    for body, status, code in (
        ({"action": "hold 1", "version": 0}, 409, "illegal"),  # nothing rolled yet
        ({"action": "dance", "version": 0}, 422, "invalid"),
        ({"action": "roll", "version": 5}, 409, "stale_version"),
        ({"action": "roll"}, 422, "invalid"),
        ({"action": "roll", "version": 0, "extra": 1}, 422, "invalid"),
    ):
        r = bob.post(url, body, headers=guest(bob, GUEST))
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
    assert start(bob, GUEST) == game
    assert bob.post("/api/daily", {"preset": "traditional"}).status_code == 422  # no token
    assert len(game["best"]) == len(CATEGORIES) and game["best"]["yacht"] == 50
