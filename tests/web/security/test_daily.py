"""The daily game against a hostile client: a signed-in change without the CSRF token, too many
starts, malformed guest tokens, presets, moves, ids and days, someone else's game, and the day's
secret seed, which no answer may carry before the day is over."""

from __future__ import annotations

from typing import Any

import pytest

from yacht.web.api.routes.daily import daily_service
from yacht.web.edge.limits import QUOTAS
from yacht.web.service.daily import day_seed

from ..account_helpers import Site
from ..daily_helpers import DAY, GUEST, Clock, guest, move, start


@pytest.fixture
def web(daily_web: tuple[Site, Clock]) -> Site:
    return daily_web[0]


def test_a_signed_in_change_needs_the_csrf_token(web: Site) -> None:
    ann = web.device()
    ann.sign_up("Ann")
    r = ann.post("/api/daily", {"preset": "traditional"}, csrf=False)
    assert (r.status_code, r.json()["code"]) == (403, "csrf")
    assert ann.get("/api/daily").json()["mine"] is None  # nothing was started
    game = start(ann)
    url = f"/api/daily/games/{game['id']}/action"
    r = ann.post(url, {"action": "roll", "version": 0}, csrf="not-the-token")
    assert (r.status_code, r.json()["code"]) == (403, "csrf")
    assert start(ann) == game  # unchanged


def test_starts_are_rate_limited(web: Site) -> None:
    bob = web.device("198.51.100.7")
    statuses = [
        bob.post(
            "/api/daily", {"preset": "traditional"}, headers=guest(bob, f"{GUEST}-{i:03}")
        ).status_code
        for i in range(QUOTAS["create"].burst + 1)
    ]
    assert statuses[: QUOTAS["create"].burst] == [201] * QUOTAS["create"].burst
    assert statuses[-1] == 429


BAD: list[tuple[str, str, Any, dict[str, str]]] = [
    ("POST", "/api/daily", {"preset": "traditional"}, {"X-Yacht-Guest": "short"}),
    (
        "POST",
        "/api/daily",
        {"preset": "traditional"},
        {"X-Yacht-Guest": "<script>alert(1)</script>"},
    ),
    ("POST", "/api/daily", {"preset": "traditional"}, {"X-Yacht-Guest": "a" * 65}),
    ("POST", "/api/daily", {"preset": "x" * 41}, {"X-Yacht-Guest": GUEST}),
    ("POST", "/api/daily", {"preset": "no-such-preset"}, {"X-Yacht-Guest": GUEST}),
    ("POST", "/api/daily", {"preset": ["traditional"]}, {"X-Yacht-Guest": GUEST}),
    ("GET", "/api/daily?preset=" + "x" * 41, None, {}),
    ("GET", "/api/daily/ranking?day=2026-1-2", None, {}),
    ("GET", "/api/daily/ranking?day=2026-12-02'--", None, {}),
    ("GET", "/api/daily/ranking?day=2026-13-45", None, {}),
    ("GET", "/api/daily/games/0", None, {"X-Yacht-Guest": GUEST}),
    ("GET", "/api/daily/games/99999999999", None, {"X-Yacht-Guest": GUEST}),
    ("GET", "/api/daily/games/0/file", None, {}),
]
"""Requests refused as malformed (422 ``invalid``): method, path, body, headers."""


def test_malformed_requests_are_refused(web: Site) -> None:
    bob = web.device()
    for method, path, body, headers in BAD:
        r = bob.request(method, path, body, headers=headers)
        assert r.status_code == 422, (path, body, headers, r.text)
        assert r.json()["type"] == "error" and r.json()["code"] == "invalid"
    assert bob.get("/api/daily", headers={"X-Yacht-Guest": GUEST}).json()["mine"] is None


def test_malformed_moves_change_nothing(web: Site) -> None:
    bob = web.device()
    game = start(bob, GUEST)
    url = f"/api/daily/games/{game['id']}/action"
    for body in (
        {"action": "roll " * 20, "version": 0},
        {"action": "", "version": 0},
        {"action": "roll", "version": -1},
        {"action": "roll", "version": 2**40},
        {"action": "roll", "version": "0"},
        {"action": {"kind": "roll"}, "version": 0},
        {"action": "hold 1 2 3 4 5 6 7", "version": 0},
    ):
        r = bob.post(url, body, headers=guest(bob, GUEST))
        assert r.status_code in (409, 422), (body, r.text)
    assert start(bob, GUEST) == game


def test_nobody_moves_or_reads_anothers_game(web: Site) -> None:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    mine = start(ann)
    theirs = start(bob, GUEST)
    for device, game, headers in (
        (bob, mine, guest(bob, GUEST)),  # a guest, at an account's game
        (ann, theirs, {}),  # an account, at a guest's game
        (bob, theirs, guest(bob, "someone-elses-token-1")),  # another browser's token
    ):
        r = device.post(
            f"/api/daily/games/{game['id']}/action",
            {"action": "roll", "version": 0},
            headers=headers,
        )
        assert (r.status_code, r.json()["code"]) == (404, "not_found")
        r = device.get(f"/api/daily/games/{game['id']}", headers=headers)
        assert r.status_code == 404
    assert start(ann) == mine and start(bob, GUEST) == theirs


def test_no_answer_carries_the_days_seed_before_it_ends(web: Site) -> None:
    ann, bob = web.device(), web.device("198.51.100.2")
    ann.sign_up("Ann")
    daily = daily_service(web.app)
    secret = web.http.portal.call(daily._secret_value)  # type: ignore[union-attr]
    seeds = [day_seed(secret, "traditional", d) for d in ("2026-12-02", "2026-12-03")]
    seen: list[str] = []
    game = start(ann)
    seen.append(str(game))
    while game["status"] != "finished":
        game = move(ann, game, "roll")
        seen.append(str(game))
        game = move(ann, game, f"score {next(iter(game['potentials']))}")
        seen.append(str(game))
    for path in ("/api/daily", "/api/daily/ranking", f"/api/daily/games/{game['id']}"):
        seen.append(ann.get(path).text)
        seen.append(bob.get(path, headers=guest(bob, GUEST)).text)
    seen.append(ann.get(f"/api/daily/games/{game['id']}/file").text)
    assert not any(seed in text for seed in seeds for text in seen)
    assert web.app.state.daily.clock() == DAY  # all along, inside the day
