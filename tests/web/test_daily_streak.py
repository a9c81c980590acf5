"""A signed-in player's daily streaks on their own profile (``GET /api/me/daily``): the current
streak counts up to today, or to yesterday while today's game is not finished, and breaks on a
day missed; the best one stays; the days played, over every preset and per preset."""

from __future__ import annotations

from .account_helpers import Site
from .daily_helpers import DAY, ONE_DAY, Clock, play_out, start


def test_current_and_best_streak_per_preset(daily_web: tuple[Site, Clock]) -> None:
    site_, clock = daily_web
    ann = site_.device()
    ann.sign_up("Ann")
    empty = ann.get("/api/me/daily").json()
    assert (empty["current"], empty["best"], empty["days"], empty["presets"]) == (0, 0, 0, [])
    for n, day in enumerate((0, 1, 3)):  # 2 and 3 December, then 5: 4 December missed
        clock.now = web_day(day)
        device = site_.device(f"198.51.100.{n + 10}")  # a device a game: under the move quota
        assert device.sign_in("Ann").status_code == 200
        play_out(device, start(device))
    mine = ann.get("/api/me/daily")
    assert mine.headers["cache-control"] == "no-store"
    figures = mine.json()
    assert figures["today"] == "2026-12-05"
    assert (figures["current"], figures["best"], figures["days"]) == (1, 2, 3)
    assert figures["presets"] == [{"preset": "traditional", "current": 1, "best": 2, "days": 3}]
    clock.now = web_day(4)  # 6 December, not played yet: the streak still counts
    assert ann.get("/api/me/daily").json()["current"] == 1
    clock.now = web_day(5)  # 7 December: a day missed, the streak is over; the best stays
    later = ann.get("/api/me/daily").json()
    assert (later["current"], later["best"]) == (0, 2)


def web_day(days: int) -> float:
    return DAY + days * ONE_DAY
