"""The daily streaks are private: a guest is refused, a signed-in player reads only their own
(no address names another player), and the public profile carries none."""

from __future__ import annotations

from ..account_helpers import Site
from ..daily_helpers import Clock, play_out, start


def test_only_the_player_reads_their_streak(daily_web: tuple[Site, Clock]) -> None:
    site_, _ = daily_web
    ann, bob, guest = site_.device(), site_.device("198.51.100.2"), site_.device("198.51.100.3")
    ann.sign_up("Ann")
    bob.sign_up("Bob")
    play_out(ann, start(ann))
    r = guest.get("/api/me/daily")
    assert (r.status_code, r.json()["code"]) == (401, "unauthorized")
    assert bob.get("/api/me/daily").json()["days"] == 0  # his own, never Ann's
    assert ann.get("/api/me/daily").json()["days"] == 1
    for asked in ("/api/me/daily?name=Ann", "/api/me/daily?account=1"):
        assert bob.get(asked).json()["days"] == 0  # no parameter reaches another's
    assert "streak" not in bob.get("/api/players/Ann").text
    assert bob.post("/api/me/daily", {}).status_code == 405
