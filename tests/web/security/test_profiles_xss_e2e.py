"""XSS in a name on the profile and the leaderboard: an account whose name is markup (stored
straight into the database, as no sign-up lets it in: an account's name holds none of
``< > & " ' ` / \\ @``) shows as text on both pages, its link goes to its own profile, and no
script of it runs."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, cast
from urllib.parse import unquote

from playwright.sync_api import expect
from sqlalchemy import Table, create_engine, insert

from yacht.web.service.accounts import account_key
from yacht.web.storage.models import (
    AccountRow,
    PlayerGameRow,
    PlayerStatsRow,
    RatingEventRow,
    RatingRow,
)

from ..live import LiveServer
from ..pages import PHONE, Pages

NAME = "<img src=x onerror=window.xss=1>\"'&amp;"


def plant(server: LiveServer) -> None:
    now = datetime.now(UTC)
    engine = create_engine(f"sqlite:///{server.db}")
    rows: list[tuple[Any, dict[str, Any]]] = [
        (
            AccountRow,
            {"id": 7, "name": NAME, "name_skeleton": account_key(NAME), "created_at": now},
        ),
        (
            RatingRow,
            {
                "account_id": 7,
                "preset": "traditional",
                "mu": 26.0,
                "sigma": 7.0,
                "ordinal": 5.0,
                "games": 1,
                "updated_at": now,
            },
        ),
        (
            RatingEventRow,
            {
                "game_id": 1,
                "account_id": 7,
                "preset": "traditional",
                "rank": 1,
                "mu": 26.0,
                "sigma": 7.0,
                "games": 1,
                "at": now,
            },
        ),
        (
            PlayerStatsRow,
            {
                "account_id": 7,
                "preset": "traditional",
                "games": 1,
                "wins": 1,
                "total_sum": 200,
                "best": 200,
                "yachts": 1,
                "reviewed": 1,
                "loss_sum": 10.0,
                "decisions": 30,
                "accurate": 20,
            },
        ),
        (
            PlayerGameRow,
            {
                "account_id": 7,
                "game_id": 1,
                "table_code": "ABC",
                "number": 1,
                "seat": 0,
                "preset": "traditional",
                "rated": True,
                "private": False,
                "players": 2,
                "total": 200,
                "rank": 1,
                "yachts": 1,
                "loss": 10.0,
                "decisions": 30,
                "accurate": 20,
                "finished_at": now,
            },
        ),
    ]
    with engine.begin() as c:
        for model, values in rows:
            c.execute(insert(cast(Table, model.__table__)).values(**values))
    engine.dispose()


def test_a_name_of_markup_is_text_on_the_leaderboard_and_the_profile(
    pages: Pages, server: LiveServer
) -> None:
    plant(server)
    page = pages.open(f"{server.url}/leaderboard", viewport=PHONE)
    link = page.locator("#board a")
    expect(link).to_have_text(NAME)
    assert page.locator("#board img").count() == 0
    link.click()
    page.wait_for_url(re.compile(r"/@/%3Cimg"))
    assert unquote(page.url.split("/@/")[1]) == NAME
    expect(page.locator("#player-name")).to_have_text(NAME)
    expect(page.locator("#skill .headline")).to_contain_text("157")  # 166.96 - 10 lost
    expect(page.locator("#games tr")).to_have_count(1)
    assert page.locator("main img").count() == 0
    assert page.evaluate("document.title").endswith(NAME)
    assert page.evaluate("window.xss") is None
